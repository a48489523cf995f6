package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/cyclonedx"
	"github.com/assay-dev/assay/standards/starter"
)

// Standards from outside the service: a CycloneDX document downloaded by URL, the public
// standards feed and its items, the starter set. Documents are downloaded through the
// DocumentFetcher (the outbound guard) — except the starter documents a release binary
// carries (package starter), so that a first run needs no network — parsed and validated
// by package cyclonedx, and written by the store in one transaction per import. A download
// that fails is answered in words (assess.FetchError; from the feed: feed_unreachable).

// StandardStore is what the imports need of the store (pkg/postgres
// StandardTransferService).
type StandardStore interface {
	// ImportStandards writes the standards of one document in one transaction.
	ImportStandards(ctx context.Context, imports []assess.StandardImport, source assess.StandardSource, actor assess.Actor) (assess.ImportResult, error)
	// FindStandardsByIdentifier returns the local standards (any version and state) with
	// these identifiers.
	FindStandardsByIdentifier(ctx context.Context, identifiers []string) ([]assess.Standard, error)
}

// ImportConfig configures the standards imports.
type ImportConfig struct {
	// FeedURL is the public standards feed (STANDARDS_FEED_URL).
	FeedURL string
	// MaxBytes caps a downloaded document, the feed included (STANDARDS_IMPORT_MAX_BYTES;
	// default 10 MiB).
	MaxBytes int64
	// Starter holds the documents of the starter set, laid out like the catalogue's
	// standards/ folder: starter.Files(), the documents built into the binary (cmd), or a
	// copy of the catalogue (tests). Those it lacks, or whose SHA-256 is not the manifest's,
	// come from the feed; nil: all do.
	Starter fs.FS
	// Now is the clock of the feed cache (time.Now when nil).
	Now func() time.Time
}

// feedCacheTTL is how long a downloaded standards feed is reused.
const feedCacheTTL = 5 * time.Minute

// StandardImports implements assess.StandardImportService.
type StandardImports struct {
	store   StandardStore
	fetcher assess.DocumentFetcher // nil: downloads answer 503
	cfg     ImportConfig
	feed    feedCache
}

// feedCache keeps the last standards feed for a few minutes, so that browsing it does not
// download it each time.
type feedCache struct {
	mu    sync.Mutex
	at    time.Time // when the feed was read; zero before
	items []assess.FeedItem
}

// NewStandardImports returns the imports on store, downloading through fetcher (nil: every
// download answers 503 service_unavailable).
func NewStandardImports(store StandardStore, fetcher assess.DocumentFetcher, cfg ImportConfig) *StandardImports {
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = 10 << 20
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &StandardImports{store: store, fetcher: fetcher, cfg: cfg}
}

// ImportStandardsFromURL implements assess.StandardImportService.
func (s *StandardImports) ImportStandardsFromURL(ctx context.Context, rawURL string, actor assess.Actor) (assess.ImportResult, error) {
	data, err := s.fetchDocument(ctx, "url", rawURL)
	if err != nil {
		return assess.ImportResult{}, err
	}
	imports, err := cyclonedx.Parse(data)
	if err != nil {
		return assess.ImportResult{}, err
	}
	return s.store.ImportStandards(ctx, imports, assess.SourceImport, actor)
}

// StandardsFeed implements assess.StandardImportService.
func (s *StandardImports) StandardsFeed(ctx context.Context) ([]assess.FeedItem, error) {
	items, err := s.feedItems(ctx)
	if err != nil {
		return nil, err
	}
	idents := make([]string, 0, len(items))
	for _, it := range items {
		idents = append(idents, it.Identifier)
	}
	local, err := s.store.FindStandardsByIdentifier(ctx, slices.Compact(slices.Sorted(slices.Values(idents))))
	if err != nil {
		return nil, err
	}
	for i := range items {
		items[i].SetStatus(local)
	}
	return items, nil
}

