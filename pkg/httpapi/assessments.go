package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagAssessments = []string{"Assessments"}

// notVisible is the note every assessment operation carries: what the caller may not see
// does not exist for them.
const notVisible = " An assessment the caller may not see (not a participant, no assessments.view_all) answers 404, as an unknown one does."

var docAssessmentList = huma.Operation{OperationID: "listAssessments", Summary: "List assessments", Tags: tagAssessments,
	Description: "The assessments the caller may see: those they take part in (assessor, assessee, or author or reviewer " +
		"of evidence linked to them), or all with assessments.view_all. Filter by state, project, entity, standard, tag, " +
		"mine (the caller is assessor or assessee), overdue and dueBefore (YYYY-MM-DD); search (q) in title and " +
		"description; ordered newest first (default), by title, due date (undated last) or last change; cursor-paginated."}

func (s *Server) handleAssessmentList(ctx context.Context, in *assess.AssessmentFilter) (*body[assess.Page[assess.Assessment]], error) {
	page, err := s.dep.Assessments.FindAssessments(ctx, *in, requestActor(ctx))
	return reply(page), err
}

var docAssessmentCreate = huma.Operation{OperationID: "createAssessment", Summary: "Create an assessment", Tags: tagAssessments,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusUnprocessableEntity},
	Description: "An assessment of an entity (not archived) against up to 20 published standards, each optionally " +
		"narrowed to one of its levels, optionally in a project, with a team of active users, a due date and the " +
		"evidence completing it needs (completionEvidence, default every_positive). It starts as new. The creator " +
		"joins as assessor unless already in the team or holding assessments.view_all. Without standards, they are " +
		"decided when it starts (the entity's compliance policies, else the project's standards). " +
		"Unknown ids are 400 naming the field; an archived entity or project, a standard not published or a " +
		"deactivated user are 422."}

func (s *Server) handleAssessmentCreate(ctx context.Context, in *body[assess.NewAssessment]) (*body[assess.Assessment], error) {
	a, err := s.dep.Assessments.CreateAssessment(ctx, in.Body, requestActor(ctx))
	return reply(a), err
}

var docAssessmentGet = huma.Operation{OperationID: "getAssessment", Summary: "Get an assessment", Tags: tagAssessments,
	Errors:      []int{http.StatusNotFound},
	Description: "With its standards (and scores once complete), team, tags, the states it may move to now and its progress." + notVisible}

func (s *Server) handleAssessmentGet(ctx context.Context, in *idInput) (*body[assess.Assessment], error) {
	a, err := s.dep.Assessments.FindAssessment(ctx, in.ID, requestActor(ctx))
	return reply(a), err
}

var docAssessmentUpdate = huma.Operation{OperationID: "updateAssessment", Summary: "Update an assessment", Tags: tagAssessments,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Absent fields stay; an empty dueDate or projectId clears it; tagIds and standards replace the whole " +
		"set; completionEvidence changes the evidence completing needs. Standards change only while the assessment " +
		"is new or pending (409 conflict, code started). A complete, archived or cancelled assessment is read-only (409 conflict, code read_only). Send the version last read; a " +
		"stale one gets 409 version_conflict. The team and the state change through their own operations." + notVisible}

