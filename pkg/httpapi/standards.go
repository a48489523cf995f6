package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Standards: metadata, versions and the four-eyes lifecycle. The tree is in
// requirements.go and levels.go.

var tagStandards = []string{"Standards"}

var docStandardList = huma.Operation{OperationID: "listStandards", Summary: "List standards", Tags: tagStandards,
	Description: "Filter by state, owner, tag (id) and identifier; search (q) name, identifier and description; sort by " +
		"name (default), -createdAt or identifier; cursor-paginated. Every state is visible to holders of standards.view."}

func (s *Server) handleStandardList(ctx context.Context, in *assess.StandardFilter) (*body[assess.Page[assess.Standard]], error) {
	page, err := s.dep.Standards.FindStandards(ctx, *in)
	return reply(page), err
}

var docStandardCreate = huma.Operation{OperationID: "createStandard", Summary: "Author a standard", Tags: tagStandards,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusConflict},
	Description: "Creates a draft. (identifier, standardVersion) is unique: 409 already_exists naming standardVersion."}

func (s *Server) handleStandardCreate(ctx context.Context, in *body[assess.NewStandard]) (*body[assess.Standard], error) {
	st, err := s.dep.Standards.CreateStandard(ctx, in.Body, requestActor(ctx))
	return reply(st), err
}

var docStandardGet = huma.Operation{OperationID: "getStandard", Summary: "Get a standard", Tags: tagStandards,
	Errors: []int{http.StatusNotFound}}

func (s *Server) handleStandardGet(ctx context.Context, in *idInput) (*body[assess.Standard], error) {
	st, err := s.dep.Standards.FindStandard(ctx, in.ID)
	return reply(st), err
}

var docStandardUpdate = huma.Operation{OperationID: "updateStandard", Summary: "Update a standard", Tags: tagStandards,
	Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Metadata changes only while the standard is a draft (409 conflict, detail code not_draft, otherwise); " +
		"tagIds (the full set) may change in any state. Send the version last read (409 version_conflict when stale)."}

