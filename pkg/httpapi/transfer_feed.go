package httpapi

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/cyclonedx"
)

// feedCacheTTL is how long a downloaded standards feed is reused.
const feedCacheTTL = 5 * time.Minute

// feedCache keeps the last standards feed for a few minutes, so that browsing it does not
// download it each time.
type feedCache struct {
	mu    sync.Mutex
	url   string
	at    time.Time
	items []assess.FeedItem
}

// feedItems returns the items of STANDARDS_FEED_URL (cached), statuses not set.
func (s *Server) feedItems(ctx context.Context) ([]assess.FeedItem, error) {
	c := &s.feeds
	c.mu.Lock()
	if c.url == s.cfg.StandardsFeedURL && s.now().Sub(c.at) < feedCacheTTL {
		items := slices.Clone(c.items)
		c.mu.Unlock()
		return items, nil
	}
	c.mu.Unlock()
	data, err := s.fetchDocument(ctx, "feed", s.cfg.StandardsFeedURL)
	if err != nil {
		return nil, err
	}
	items, err := cyclonedx.ParseFeed("feed", data)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.url, c.at, c.items = s.cfg.StandardsFeedURL, s.now(), items
	c.mu.Unlock()
	return slices.Clone(items), nil
}

// feedWithStatus returns the feed's items with their local status.
func (s *Server) feedWithStatus(ctx context.Context) ([]assess.FeedItem, error) {
	items, err := s.feedItems(ctx)
	if err != nil {
		return nil, err
	}
	idents := make([]string, 0, len(items))
	for _, it := range items {
		idents = append(idents, it.Identifier)
	}
	local, err := s.dep.Transfer.FindStandardsByIdentifier(ctx, slices.Compact(slices.Sorted(slices.Values(idents))))
	if err != nil {
		return nil, err
	}
	for i := range items {
		items[i].SetStatus(local)
	}
	return items, nil
}

// FeedItems is the standards feed as the API shows it.
type FeedItems struct {
	Items []assess.FeedItem `json:"items"`
}

var docStandardFeed = huma.Operation{OperationID: "listStandardsFeed", Summary: "Browse the standards feed",
	Tags: tagTransfer, Errors: []int{http.StatusUnprocessableEntity},
	Description: "The standards the public CycloneDX feed (STANDARDS_FEED_URL, cached for five minutes) offers, each " +
		"with its local status: imported (this version is present), update_available (an older version is present " +
		"and this one is newer than every local one), not_imported. 422 fetch_failed when the feed cannot be read."}

func (s *Server) handleStandardFeed(ctx context.Context, _ *struct{}) (*body[FeedItems], error) {
	items, err := s.feedWithStatus(ctx)
	if err != nil {
		return nil, err
	}
	return reply(FeedItems{Items: items}), nil
}

// FeedImport names the feed item to import.
type FeedImport struct {
	ItemID string `json:"itemId" minLength:"1" maxLength:"300" doc:"The id of a feed item, e.g. application-security-verification-standard-asvs-@5.0.0"`
}

var docStandardFeedImport = huma.Operation{OperationID: "importStandardFromFeed", Summary: "Import a standard from the feed",
	Tags: tagTransfer, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity}, Responses: importResponses(),
	Description: "Downloads the item's CycloneDX document and imports it (source feed), beside any other version of the " +
		"same standard. 404 when the feed has no such item." + importDescription}

func (s *Server) handleStandardFeedImport(ctx context.Context, in *body[FeedImport]) (*importResultOutput, error) {
	items, err := s.feedItems(ctx)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(items, func(it assess.FeedItem) bool { return it.ID == in.Body.ItemID })
	if i < 0 {
		return nil, &assess.Error{Code: assess.ECodeNotFound, Message: "The standards feed has no item " + in.Body.ItemID + "."}
	}
	imports, err := s.feedDocuments(ctx, items[i:i+1])
	if err != nil {
		return nil, err
	}
	return importAnswer(s.dep.Transfer.ImportStandards(ctx, imports, assess.SourceFeed, requestActor(ctx)))
}

// feedDocuments downloads and parses the documents of items, at the same time.
func (s *Server) feedDocuments(ctx context.Context, items []assess.FeedItem) ([]assess.StandardImport, error) {
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

var docStandardStarter = huma.Operation{OperationID: "importStarterStandards", Summary: "Import the starter standards",
	Tags: tagTransfer, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusUnprocessableEntity}, Responses: importResponses(),
	Description: "Imports from the feed the starter set — OWASP ASVS 5.0.0, NIST SSDF 1.1, OWASP SAMM 2.1.0 and " +
		"OWASP SCVS 1.0 — except those already present (listed as unchanged), in one transaction. 201 when a " +
		"standard was created, 200 when all were present."}

func (s *Server) handleStandardStarter(ctx context.Context, _ *struct{}) (*importResultOutput, error) {
	items, err := s.feedWithStatus(ctx)
	if err != nil {
		return nil, err
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
		return nil, err
	}
	res, err := s.dep.Transfer.ImportStandards(ctx, imports, assess.SourceFeed, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return importAnswer(s.withPresent(ctx, res, present))
}

// withPresent adds the standards that were there already to an import result.
func (s *Server) withPresent(ctx context.Context, res assess.ImportResult, ids []string) (assess.ImportResult, error) {
	if len(ids) == 0 {
		return res, nil
	}
	all, err := s.dep.Transfer.FindStandardsByIdentifier(ctx, identifiersOf(assess.StarterFeedItems))
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
