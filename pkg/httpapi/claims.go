package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Claims of assessments (routes: claimRoutes).

var tagClaims = []string{"Claims"}

// claimListInput pages the claims of one assessment.
type claimListInput struct {
	ID string `path:"id" maxLength:"64"`
	assess.ClaimFilter
}

// claimDeleteInput names a claim and the version last read.
type claimDeleteInput struct {
	ID      string `path:"id" maxLength:"64"`
	Version int64  `query:"version" required:"true" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
}

var docClaimList = huma.Operation{OperationID: "listClaims", Summary: "List the claims of an assessment", Tags: tagClaims,
	Errors: []int{http.StatusNotFound},
	Description: "Oldest first, cursor-paginated; `requirement` (ar_…) keeps the claims about that requirement. " +
		"404 for an assessment the caller may not see."}

func (s *Server) handleClaimList(ctx context.Context, in *claimListInput) (*body[assess.Page[assess.Claim]], error) {
	page, err := s.dep.Claims.FindClaims(ctx, in.ID, in.ClaimFilter, requestActor(ctx))
	return reply(page), err
}

var docClaimCreate = huma.Operation{OperationID: "createClaim", Summary: "Add a claim to an assessment", Tags: tagClaims,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "A CycloneDX attestation claim: a target (text, or targetEntityId), a predicate, the reasoning, the " +
		"evidence for it, against it (counterEvidenceIds) and of mitigation strategies, the requirements of this " +
		"assessment it is about, and external references (CycloneDX externalReference types, http(s) URLs). " +
		"countersClaimId (another claim of this assessment) makes it a counter-claim. Evidence the caller cannot see " +
		"is 422 unknown_evidence naming the field; a requirement of another assessment 422 unknown_requirement; an " +
		"unknown entity 422 unknown_entity; an unknown claim countered 422 unknown_claim. Cited evidence is locked " +
		"against change. A complete, archived or cancelled assessment is read-only (409 read_only)."}

func (s *Server) handleClaimCreate(ctx context.Context, in *idBody[assess.NewClaim]) (*body[assess.Claim], error) {
	c, err := s.dep.Claims.CreateClaim(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(c), err
}

var docClaimGet = huma.Operation{OperationID: "getClaim", Summary: "Get a claim", Tags: tagClaims,
	Errors: []int{http.StatusNotFound}}

func (s *Server) handleClaimGet(ctx context.Context, in *idInput) (*body[assess.Claim], error) {
	c, err := s.dep.Claims.FindClaim(ctx, in.ID, requestActor(ctx))
	return reply(c), err
}

var docClaimUpdate = huma.Operation{OperationID: "updateClaim", Summary: "Update a claim", Tags: tagClaims,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Absent fields stay; arrays replace the whole set. An empty targetEntityId or countersClaimId removes " +
		"it; isCounterClaim false also removes countersClaimId. The claim must keep a target. Same checks as on " +
		"creation. Send the version last read; a stale one gets 409 version_conflict."}

func (s *Server) handleClaimUpdate(ctx context.Context, in *idBody[assess.ClaimUpdate]) (*body[assess.Claim], error) {
	c, err := s.dep.Claims.UpdateClaim(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(c), err
}

var docClaimDelete = huma.Operation{OperationID: "deleteClaim", Summary: "Delete a claim", Tags: tagClaims,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Deletes the claim; the evidence it cited is no longer locked by it, and counter-claims of it stay, " +
		"countering nothing. ?version= is the version last read."}

func (s *Server) handleClaimDelete(ctx context.Context, in *claimDeleteInput) (*struct{}, error) {
	return nil, s.dep.Claims.DeleteClaim(ctx, in.ID, in.Version, requestActor(ctx))
}
