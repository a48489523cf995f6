package work

import (
	"context"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// CreateProject implements assess.ProjectService.
func (s *ProjectService) CreateProject(ctx context.Context, np assess.NewProject, actor assess.Actor) (assess.Project, error) {
	var p assess.Project
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := np.Validate(); err != nil {
			return err
		}
		if err := checkProjectOwner(ctx, tx, np.OwnerID); err != nil {
			return err
		}
		id, err := InsertProject(ctx, tx, np)
		if err != nil {
			return err
		}
		p, err = RecordProject(ctx, tx, assess.ChangeProjectCreated, id, map[string]any{"name": np.Name, "state": np.State})
		return err
	})
	return p, err
}

// InsertProject inserts a validated project with its links and returns its id.
func InsertProject(ctx context.Context, tx *postgres.Tx, np assess.NewProject) (string, error) {
	id := assess.NewID(assess.PrefixProject, tx.Now)
	if _, err := tx.Exec(ctx, `INSERT INTO projects (id, name, description, state, owner_id, start_date, due_date, created_at, updated_at)
		VALUES ($1, $2, $3, $4, nullif($5::text, ''), nullif($6::text, '')::date, nullif($7::text, '')::date, $8, $8)`,
		id, np.Name, np.Description, np.State, np.OwnerID, np.StartDate, np.DueDate, tx.Now); err != nil {
		return "", err
	}
	return id, setProjectLinks(ctx, tx, id, np.StandardIDs, np.EntityIDs, np.TagIDs)
}

// setProjectLinks replaces the standards, entities and tags of project id; a nil set
// stays as it is.
func setProjectLinks(ctx context.Context, tx *postgres.Tx, id string, standardIDs, entityIDs, tagIDs []string) error {
	if err := replaceProjectLinks(ctx, tx, projectStandardLinks, id, standardIDs); err != nil {
		return err
	}
	if err := replaceProjectLinks(ctx, tx, projectEntityLinks, id, entityIDs); err != nil {
		return err
	}
	return postgres.ReplaceTags(ctx, tx, postgres.ProjectTags, id, tagIDs)
}

// projectLink describes a set of records a project links to, and which of them may be
// newly linked.
type projectLink struct {
	table, column  string // the link table and its column naming the record
	records        string // the records' table
	field          string // the request field naming the set
	admissible     string // SQL condition on r: a record that may be newly linked
	refusedCode    string // details code when one may not
	refusedMessage string
	unknownMessage string
}

var (
	projectStandardLinks = projectLink{table: "project_standards", column: "standard_id", records: "standards", field: "standardIds",
		admissible: "r.state = 'published'", refusedCode: "standard_not_published",
		refusedMessage: "Only published standards can be added to a project.", unknownMessage: "A standard does not exist."}
	projectEntityLinks = projectLink{table: "project_entities", column: "entity_id", records: "entities", field: "entityIds",
		admissible: "r.state <> 'archived'", refusedCode: "entity_archived",
		refusedMessage: "Archived entities cannot be added to a project.", unknownMessage: "An entity does not exist."}
)

// replaceProjectLinks makes ids the set of records of kind link that project id links to.
// An unknown id is 400 naming the field; a record newly linked must be admissible (422),
// while records already linked stay whatever became of them (a standard retired since).
func replaceProjectLinks(ctx context.Context, tx *postgres.Tx, link projectLink, id string, ids []string) error {
	if ids == nil {
		return nil
	}
	var known, refused int
	if err := tx.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE NOT (`+link.admissible+`)
		AND NOT EXISTS (SELECT 1 FROM `+link.table+` l WHERE l.project_id = $2 AND l.`+link.column+` = r.id))
		FROM `+link.records+` r WHERE r.id = ANY($1)`, ids, id).Scan(&known, &refused); err != nil {
		return err
	}
	if known != len(ids) {
		return &assess.Error{Code: assess.ECodeValidation, Message: link.unknownMessage,
			Details: []assess.Detail{{Field: link.field, Code: "unknown", Message: link.unknownMessage}}}
	}
	if refused > 0 {
		return &assess.Error{Code: assess.ECodeBusinessRule, Message: link.refusedMessage,
			Details: []assess.Detail{{Field: link.field, Code: link.refusedCode, Message: link.refusedMessage}}}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM `+link.table+` WHERE project_id = $1 AND NOT (`+link.column+` = ANY($2))`, id, ids); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `INSERT INTO `+link.table+` (project_id, `+link.column+`) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`, id, ids)
	return err
}