func (s *Server) handleStandardUpdate(ctx context.Context, in *idBody[assess.StandardUpdate]) (*body[assess.Standard], error) {
	st, err := s.dep.Standards.UpdateStandard(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(st), err
}

var docStandardDelete = huma.Operation{OperationID: "deleteStandard", Summary: "Delete a standard", Tags: tagStandards,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Drafts, and retired standards nothing refers to. In review or published: 409 conflict (not_deletable); " +
		"a retired standard still referred to by projects or compliance policies: 409 conflict (in_use)."}

func (s *Server) handleStandardDelete(ctx context.Context, in *idInput) (*struct{}, error) {
	return nil, s.dep.Standards.DeleteStandard(ctx, in.ID, requestActor(ctx))
}

// standardVersionsInput selects a page of the versions of a standard's identifier.
type standardVersionsInput struct {
	ID string `path:"id" maxLength:"64"`
	assess.PageRequest
}

var docStandardVersions = huma.Operation{OperationID: "listStandardVersions", Summary: "List the versions of a standard", Tags: tagStandards,
	Errors: []int{http.StatusNotFound}, Description: "Every standard sharing this one's identifier (itself included), newest first."}

func (s *Server) handleStandardVersions(ctx context.Context, in *standardVersionsInput) (*body[assess.Page[assess.Standard]], error) {
	page, err := s.dep.Standards.FindStandardVersions(ctx, in.ID, in.PageRequest)
	return reply(page), err
}

const fourEyesDescription = " The submitter cannot decide on their own submission: 422 business_rule_violation, detail code four_eyes."

var docStandardSubmit = huma.Operation{OperationID: "submitStandard", Summary: "Submit a draft for review", Tags: tagStandards,
	Errors: []int{http.StatusNotFound, http.StatusConflict}, Description: "draft → in_review; the holders of standards.approve are notified."}

func (s *Server) handleStandardSubmit(ctx context.Context, in *idInput) (*body[assess.Standard], error) {
	st, err := s.dep.Standards.SubmitStandard(ctx, in.ID, requestActor(ctx))
	return reply(st), err
}

var docStandardApprove = huma.Operation{OperationID: "approveStandard", Summary: "Approve and publish a standard", Tags: tagStandards,
	Errors:      []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "in_review → published." + fourEyesDescription}

func (s *Server) handleStandardApprove(ctx context.Context, in *idInput) (*body[assess.Standard], error) {
	st, err := s.dep.Standards.ApproveStandard(ctx, in.ID, requestActor(ctx))
	return reply(st), err
}

var docStandardReject = huma.Operation{OperationID: "rejectStandard", Summary: "Send a standard back to draft", Tags: tagStandards,
	Errors:      []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "in_review → draft with a reason (required), kept as rejectionReason until the standard is approved." + fourEyesDescription}

func (s *Server) handleStandardReject(ctx context.Context, in *idBody[assess.RejectRequest]) (*body[assess.Standard], error) {
	st, err := s.dep.Standards.RejectStandard(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(st), err
}

// retireInput is a retirement, its body optional.
type retireInput struct {
	ID   string `path:"id" maxLength:"64"`
	Body *assess.RetireRequest
}

var docStandardRetire = huma.Operation{OperationID: "retireStandard", Summary: "Retire a published standard", Tags: tagStandards,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "published → retired. While projects or (not archived) entities' compliance policies use it, refused with 422 " +
		"business_rule_violation: the first detail (code in_use) counts them, the next name up to ten of each; force overrides."}

func (s *Server) handleStandardRetire(ctx context.Context, in *retireInput) (*body[assess.Standard], error) {
	var r assess.RetireRequest
	if in.Body != nil {
		r = *in.Body
	}
	st, err := s.dep.Standards.RetireStandard(ctx, in.ID, r, requestActor(ctx))
	return reply(st), err
}

var docStandardDuplicate = huma.Operation{OperationID: "duplicateStandard", Summary: "Duplicate into a new draft version", Tags: tagStandards,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Copies metadata, tags, the requirement tree and the levels into a new draft of the same identifier at " +
		"standardVersion (409 already_exists when that version exists); source is duplicate, duplicatedFrom the original."}

func (s *Server) handleStandardDuplicate(ctx context.Context, in *idBody[assess.DuplicateRequest]) (*body[assess.Standard], error) {
	st, err := s.dep.Standards.DuplicateStandard(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(st), err
}

var docStandardTree = huma.Operation{OperationID: "getStandardTree", Summary: "The whole requirement tree", Tags: tagStandards,
	Errors: []int{http.StatusNotFound},
	Description: "The standard, every requirement depth-first as a flat list (siblings by position, then identifier in " +
		"natural order: V1.2.9 before V1.2.10), each with depth and childCount, and the levels." + standardConditional}

// standardConditional tells how the reads of a standard's content revalidate.
const standardConditional = " The answer carries a strong ETag; If-None-Match naming it answers 304 Not Modified until the " +
	"standard, its content or its tags change. A published or retired standard's answer is kept encoded in memory."

// standardReadInput names a standard for a conditional read of its content.
type standardReadInput struct {
	ID string `path:"id" maxLength:"64"`
	Conditional
}

func (s *Server) handleStandardTree(ctx context.Context, in *standardReadInput) (*encodedAnswer, error) {
	return s.answerStandard(ctx, in.Conditional, in.ID, "tree", true, func(ctx context.Context) (any, error) {
		return s.dep.Standards.FindStandardTree(ctx, in.ID)
	})
}

// answerStandard answers a read of standard id's content (the tree, levels, requirements)
// under the standard's revision; an unknown standard is 404. what names the read and its
// parameters; keep false never keeps its answers (searches: too many to be worth it).
func (s *Server) answerStandard(ctx context.Context, c Conditional, id, what string, keep bool,
	read func(context.Context) (any, error)) (*encodedAnswer, error) {
	rev, err := s.dep.Standards.StandardRevision(ctx, id)
	if err != nil {
		return nil, err
	}
	rev.Keep = rev.Keep && keep
	return s.answer(ctx, c, "standard "+id+" "+what, rev, read)
}
