package postgres_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

// assessmentStore is a store with an entity, a published standard of three leaves and
// users, for the assessment tests.
type assessmentStore struct {
	t        *testing.T
	ctx      context.Context
	pool     *pgxpool.Pool
	dsn      string
	svc      *services.Services
	entity   string
	standard string
}

func newAssessmentStore(t *testing.T) *assessmentStore {
	t.Helper()
	dsn := pgtest.NewDatabase(t)
	pool := openPool(t, dsn)
	s := &assessmentStore{t: t, ctx: context.Background(), pool: pool, dsn: dsn, svc: testServices(postgres.New(pool, nil)),
		entity: assess.NewID(assess.PrefixEntity, time.Now()), standard: assess.NewID(assess.PrefixStandard, time.Now())}
	s.exec(`INSERT INTO entities (id, name, entity_type) VALUES ($1, 'Shop', 'product')`, s.entity)
	s.exec(`INSERT INTO standards (id, identifier, name, state) VALUES ($1, 'std', 'Standard', 'published')`, s.standard)
	for i, ident := range []string{"R3", "R1", "R2"} {
		s.exec(`INSERT INTO requirements (id, standard_id, identifier, natural_key, position) VALUES ($1, $2, $3, $3, $4)`,
			assess.NewID(assess.PrefixRequirement, time.Now()), s.standard, ident, 3-i)
	}
	return s
}

func (s *assessmentStore) exec(sql string, args ...any) {
	s.t.Helper()
	_, err := s.pool.Exec(s.ctx, sql, args...)
	require.NoError(s.t, err, sql)
}

// user inserts a user holding perms (through a role of its own) and returns them as an actor.
func (s *assessmentStore) user(name string, perms ...assess.Perm) assess.Actor {
	s.t.Helper()
	id, role := assess.NewID(assess.PrefixUser, time.Now()), assess.NewID(assess.PrefixRole, time.Now())
	s.exec(`INSERT INTO users (id, username, email) VALUES ($1, $2, $2 || '@example.com')`, id, name)
	s.exec(`INSERT INTO roles (id, name) VALUES ($1, $2)`, role, "role_"+name)
	s.exec(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, id, role)
	keys := []string{}
	for _, p := range perms {
		s.exec(`INSERT INTO role_permissions (role_id, permission) VALUES ($1, $2)`, role, string(p))
		keys = append(keys, string(p))
	}
	slices.Sort(keys)
	return assess.Actor{ID: id, Principal: &assess.Principal{User: assess.User{ID: id, Username: name, Active: true}, Permissions: keys}}
}

