package work

import (
	"context"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// CreateAssessment implements assess.AssessmentService: the entity must exist and not be
// archived, the project (optional) exist and not be archived, the standards be published
// with levels of their own, the team's users be active. The creator joins as assessor
// unless already in the team or holding assessments.view_all (who sees it anyway).
// Four round trips without tags (docs/performance.md, "Creates and the write ceiling"):
// the begin; every check in one batch, each read answering what the assessment shows of
// what it names (the entity's and project's names, the standards and levels, the team's
// names); the inserts with the audit row and the event; the commit. The assessment is
// answered as written, not read back (TestCreatesAnswerWhatAReadShows holds the answer to
// a read's); the errors come in the order of the checks: entity, project, standards, team.
func (s *AssessmentService) CreateAssessment(ctx context.Context, in assess.NewAssessment, actor assess.Actor) (assess.Assessment, error) {
	var a assess.Assessment
	err := s.db.ChangeGeneric(ctx, actor, func(tx *postgres.Tx) error {
		if err := in.Validate(); err != nil {
			return err
		}
		assessors := in.AssessorIDs
		if tx.Actor.Principal != nil && !tx.Actor.Can(assess.PermAssessmentsViewAll) &&
			!slices.Contains(in.AssessorIDs, tx.Actor.ID) && !slices.Contains(in.AssesseeIDs, tx.Actor.ID) {
			assessors = append(slices.Clone(assessors), tx.Actor.ID)
		}
		a = assess.Assessment{ID: assess.NewID(assess.PrefixAssessment, tx.Now), Title: in.Title, Description: in.Description,
			State: assess.AssessmentNew, EntityID: in.EntityID, ProjectID: in.ProjectID, CompletionEvidence: in.CompletionEvidence,
			Tags: []assess.TagRef{}, Version: 1, CreatedAt: tx.Now.UTC(), UpdatedAt: tx.Now.UTC()}
		if tx.Actor.Principal != nil { // a user; the service and the command line are no user
			a.CreatedBy = tx.Actor.ID
		}
		var b pgx.Batch
		found := queueNewAssessmentChecks(&b, in, assessors)
		if err := tx.SendBatch(ctx, &b).Close(); err != nil {
			return err
		}
		if err := found.judge(&a, in, assessors); err != nil {
			return err
		}
		a.AllowedStates = postgres.OrEmpty(assess.AssessmentLifecycle.Allowed(a.State))
		a.Overdue = assess.AssessmentOverdue(a.State, a.DueDate, projectToday(tx.Now))
		writes := newAssessmentWrites(tx, a, in, assessors)
		if len(in.TagIDs) > 0 { // the tags need the assessment's row
			if err := tx.Send(ctx, writes...); err != nil {
				return err
			}
			writes = nil
			if err := postgres.ReplaceTags(ctx, tx, postgres.AssessmentTags, a.ID, in.TagIDs); err != nil {
				return err
			}
			tags, err := postgres.LoadTags(ctx, tx, postgres.AssessmentTags, []string{a.ID})
			if err != nil {
				return err
			}
			a.Tags = tags[a.ID]
		}
		return tx.Record(ctx, assess.ChangeAssessmentCreated, assessmentTarget(a.ID), map[string]any{"title": in.Title,
			"entityId": in.EntityID, "projectId": in.ProjectID, "completionEvidence": in.CompletionEvidence},
			assessmentEvent(a, ""), writes...)
	})
	return a, err
}

// newAssessmentFound is what the checks of a new assessment read.
type newAssessmentFound struct {
	entityStates                []string
	entityName, dueDate         string
	projectFound, projectClosed bool
	projectName                 string
	standards                   []newAssessmentStandard
	users                       []newAssessmentUser // every user named, by lower(username), id
}

type newAssessmentStandard struct {
	assess.AssessmentStandard
	known, published, levelOK bool
}

type newAssessmentUser struct {
	assess.UserRef
	active bool
}

// queueNewAssessmentChecks queues the checks of request in with the team's assessors (the
// creator added): checkAssessmentEntity's, checkAssessmentProject's,
// replaceAssessmentStandards' and checkTeamUsers', each reading what the assessment shows;
// the first also writes the due date as PostgreSQL stores it.
func queueNewAssessmentChecks(b *pgx.Batch, in assess.NewAssessment, assessors []string) *newAssessmentFound {
	f := &newAssessmentFound{}
	entityID := in.EntityID
	if !assess.ValidID(assess.PrefixEntity, entityID) {
		entityID = "" // no such entity: none is read
	}
	b.Queue(`SELECT coalesce(array_agg(state), '{}'), coalesce(max(name), ''),
		coalesce((SELECT to_char(nullif($2::text, '')::date, 'YYYY-MM-DD')), '') FROM entities WHERE id = $1`,
		entityID, in.DueDate).QueryRow(func(row pgx.Row) error { return row.Scan(&f.entityStates, &f.entityName, &f.dueDate) })
	if in.ProjectID != "" && assess.ValidID(assess.PrefixProject, in.ProjectID) {
		b.Queue("SELECT count(*) > 0, bool_or(archived_at IS NOT NULL), coalesce(max(name), '') FROM projects WHERE id = $1",
			in.ProjectID).QueryRow(func(row pgx.Row) error {
			var closed *bool
			err := row.Scan(&f.projectFound, &closed, &f.projectName)
			f.projectClosed = closed != nil && *closed
			return err
		})
	}
	if len(in.Standards) > 0 {
		standardIDs, levelIDs := make([]string, len(in.Standards)), make([]string, len(in.Standards))
		for i, st := range in.Standards {
			standardIDs[i], levelIDs[i] = st.StandardID, st.LevelID
		}
		b.Queue(`SELECT x.standard_id, coalesce(s.name, ''), coalesce(s.standard_version, ''), x.level_id,
				coalesce(nullif(l.title, ''), l.identifier, ''), s.id IS NOT NULL, s.state IS NOT DISTINCT FROM 'published',
				x.level_id = '' OR l.id IS NOT NULL
			FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(standard_id, level_id, n)
			LEFT JOIN standards s ON s.id = x.standard_id LEFT JOIN levels l ON l.id = x.level_id AND l.standard_id = x.standard_id
			ORDER BY x.n`, standardIDs, levelIDs).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var st newAssessmentStandard
				if err := rows.Scan(&st.ID, &st.Name, &st.StandardVersion, &st.LevelID, &st.LevelName, &st.known, &st.published,
					&st.levelOK); err != nil {
					return err
				}
				f.standards = append(f.standards, st)
			}
			return rows.Err()
		})
	}
	if team := slices.Concat(assessors, in.AssesseeIDs); len(team) > 0 {
		b.Queue("SELECT id, username, display_name, active FROM users WHERE id = ANY ($1) ORDER BY lower(username), id",
			team).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var u newAssessmentUser
				if err := rows.Scan(&u.ID, &u.Username, &u.DisplayName, &u.active); err != nil {
					return err
				}
				f.users = append(f.users, u)
			}
			return rows.Err()
		})
	}
	return f
}

