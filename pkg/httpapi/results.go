package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// The requirements of a started assessment and their results: the assessor's workspace.

var tagResults = []string{"Assessment requirements"}

// AssessmentRequirementList is the whole list of an assessment's requirements.
type AssessmentRequirementList struct {
	Items []assess.AssessmentRequirement `json:"items"`
	// RationaleMinWords tells clients the rule before they are refused by it.
	RationaleMinWords int `json:"rationaleMinWords" doc:"The fewest words a result's rationale needs (ASSESSMENT_RATIONALE_MIN_WORDS; 0: no minimum)"`
}

// resultListInput selects requirements of one assessment.
type resultListInput struct {
	ID string `path:"id" maxLength:"64"`
	assess.AssessmentRequirementFilter
	Conditional
}

// resultInput names one requirement of one assessment.
type resultInput struct {
	ID            string `path:"id" maxLength:"64"`
	RequirementID string `path:"arId" maxLength:"64"`
}

// resultBody is a resultInput with a JSON body.
type resultBody[T any] struct {
	ID            string `path:"id" maxLength:"64"`
	RequirementID string `path:"arId" maxLength:"64"`
	Body          T
}

const resultVisibility = " An assessment the caller may not see is 404, for every operation."

const resultWritable = " Only while the assessment is in progress: 409 conflict with details code not_in_progress while new, " +
	"pending or on hold, read_only once complete, archived or cancelled. A result needs a rationale of at least " +
	"ASSESSMENT_RATIONALE_MIN_WORDS words (default 15; words are whitespace-separated tokens with a letter or digit): " +
	"400 code too_short otherwise. A null result clears the answer."

var docResultList = huma.Operation{OperationID: "listAssessmentRequirements", Summary: "List an assessment's requirements", Tags: tagResults,
	Errors: []int{http.StatusNotFound},
	Description: "The whole list in tree order: the assessment's standards in their order, then each standard's tree depth-first " +
		"(by position, then natural order of identifiers). Each requirement names its ancestors (the chapters and sections above " +
		"it), and counts its linked evidence and claims. Filters: q, result (comma-separated, unanswered for none), mine " +
		"(assigned to the caller), noEvidence, standard." + resultVisibility + " The answer carries a strong ETag; If-None-Match " +
		"naming it answers 304 Not Modified until a result, rationale, assignee, evidence link or claim of the assessment, or the " +
		"assessment itself, changes. Lists, filtered or not (searches excepted), are kept encoded in memory."}

func (s *Server) handleResultList(ctx context.Context, in *resultListInput) (*encodedAnswer, error) {
	if _, err := in.Results(); err != nil { // a bad filter is 400 whatever the client holds
		return nil, err
	}
	actor := requestActor(ctx)
	rev, err := s.dep.Results.WorkspaceRevision(ctx, in.ID, actor)
	if err != nil {
		return nil, err
	}
	rev.Keep = rev.Keep && in.Q == ""
	minWords := s.dep.Results.RationaleMinWords()
	what := url.Values{"q": {in.Q}, "result": {in.Result}, "standard": {in.Standard}, "minWords": {strconv.Itoa(minWords)}}
	if in.NoEvidence {
		what.Set("noEvidence", "true")
	}
	if in.Mine { // the only part of the list that is the caller's own
		what.Set("mine", actor.ID)
	}
	return s.answer(ctx, in.Conditional, "workspace "+in.ID+"?"+what.Encode(), rev, func(ctx context.Context) (any, error) {
		list, err := s.dep.Results.FindAssessmentRequirements(ctx, in.ID, in.AssessmentRequirementFilter, actor)
		return AssessmentRequirementList{Items: list, RationaleMinWords: minWords}, err
	})
}

var docResultGet = huma.Operation{OperationID: "getAssessmentRequirement", Summary: "Get a requirement of an assessment", Tags: tagResults,
	Errors: []int{http.StatusNotFound}, Description: "With its result, rationale, assignee and ancestors." + resultVisibility}

func (s *Server) handleResultGet(ctx context.Context, in *resultInput) (*body[assess.AssessmentRequirement], error) {
	r, err := s.dep.Results.FindAssessmentRequirement(ctx, in.ID, in.RequirementID, requestActor(ctx))
	return reply(r), err
}

var docResultUpdate = huma.Operation{OperationID: "recordAssessmentResult", Summary: "Record a requirement's result", Tags: tagResults,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Replaces result and rationale; assigneeId, when given, sets the assignee (\"\" clears), who must be an assessor " +
		"or assessee of the assessment (422 code not_a_member). Send the version last read (409 version_conflict otherwise). " +
		"Emits assessment.result_recorded." + resultWritable + resultVisibility}

func (s *Server) handleResultUpdate(ctx context.Context, in *resultBody[assess.ResultUpdate]) (*body[assess.AssessmentRequirement], error) {
	r, err := s.dep.Results.RecordResult(ctx, in.ID, in.RequirementID, in.Body, requestActor(ctx))
	return reply(r), err
}

var docResultBulk = huma.Operation{OperationID: "recordAssessmentResults", Summary: "Record many results at once", Tags: tagResults,
	Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "1–500 items of one assessment, all or nothing: a problem with any item is 400 naming it (items[i].rationale, " +
		"items[i].id for a requirement not of this assessment). Items carry no version: the last write wins. Answers the items " +
		"written, in tree order; one audit row and one assessment.result_recorded event for the request." + resultWritable + resultVisibility}

func (s *Server) handleResultBulk(ctx context.Context, in *idBody[assess.BulkResults]) (*body[AssessmentRequirementList], error) {
	list, err := s.dep.Results.RecordResults(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(AssessmentRequirementList{Items: list, RationaleMinWords: s.dep.Results.RationaleMinWords()}), err
}
