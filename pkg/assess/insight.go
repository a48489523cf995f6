package assess

import (
	"context"
	"strings"
	"time"
)

// Progress over time and the portfolio (issue 25 item 2; docs/assessments.md, "Progress over
// time and portfolio"). Every finished assessment (complete or archived) is a result: its score
// for each of its standards, at the time it was completed. The score history lists an entity's
// results in time; the portfolio puts entities against standards, each cell the latest result.
// Both count only the assessments the caller may open — the object-level rule of "Who sees
// what", applied in SQL — so two callers may see different histories of one entity.

// Bounds of the insight reads.
const (
	// ScoreHistoryMax is the most points a score history answers: the most recent ones.
	ScoreHistoryMax = 500
	// PortfolioMaxStandards is the most columns of a portfolio: the standards with results
	// for the most entities.
	PortfolioMaxStandards = 100
)

// ScoreHistoryQuery narrows an entity's score history.
type ScoreHistoryQuery struct {
	Standard string `query:"standard" maxLength:"64" doc:"Only the results against this standard (id)"`
}

// Validate trims the standard and checks the form of its id (a well-formed id of no standard
// is the store's 404).
func (q *ScoreHistoryQuery) Validate() error {
	q.Standard = strings.TrimSpace(q.Standard)
	return validationError(checkFilterID("standard", PrefixStandard, q.Standard, nil))
}

// ScorePoint is one result of a score history: a finished assessment's score for one of its
// standards, when it was completed.
type ScorePoint struct {
	AssessmentID    string    `json:"assessmentId"`
	AssessmentTitle string    `json:"assessmentTitle"`
	State           string    `json:"state" enum:"complete,archived"`
	CompletedAt     time.Time `json:"completedAt" doc:"When the assessment was completed"`
	StandardID      string    `json:"standardId"`
	StandardName    string    `json:"standardName"`
	StandardVersion string    `json:"standardVersion"`
	LevelName       string    `json:"levelName,omitempty" doc:"The level the assessment was narrowed to, if any: the score is over that level's requirements"`
	Score           *float64  `json:"score" doc:"0–100 with two decimals; null when every answer was not applicable"`
}

// ScoreHistory is an entity's results over time, oldest first.
type ScoreHistory struct {
	EntityID  string       `json:"entityId"`
	Points    []ScorePoint `json:"points" doc:"Oldest first (completion time, then assessment id, then standard name)"`
	Truncated bool         `json:"truncated" doc:"There were more than 500 points: the oldest were left out"`
}

// PortfolioQuery selects the rows of the portfolio and narrows the assessments its cells
// come from.
type PortfolioQuery struct {
	Project    string `query:"project" maxLength:"64" doc:"Only assessments of this project (id): the project's portfolio"`
	Standard   string `query:"standard" maxLength:"64" doc:"Only this standard's column (id)"`
	EntityType string `query:"entityType" enum:"organization,business_unit,team,product,product_version,component,service,project,vendor,supplier," doc:"Only entities of this type"`
	Q          string `query:"q" maxLength:"100" doc:"Entities whose name contains this (case-insensitive)"`
	PageRequest
}

// Validate trims the filters and checks the form of the ids and the search (a well-formed id
// of no project or standard is the store's 404).
func (q *PortfolioQuery) Validate() error {
	q.Project, q.Standard, q.Q = strings.TrimSpace(q.Project), strings.TrimSpace(q.Standard), strings.TrimSpace(q.Q)
	d := checkFilterID("project", PrefixProject, q.Project, nil)
	d = checkFilterID("standard", PrefixStandard, q.Standard, d)
	if q.EntityType != "" && !EntityType(q.EntityType).Valid() {
		d = append(d, Detail{Field: "entityType", Code: "invalid", Message: "Unknown entity type " + quoteShort(q.EntityType, 40) + "."})
	}
	if strings.ContainsFunc(q.Q, func(r rune) bool { return r < 0x20 }) {
		d = append(d, Detail{Field: "q", Code: "invalid", Message: "Cannot contain control characters."})
	}
	return validationError(d)
}

// checkFilterID appends a detail to d when id is set and is not an id with prefix.
func checkFilterID(field, prefix, id string, d []Detail) []Detail {
	if id != "" && !ValidID(prefix, id) {
		d = append(d, Detail{Field: field, Code: "invalid", Message: "Not an id of the right kind (" + prefix + "…): " + quoteShort(id, 40) + "."})
	}
	return d
}

// PortfolioStandard is a column of the portfolio.
type PortfolioStandard struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Version string `json:"version"`
}

// PortfolioCell is where one entity stands against one standard: its latest result the
// caller may see.
type PortfolioCell struct {
	StandardID      string    `json:"standardId"`
	AssessmentID    string    `json:"assessmentId" doc:"The latest finished assessment of the entity against the standard that the caller may see"`
	AssessmentTitle string    `json:"assessmentTitle"`
	CompletedAt     time.Time `json:"completedAt"`
	Score           *float64  `json:"score" doc:"Its score for the standard, 0–100; null when every answer was not applicable"`
	Completed       int       `json:"completed" doc:"How many finished assessments of the entity against the standard the caller may see (in the project, with project)"`
}

// PortfolioRow is one entity of the portfolio with its cells (only where it has a result).
type PortfolioRow struct {
	EntityID   string          `json:"entityId"`
	EntityName string          `json:"entityName"`
	EntityType string          `json:"entityType"`
	Cells      []PortfolioCell `json:"cells" doc:"One per column in which the entity has a result, in the order of standards"`
}

// Portfolio is a page of entity rows against the standards.
type Portfolio struct {
	Standards          []PortfolioStandard `json:"standards" doc:"The columns, by name: every standard in which an entity of any page has a result (at most 100)"`
	StandardsTruncated bool                `json:"standardsTruncated" doc:"More than 100 standards have results: those with results for the fewest entities were left out"`
	Items              []PortfolioRow      `json:"items" doc:"Entities (not archived) with at least one result, by name"`
	Total              int                 `json:"total" doc:"Entity rows over all pages"`
	NextCursor         string              `json:"nextCursor,omitempty" doc:"Pass as cursor to get the next page; absent on the last page"`
	HasMore            bool                `json:"hasMore"`
}

// InsightService reads the score history and the portfolio, scoped to what the caller may see.
type InsightService interface {
	// ScoreHistory answers entity id's results (404 for an unknown entity; an unknown
	// standard filter is 404 too).
	ScoreHistory(ctx context.Context, entityID string, q ScoreHistoryQuery, actor Actor) (ScoreHistory, error)
	// Portfolio answers a page of the portfolio (404 for an unknown project or standard filter).
	Portfolio(ctx context.Context, q PortfolioQuery, actor Actor) (Portfolio, error)
}