// ImportFeedItem implements assess.StandardImportService.
func (s *StandardImports) ImportFeedItem(ctx context.Context, itemID string, actor assess.Actor) (assess.ImportResult, error) {
	items, err := s.feedItems(ctx)
	if err != nil {
		return assess.ImportResult{}, err
	}
	i := slices.IndexFunc(items, func(it assess.FeedItem) bool { return it.ID == itemID })
	if i < 0 {
		return assess.ImportResult{}, &assess.Error{Code: assess.ECodeNotFound, Message: "The standards feed has no item " + itemID + "."}
	}
	imports, err := s.feedDocuments(ctx, items[i:i+1])
	if err != nil {
		return assess.ImportResult{}, err
	}
	return s.store.ImportStandards(ctx, imports, assess.SourceFeed, actor)
}

// ImportStarterStandards implements assess.StandardImportService: the documents of the
// starter set that ImportConfig.Starter holds (in a release binary, all: no network), the
// others from the feed as the previous releases did — those the feed shows as imported are
// listed as unchanged, the rest downloaded — all imported in one transaction. The store
// lists the standards present already as unchanged. The feed stays the place for newer
// versions.
func (s *StandardImports) ImportStarterStandards(ctx context.Context, actor assess.Actor) (assess.ImportResult, error) {
	var imports []assess.StandardImport
	built := map[string]bool{}
	if s.cfg.Starter != nil {
		for _, d := range starter.Documents(s.cfg.Starter) {
			parsed, err := cyclonedx.Parse(d.Data)
			if err != nil {
				// The documents are the manifest's, byte for byte, and tested: a refusal here
				// is our bug (500, logged), not the caller's 422, so the error is not wrapped.
				return assess.ImportResult{}, fmt.Errorf("starter standard %s: %s", d.Path, err.Error())
			}
			imports = append(imports, parsed...)
			built[d.FeedItemID] = true
		}
	}
	var fromFeed []string
	for _, d := range starter.Manifest() {
		if !built[d.FeedItemID] {
			fromFeed = append(fromFeed, d.FeedItemID)
		}
	}
	var present []string
	if len(fromFeed) > 0 {
		downloaded, ids, err := s.starterFromFeed(ctx, fromFeed)
		if err != nil {
			return assess.ImportResult{}, err
		}
		imports, present = append(imports, downloaded...), ids
	}
	res, err := s.store.ImportStandards(ctx, imports, assess.SourceFeed, actor)
	if err != nil {
		return assess.ImportResult{}, err
	}
	return s.withPresent(ctx, res, fromFeed, present)
}

// starterFromFeed downloads the documents of the feed items itemIDs that are not imported
// yet, and returns the ids of the local standards of those that are. A feed that cannot be
// reached is 422 feed_unreachable.
func (s *StandardImports) starterFromFeed(ctx context.Context, itemIDs []string) ([]assess.StandardImport, []string, error) {
	items, err := s.StandardsFeed(ctx)
	if err != nil {
		return nil, nil, err
	}
	var missing []assess.FeedItem
	var present []string
	for _, id := range itemIDs {
		i := slices.IndexFunc(items, func(it assess.FeedItem) bool { return it.ID == id })
		switch {
		case i < 0:
			continue // the feed no longer offers it
		case items[i].ImportedID != "":
			present = append(present, items[i].ImportedID)
		default:
			missing = append(missing, items[i])
		}
	}
	imports, err := s.feedDocuments(ctx, missing)
	return imports, present, err
}

