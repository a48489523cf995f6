package postgres_test

import (
	"encoding/json"
	"errors"
	"fmt"
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

// TestClaimListsItsEvidenceByName: a claim lists the evidence of each kind of citation by
// name, case aside, then id, whatever the order of the request, with each piece's name and
// state beside its id — as created, read alone and read in the list.
func TestClaimListsItsEvidenceByName(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOff())
	ann := f.user("ann", assess.RoleAssessor)
	as, ar := claimSetup(f, ann)
	ids := assess.NewIDs(assess.PrefixEvidence, f.clock.Now(), 4) // in id order
	_, err := f.pool.Exec(f.ctx, `INSERT INTO evidence (id, name, author_id, state) VALUES ($1, 'beta', $5, 'in_progress'),
		($2, 'Alpha', $5, 'in_review'), ($3, 'alpha', $5, 'in_progress'), ($4, 'Gamma', $5, 'in_review')`, ids[0], ids[1], ids[2], ids[3], ann.ID)
	require.NoError(t, err)
	c, err := f.svc.Claims.CreateClaim(f.ctx, as, assess.NewClaim{Name: "C", Target: "T", Predicate: "P", RequirementIDs: []string{ar},
		EvidenceIDs: []string{ids[3], ids[0], ids[2], ids[1]}, MitigationEvidenceIDs: []string{ids[0], ids[3]}}, signedIn(f, ann))
	require.NoError(t, err)
	read, err := f.svc.Claims.FindClaim(f.ctx, c.ID, signedIn(f, ann))
	require.NoError(t, err)
	page, err := f.svc.Claims.FindClaims(f.ctx, as, assess.ClaimFilter{}, signedIn(f, ann))
	require.NoError(t, err)
	require.Len(t, page.Items, 1)
	for _, got := range []assess.Claim{c, read, page.Items[0]} {
		require.Equal(t, []assess.ClaimEvidence{{ID: ids[1], Name: "Alpha", State: "in_review"}, {ID: ids[2], Name: "alpha", State: "in_progress"},
			{ID: ids[0], Name: "beta", State: "in_progress"}, {ID: ids[3], Name: "Gamma", State: "in_review"}}, got.Evidence)
		require.Equal(t, []assess.ClaimEvidence{{ID: ids[0], Name: "beta", State: "in_progress"}, {ID: ids[3], Name: "Gamma", State: "in_review"}},
			got.MitigationStrategies)
		require.Empty(t, got.CounterEvidence)
	}
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

// walkClaims reads every page of the claims of an assessment with filter f and returns the
// ids in the order read and the size of each page.
func walkClaims(t *testing.T, f *eventsFixture, assessmentID string, filter assess.ClaimFilter, actor assess.Actor) ([]string, []int) {
	t.Helper()
	var ids []string
	var sizes []int
	for {
		page, err := f.svc.Claims.FindClaims(f.ctx, assessmentID, filter, actor)
		require.NoError(t, err)
		require.Equal(t, page.NextCursor != "", page.HasMore)
		sizes = append(sizes, len(page.Items))
		for _, c := range page.Items {
			ids = append(ids, c.ID)
		}
		if !page.HasMore {
			return ids, sizes
		}
		require.Less(t, len(sizes), 10, "the pages end")
		filter.Cursor = page.NextCursor
	}
}

// TestClaimPagesWalkEveryClaimOnce: the claims of an assessment come in pages of 50
// (oldest first, each claim once), the requirement filter pages the same way, a cursor
// is refused with other filters or when it is not one, and someone off the team gets 404.
// The claims citing a piece of evidence page the same way, a claim citing it twice
// listed twice.
func TestClaimPagesWalkEveryClaimOnce(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOff())
	ann, oscar := f.user("ann", assess.RoleAssessor), f.user("oscar", assess.RoleAssessor)
	as, ar := claimSetup(f, ann)
	ev := assess.NewID(assess.PrefixEvidence, f.clock.Now())
	_, err := f.pool.Exec(f.ctx, `INSERT INTO evidence (id, name, author_id) VALUES ($1, 'Scan', $2)`, ev, ann.ID)
	require.NoError(t, err)
	var all, aboutAR, citations []string
	for i := range 110 {
		in := assess.NewClaim{Name: "Claim", Target: "T", Predicate: "P", EvidenceIDs: []string{ev}}
		if i%2 == 0 {
			in.RequirementIDs = []string{ar}
		}
		if i%3 == 0 {
			in.MitigationEvidenceIDs = []string{ev}
		}
		c, err := f.svc.Claims.CreateClaim(f.ctx, as, in, signedIn(f, ann))
		require.NoError(t, err)
		all = append(all, c.ID)
		citations = append(citations, c.ID+" evidence")
		if i%2 == 0 {
			aboutAR = append(aboutAR, c.ID)
		}
		if i%3 == 0 {
			citations = append(citations, c.ID+" mitigation")
		}
	}

	ids, sizes := walkClaims(t, f, as, assess.ClaimFilter{}, signedIn(f, ann))
	require.Equal(t, all, ids, "every claim once, oldest first")
	require.Equal(t, []int{50, 50, 10}, sizes, "the default page is 50")
	ids, sizes = walkClaims(t, f, as, assess.ClaimFilter{Requirement: ar}, signedIn(f, ann))
	require.Equal(t, aboutAR, ids)
	require.Equal(t, []int{50, 5}, sizes)
	ids, sizes = walkClaims(t, f, as, assess.ClaimFilter{PageRequest: assess.PageRequest{Limit: 500}}, signedIn(f, ann))
	require.Equal(t, all, ids)
	require.Equal(t, []int{110}, sizes, "at most 200 a page")

	first, err := f.svc.Claims.FindClaims(f.ctx, as, assess.ClaimFilter{}, signedIn(f, ann))
	require.NoError(t, err)
	for name, filter := range map[string]assess.ClaimFilter{
		"with a filter added": {PageRequest: assess.PageRequest{Cursor: first.NextCursor}, Requirement: ar},
		"not a cursor":        {PageRequest: assess.PageRequest{Cursor: "abc"}},
		"cut short":           {PageRequest: assess.PageRequest{Cursor: first.NextCursor[:len(first.NextCursor)-2]}},
	} {
		_, err := f.svc.Claims.FindClaims(f.ctx, as, filter, signedIn(f, ann))
		require.Equal(t, assess.ECodeValidation, assess.ErrorCode(err), "%s: %v", name, err)
	}
	_, err = f.svc.Claims.FindClaims(f.ctx, as, assess.ClaimFilter{}, signedIn(f, oscar))
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "oscar is not on the team")
	_, err = f.svc.Claims.FindClaims(f.ctx, "as_nope", assess.ClaimFilter{}, signedIn(f, ann))
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err))

	var cited []string
	page := assess.PageRequest{}
	for range 10 {
		p, err := f.svc.Evidence.FindEvidenceClaims(f.ctx, ev, page, signedIn(f, ann))
		require.NoError(t, err)
		require.LessOrEqual(t, len(p.Items), 50)
		for _, c := range p.Items {
			cited = append(cited, c.ID+" "+c.Relation)
		}
		if !p.HasMore {
			break
		}
		page.Cursor = p.NextCursor
	}
	require.Equal(t, citations, cited, "each citation once, by claim and kind")
	_, err = f.svc.Evidence.FindEvidenceClaims(f.ctx, ev, assess.PageRequest{Cursor: first.NextCursor}, signedIn(f, ann))
	require.Equal(t, assess.ECodeValidation, assess.ErrorCode(err), "a cursor of the claims of an assessment")
	_, err = f.svc.Evidence.FindEvidenceClaims(f.ctx, ev, assess.PageRequest{}, signedIn(f, oscar))
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "oscar may not see the evidence")
}