// judge answers the first problem of the request in the order of the checks, and
// otherwise completes a with what was found.
func (f *newAssessmentFound) judge(a *assess.Assessment, in assess.NewAssessment, assessors []string) error {
	switch {
	case len(f.entityStates) == 0:
		return fieldError(assess.ECodeValidation, "entityId", "unknown", "The entity does not exist.")
	case f.entityStates[0] == "archived":
		return fieldError(assess.ECodeBusinessRule, "entityId", "entity_archived", "An archived entity cannot be assessed.")
	case in.ProjectID != "" && !f.projectFound:
		return fieldError(assess.ECodeValidation, "projectId", "unknown", "The project does not exist.")
	case f.projectClosed:
		return fieldError(assess.ECodeBusinessRule, "projectId", "project_archived", "An archived project takes no new assessments.")
	}
	a.EntityName, a.ProjectName, a.DueDate = f.entityName, f.projectName, f.dueDate
	switch {
	case slices.ContainsFunc(f.standards, func(s newAssessmentStandard) bool { return !s.known }):
		return fieldError(assess.ECodeValidation, "standards", "unknown", "A standard does not exist.")
	case slices.ContainsFunc(f.standards, func(s newAssessmentStandard) bool { return !s.levelOK }):
		return fieldError(assess.ECodeValidation, "standards", "unknown_level", "A level is not one of its standard's levels.")
	case slices.ContainsFunc(f.standards, func(s newAssessmentStandard) bool { return !s.published }):
		return fieldError(assess.ECodeBusinessRule, "standards", "standard_not_published", "Only published standards can be assessed against.")
	}
	a.Standards = []assess.AssessmentStandard{}
	for _, st := range f.standards {
		a.Standards = append(a.Standards, st.AssessmentStandard)
	}
	for _, side := range []struct {
		field string
		ids   []string
		refs  *[]assess.UserRef
	}{{"assessorIds", assessors, &a.Assessors}, {"assesseeIds", in.AssesseeIDs, &a.Assessees}} {
		*side.refs = []assess.UserRef{}
		for _, u := range f.users {
			if slices.Contains(side.ids, u.ID) {
				*side.refs = append(*side.refs, u.UserRef)
			}
		}
		switch {
		case len(*side.refs) != len(side.ids):
			return fieldError(assess.ECodeValidation, side.field, "unknown", "A user does not exist.")
		case slices.ContainsFunc(f.users, func(u newAssessmentUser) bool { return !u.active && slices.Contains(side.ids, u.ID) }):
			return fieldError(assess.ECodeBusinessRule, side.field, "user_inactive", "Deactivated users cannot join a team.")
		}
	}
	return nil
}