func (s *Server) handleAssessmentUpdate(ctx context.Context, in *idBody[assess.AssessmentUpdate]) (*body[assess.Assessment], error) {
	a, err := s.dep.Assessments.UpdateAssessment(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(a), err
}

var docAssessmentTeam = huma.Operation{OperationID: "replaceAssessmentTeam", Summary: "Replace an assessment's team", Tags: tagAssessments,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "The whole sets of assessors and assessees (a user may be both); users must be active. The members " +
		"added are notified (assessment.assigned). Read-only once complete, archived or cancelled (409 read_only)." + notVisible}

func (s *Server) handleAssessmentTeam(ctx context.Context, in *idBody[assess.TeamUpdate]) (*body[assess.Assessment], error) {
	a, err := s.dep.Assessments.ReplaceAssessmentTeam(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(a), err
}

var docAssessmentTransition = huma.Operation{OperationID: "transitionAssessment", Summary: "Move an assessment to another state",
	Tags: tagAssessments, Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "new → pending, in_progress, cancelled; pending → in_progress, on_hold, cancelled; in_progress → " +
		"on_hold, complete, cancelled; on_hold → in_progress, cancelled; complete → in_progress (reopen), archived; " +
		"cancelled and archived are final. Another move is 409 invalid_state_transition whose details list the allowed " +
		"states. The first move to in_progress loads the requirements (422 no_requirements when there are none); " +
		"complete needs every requirement answered with a rationale of the minimum length and the evidence the " +
		"assessment's completionEvidence rule asks for (422 with details unanswered, missing_rationale and " +
		"missing_evidence carrying counts, and no_evidence; GET …/completion-check tells beforehand) and keeps the " +
		"score; reopening clears it." + notVisible}

func (s *Server) handleAssessmentTransition(ctx context.Context, in *idBody[assess.AssessmentTransition]) (*body[assess.Assessment], error) {
	a, err := s.dep.Assessments.TransitionAssessment(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(a), err
}

// transitionTo moves assessment id to to (only from from, when set) with the version of
// a convenience action's body.
func (s *Server) transitionTo(ctx context.Context, in *idBody[assess.AssessmentVersion], from, to assess.AssessmentState) (*body[assess.Assessment], error) {
	tr := assess.AssessmentTransition{To: to, From: from, Version: in.Body.Version}
	a, err := s.dep.Assessments.TransitionAssessment(ctx, in.ID, tr, requestActor(ctx))
	return reply(a), err
}

// assessmentActionDoc describes a convenience action of the lifecycle.
func assessmentActionDoc(id, summary, description string) huma.Operation {
	return huma.Operation{OperationID: id, Summary: summary, Tags: tagAssessments,
		Errors:      []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
		Description: description + " The rules of POST /api/v1/assessments/{id}/transition apply." + notVisible}
}

var docAssessmentStart = assessmentActionDoc("startAssessment", "Start (or resume) an assessment",
	"Moves to in_progress; the first time, loads the requirements (422 no_requirements when there are none).")

func (s *Server) handleAssessmentStart(ctx context.Context, in *idBody[assess.AssessmentVersion]) (*body[assess.Assessment], error) {
	return s.transitionTo(ctx, in, "", assess.AssessmentInProgress)
}

var docAssessmentComplete = assessmentActionDoc("completeAssessment", "Complete an assessment",
	"Moves to complete after checking the answers and the evidence its completionEvidence rule asks for (422 "+
		"unanswered, missing_rationale, no_evidence, missing_evidence; GET …/completion-check tells beforehand) and keeps "+
		"the conformance score.")

func (s *Server) handleAssessmentComplete(ctx context.Context, in *idBody[assess.AssessmentVersion]) (*body[assess.Assessment], error) {
	return s.transitionTo(ctx, in, "", assess.AssessmentComplete)
}

var docAssessmentCompletionCheck = huma.Operation{OperationID: "checkAssessmentCompletion", Summary: "Check whether an assessment can complete",
	Tags: tagAssessments, Errors: []int{http.StatusNotFound},
	Description: "Decides as POST …/complete would, without changing anything: canComplete when the state allows the " +
		"move and no rule blocks it, and the rules broken in the order a refused completion lists them, each with the " +
		"number of requirements concerned — unanswered, missing_rationale (results whose rationale is empty or shorter " +
		"than rationaleMinWords words), and by the assessment's completionEvidence rule no_evidence (at_least_one: no " +
		"evidence linked to any requirement, unless every answer is not applicable) or missing_evidence (every_positive: " +
		"requirements answered yes or partial without linked evidence)." + notVisible}

func (s *Server) handleAssessmentCompletionCheck(ctx context.Context, in *idInput) (*body[assess.CompletionCheck], error) {
	c, err := s.dep.Assessments.CheckAssessmentCompletion(ctx, in.ID, requestActor(ctx))
	return reply(c), err
}

var docAssessmentReopen = assessmentActionDoc("reopenAssessment", "Reopen a complete assessment",
	"Moves a complete assessment back to in_progress and clears its score; from any other state it is 409 invalid_state_transition.")

func (s *Server) handleAssessmentReopen(ctx context.Context, in *idBody[assess.AssessmentVersion]) (*body[assess.Assessment], error) {
	return s.transitionTo(ctx, in, assess.AssessmentComplete, assess.AssessmentInProgress)
}

var docAssessmentArchive = assessmentActionDoc("archiveAssessment", "Archive a complete assessment", "Moves to archived, which is final.")

func (s *Server) handleAssessmentArchive(ctx context.Context, in *idBody[assess.AssessmentVersion]) (*body[assess.Assessment], error) {
	return s.transitionTo(ctx, in, "", assess.AssessmentArchived)
}

var docAssessmentCancel = assessmentActionDoc("cancelAssessment", "Cancel an assessment", "Moves to cancelled, which is final.")

func (s *Server) handleAssessmentCancel(ctx context.Context, in *idBody[assess.AssessmentVersion]) (*body[assess.Assessment], error) {
	return s.transitionTo(ctx, in, "", assess.AssessmentCancelled)
}

// assessmentDeleteInput is the {id} of the path and the version last read.
type assessmentDeleteInput struct {
	ID      string `path:"id" maxLength:"64"`
	Version int64  `query:"version" required:"true" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
}

var docAssessmentDelete = huma.Operation{OperationID: "deleteAssessment", Summary: "Delete an assessment", Tags: tagAssessments,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Deletes the assessment for good with its requirements, results, evidence links, claims and notes " +
		"(the evidence itself stays). A complete or archived assessment is kept (409 conflict, code read_only)." + notVisible}

func (s *Server) handleAssessmentDelete(ctx context.Context, in *assessmentDeleteInput) (*struct{}, error) {
	return nil, s.dep.Assessments.DeleteAssessment(ctx, in.ID, in.Version, requestActor(ctx))
}
