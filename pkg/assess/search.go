package assess

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"
)

// Global search (issue 25 item 3; docs/assessments.md, "Search"): one query across the
// catalogue and the assessment work, answered with what the caller may open and nothing else.

// SearchType names a kind of record search finds.
type SearchType string

// The kinds of record search finds, in the order the answer groups them.
const (
	SearchStandard    SearchType = "standard"
	SearchRequirement SearchType = "requirement"
	SearchEntity      SearchType = "entity"
	SearchProject     SearchType = "project"
	SearchAssessment  SearchType = "assessment"
	SearchEvidence    SearchType = "evidence"
	SearchClaim       SearchType = "claim"
)

// SearchTypes is every kind, in the order of the answer's groups.
var SearchTypes = []SearchType{SearchStandard, SearchRequirement, SearchEntity, SearchProject, SearchAssessment, SearchEvidence, SearchClaim}

// Limits of a search request.
const (
	SearchMaxQuery     = 200 // characters of q
	SearchDefaultLimit = 5   // hits per group when limit is absent
	SearchMaxLimit     = 50
)

// SearchQuery is a search request.
type SearchQuery struct {
	Q     string `query:"q" maxLength:"200" doc:"Words to find (1–200 characters). Each word is matched in English and German (stemmed), the last one also as the start of a word; identifiers such as V1.2.3 and titles also match in part."`
	Types string `query:"types" doc:"Comma-separated kinds to search: standard, requirement, entity, project, assessment, evidence, claim (default: all)"`
	Limit int    `query:"limit" minimum:"1" maximum:"50" default:"5" doc:"Hits per kind"`
}

// Validate trims q and checks it, the kinds and the limit; Kinds then answers the kinds asked for.
func (q *SearchQuery) Validate() error {
	q.Q = strings.TrimSpace(q.Q)
	var d []Detail
	switch {
	case q.Q == "":
		d = append(d, Detail{Field: "q", Code: "required", Message: "Type something to search for."})
	case utf8.RuneCountInString(q.Q) > SearchMaxQuery:
		d = append(d, Detail{Field: "q", Code: "too_long", Message: "Search for at most 200 characters."})
	case strings.ContainsFunc(q.Q, func(r rune) bool { return r < 0x20 && r != '\t' }):
		d = append(d, Detail{Field: "q", Code: "invalid", Message: "Cannot contain control characters."})
	}
	if q.Limit == 0 {
		q.Limit = SearchDefaultLimit
	}
	if q.Limit < 1 || q.Limit > SearchMaxLimit {
		d = append(d, Detail{Field: "limit", Code: "out_of_range", Message: "Ask for 1 to 50 hits per kind."})
	}
	for _, t := range q.split() {
		if !isSearchType(SearchType(t)) {
			d = append(d, Detail{Field: "types", Code: "unknown", Message: "Unknown kind " + quoteShort(t, 40) + "."})
		}
	}
	return validationError(d)
}

func (q *SearchQuery) split() []string {
	var out []string
	for t := range strings.SplitSeq(q.Types, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func isSearchType(t SearchType) bool { return slices.Contains(SearchTypes, t) }

// Kinds is the kinds q asks for (all when types is empty), in the order of SearchTypes.
func (q *SearchQuery) Kinds() []SearchType {
	asked := q.split()
	var out []SearchType
	for _, k := range SearchTypes {
		if len(asked) == 0 || slices.Contains(asked, string(k)) {
			out = append(out, k)
		}
	}
	return out
}

// SearchPermission is the permission a kind needs besides the object-level rule (assessments,
// evidence and claims are also filtered by who takes part in what).
func SearchPermission(t SearchType) Perm {
	switch t {
	case SearchStandard, SearchRequirement:
		return PermStandardsView
	case SearchEntity:
		return PermEntitiesView
	case SearchProject:
		return PermProjectsView
	case SearchAssessment:
		return PermAssessmentsView
	case SearchEvidence:
		return PermEvidenceView
	case SearchClaim:
		return PermClaimsView
	}
	return PermPublic
}

// SearchHit is one record found.
type SearchHit struct {
	ID       string     `json:"id"`
	Type     SearchType `json:"type" enum:"standard,requirement,entity,project,assessment,evidence,claim"`
	Title    string     `json:"title" doc:"The record's name (a requirement's identifier and name)"`
	Subtitle string     `json:"subtitle" doc:"Where it belongs: the standard of a requirement, the entity of an assessment, the assessment of a claim, …"`
	Link     string     `json:"link" doc:"The page of the record in the web application"`
	Rank     float64    `json:"rank" doc:"How well it matches; higher first"`
}

// SearchGroup is the hits of one kind, best first.
type SearchGroup struct {
	Type  SearchType  `json:"type" enum:"standard,requirement,entity,project,assessment,evidence,claim"`
	Items []SearchHit `json:"items"`
	More  bool        `json:"more" doc:"More records of this kind match than were returned"`
}

// SearchResults is the answer of a search: one group per kind the caller may search and
// that has a hit, in the order of SearchTypes.
type SearchResults struct {
	Query  string        `json:"query"`
	Groups []SearchGroup `json:"groups"`
}

// SearchService searches the records a caller may open.
type SearchService interface {
	Search(ctx context.Context, actor Actor, q SearchQuery) (SearchResults, error)
}