// checkProjectOwner refuses an owner id that names no user (400 naming ownerId); empty
// means no owner.
func checkProjectOwner(ctx context.Context, q postgres.Querier, ownerID string) error {
	if ownerID == "" {
		return nil
	}
	var n int
	if assess.ValidID(assess.PrefixUser, ownerID) {
		if err := q.QueryRow(ctx, "SELECT count(*) FROM users WHERE id = $1", ownerID).Scan(&n); err != nil {
			return err
		}
	}
	if n == 0 {
		return &assess.Error{Code: assess.ECodeValidation, Message: "The owner does not exist.",
			Details: []assess.Detail{{Field: "ownerId", Code: "unknown", Message: "Use a user id."}}}
	}
	return nil
}

// lockedProject is what a change reads about a project after locking it.
type lockedProject struct {
	state              assess.ProjectState
	startDate, dueDate string
	archivedAt         *time.Time
}

// lockProject locks project id at version and reads what a change needs of it.
func lockProject(ctx context.Context, tx *postgres.Tx, id string, version int64) (lockedProject, error) {
	var lp lockedProject
	if !assess.ValidID(assess.PrefixProject, id) {
		return lp, errProjectNotFound
	}
	if err := tx.LockVersion(ctx, "projects", id, version, errProjectNotFound); err != nil {
		return lp, err
	}
	err := tx.QueryRow(ctx, `SELECT state, coalesce(to_char(start_date, 'YYYY-MM-DD'), ''), coalesce(to_char(due_date, 'YYYY-MM-DD'), ''),
		archived_at FROM projects WHERE id = $1`, id).Scan(&lp.state, &lp.startDate, &lp.dueDate, &lp.archivedAt)
	return lp, err
}

// UpdateProject implements assess.ProjectService with optimistic concurrency; an archived
// project is read-only (422 project_archived).
func (s *ProjectService) UpdateProject(ctx context.Context, id string, upd assess.ProjectUpdate, actor assess.Actor) (assess.Project, error) {
	var p assess.Project
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := upd.Validate(); err != nil {
			return err
		}
		lp, err := lockProject(ctx, tx, id, upd.Version)
		if err != nil {
			return err
		}
		if lp.archivedAt != nil {
			return assess.ErrProjectArchived
		}
		if err := applyProjectUpdate(ctx, tx, id, lp, upd); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "projects", id); err != nil {
			return err
		}
		p, err = RecordProject(ctx, tx, assess.ChangeProjectUpdated, id, map[string]any{"changes": projectAuditChanges(upd)})
		return err
	})
	return p, err
}

