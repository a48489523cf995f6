package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Global search (docs/assessments.md, "Search").

var tagSearch = []string{"Search"}

var docSearch = huma.Operation{OperationID: "search", Summary: "Search every kind of record", Tags: tagSearch,
	Errors: []int{http.StatusBadRequest},
	Description: "Finds standards, requirements, entities, projects, assessments, evidence and claims by their words " +
		"(English and German stemming, \"a phrase\", -word, or; the last word also as the start of a word, so V1.2 finds " +
		"V1.2.3), by a title or identifier that is the query, and, when the query has three letters or digits in a row and " +
		"excludes no word, by a part of their title or identifier (ehous finds Warehouse). Exclusions alone match no words. " +
		"Only records the caller may open are found: each kind needs its view " +
		"permission, and assessments, evidence and claims also follow the object-level rule of assessments. Hits come " +
		"grouped by kind, best first; more says a kind has further hits (ask again with that type and a higher limit). " +
		"Any signed-in caller; an empty q, or one over 200 characters, is 400 validation_failed."}

func (s *Server) handleSearch(ctx context.Context, in *assess.SearchQuery) (*body[assess.SearchResults], error) {
	res, err := s.dep.Search.Search(ctx, requestActor(ctx), *in)
	return reply(res), err
}
