package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Requirements of a standard: the natural-order list and the writes of a draft.

// requirementListInput selects a page of one standard's requirements.
type requirementListInput struct {
	ID       string `path:"id" maxLength:"64"`
	ParentID string `query:"parentId" maxLength:"64" doc:"Only the children of this requirement"`
	Level    string `query:"level" maxLength:"64" doc:"Only requirements of this level (id)"`
	Q        string `query:"q" maxLength:"100" doc:"Matches identifier, name or description (case-insensitive substring)"`
	assess.PageRequest
	Conditional
}

// requirementInput names one requirement of one standard.
type requirementInput struct {
	ID            string `path:"id" maxLength:"64"`
	RequirementID string `path:"requirementId" maxLength:"64"`
}

// requirementReadInput names one requirement of one standard for a conditional read.
type requirementReadInput struct {
	ID            string `path:"id" maxLength:"64"`
	RequirementID string `path:"requirementId" maxLength:"64"`
	Conditional
}

// requirementBody is a requirementInput with a JSON body.
type requirementBody[T any] struct {
	ID            string `path:"id" maxLength:"64"`
	RequirementID string `path:"requirementId" maxLength:"64"`
	Body          T
}

const draftOnly = " Only while the standard is a draft (409 conflict, detail code not_draft, otherwise)."

var docRequirementList = huma.Operation{OperationID: "listRequirements", Summary: "List a standard's requirements", Tags: tagStandards,
	Errors: []int{http.StatusNotFound},
	Description: "In natural order of their identifiers (V1.2.9 before V1.2.10); filter by parentId and level, search (q); " +
		"cursor-paginated." + standardConditional + " (Searches are not kept.)"}

func (s *Server) handleRequirementList(ctx context.Context, in *requirementListInput) (*encodedAnswer, error) {
	what := "requirements?" + url.Values{"parentId": {in.ParentID}, "level": {in.Level}, "q": {in.Q},
		"cursor": {in.Cursor}, "limit": {strconv.Itoa(in.Limit)}}.Encode()
	return s.answerStandard(ctx, in.Conditional, in.ID, what, in.Q == "", func(ctx context.Context) (any, error) {
		return s.dep.Standards.FindRequirements(ctx, assess.RequirementFilter{StandardID: in.ID, ParentID: in.ParentID,
			Level: in.Level, Q: in.Q, PageRequest: in.PageRequest})
	})
}

var docRequirementGet = huma.Operation{OperationID: "getRequirement", Summary: "Get a requirement", Tags: tagStandards,
	Errors: []int{http.StatusNotFound}, Description: strings.TrimSpace(standardConditional)}

func (s *Server) handleRequirementGet(ctx context.Context, in *requirementReadInput) (*encodedAnswer, error) {
	return s.answerStandard(ctx, in.Conditional, in.ID, "requirement "+in.RequirementID, true, func(ctx context.Context) (any, error) {
		return s.dep.Standards.FindRequirement(ctx, in.ID, in.RequirementID)
	})
}

var docRequirementCreate = huma.Operation{OperationID: "createRequirement", Summary: "Add a requirement", Tags: tagStandards,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "The identifier is unique within the standard (409 already_exists naming identifier); the parent must be a " +
		"requirement of the same standard (400 naming parentId). Without a position it goes last among its siblings." + draftOnly}

func (s *Server) handleRequirementCreate(ctx context.Context, in *idBody[assess.NewRequirement]) (*body[assess.Requirement], error) {
	r, err := s.dep.Standards.CreateRequirement(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(r), err
}

var docRequirementUpdate = huma.Operation{OperationID: "updateRequirement", Summary: "Update a requirement", Tags: tagStandards,
	Errors:      []int{http.StatusNotFound, http.StatusConflict},
	Description: "Send the version last read. Its place in the tree changes with the move operation." + draftOnly}

func (s *Server) handleRequirementUpdate(ctx context.Context, in *requirementBody[assess.RequirementUpdate]) (*body[assess.Requirement], error) {
	r, err := s.dep.Standards.UpdateRequirement(ctx, in.ID, in.RequirementID, in.Body, requestActor(ctx))
	return reply(r), err
}

var docRequirementDelete = huma.Operation{OperationID: "deleteRequirement", Summary: "Delete a requirement and its subtree", Tags: tagStandards,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict}, Description: "The siblings are renumbered." + draftOnly}

func (s *Server) handleRequirementDelete(ctx context.Context, in *requirementInput) (*struct{}, error) {
	return nil, s.dep.Standards.DeleteRequirement(ctx, in.ID, in.RequirementID, requestActor(ctx))
}

var docRequirementMove = huma.Operation{OperationID: "moveRequirement", Summary: "Move a requirement", Tags: tagStandards,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Puts the requirement under parentId (null: top level) at position among its new siblings; old and new " +
		"siblings are renumbered 0..n-1. A move under itself or a descendant is 422 business_rule_violation, code cycle." + draftOnly}

func (s *Server) handleRequirementMove(ctx context.Context, in *requirementBody[assess.RequirementMove]) (*body[assess.Requirement], error) {
	r, err := s.dep.Standards.MoveRequirement(ctx, in.ID, in.RequirementID, in.Body, requestActor(ctx))
	return reply(r), err
}

var docRequirementBulk = huma.Operation{OperationID: "writeRequirements", Summary: "Create or update many requirements", Tags: tagStandards,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Matched by identifier: created when new, otherwise every field replaced. parentIdentifier names a requirement " +
		"of the request or the standard (400 naming the item otherwise); cycles are 422 code cycle. Up to 5,000 per request, " +
		"within API_MAX_BODY_BYTES. One change, one standard.updated event." + draftOnly}

func (s *Server) handleRequirementBulk(ctx context.Context, in *idBody[assess.BulkRequirements]) (*body[assess.BulkResult], error) {
	res, err := s.dep.Standards.WriteRequirements(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(res), err
}