// applyProjectUpdate writes the fields of upd; the dates are checked as they end up.
func applyProjectUpdate(ctx context.Context, tx *postgres.Tx, id string, lp lockedProject, upd assess.ProjectUpdate) error {
	start, due := lp.startDate, lp.dueDate
	if upd.StartDate != nil {
		start = *upd.StartDate
	}
	if upd.DueDate != nil {
		due = *upd.DueDate
	}
	if details := assess.CheckProjectDates(&start, &due); len(details) > 0 {
		return &assess.Error{Code: assess.ECodeValidation, Message: "The project is invalid.", Details: details}
	}
	if upd.OwnerID != nil {
		if err := checkProjectOwner(ctx, tx, *upd.OwnerID); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE projects SET name = coalesce($2, name), description = coalesce($3, description),
		owner_id = CASE WHEN $4::text IS NULL THEN owner_id ELSE nullif($4::text, '') END,
		start_date = nullif($5::text, '')::date, due_date = nullif($6::text, '')::date WHERE id = $1`,
		id, upd.Name, upd.Description, upd.OwnerID, start, due); err != nil {
		return err
	}
	return setProjectLinks(ctx, tx, id, derefSet(upd.StandardIDs), derefSet(upd.EntityIDs), derefSet(upd.TagIDs))
}

// derefSet returns the set p points to (never nil when p is not), or nil.
func derefSet(p *[]string) []string {
	if p == nil {
		return nil
	}
	if *p == nil {
		return []string{}
	}
	return *p
}

// projectAuditChanges lists the fields an update sets.
func projectAuditChanges(upd assess.ProjectUpdate) map[string]any {
	m := map[string]any{}
	postgres.PutSet(m, "name", upd.Name)
	postgres.PutSet(m, "description", upd.Description)
	postgres.PutSet(m, "ownerId", upd.OwnerID)
	postgres.PutSet(m, "startDate", upd.StartDate)
	postgres.PutSet(m, "dueDate", upd.DueDate)
	postgres.PutSet(m, "standardIds", upd.StandardIDs)
	postgres.PutSet(m, "entityIds", upd.EntityIDs)
	postgres.PutSet(m, "tagIds", upd.TagIDs)
	return m
}

// ChangeProjectState implements assess.ProjectService: the move must be one
// assess.ProjectLifecycle allows (409 invalid_state_transition listing the allowed ones).
func (s *ProjectService) ChangeProjectState(ctx context.Context, id string, sc assess.ProjectStateChange, actor assess.Actor) (assess.Project, error) {
	var p assess.Project
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := sc.Validate(); err != nil {
			return err
		}
		lp, err := lockProject(ctx, tx, id, sc.Version)
		if err != nil {
			return err
		}
		if lp.archivedAt != nil {
			return assess.ErrProjectArchived
		}
		if err := assess.ProjectLifecycle.Check(lp.state, sc.State); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE projects SET state = $2 WHERE id = $1", id, sc.State); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "projects", id); err != nil {
			return err
		}
		p, err = RecordProject(ctx, tx, assess.ChangeProjectStateChanged, id, map[string]any{"from": lp.state, "to": sc.State})
		return err
	})
	return p, err
}

// ArchiveProject implements assess.ProjectService. Archiving an archived project (or
// restoring one that is not archived) changes nothing and answers the project as it is.
func (s *ProjectService) ArchiveProject(ctx context.Context, id string, a assess.ProjectArchive, actor assess.Actor) (assess.Project, error) {
	archive := a.Archived == nil || *a.Archived
	var p assess.Project
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		lp, err := lockProject(ctx, tx, id, a.Version)
		if err != nil {
			return err
		}
		if (lp.archivedAt != nil) == archive {
			p, err = findProject(ctx, tx, id, projectToday(tx.Now))
			return err
		}
		change := assess.ChangeProjectRestored
		if archive {
			change = assess.ChangeProjectArchived
		}
		if _, err := tx.Exec(ctx, "UPDATE projects SET archived_at = CASE WHEN $2 THEN $3::timestamptz END WHERE id = $1",
			id, archive, tx.Now); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "projects", id); err != nil {
			return err
		}
		p, err = RecordProject(ctx, tx, change, id, nil)
		return err
	})
	return p, err
}

// DeleteProject implements assess.ProjectService: the project and its links are deleted
// for good (archived or not); the event carries it as it was.
func (s *ProjectService) DeleteProject(ctx context.Context, id string, actor assess.Actor) error {
	if !assess.ValidID(assess.PrefixProject, id) {
		return errProjectNotFound
	}
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT 1 FROM projects WHERE id = $1 FOR UPDATE", id); err != nil {
			return err
		}
		p, err := findProject(ctx, tx, id, projectToday(tx.Now))
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM projects WHERE id = $1", id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeProjectDeleted, projectTarget(id), map[string]any{"name": p.Name}, projectEvent(p))
	})
}
