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
		"and this one is newer than every local one), not_imported. " + feedUnreachableDescription +
		" 422 invalid_feed when its answer is not a JSON feed."}

// feedUnreachableDescription documents the answer of a feed that cannot be downloaded.
const feedUnreachableDescription = "When the feed cannot be downloaded (the name does not resolve, the connection is " +
	"refused, no answer in time, an HTTP error status, an address OUTBOUND_ALLOW_NETWORKS does not allow) the answer " +
	"is 422 business_rule_violation whose message says so in words (\"The standards feed at cyclonedx.org could not " +
	"be reached: the name does not resolve.\") and whose detail has code feed_unreachable: standards can still be " +
	"imported from a file (POST /api/v1/standards/import), and the starter set is built into release images."

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
		"same standard. 404 when the feed has no such item. When the feed or the item's document cannot be downloaded: " +
		"422 with detail feed_unreachable (field feed or itemId) and the reason in words; too_large when the document " +
		"is over STANDARDS_IMPORT_MAX_BYTES." + importDescription}

func (s *Server) handleStandardFeedImport(ctx context.Context, in *body[FeedImport]) (*importResultOutput, error) {
	return importAnswer(s.dep.StandardImports.ImportFeedItem(ctx, in.Body.ItemID, requestActor(ctx)))
}

var docStandardStarter = huma.Operation{OperationID: "importStarterStandards", Summary: "Import the starter standards",
	Tags: tagTransfer, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusUnprocessableEntity}, Responses: importResponses(),
	Description: "Imports the starter set — OWASP ASVS 5.0.0, NIST SSDF 1.1, OWASP SAMM 2.1.0 and OWASP SCVS 1.0 — " +
		"from the CycloneDX documents built into the server (the feed's documents, unchanged, with their licences; " +
		"release images have them), so it needs no network; those already present are listed as unchanged. A " +
		"server built without them imports them from the feed instead, and then answers 422 with detail " +
		"feed_unreachable when the feed cannot be downloaded. One transaction. 201 when a standard was created, " +
		"200 when all were present. Newer versions come from the feed."}

func (s *Server) handleStandardStarter(ctx context.Context, _ *struct{}) (*importResultOutput, error) {
	return importAnswer(s.dep.StandardImports.ImportStarterStandards(ctx, requestActor(ctx)))
}

// unconfiguredImports answers the imports of pkg/app when no StandardImports is wired:
// 503, as a missing fetcher does for downloads.
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
