package app

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/cyclonedx"
)

// Standards from outside the service: a CycloneDX document downloaded by URL, the public
// standards feed and its items, the starter set. Documents are downloaded through the
// DocumentFetcher (the outbound guard), parsed and validated by package cyclonedx, and
// written by the store in one transaction per import.

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

// ImportStarterStandards implements assess.StandardImportService.
func (s *StandardImports) ImportStarterStandards(ctx context.Context, actor assess.Actor) (assess.ImportResult, error) {
	items, err := s.StandardsFeed(ctx)
	if err != nil {
		return assess.ImportResult{}, err
	}
	var missing []assess.FeedItem
	var present []string
	for _, id := range assess.StarterFeedItems {
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
	if err != nil {
		return assess.ImportResult{}, err
	}
	res, err := s.store.ImportStandards(ctx, imports, assess.SourceFeed, actor)
	if err != nil {
		return assess.ImportResult{}, err
	}
	return s.withPresent(ctx, res, present)
}

// withPresent adds the standards that were there already to an import result.
func (s *StandardImports) withPresent(ctx context.Context, res assess.ImportResult, ids []string) (assess.ImportResult, error) {
	if len(ids) == 0 {
		return res, nil
	}
	all, err := s.store.FindStandardsByIdentifier(ctx, identifiersOf(assess.StarterFeedItems))
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

func identifiersOf(itemIDs []string) []string {
	out := make([]string, len(itemIDs))
	for i, id := range itemIDs {
		out[i] = assess.FeedItemIdentifier(id)
	}
	return out
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
		return nil, err
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
			if err == nil {
				parsed[i], err = cyclonedx.Parse(data)
			}
			errs[i] = err
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

var _ assess.StandardImportService = (*StandardImports)(nil)
