package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

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
	items, err := s.dep.StandardImports.StandardsFeed(ctx)
	return reply(FeedItems{Items: items}), err
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
	return importAnswer(s.dep.StandardImports.ImportFeedItem(ctx, in.Body.ItemID, requestActor(ctx)))
}

var docStandardStarter = huma.Operation{OperationID: "importStarterStandards", Summary: "Import the starter standards",
	Tags: tagTransfer, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusUnprocessableEntity}, Responses: importResponses(),
	Description: "Imports from the feed the starter set — OWASP ASVS 5.0.0, NIST SSDF 1.1, OWASP SAMM 2.1.0 and " +
		"OWASP SCVS 1.0 — except those already present (listed as unchanged), in one transaction. 201 when a " +
		"standard was created, 200 when all were present."}

func (s *Server) handleStandardStarter(ctx context.Context, _ *struct{}) (*importResultOutput, error) {
	return importAnswer(s.dep.StandardImports.ImportStarterStandards(ctx, requestActor(ctx)))
}

// unconfiguredImports answers the imports that download when no StandardImports is
// wired: 503, as a missing fetcher does.
type unconfiguredImports struct{}

var errNoDownloads = &assess.Error{Code: assess.ECodeUnavailable, Message: "Downloading documents is not configured."}

func (unconfiguredImports) ImportStandardsFromURL(context.Context, string, assess.Actor) (assess.ImportResult, error) {
	return assess.ImportResult{}, errNoDownloads
}

func (unconfiguredImports) StandardsFeed(context.Context) ([]assess.FeedItem, error) {
	return nil, errNoDownloads
}

func (unconfiguredImports) ImportFeedItem(context.Context, string, assess.Actor) (assess.ImportResult, error) {
	return assess.ImportResult{}, errNoDownloads
}

func (unconfiguredImports) ImportStarterStandards(context.Context, assess.Actor) (assess.ImportResult, error) {
	return assess.ImportResult{}, errNoDownloads
}
