package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

var errProjectNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "No such project."}

// projectColumns read a project without its links; the last column is the sort key of the
// name order (the database's lower case, see tagRow).
const projectColumns = `p.id, p.name, p.description, p.state, coalesce(p.owner_id, ''),
	coalesce(nullif(o.display_name, ''), o.username, ''), coalesce(to_char(p.start_date, 'YYYY-MM-DD'), ''),
	coalesce(to_char(p.due_date, 'YYYY-MM-DD'), ''), p.archived_at, p.version, p.created_at, p.updated_at, lower(p.name)`

const projectFrom = ` FROM projects p LEFT JOIN users o ON o.id = p.owner_id`

// projectRow is a project as read, with the sort key of the name order.
type projectRow struct {
	assess.Project
	sortName string
}

func scanProject(r pgx.Row) (projectRow, error) {
	var p projectRow
	err := r.Scan(&p.ID, &p.Name, &p.Description, &p.State, &p.OwnerID, &p.OwnerName, &p.StartDate, &p.DueDate,
		&p.ArchivedAt, &p.Version, &p.CreatedAt, &p.UpdatedAt, &p.sortName)
	p.CreatedAt, p.UpdatedAt, p.ArchivedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC(), utcPtr(p.ArchivedAt)
	return p, err
}

// undatedLast is the due-date sort key of a project without one: after every date.
const undatedLast = "infinity"

// projectSorts are the orders of the project list, each served by an index.
var projectSorts = map[string]sortOrder{
	"name":       {name: "name", keys: []sortKey{{expr: "lower(p.name)", typ: "text"}, {expr: "p.id", typ: "text"}}},
	"-createdAt": newestFirst("p.id"),
	"dueDate": {name: "dueDate", keys: []sortKey{{expr: "coalesce(p.due_date, '" + undatedLast + "'::date)", typ: "date"},
		{expr: "p.id", typ: "text"}}},
}

// projectSortKey returns the sort key values of a project in order.
func projectSortKey(order string) func(projectRow) []any {
	return func(p projectRow) []any {
		switch order {
		case "-createdAt":
			return []any{p.ID}
		case "dueDate":
			if p.DueDate == "" {
				return []any{undatedLast, p.ID}
			}
			return []any{p.DueDate, p.ID}
		}
		return []any{p.sortName, p.ID}
	}
}

// FindProjects implements assess.ProjectService: filtered in SQL, keyset paginated; the
// standards, entities and tags of the page are read in one query each.
func (s *ProjectService) FindProjects(ctx context.Context, f assess.ProjectFilter) (assess.Page[assess.Project], error) {
	sortName := f.Sort
	order, ok := projectSorts[sortName]
	if !ok {
		sortName, order = "name", projectSorts["name"]
	}
	l := newList("projects", "SELECT "+projectColumns+projectFrom, order)
	Equal(l, "p.state", f.State)
	l.Tagged(projectTags, "p.id", f.Tag)
	if f.Standard != "" {
		l.Where("EXISTS (SELECT 1 FROM project_standards ps WHERE ps.project_id = p.id AND ps.standard_id = " + l.arg(f.Standard) + ")")
	}
	if f.Entity != "" {
		l.Where("EXISTS (SELECT 1 FROM project_entities pe WHERE pe.project_id = p.id AND pe.entity_id = " + l.arg(f.Entity) + ")")
	}
	l.Search(f.Q, "p.name", "p.description")
	if f.Archived {
		l.Where("p.archived_at IS NOT NULL")
	} else {
		l.Where("p.archived_at IS NULL")
	}
	page, err := collectPage(ctx, s.pool, l, f.PageRequest, scanProject, projectSortKey(sortName))
	if err != nil {
		return assess.Page[assess.Project]{}, err
	}
	out := make([]assess.Project, len(page.Items))
	for i, p := range page.Items {
		out[i] = p.Project
	}
	if err := loadProjectLinks(ctx, s.pool, out, projectToday(s.now())); err != nil {
		return assess.Page[assess.Project]{}, dbError(err)
	}
	return assess.NewPage(out, page.NextCursor), nil
}

// projectToday is the calendar day (UTC) against which due dates are compared.
func projectToday(now time.Time) string { return now.UTC().Format(assess.ProjectDateLayout) }

