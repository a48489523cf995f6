package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Progress over time and the portfolio (docs/assessments.md, "Progress over time and
// portfolio"; routes: insightRoutes).

var tagInsight = []string{"Insight"}

var docScoreHistory = huma.Operation{OperationID: "getEntityScoreHistory", Summary: "An entity's scores over time", Tags: tagInsight,
	Errors: []int{http.StatusBadRequest, http.StatusNotFound},
	Description: "Every finished (complete or archived) assessment of the entity is a point per standard: its score for " +
		"that standard at its completion time. Only the assessments the caller may see count (participants; every " +
		"assessment with assessments.view_all). Oldest first; at most the 500 most recent points (truncated says " +
		"there were more). standard narrows the points to one standard. An unknown entity or standard is 404; a " +
		"malformed standard id is 400 validation_failed."}

// scoreHistoryInput names the entity and narrows its history.
type scoreHistoryInput struct {
	ID string `path:"id" maxLength:"64"`
	assess.ScoreHistoryQuery
}

func (s *Server) handleScoreHistory(ctx context.Context, in *scoreHistoryInput) (*body[assess.ScoreHistory], error) {
	h, err := s.dep.Insight.ScoreHistory(ctx, in.ID, in.ScoreHistoryQuery, requestActor(ctx))
	return reply(h), err
}

var docPortfolio = huma.Operation{OperationID: "getPortfolio", Summary: "Entities against standards", Tags: tagInsight,
	Errors: []int{http.StatusBadRequest, http.StatusNotFound},
	Description: "A heat map's data: rows are entities (not archived) with at least one finished assessment the caller " +
		"may see, by name, cursor-paginated (limit 1–200, default 50; total counts the rows of every page); columns " +
		"are the standards with results (at most 100); each cell is the entity's latest finished assessment against " +
		"the standard (by completion time) with its score for the standard and how many finished assessments there " +
		"are. Only the assessments the caller may see count. project restricts everything to one project's " +
		"assessments (the project's view); standard, entityType and q (name) narrow it. An unknown project or " +
		"standard is 404; a malformed id is 400 validation_failed."}

func (s *Server) handlePortfolio(ctx context.Context, in *assess.PortfolioQuery) (*body[assess.Portfolio], error) {
	p, err := s.dep.Insight.Portfolio(ctx, *in, requestActor(ctx))
	return reply(p), err
}
