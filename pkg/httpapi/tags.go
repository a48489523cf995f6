package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagTags = []string{"Tags"}

var docTagList = huma.Operation{OperationID: "listTags", Summary: "List tags", Tags: tagTags,
	Description: "Every signed-in user may read the tags (they label the records one sees). Ordered by name, " +
		"searchable (q), cursor-paginated. `usage` counts the standards, entities and projects carrying each tag, " +
		"each count only for callers who may see that kind of record."}

func (s *Server) handleTagList(ctx context.Context, in *assess.TagFilter) (*body[assess.Page[assess.Tag]], error) {
	page, err := s.dep.Tags.FindTags(ctx, *in, requestActor(ctx))
	return reply(page), err
}

var docTagCreate = huma.Operation{OperationID: "createTag", Summary: "Create a tag", Tags: tagTags,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusConflict},
	Description: "Names are unique whatever their letter case (409 already_exists naming `name`). Without a colour, " +
		"the tag gets one of a fixed palette chosen from its name."}

func (s *Server) handleTagCreate(ctx context.Context, in *body[assess.NewTag]) (*body[assess.Tag], error) {
	t, err := s.dep.Tags.CreateTag(ctx, in.Body, requestActor(ctx))
	return reply(t), err
}

var docTagUpdate = huma.Operation{OperationID: "updateTag", Summary: "Update a tag", Tags: tagTags,
	Errors:      []int{http.StatusNotFound, http.StatusConflict},
	Description: "Absent fields stay. Send the version last read; a stale one gets 409 version_conflict."}

func (s *Server) handleTagUpdate(ctx context.Context, in *idBody[assess.TagUpdate]) (*body[assess.Tag], error) {
	t, err := s.dep.Tags.UpdateTag(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(t), err
}

var docTagDelete = huma.Operation{OperationID: "deleteTag", Summary: "Delete a tag", Tags: tagTags,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound},
	Description: "The tag is removed from every standard, entity and project carrying it."}

func (s *Server) handleTagDelete(ctx context.Context, in *idInput) (*struct{}, error) {
	return nil, s.dep.Tags.DeleteTag(ctx, in.ID, requestActor(ctx))
}