// withPresent adds to an import result the standards ids of the feed items itemIDs that were
// there already.
func (s *StandardImports) withPresent(ctx context.Context, res assess.ImportResult, itemIDs, ids []string) (assess.ImportResult, error) {
	if len(ids) == 0 {
		return res, nil
	}
	identifiers := make([]string, len(itemIDs))
	for i, id := range itemIDs {
		identifiers[i] = assess.FeedItemIdentifier(id)
	}
	all, err := s.store.FindStandardsByIdentifier(ctx, identifiers)
	if err != nil {
		return res, err
	}
	for _, st := range all {
		if slices.Contains(ids, st.ID) {
			res.Standards = append(res.Standards, assess.ImportedStandard{Standard: st, Outcome: assess.ImportUnchanged, Warnings: []string{}})
			res.Unchanged++
		}
	}
	return res, nil
}

// feedItems returns the items of the feed (cached), statuses not set.
func (s *StandardImports) feedItems(ctx context.Context) ([]assess.FeedItem, error) {
	c := &s.feed
	c.mu.Lock()
	if !c.at.IsZero() && s.cfg.Now().Sub(c.at) < feedCacheTTL {
		items := slices.Clone(c.items)
		c.mu.Unlock()
		return items, nil
	}
	c.mu.Unlock()
	data, err := s.fetchDocument(ctx, "feed", s.cfg.FeedURL)
	if err != nil {
		return nil, feedUnreachable("feed", s.cfg.FeedURL, err, func(host, reason string) string {
			return "The standards feed at " + host + " could not be reached: " + reason
		})
	}
	items, err := cyclonedx.ParseFeed("feed", data)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.at, c.items = s.cfg.Now(), items
	c.mu.Unlock()
	return slices.Clone(items), nil
}

// feedDocuments downloads and parses the documents of items, at the same time.
func (s *StandardImports) feedDocuments(ctx context.Context, items []assess.FeedItem) ([]assess.StandardImport, error) {
	parsed := make([][]assess.StandardImport, len(items))
	errs := make([]error, len(items))
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Go(func() {
			data, err := s.fetchDocument(ctx, "itemId", it.URL)
			if err != nil {
				errs[i] = feedUnreachable("itemId", it.URL, err, func(host, reason string) string {
					return "The document of " + strings.TrimSpace(cmp.Or(it.Title, it.ID)+" "+it.Version) + " at " + host + " could not be downloaded: " + reason
				})
				return
			}
			parsed[i], errs[i] = cyclonedx.Parse(data)
		})
	}
	wg.Wait()
	var out []assess.StandardImport
	for i := range items {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out = append(out, parsed[i]...)
	}
	return out, nil
}

// fetchDocument downloads a document through the guarded fetcher, capped at MaxBytes.
func (s *StandardImports) fetchDocument(ctx context.Context, field, url string) ([]byte, error) {
	if s.fetcher == nil {
		return nil, &assess.Error{Code: assess.ECodeUnavailable, Message: "Downloading documents is not configured."}
	}
	return s.fetcher.FetchDocument(ctx, field, url, s.cfg.MaxBytes)
}

// feedUnreachable rewords a download from the standards feed that failed (the feed, or an
// item's document at rawURL): message names what could not be had and why, in words, and
// the detail feed_unreachable tells the client that a file upload is the way around. Other
// errors (too_large, 503 without a fetcher, a cancelled request) pass unchanged.
func feedUnreachable(field, rawURL string, err error, message func(host, reason string) string) error {
	host := rawURL
	if u, perr := url.Parse(rawURL); perr == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	var fetch *assess.FetchError
	var refused *assess.Error
	var reason string
	switch {
	case errors.As(err, &fetch):
		host, reason = fetch.Host, fetch.Reason
	case errors.As(err, &refused) && len(refused.Details) > 0 && refused.Details[0].Code == "url_not_allowed":
		reason = assess.Clause(refused.Details[0].Message) // "the URL has no host.", "plain http is accepted only …"
	default:
		return err
	}
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: message(host, reason),
		Details: []assess.Detail{{Field: field, Code: "feed_unreachable", Message: "Standards can also be imported from a CycloneDX file upload."}}}
}

var _ assess.StandardImportService = (*StandardImports)(nil)
