package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagEvidence = []string{"Evidence"}

// evidenceLockDoc is the sentence every refusing operation shares about retention locks.
const evidenceLockDoc = " Locked evidence refuses with 409 conflict whose details code is the reason (claimed, linked_to_claim, " +
	"assessment_terminal), for administrators too."

// evidenceVisibilityDoc is the sentence every evidence operation shares about object-level access.
const evidenceVisibilityDoc = " Evidence the caller may not see (not its author or reviewer, not a participant of an assessment " +
	"it is linked to or cited in, no evidence.view_all) is 404."

// evidenceVersionInput is the {id} of the path with the version of a deletion.
type evidenceVersionInput struct {
	ID      string `path:"id" maxLength:"64"`
	Version int64  `query:"version" required:"true" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
}

// evidencePageInput is the {id} of the path with a page of a list under it.
type evidencePageInput struct {
	ID string `path:"id" maxLength:"64"`
	assess.PageRequest
}

// evidenceLinkInput names one link of evidence in the path.
type evidenceLinkInput struct {
	ID                      string `path:"id" maxLength:"64"`
	AssessmentRequirementID string `path:"arId" maxLength:"64"`
}

// evidenceLinkList is the whole list of an evidence's links.
type evidenceLinkList struct {
	Items []assess.EvidenceLink `json:"items"`
}

var docEvidenceList = huma.Operation{OperationID: "listEvidence", Summary: "List evidence", Tags: tagEvidence,
	Description: "The evidence the caller may see: its own (author or reviewer), that of the assessments it takes part " +
		"in, or all with evidence.view_all. Filter by state, author and reviewer (user id or me), assessment and " +
		"requirement (links into assessments the caller may see), tag, counter-evidence, expiringWithin days; search " +
		"(q) in name and description; ordered newest first, by name or by validUntil (undated last); cursor-paginated."}

func (s *Server) handleEvidenceList(ctx context.Context, in *assess.EvidenceFilter) (*body[assess.Page[assess.Evidence]], error) {
	page, err := s.dep.Evidence.FindEvidenceList(ctx, *in, requestActor(ctx))
	return reply(page), err
}

var docEvidenceCreate = huma.Operation{OperationID: "createEvidence", Summary: "Create evidence", Tags: tagEvidence,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "The caller becomes the author; the evidence starts in_progress. Dates are YYYY-MM-DD, validUntil not " +
		"before validFrom (400 naming the field). requirementIds (ar_…) are linked at once: a requirement whose " +
		"assessment the caller may not see is 404, one of a complete, archived or cancelled assessment 409 read_only."}

func (s *Server) handleEvidenceCreate(ctx context.Context, in *body[assess.NewEvidence]) (*body[assess.Evidence], error) {
	e, err := s.dep.Evidence.CreateEvidence(ctx, in.Body, requestActor(ctx))
	return reply(e), err
}

var docEvidenceGet = huma.Operation{OperationID: "getEvidence", Summary: "Get evidence", Tags: tagEvidence,
	Errors:      []int{http.StatusNotFound},
	Description: "locked says why the evidence refuses changes, if it does." + evidenceVisibilityDoc}

func (s *Server) handleEvidenceGet(ctx context.Context, in *idInput) (*body[assess.Evidence], error) {
	e, err := s.dep.Evidence.FindEvidence(ctx, in.ID, requestActor(ctx))
	return reply(e), err
}

var docEvidenceUpdate = huma.Operation{OperationID: "updateEvidence", Summary: "Update evidence", Tags: tagEvidence,
	Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Absent fields stay; an empty date clears it; tagIds replaces the set. Send the version last read (409 " +
		"version_conflict). Evidence in review refuses (409 conflict, code in_review). Expired evidence given a " +
		"validUntil that has not passed (or an empty one) is renewed: back to in_progress (evidence.state_changed)." +
		evidenceLockDoc + evidenceVisibilityDoc}

func (s *Server) handleEvidenceUpdate(ctx context.Context, in *idBody[assess.EvidenceUpdate]) (*body[assess.Evidence], error) {
	e, err := s.dep.Evidence.UpdateEvidence(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(e), err
}

var docEvidenceDelete = huma.Operation{OperationID: "deleteEvidence", Summary: "Delete evidence", Tags: tagEvidence,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Deletes the evidence with its notes, links and files." + evidenceLockDoc + evidenceVisibilityDoc}

func (s *Server) handleEvidenceDelete(ctx context.Context, in *evidenceVersionInput) (*struct{}, error) {
	return nil, s.dep.Evidence.DeleteEvidence(ctx, in.ID, in.Version, requestActor(ctx))
}

var docEvidenceSubmit = huma.Operation{OperationID: "submitEvidence", Summary: "Submit evidence for review", Tags: tagEvidence,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "From in_progress to in_review (else 409 invalid_state_transition). The reviewer is not the author (422 " +
		"four_eyes) and is an active user holding evidence.review (422 reviewer_cannot_review); they are notified." +
		evidenceLockDoc + evidenceVisibilityDoc}

func (s *Server) handleEvidenceSubmit(ctx context.Context, in *idBody[assess.EvidenceSubmit]) (*body[assess.Evidence], error) {
	e, err := s.dep.Evidence.SubmitEvidence(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(e), err
}

var docEvidenceApprove = huma.Operation{OperationID: "approveEvidence", Summary: "Approve evidence", Tags: tagEvidence,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "From in_review to claimed, which locks it. Only the reviewer it was submitted to (422 not_reviewer), " +
		"never its author, administrators included (422 four_eyes). The author is notified." + evidenceLockDoc + evidenceVisibilityDoc}

func (s *Server) handleEvidenceApprove(ctx context.Context, in *idBody[assess.EvidenceReview]) (*body[assess.Evidence], error) {
	e, err := s.dep.Evidence.ApproveEvidence(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(e), err
}

var docEvidenceReject = huma.Operation{OperationID: "rejectEvidence", Summary: "Reject evidence", Tags: tagEvidence,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "From in_review back to in_progress, with a note (1–10000 characters) kept as a note of kind rejection. " +
		"The same reviewer rules as approval; the author is notified." + evidenceLockDoc + evidenceVisibilityDoc}

func (s *Server) handleEvidenceReject(ctx context.Context, in *idBody[assess.EvidenceReject]) (*body[assess.Evidence], error) {
	e, err := s.dep.Evidence.RejectEvidence(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(e), err
}

var docEvidenceNoteList = huma.Operation{OperationID: "listEvidenceNotes", Summary: "List the notes of evidence",
	Tags: tagEvidence, Errors: []int{http.StatusNotFound},
	Description: "Newest first, cursor-paginated; rejections are notes of kind rejection." + evidenceVisibilityDoc}

func (s *Server) handleEvidenceNoteList(ctx context.Context, in *evidencePageInput) (*body[assess.Page[assess.EvidenceNote]], error) {
	page, err := s.dep.Evidence.FindEvidenceNotes(ctx, in.ID, in.PageRequest, requestActor(ctx))
	return reply(page), err
}

var docEvidenceNoteCreate = huma.Operation{OperationID: "createEvidenceNote", Summary: "Add a note to evidence",
	Tags: tagEvidence, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "1–10000 characters; the author of the evidence is notified." + evidenceLockDoc + evidenceVisibilityDoc}

func (s *Server) handleEvidenceNoteCreate(ctx context.Context, in *idBody[assess.NewEvidenceNote]) (*body[assess.EvidenceNote], error) {
	n, err := s.dep.Evidence.AddEvidenceNote(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(n), err
}

var docEvidenceLinkList = huma.Operation{OperationID: "listEvidenceLinks", Summary: "List the requirements evidence is linked to",
	Tags: tagEvidence, Errors: []int{http.StatusNotFound},
	Description: "The whole list, in assessments the caller may see only." + evidenceVisibilityDoc}

func (s *Server) handleEvidenceLinkList(ctx context.Context, in *idInput) (*body[evidenceLinkList], error) {
	links, err := s.dep.Evidence.FindEvidenceLinks(ctx, in.ID, requestActor(ctx))
	return reply(evidenceLinkList{Items: links}), err
}

var docEvidenceLinkCreate = huma.Operation{OperationID: "createEvidenceLink", Summary: "Link evidence to a requirement",
	Tags: tagEvidence, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Links to a requirement (ar_…) of an assessment the caller may see (else 404) that takes changes (409 " +
		"read_only when complete, archived or cancelled). A link that exists is 409 already_exists. Approved evidence " +
		"can be linked (reused) too." + evidenceVisibilityDoc}

func (s *Server) handleEvidenceLinkCreate(ctx context.Context, in *idBody[assess.NewEvidenceLink]) (*body[assess.EvidenceLink], error) {
	l, err := s.dep.Evidence.LinkEvidence(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(l), err
}

var docEvidenceLinkDelete = huma.Operation{OperationID: "deleteEvidenceLink", Summary: "Unlink evidence from a requirement",
	Tags: tagEvidence, DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "A link into an assessment the caller may not see is 404." + evidenceLockDoc + evidenceVisibilityDoc}

func (s *Server) handleEvidenceLinkDelete(ctx context.Context, in *evidenceLinkInput) (*struct{}, error) {
	return nil, s.dep.Evidence.UnlinkEvidence(ctx, in.ID, in.AssessmentRequirementID, requestActor(ctx))
}

var docEvidenceClaimList = huma.Operation{OperationID: "listEvidenceClaims", Summary: "List the claims citing evidence",
	Tags: tagEvidence, Errors: []int{http.StatusNotFound},
	Description: "Oldest first, cursor-paginated, with how each claim cites it (evidence, counter_evidence, " +
		"mitigation; a claim citing it two ways is listed twice), in assessments the caller may see only." + evidenceVisibilityDoc}

func (s *Server) handleEvidenceClaimList(ctx context.Context, in *evidencePageInput) (*body[assess.Page[assess.EvidenceClaim]], error) {
	page, err := s.dep.Evidence.FindEvidenceClaims(ctx, in.ID, in.PageRequest, requestActor(ctx))
	return reply(page), err
}
