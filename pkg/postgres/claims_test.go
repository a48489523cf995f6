package postgres_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// claimSetup inserts, in SQL, an entity, a standard with one requirement and an
// in-progress assessment whose team is assessors, and returns the assessment and its one
// assessment requirement.
func claimSetup(f *eventsFixture, assessors ...assess.User) (string, string) {
	f.t.Helper()
	now := f.clock.Now()
	en, st, rq := assess.NewID(assess.PrefixEntity, now), assess.NewID(assess.PrefixStandard, now), assess.NewID(assess.PrefixRequirement, now)
	as, ar := assess.NewID(assess.PrefixAssessment, now), assess.NewID(assess.PrefixAssessmentRequirement, now)
	for _, stmt := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO entities (id, name, entity_type) VALUES ($1, 'Shop', 'product')`, []any{en}},
		{`INSERT INTO standards (id, identifier, name, state) VALUES ($1, 'std', 'Standard', 'published')`, []any{st}},
		{`INSERT INTO requirements (id, standard_id, identifier, natural_key) VALUES ($1, $2, 'R1', 'R1')`, []any{rq, st}},
		{`INSERT INTO assessments (id, title, entity_id, state) VALUES ($1, 'Shop review', $2, 'in_progress')`, []any{as, en}},
		{`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id) VALUES ($1, $2, $3, $4)`, []any{ar, as, rq, st}},
	} {
		_, err := f.pool.Exec(f.ctx, stmt.sql, stmt.args...)
		require.NoError(f.t, err)
	}
	for _, u := range assessors {
		_, err := f.pool.Exec(f.ctx, `INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ($1, $2, 'assessor')`, as, u.ID)
		require.NoError(f.t, err)
	}
	return as, ar
}

// signedIn is u as the actor of a request, with the permissions of their roles.
func signedIn(f *eventsFixture, u assess.User) assess.Actor {
	f.t.Helper()
	var perms []string
	require.NoError(f.t, f.pool.QueryRow(f.ctx, `SELECT coalesce(array_agg(DISTINCT rp.permission ORDER BY rp.permission), '{}')
		FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id WHERE ur.user_id = $1`, u.ID).Scan(&perms))
	return assess.Actor{ID: u.ID, Principal: &assess.Principal{User: u, Permissions: perms}}
}

// TestClaimCitesOnlyVisibleEvidence: the evidence a claim cites must be visible to the
// caller; citing writes the claim_evidence row the retention lock reads; the event names
// the assessment.
func TestClaimCitesOnlyVisibleEvidence(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOff())
	ann, bob := f.user("ann", assess.RoleAssessor), f.user("bob", assess.RoleAssessor)
	as, ar := claimSetup(f, ann)
	mine, hidden := assess.NewID(assess.PrefixEvidence, f.clock.Now()), assess.NewID(assess.PrefixEvidence, f.clock.Now())
	_, err := f.pool.Exec(f.ctx, `INSERT INTO evidence (id, name, author_id) VALUES ($1, 'Mine', $2), ($3, 'Hidden', $4)`, mine, ann.ID, hidden, bob.ID)
	require.NoError(t, err)

	_, err = f.svc.Claims.CreateClaim(f.ctx, as, assess.NewClaim{Name: "C", Target: "T", Predicate: "P", MitigationEvidenceIDs: []string{hidden}}, signedIn(f, ann))
	require.Equal(t, "unknown_evidence", detailCodeOf(err), "%v", err)

	c, err := f.svc.Claims.CreateClaim(f.ctx, as, assess.NewClaim{Name: "C", Target: "T", Predicate: "P",
		EvidenceIDs: []string{mine}, RequirementIDs: []string{ar}}, signedIn(f, ann))
	require.NoError(t, err)
	require.Equal(t, 1, f.count(`SELECT count(*) FROM claim_evidence WHERE claim_id = $1 AND evidence_id = $2 AND kind = 'evidence'`, c.ID, mine))
	require.Equal(t, 1, f.count(`SELECT count(*) FROM audit_log WHERE action = $1 AND target_id = $2 AND scope_id = $3`,
		assess.ChangeClaimCreated.Action, c.ID, as))

	_, err = f.svc.Claims.FindClaim(f.ctx, c.ID, signedIn(f, bob))
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "bob is not on the team")
	found, err := f.svc.Claims.FindClaim(f.ctx, c.ID, assess.SystemActor)
	require.NoError(t, err, "the service sees every assessment")
	require.Equal(t, []string{ar}, found.RequirementIDs)
}

// TestWorkNoteMentionsReachOnlyThoseWhoMaySee: a mention reaches active users who may
// see the assessment — its team, and holders of assessments.view_all — and nobody else.
func TestWorkNoteMentionsReachOnlyThoseWhoMaySee(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOff())
	ann, bea := f.user("ann", assess.RoleAssessor), f.user("bea", assess.RoleAssessor)
	f.user("oscar", assess.RoleAssessor)
	gone := f.user("gone", assess.RoleAssessor)
	as, _ := claimSetup(f, ann, bea, gone)
	_, err := f.pool.Exec(f.ctx, `UPDATE users SET active = false WHERE id = $1`, gone.ID)
	require.NoError(t, err)

	n, err := f.svc.WorkNotes.AddWorkNote(f.ctx, as, assess.NewWorkNote{Content: "@bea @oscar @gone @admin @ann: see this"}, signedIn(f, ann))
	require.NoError(t, err)
	var names []string
	for _, m := range n.Mentions {
		names = append(names, m.Username)
	}
	require.Equal(t, []string{"admin", "ann", "bea"}, names)
	require.Equal(t, []string{"admin", "bea"}, f.notified(f.lastEvent(assess.EventAssessmentNoteAdded)), "not the author, the outsider or the inactive")

	users, err := f.svc.WorkNotes.MentionableUsers(f.ctx, as, assess.MentionableFilter{}, signedIn(f, bea))
	require.NoError(t, err)
	require.Len(t, users, 2, "the active team: %v", users)
}

func detailCodeOf(err error) string {
	var e *assess.Error
	if !errors.As(err, &e) || len(e.Details) == 0 {
		return ""
	}
	return e.Details[0].Code
}