// newAssessmentWrites are the inserts of new assessment a of request in, with its team's
// assessors: the assessment, its standards (in their order) and its team.
func newAssessmentWrites(tx *postgres.Tx, a assess.Assessment, in assess.NewAssessment, assessors []string) []postgres.Statement {
	var createdBy *string
	if a.CreatedBy != "" {
		createdBy = &a.CreatedBy
	}
	writes := []postgres.Statement{{SQL: `INSERT INTO assessments (id, title, description, entity_id, project_id, due_date, created_by,
			completion_evidence, created_at, updated_at) VALUES ($1, $2, $3, $4, nullif($5::text, ''), nullif($6::text, '')::date, $7, $8, $9, $9)`,
		Args: []any{a.ID, in.Title, in.Description, in.EntityID, in.ProjectID, in.DueDate, createdBy, in.CompletionEvidence, tx.Now}}}
	if len(in.Standards) > 0 {
		standardIDs, levelIDs := make([]string, len(in.Standards)), make([]string, len(in.Standards))
		for i, st := range in.Standards {
			standardIDs[i], levelIDs[i] = st.StandardID, st.LevelID
		}
		writes = append(writes, postgres.Statement{SQL: `INSERT INTO assessment_standards (assessment_id, standard_id, level_id, position)
			SELECT $1, x.standard_id, nullif(x.level_id, ''), x.n FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS x(standard_id, level_id, n)`,
			Args: []any{a.ID, standardIDs, levelIDs}})
	}
	if len(assessors) > 0 || len(in.AssesseeIDs) > 0 {
		writes = append(writes, postgres.Statement{SQL: `INSERT INTO assessment_members (assessment_id, user_id, role, created_at)
			SELECT $1, u, 'assessor', $4::timestamptz FROM unnest($2::text[]) u
			UNION ALL SELECT $1, u, 'assessee', $4::timestamptz FROM unnest($3::text[]) u`,
			Args: []any{a.ID, postgres.OrEmpty(assessors), postgres.OrEmpty(in.AssesseeIDs), tx.Now}})
	}
	return writes
}
