package work

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
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
	p.CreatedAt, p.UpdatedAt, p.ArchivedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC(), postgres.UTCPtr(p.ArchivedAt)
	return p, err
}

// undatedLast is the due-date sort key of a project without one: after every date.
const undatedLast = "infinity"

// projectSorts are the orders of the project list, each served by an index.
var projectSorts = map[string]postgres.SortOrder{
	"name":       {Name: "name", Keys: []postgres.SortKey{{Expr: "lower(p.name)", Typ: "text"}, {Expr: "p.id", Typ: "text"}}},
	"-createdAt": postgres.NewestFirst("p.id"),
	"dueDate": {Name: "dueDate", Keys: []postgres.SortKey{{Expr: "coalesce(p.due_date, '" + undatedLast + "'::date)", Typ: "date"},
		{Expr: "p.id", Typ: "text"}}},
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
// standards, entities and tags of the page are read in one query each, sent together in
// one round trip after the page's.
func (s *ProjectService) FindProjects(ctx context.Context, f assess.ProjectFilter) (assess.Page[assess.Project], error) {
	sortName := f.Sort
	order, ok := projectSorts[sortName]
	if !ok {
		sortName, order = "name", projectSorts["name"]
	}
	l := postgres.NewList("projects", "SELECT "+projectColumns+projectFrom, order)
	postgres.Equal(l, "p.state", f.State)
	l.Tagged(postgres.ProjectTags, "p.id", f.Tag)
	if f.Standard != "" {
		l.Where("EXISTS (SELECT 1 FROM project_standards ps WHERE ps.project_id = p.id AND ps.standard_id = " + l.Arg(f.Standard) + ")")
	}
	if f.Entity != "" {
		l.Where("EXISTS (SELECT 1 FROM project_entities pe WHERE pe.project_id = p.id AND pe.entity_id = " + l.Arg(f.Entity) + ")")
	}
	l.Search(f.Q, "p.name", "p.description")
	if f.Archived {
		l.Where("p.archived_at IS NOT NULL")
	} else {
		l.Where("p.archived_at IS NULL")
	}
	page, err := postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanProject, projectSortKey(sortName))
	if err != nil {
		return assess.Page[assess.Project]{}, err
	}
	out := make([]assess.Project, len(page.Items))
	for i, p := range page.Items {
		out[i] = p.Project
	}
	if err := loadProjectLinks(ctx, s.db.Pool, out, projectToday(s.db.Now())); err != nil {
		return assess.Page[assess.Project]{}, postgres.DBError(err)
	}
	return assess.NewPage(out, page.NextCursor), nil
}

// FindProject implements assess.ProjectService.
func (s *ProjectService) FindProject(ctx context.Context, id string) (assess.Project, error) {
	return findProject(ctx, s.db.Pool, id, projectToday(s.db.Now()))
}

// findProject reads a project as the API shows it, also inside a transaction; the row and
// its links in one round trip.
func findProject(ctx context.Context, q postgres.Querier, id, today string) (assess.Project, error) {
	if !assess.ValidID(assess.PrefixProject, id) {
		return assess.Project{}, errProjectNotFound
	}
	var b pgx.Batch
	var p projectRow
	found := false
	b.Queue("SELECT "+projectColumns+projectFrom+" WHERE p.id = $1", id).QueryRow(func(r pgx.Row) error {
		var err error
		if p, err = scanProject(r); errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		found = err == nil
		return err
	})
	var fill func(projects []assess.Project, today string)
	postgres.QueueOnGenericPlans(&b, q, func(b *pgx.Batch) { fill = queueProjectLinks(b, []string{id}) })
	if err := q.SendBatch(ctx, &b).Close(); err != nil {
		return assess.Project{}, postgres.DBError(err)
	}
	if !found {
		return assess.Project{}, errProjectNotFound
	}
	out := []assess.Project{p.Project}
	fill(out, today)
	return out[0], nil
}