// TestAssessmentVisibilityRulesAgree: the rule lists and reads apply (visibility.go) and
// the rule the event fan-out applies (assessment_visible in SQL) give the same answer for
// every kind of participant and outsider, and reads and writes of an invisible assessment
// are 404.
func TestAssessmentVisibilityRulesAgree(t *testing.T) {
	t.Parallel()
	s := newAssessmentStore(t)
	view := assess.PermAssessmentsView
	assessor := s.user("assessor", view, assess.PermAssessmentsCreate, assess.PermAssessmentsManage)
	assessee := s.user("assessee", view)
	author := s.user("author", view)
	reviewer := s.user("reviewer", view)
	outsider := s.user("outsider", view, assess.PermAssessmentsManage, assess.PermEvidenceViewAll)
	all := s.user("all", view, assess.PermAssessmentsViewAll)

	a, err := s.svc.Assessments.CreateAssessment(s.ctx, assess.NewAssessment{Title: "Shop", EntityID: s.entity,
		Standards: []assess.AssessmentStandardInput{{StandardID: s.standard}}, AssesseeIDs: []string{assessee.ID}}, assessor)
	require.NoError(t, err)
	require.Equal(t, []string{assessor.ID}, []string{a.Assessors[0].ID}, "the creator joins as assessor")
	a, err = s.svc.Assessments.TransitionAssessment(s.ctx, a.ID, assess.AssessmentTransition{To: assess.AssessmentInProgress, Version: a.Version}, assessor)
	require.NoError(t, err)
	require.Equal(t, 3, a.Progress.Total)
	var order []string
	rows, err := s.pool.Query(s.ctx, `SELECT r.identifier FROM assessment_requirements ar JOIN requirements r ON r.id = ar.requirement_id
		WHERE ar.assessment_id = $1 ORDER BY ar.id`, a.ID)
	require.NoError(t, err)
	for rows.Next() {
		var id string
		require.NoError(t, rows.Scan(&id))
		order = append(order, id)
	}
	require.Equal(t, []string{"R2", "R1", "R3"}, order, "by position, not by identifier")
	ev := assess.NewID(assess.PrefixEvidence, time.Now())
	s.exec(`INSERT INTO evidence (id, name, author_id, reviewer_id) VALUES ($1, 'Scan', $2, $3)`, ev, author.ID, reviewer.ID)
	s.exec(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id)
		SELECT id, $2, $1 FROM assessment_requirements WHERE assessment_id = $1 LIMIT 1`, a.ID, ev)

	for _, c := range []struct {
		name  string
		actor assess.Actor
		sees  bool
	}{
		{"assessor", assessor, true}, {"assessee", assessee, true}, {"evidence author", author, true},
		{"evidence reviewer", reviewer, true}, {"outsider, even with evidence.view_all", outsider, false},
		{"holder of assessments.view_all", all, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var fanOut bool
			require.NoError(t, s.pool.QueryRow(s.ctx, "SELECT assessment_visible($1, $2)", c.actor.ID, a.ID).Scan(&fanOut))
			require.Equal(t, c.sees, fanOut, "assessment_visible")
			page, err := s.svc.Assessments.FindAssessments(s.ctx, assess.AssessmentFilter{}, c.actor)
			require.NoError(t, err)
			require.Equal(t, c.sees, len(page.Items) == 1, "list")
			_, err = s.svc.Assessments.FindAssessment(s.ctx, a.ID, c.actor)
			require.Equal(t, c.sees, err == nil, "read: %v", err)
			if !c.sees {
				_, err = s.svc.Assessments.UpdateAssessment(s.ctx, a.ID, assess.AssessmentUpdate{Version: a.Version, Title: ptr("x")}, c.actor)
				requireCode(t, err, assess.ECodeNotFound, "")
				err = s.svc.Assessments.DeleteAssessment(s.ctx, a.ID, a.Version, c.actor)
				requireCode(t, err, assess.ECodeNotFound, "")
			}
		})
	}
}

// TestAssessmentConcurrentStartsLoadOnce: two starts of one assessment with the same
// version: one wins and loads the requirements once, the other gets version_conflict.
func TestAssessmentConcurrentStartsLoadOnce(t *testing.T) {
	t.Parallel()
	s := newAssessmentStore(t)
	assessor := s.user("assessor", assess.PermAssessmentsView, assess.PermAssessmentsManage)
	a, err := s.svc.Assessments.CreateAssessment(s.ctx, assess.NewAssessment{Title: "Race", EntityID: s.entity,
		Standards: []assess.AssessmentStandardInput{{StandardID: s.standard}}}, assessor)
	require.NoError(t, err)
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := s.svc.Assessments.TransitionAssessment(s.ctx, a.ID, assess.AssessmentTransition{To: assess.AssessmentInProgress, Version: a.Version}, assessor)
			errs <- err
		}()
	}
	first, second := <-errs, <-errs
	require.True(t, (first == nil) != (second == nil), "one start wins: %v / %v", first, second)
	if first == nil {
		first = second
	}
	requireCode(t, first, assess.ECodeVersionConflict, "")
	var n int
	require.NoError(t, s.pool.QueryRow(s.ctx, "SELECT count(*) FROM assessment_requirements WHERE assessment_id = $1", a.ID).Scan(&n))
	require.Equal(t, 3, n)
}
