package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Levels of a standard.

// levelInput names one level of one standard.
type levelInput struct {
	ID      string `path:"id" maxLength:"64"`
	LevelID string `path:"levelId" maxLength:"64"`
}

// levelBody is a levelInput with a JSON body.
type levelBody[T any] struct {
	ID      string `path:"id" maxLength:"64"`
	LevelID string `path:"levelId" maxLength:"64"`
	Body    T
}

var docLevelList = huma.Operation{OperationID: "listLevels", Summary: "List a standard's levels", Tags: tagStandards,
	Errors:      []int{http.StatusNotFound},
	Description: "Every level in order, in one page; a requirement's levels field names the levels including it." + standardConditional}

func (s *Server) handleLevelList(ctx context.Context, in *standardReadInput) (*encodedAnswer, error) {
	return s.answerStandard(ctx, in.Conditional, in.ID, "levels", true, func(ctx context.Context) (any, error) {
		return s.dep.Standards.FindLevels(ctx, in.ID)
	})
}

var docLevelCreate = huma.Operation{OperationID: "createLevel", Summary: "Add a level", Tags: tagStandards,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "The identifier is unique within the standard; requirementIds must be requirements of the same standard " +
		"(400 naming requirementIds)." + draftOnly}

func (s *Server) handleLevelCreate(ctx context.Context, in *idBody[assess.NewLevel]) (*body[assess.Level], error) {
	l, err := s.dep.Standards.CreateLevel(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(l), err
}

var docLevelUpdate = huma.Operation{OperationID: "updateLevel", Summary: "Update a level", Tags: tagStandards,
	Errors:      []int{http.StatusNotFound, http.StatusConflict},
	Description: "requirementIds, when present, is the full set of the level's requirements. Send the version last read." + draftOnly}

func (s *Server) handleLevelUpdate(ctx context.Context, in *levelBody[assess.LevelUpdate]) (*body[assess.Level], error) {
	l, err := s.dep.Standards.UpdateLevel(ctx, in.ID, in.LevelID, in.Body, requestActor(ctx))
	return reply(l), err
}

var docLevelDelete = huma.Operation{OperationID: "deleteLevel", Summary: "Delete a level", Tags: tagStandards,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict}, Description: "The requirements stay." + draftOnly}

func (s *Server) handleLevelDelete(ctx context.Context, in *levelInput) (*struct{}, error) {
	return nil, s.dep.Standards.DeleteLevel(ctx, in.ID, in.LevelID, requestActor(ctx))
}
