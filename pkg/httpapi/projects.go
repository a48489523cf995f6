package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagProjects = []string{"Projects"}

var docProjectList = huma.Operation{OperationID: "listProjects", Summary: "List projects", Tags: tagProjects,
	Description: "Filter by state, tag, standard and entity (ids), search (q) in name and description; ordered by " +
		"name, newest first or due date (undated last); cursor-paginated. Archived projects are listed only with " +
		"archived=true (and then only they)."}

func (s *Server) handleProjectList(ctx context.Context, in *assess.ProjectFilter) (*body[assess.Page[assess.Project]], error) {
	page, err := s.dep.Projects.FindProjects(ctx, *in)
	return reply(page), err
}

var docProjectCreate = huma.Operation{OperationID: "createProject", Summary: "Create a project", Tags: tagProjects,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusUnprocessableEntity},
	Description: "A project starts as new (or in_progress, on_hold). Dates are YYYY-MM-DD and the due date is not " +
		"before the start date (400 naming dueDate). Unknown standard, entity, tag or owner ids are 400 naming the " +
		"field; only published standards and entities not archived can be added (422)."}

func (s *Server) handleProjectCreate(ctx context.Context, in *body[assess.NewProject]) (*body[assess.Project], error) {
	p, err := s.dep.Projects.CreateProject(ctx, in.Body, requestActor(ctx))
	return reply(p), err
}

var docProjectGet = huma.Operation{OperationID: "getProject", Summary: "Get a project", Tags: tagProjects,
	Errors: []int{http.StatusNotFound}}

func (s *Server) handleProjectGet(ctx context.Context, in *idInput) (*body[assess.Project], error) {
	p, err := s.dep.Projects.FindProject(ctx, in.ID)
	return reply(p), err
}

var docProjectUpdate = huma.Operation{OperationID: "updateProject", Summary: "Update a project", Tags: tagProjects,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Absent fields stay; an empty ownerId, startDate or dueDate clears it; standardIds, entityIds and " +
		"tagIds replace the whole set. Send the version last read; a stale one gets 409 version_conflict. An " +
		"archived project is read-only (422 project_archived). The state changes through POST …/state."}

func (s *Server) handleProjectUpdate(ctx context.Context, in *idBody[assess.ProjectUpdate]) (*body[assess.Project], error) {
	p, err := s.dep.Projects.UpdateProject(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(p), err
}

var docProjectDelete = huma.Operation{OperationID: "deleteProject", Summary: "Delete a project", Tags: tagProjects,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound},
	Description: "Deletes the project for good, archived or not, with its links to standards, entities and tags."}

func (s *Server) handleProjectDelete(ctx context.Context, in *idInput) (*struct{}, error) {
	return nil, s.dep.Projects.DeleteProject(ctx, in.ID, requestActor(ctx))
}

var docProjectStateChange = huma.Operation{OperationID: "changeProjectState", Summary: "Move a project to another state",
	Tags: tagProjects, Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "new → in_progress, on_hold, retired; in_progress → on_hold, complete, retired; on_hold → " +
		"in_progress, retired; complete → operational, in_progress, retired; operational → in_progress, retired; " +
		"retired is final. Another move is 409 invalid_state_transition whose details list the allowed states."}

func (s *Server) handleProjectStateChange(ctx context.Context, in *idBody[assess.ProjectStateChange]) (*body[assess.Project], error) {
	p, err := s.dep.Projects.ChangeProjectState(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(p), err
}

var docProjectArchive = huma.Operation{OperationID: "archiveProject", Summary: "Archive or restore a project",
	Tags: tagProjects, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Archiving hides the project from the default list and makes it read-only; `archived: false` " +
		"restores it. Asking for the state it is already in changes nothing."}

func (s *Server) handleProjectArchive(ctx context.Context, in *idBody[assess.ProjectArchive]) (*body[assess.Project], error) {
	p, err := s.dep.Projects.ArchiveProject(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(p), err
}

var docProjectFigures = huma.Operation{OperationID: "getProjectFigures", Summary: "A project's progress figures",
	Tags: tagProjects, Errors: []int{http.StatusNotFound},
	Description: "Assessments per state, completion (share of loaded requirements answered), overdue assessments, evidence " +
		"coverage (share of loaded requirements with linked evidence) and conformance (mean score of the complete assessments). " +
		"Only the project's assessments the caller may see are counted (participants; every assessment with " +
		"assessments.view_all). Ratios are null while there is nothing to divide; warnings point at what needs attention " +
		"(no standards, a standard no longer published, the project or assessments overdue)."}

func (s *Server) handleProjectFigures(ctx context.Context, in *idInput) (*body[assess.ProjectFigures], error) {
	f, err := s.dep.Projects.FindProjectFigures(ctx, in.ID, requestActor(ctx))
	return reply(f), err
}
