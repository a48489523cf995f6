package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Work notes, mentionable users and the timeline of assessments (routes: workNoteRoutes).

var tagWorkNotes = []string{"Work notes and timeline"}

// workNoteListInput pages the notes of one assessment.
type workNoteListInput struct {
	ID string `path:"id" maxLength:"64"`
	assess.WorkNoteFilter
}

// workNoteUpdateInput is a note of an assessment and a change to it.
type workNoteUpdateInput struct {
	ID     string `path:"id" maxLength:"64"`
	NoteID string `path:"noteId" maxLength:"64"`
	Body   assess.WorkNoteUpdate
}

// workNoteDeleteInput names a note and the version last read.
type workNoteDeleteInput struct {
	ID      string `path:"id" maxLength:"64"`
	NoteID  string `path:"noteId" maxLength:"64"`
	Version int64  `query:"version" required:"true" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
}

// mentionableInput narrows the mentionable users of one assessment.
type mentionableInput struct {
	ID string `path:"id" maxLength:"64"`
	assess.MentionableFilter
}

// timelineInput pages the timeline of one assessment.
type timelineInput struct {
	ID string `path:"id" maxLength:"64"`
	assess.TimelineFilter
}

var docWorkNoteList = huma.Operation{OperationID: "listWorkNotes", Summary: "List the work notes of an assessment",
	Tags: tagWorkNotes, Errors: []int{http.StatusNotFound},
	Description: "Newest first, cursor-paginated. 404 for an assessment the caller may not see."}

func (s *Server) handleWorkNoteList(ctx context.Context, in *workNoteListInput) (*body[assess.Page[assess.WorkNote]], error) {
	page, err := s.dep.WorkNotes.FindWorkNotes(ctx, in.ID, in.WorkNoteFilter, requestActor(ctx))
	return reply(page), err
}

var docWorkNoteCreate = huma.Operation{OperationID: "createWorkNote", Summary: "Write a work note", Tags: tagWorkNotes,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Plain text of 1–10000 characters. @username mentions (case-insensitive; letters, digits, '.', '_', " +
		"'-') of active users who may see the assessment are listed in `mentions` and notified in-app " +
		"(assessment.note_added); other names are ignored. A complete, archived or cancelled assessment is read-only " +
		"(409 read_only)."}

func (s *Server) handleWorkNoteCreate(ctx context.Context, in *idBody[assess.NewWorkNote]) (*body[assess.WorkNote], error) {
	n, err := s.dep.WorkNotes.AddWorkNote(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(n), err
}

var docWorkNoteUpdate = huma.Operation{OperationID: "updateWorkNote", Summary: "Edit one's work note", Tags: tagWorkNotes,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Replaces the content of a note one wrote (someone else's is 422 not_author). Mentions are resolved " +
		"again; nobody is notified of an edit. Send the version last read; a stale one gets 409 version_conflict."}

func (s *Server) handleWorkNoteUpdate(ctx context.Context, in *workNoteUpdateInput) (*body[assess.WorkNote], error) {
	n, err := s.dep.WorkNotes.UpdateWorkNote(ctx, in.ID, in.NoteID, in.Body, requestActor(ctx))
	return reply(n), err
}

var docWorkNoteDelete = huma.Operation{OperationID: "deleteWorkNote", Summary: "Delete one's work note", Tags: tagWorkNotes,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Deletes a note one wrote (someone else's is 422 not_author). ?version= is the version last read."}

func (s *Server) handleWorkNoteDelete(ctx context.Context, in *workNoteDeleteInput) (*struct{}, error) {
	return nil, s.dep.WorkNotes.DeleteWorkNote(ctx, in.ID, in.NoteID, in.Version, requestActor(ctx))
}

var docMentionableList = huma.Operation{OperationID: "listMentionableUsers", Summary: "Users one can mention on an assessment",
	Tags: tagWorkNotes, Errors: []int{http.StatusNotFound},
	Description: "The active members of the team and the authors and reviewers of the assessment's evidence, by " +
		"username, at most 50 (the whole list); `q` keeps those whose username or display name starts with it."}

func (s *Server) handleMentionableList(ctx context.Context, in *mentionableInput) (*body[assess.MentionableList], error) {
	users, err := s.dep.WorkNotes.MentionableUsers(ctx, in.ID, in.MentionableFilter, requestActor(ctx))
	return reply(assess.MentionableList{Items: users}), err
}

var docTimelineList = huma.Operation{OperationID: "listAssessmentTimeline", Summary: "The activity timeline of an assessment",
	Tags: tagWorkNotes, Errors: []int{http.StatusNotFound},
	Description: "Who changed what under the assessment, and when, from the audit log: newest first, cursor-paginated. " +
		"`details` are the audit row's details as recorded."}

func (s *Server) handleTimelineList(ctx context.Context, in *timelineInput) (*body[assess.Page[assess.TimelineEntry]], error) {
	page, err := s.dep.WorkNotes.FindTimeline(ctx, in.ID, in.TimelineFilter, requestActor(ctx))
	return reply(page), err
}