// FindProject implements assess.ProjectService.
func (s *ProjectService) FindProject(ctx context.Context, id string) (assess.Project, error) {
	return findProject(ctx, s.pool, id, projectToday(s.now()))
}

// findProject reads a project as the API shows it, also inside a transaction.
func findProject(ctx context.Context, q querier, id, today string) (assess.Project, error) {
	if !assess.ValidID(assess.PrefixProject, id) {
		return assess.Project{}, errProjectNotFound
	}
	p, err := scanProject(q.QueryRow(ctx, "SELECT "+projectColumns+projectFrom+" WHERE p.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return assess.Project{}, errProjectNotFound
	}
	if err != nil {
		return assess.Project{}, dbError(err)
	}
	out := []assess.Project{p.Project}
	if err := loadProjectLinks(ctx, q, out, today); err != nil {
		return assess.Project{}, dbError(err)
	}
	return out[0], nil
}

// loadProjectLinks fills in the standards, entities and tags of projects (one query each
// for all of them) and whether each is overdue on day today.
func loadProjectLinks(ctx context.Context, q querier, projects []assess.Project, today string) error {
	ids := make([]string, len(projects))
	for i, p := range projects {
		ids[i] = p.ID
	}
	tags, err := loadTags(ctx, q, projectTags, ids)
	if err != nil {
		return err
	}
	standards := map[string][]assess.ProjectStandard{}
	var st assess.ProjectStandard
	if err := forEachLink(ctx, q, `SELECT ps.project_id, s.id, s.name, s.standard_version, s.state FROM project_standards ps
		JOIN standards s ON s.id = ps.standard_id WHERE ps.project_id = ANY($1) ORDER BY lower(s.name), s.standard_version, s.id`,
		ids, []any{&st.ID, &st.Name, &st.StandardVersion, &st.State}, func(owner string) { standards[owner] = append(standards[owner], st) }); err != nil {
		return err
	}
	entities := map[string][]assess.ProjectEntity{}
	var en assess.ProjectEntity
	if err := forEachLink(ctx, q, `SELECT pe.project_id, e.id, e.name, e.entity_type FROM project_entities pe
		JOIN entities e ON e.id = pe.entity_id WHERE pe.project_id = ANY($1) ORDER BY lower(e.name), e.id`,
		ids, []any{&en.ID, &en.Name, &en.Type}, func(owner string) { entities[owner] = append(entities[owner], en) }); err != nil {
		return err
	}
	for i := range projects {
		p := &projects[i]
		p.Tags, p.Standards, p.Entities = tags[p.ID], orEmpty(standards[p.ID]), orEmpty(entities[p.ID])
		p.Overdue = assess.ProjectOverdue(p.State, p.DueDate, today, p.ArchivedAt != nil)
	}
	return nil
}

// forEachLink runs a query whose first column is the owning record's id and the rest are
// scanned into dest, calling add with the owner for every row.
func forEachLink(ctx context.Context, q querier, sql string, ids []string, dest []any, add func(owner string)) error {
	rows, err := q.Query(ctx, sql, ids)
	if err != nil {
		return err
	}
	var owner string
	_, err = pgx.ForEachRow(rows, append([]any{&owner}, dest...), func() error {
		add(owner)
		return nil
	})
	return err
}

// projectTarget names a project in the audit log.
func projectTarget(id string) Target { return Target{Type: "project", ID: id} }

// projectEvent is the event content of a change to project p; its owner is the subject.
func projectEvent(p assess.Project) assess.NewEvent {
	return assess.NewEvent{Data: p, SubjectUserID: p.OwnerID, Summary: p.Name, Link: "/projects/" + p.ID}
}

// recordProject reads the project inside tx and records change c about it.
func recordProject(ctx context.Context, tx *Tx, c assess.Change, id string, details map[string]any) (assess.Project, error) {
	p, err := findProject(ctx, tx, id, projectToday(tx.Now))
	if err != nil {
		return p, err
	}
	return p, tx.Record(ctx, c, projectTarget(id), details, projectEvent(p))
}

var _ assess.ProjectService = (*ProjectService)(nil)