// TestClaimsBeyondOnePageReachTheAttestation: the API lists claims a page at a time, but
// an attestation takes every claim of its assessment, and its statement (CycloneDX
// export), its map and the PDF reports of the assessment and the attestation carry all of
// them: 60 claims, more than a page of 50.
func TestClaimsBeyondOnePageReachTheAttestation(t *testing.T) {
	t.Parallel()
	s := newAttestationStore(t)
	s.exec(`UPDATE assessments SET state = 'in_progress' WHERE id = $1`, s.assessmentID)
	for i := range 58 {
		_, err := s.svc.Claims.CreateClaim(s.ctx, s.assessmentID, assess.NewClaim{Name: fmt.Sprintf("Control %02d", i), Target: "The shop",
			Predicate: "Holds.", RequirementIDs: s.reqs[2:]}, s.assessor)
		require.NoError(t, err)
	}
	s.exec(`UPDATE assessments SET state = 'complete' WHERE id = $1`, s.assessmentID)
	reader := s.user("reader", assess.PermAssessmentsView, assess.PermAssessmentsViewAll, assess.PermClaimsView, assess.PermAttestationsView)

	page, err := s.svc.Claims.FindClaims(s.ctx, s.assessmentID, assess.ClaimFilter{}, reader)
	require.NoError(t, err)
	require.Len(t, page.Items, 50, "the API's page")
	require.True(t, page.HasMore)

	at, err := s.svc.Attestations.CreateAttestation(s.ctx, assess.NewAttestation{AssessmentID: s.assessmentID}, s.assessor)
	require.NoError(t, err)
	require.Len(t, at.ClaimIDs, 60, "every claim of the assessment by default")
	m, err := s.svc.Attestations.FindAttestationRequirements(s.ctx, at.ID, s.assessor)
	require.NoError(t, err)
	require.Len(t, m.Items[2].ClaimIDs, 58, "the map names every claim about the requirement")

	doc, err := s.svc.Attestations.ExportAttestation(s.ctx, at.ID, "1.6", s.assessor)
	require.NoError(t, err)
	var bom struct {
		Declarations struct {
			Claims []struct {
				BOMRef string `json:"bom-ref"`
			} `json:"claims"`
		} `json:"declarations"`
	}
	require.NoError(t, json.Unmarshal(doc.Bytes, &bom))
	require.Len(t, bom.Declarations.Claims, 60, "the CycloneDX statement declares every claim")

	r, err := s.svc.Reports.AssessmentReport(s.ctx, s.assessmentID, reader)
	require.NoError(t, err)
	require.Len(t, r.Claims, 60, "the assessment's report")
	r, err = s.svc.Reports.AttestationReport(s.ctx, at.ID, reader)
	require.NoError(t, err)
	require.Len(t, r.Claims, 60, "the attestation's report")
}