// loadProjectLinks fills in the standards, entities and tags of projects (one query each
// for all of them, the three sent together in one round trip) and whether each is overdue
// on day today.
func loadProjectLinks(ctx context.Context, q postgres.Querier, projects []assess.Project, today string) error {
	if len(projects) == 0 {
		return nil
	}
	ids := make([]string, len(projects))
	for i, p := range projects {
		ids[i] = p.ID
	}
	var b pgx.Batch
	var fill func(projects []assess.Project, today string)
	postgres.QueueOnGenericPlans(&b, q, func(b *pgx.Batch) { fill = queueProjectLinks(b, ids) })
	if err := q.SendBatch(ctx, &b).Close(); err != nil {
		return err
	}
	fill(projects, today)
	return nil
}

// queueProjectLinks queues on b the reads of the tags, standards and entities of the
// projects ids; once b has been read (closed), fill sets them on those of projects, with
// whether each is overdue on day today.
func queueProjectLinks(b *pgx.Batch, ids []string) (fill func(projects []assess.Project, today string)) {
	tags := postgres.QueueTags(b, postgres.ProjectTags, ids)
	// Each project's standards and entities are sorted here, by name as lower(name) in
	// PostgreSQL (postgres.CompareFolded), a few per project, rather than a page's 50–80 by
	// PostgreSQL.
	standards := map[string][]assess.ProjectStandard{}
	var st assess.ProjectStandard
	postgres.QueueLinksThen(b, `SELECT ps.project_id, s.id, s.name, s.standard_version, s.state FROM `+postgres.IDsJoin+`
		JOIN project_standards ps ON ps.project_id = ids.id JOIN standards s ON s.id = ps.standard_id`,
		ids, []any{&st.ID, &st.Name, &st.StandardVersion, &st.State}, func(owner string) { standards[owner] = append(standards[owner], st) },
		func() {
			for _, list := range standards {
				slices.SortFunc(list, func(a, b assess.ProjectStandard) int {
					return cmp.Or(postgres.CompareFolded(a.Name, b.Name), strings.Compare(a.StandardVersion, b.StandardVersion), strings.Compare(a.ID, b.ID))
				})
			}
		})
	entities := map[string][]assess.ProjectEntity{}
	var en assess.ProjectEntity
	postgres.QueueLinksThen(b, `SELECT pe.project_id, e.id, e.name, e.entity_type FROM `+postgres.IDsJoin+`
		JOIN project_entities pe ON pe.project_id = ids.id JOIN entities e ON e.id = pe.entity_id`,
		ids, []any{&en.ID, &en.Name, &en.Type}, func(owner string) { entities[owner] = append(entities[owner], en) },
		func() {
			for _, list := range entities {
				slices.SortFunc(list, func(a, b assess.ProjectEntity) int {
					return cmp.Or(postgres.CompareFolded(a.Name, b.Name), strings.Compare(a.ID, b.ID))
				})
			}
		})
	return func(projects []assess.Project, today string) {
		for i := range projects {
			p := &projects[i]
			p.Tags, p.Standards, p.Entities = tags[p.ID], postgres.OrEmpty(standards[p.ID]), postgres.OrEmpty(entities[p.ID])
			p.Overdue = assess.ProjectOverdue(p.State, p.DueDate, today, p.ArchivedAt != nil)
		}
	}
}

// projectTarget names a project in the audit log.
func projectTarget(id string) postgres.Target { return postgres.Target{Type: "project", ID: id} }

// projectEvent is the event content of a change to project p; its owner is the subject.
func projectEvent(p assess.Project) assess.NewEvent {
	return assess.NewEvent{Data: p, SubjectUserID: p.OwnerID, Summary: p.Name, Link: "/projects/" + p.ID}
}

// RecordProject reads the project inside tx and records change c about it.
func RecordProject(ctx context.Context, tx *postgres.Tx, c assess.Change, id string, details map[string]any) (assess.Project, error) {
	p, err := findProject(ctx, tx, id, projectToday(tx.Now))
	if err != nil {
		return p, err
	}
	return p, tx.Record(ctx, c, projectTarget(id), details, projectEvent(p))
}

var _ assess.ProjectService = (*ProjectService)(nil)
