package postgres_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// The revisions behind the API's ETags and kept answers (assess.Revision): every change
// of what a read shows must move its revision, through any write path, and nothing else
// may. A write path that changes a standard's content without touching the standard's row
// (or the workspace without touching the rows its revision reads) fails here.

// revisions collects revisions and requires each new one to differ from all before it.
type revisions struct {
	t    *testing.T
	seen map[string]string // tag → the step that gave it
	last assess.Revision
}

func (r *revisions) moved(step string, rev assess.Revision, err error) {
	r.t.Helper()
	require.NoError(r.t, err, step)
	if before, ok := r.seen[rev.Tag]; ok {
		r.t.Fatalf("%s left the revision as %s gave it: %q", step, before, rev.Tag)
	}
	r.seen[rev.Tag], r.last = step, rev
}

func (r *revisions) kept(step string, rev assess.Revision, err error) {
	r.t.Helper()
	require.NoError(r.t, err, step)
	require.Equal(r.t, r.last.Tag, rev.Tag, "%s changed nothing the reads show", step)
}

func TestStandardRevisionMovesWithEveryChange(t *testing.T) {
	t.Parallel()
	k := newStoreKit(t)
	author := signedIn(k.eventsFixture, k.user("author", assess.RoleStandardsManager))
	approver := signedIn(k.eventsFixture, k.user("approver", assess.RoleStandardsApprover))
	svc := k.svc.Standards
	st, err := svc.CreateStandard(k.ctx, assess.NewStandard{Identifier: "rev", StandardVersion: "1", Name: "Revisions"}, author)
	require.NoError(t, err)
	r := &revisions{t: t, seen: map[string]string{}}
	rev := func() (assess.Revision, error) { return svc.StandardRevision(k.ctx, st.ID) }
	step := func(name string, change func() error) {
		t.Helper()
		require.NoError(t, change(), name)
		got, err := rev()
		r.moved(name, got, err)
		require.False(t, got.Keep, "a draft's answers are not kept")
	}
	moved := func(name string) assess.Revision {
		t.Helper()
		got, err := rev()
		r.moved(name, got, err)
		return got
	}
	kept := func(name string) {
		t.Helper()
		got, err := rev()
		r.kept(name, got, err)
	}
	moved("creation")

	var rq assess.Requirement
	var lv assess.Level
	web := k.tag("web")
	step("a new requirement", func() (err error) {
		rq, err = svc.CreateRequirement(k.ctx, st.ID, assess.NewRequirement{Identifier: "R1"}, author)
		return err
	})
	step("a requirement renamed", func() (err error) {
		rq, err = svc.UpdateRequirement(k.ctx, st.ID, rq.ID, assess.RequirementUpdate{Version: rq.Version, Name: ptr("One")}, author)
		return err
	})
	step("a bulk write", func() error {
		_, err := svc.WriteRequirements(k.ctx, st.ID, assess.BulkRequirements{Requirements: []assess.BulkRequirement{{Identifier: "R2"}}}, author)
		return err
	})
	step("a requirement moved", func() error {
		_, err := svc.MoveRequirement(k.ctx, st.ID, rq.ID, assess.RequirementMove{Position: 1}, author)
		return err
	})
	step("a new level", func() (err error) {
		lv, err = svc.CreateLevel(k.ctx, st.ID, assess.NewLevel{Identifier: "L1", RequirementIDs: []string{rq.ID}}, author)
		return err
	})
	step("a level's members", func() (err error) {
		lv, err = svc.UpdateLevel(k.ctx, st.ID, lv.ID, assess.LevelUpdate{Version: lv.Version, RequirementIDs: &[]string{}}, author)
		return err
	})
	step("a CSV import", func() error {
		_, err := k.svc.Transfer.ImportRequirementRows(k.ctx, st.ID, []assess.RequirementRow{{Line: 2, Identifier: "R3", Name: "Three"}}, author)
		return err
	})
	step("a level deleted", func() error { return svc.DeleteLevel(k.ctx, st.ID, lv.ID, author) })
	step("a requirement deleted", func() error { return svc.DeleteRequirement(k.ctx, st.ID, rq.ID, author) })
	current := func() int64 {
		s, err := svc.FindStandard(k.ctx, st.ID)
		require.NoError(t, err)
		return s.Version
	}
	step("metadata", func() error {
		_, err := svc.UpdateStandard(k.ctx, st.ID, assess.StandardUpdate{Version: current(), Owner: ptr("OWASP")}, author)
		return err
	})
	step("tags", func() error {
		_, err := svc.UpdateStandard(k.ctx, st.ID, assess.StandardUpdate{Version: current(), TagIDs: &[]string{web}}, author)
		return err
	})
	step("the tag renamed", func() error {
		_, err := k.svc.Tags.UpdateTag(k.ctx, web, assess.TagUpdate{Version: 1, Name: ptr("Web")}, k.actor())
		return err
	})
	step("submitted", func() error { _, err := svc.SubmitStandard(k.ctx, st.ID, author); return err })

	_, err = svc.ApproveStandard(k.ctx, st.ID, approver)
	require.NoError(t, err)
	require.True(t, moved("approved").Keep, "a published standard's answers are kept")
	_, err = svc.CreateRequirement(k.ctx, st.ID, assess.NewRequirement{Identifier: "R9"}, author)
	require.Error(t, err)
	kept("a refused change")
	require.NoError(t, k.svc.Tags.DeleteTag(k.ctx, k.tag("other"), k.actor()))
	kept("another standard's tag")
	require.NoError(t, k.svc.Tags.DeleteTag(k.ctx, web, k.actor()))
	moved("its tag deleted")
	_, err = svc.RetireStandard(k.ctx, st.ID, assess.RetireRequest{}, author)
	require.NoError(t, err)
	require.True(t, moved("retired").Keep)

	_, err = svc.StandardRevision(k.ctx, k.newID(assess.PrefixStandard))
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err))
	_, err = svc.StandardRevision(k.ctx, "garbage")
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err))
}

func TestWorkspaceRevisionMovesWithEveryChange(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	f, svc := w.f, w.f.svc.Results
	r := &revisions{t: t, seen: map[string]string{}}
	rev := func() (assess.Revision, error) { return svc.WorkspaceRevision(f.ctx, w.assessmentID, w.assessor) }
	step := func(name string, change func() error) {
		t.Helper()
		require.NoError(t, change(), name)
		got, err := rev()
		r.moved(name, got, err)
		require.True(t, got.Keep)
		forAll, err := svc.WorkspaceRevision(f.ctx, w.assessmentID, w.viewAll)
		require.NoError(t, err)
		require.Equal(t, got, forAll, "every caller who may see the list sees the same one")
	}
	start, err := rev()
	r.moved("start", start, err)

	var ev assess.Evidence
	var claim assess.Claim
	step("a result", func() error {
		_, err := svc.RecordResult(f.ctx, w.assessmentID, w.ar["V3"], assess.ResultUpdate{Version: 1, Result: ptr(assess.ResultYes),
			Rationale: fifteenWords}, w.assessor)
		return err
	})
	step("results in bulk", func() error {
		_, err := svc.RecordResults(f.ctx, w.assessmentID, assess.BulkResults{Items: []assess.BulkResultItem{
			{ID: w.ar["V1.2"], Result: ptr(assess.ResultNo), Rationale: fifteenWords}}}, w.assessor)
		return err
	})
	step("the same result again", func() error { // a write is a change of the row, even when it writes the same
		_, err := svc.RecordResults(f.ctx, w.assessmentID, assess.BulkResults{Items: []assess.BulkResultItem{
			{ID: w.ar["V1.2"], Result: ptr(assess.ResultNo), Rationale: fifteenWords}}}, w.assessor)
		return err
	})
	step("evidence linked", func() (err error) {
		ev, err = f.svc.Evidence.CreateEvidence(f.ctx, assess.NewEvidence{Name: "Scan", RequirementIDs: []string{w.ar["V2.1"]}}, w.assessor)
		return err
	})
	step("evidence linked to another requirement", func() error {
		_, err := f.svc.Evidence.LinkEvidence(f.ctx, ev.ID, assess.NewEvidenceLink{AssessmentRequirementID: w.ar["V3"]}, w.assessor)
		return err
	})
	step("evidence unlinked", func() error { return f.svc.Evidence.UnlinkEvidence(f.ctx, ev.ID, w.ar["V2.1"], w.assessor) })
	step("other evidence linked", func() error {
		_, err := f.svc.Evidence.CreateEvidence(f.ctx, assess.NewEvidence{Name: "Policy", RequirementIDs: []string{w.ar["V1.2"]}}, w.assessor)
		return err
	})
	step("the first evidence deleted (its link with it)", func() error {
		return f.svc.Evidence.DeleteEvidence(f.ctx, ev.ID, ev.Version, w.assessor)
	})
	step("a claim", func() (err error) {
		claim, err = f.svc.Claims.CreateClaim(f.ctx, w.assessmentID, assess.NewClaim{Name: "Claim", Target: "The shop",
			Predicate: "It holds.", RequirementIDs: []string{w.ar["V3"]}}, w.assessor)
		return err
	})
	var second assess.Claim
	step("another claim", func() (err error) {
		second, err = f.svc.Claims.CreateClaim(f.ctx, w.assessmentID, assess.NewClaim{Name: "Second claim", Target: "The shop",
			Predicate: "It holds too.", RequirementIDs: []string{w.ar["V3"], w.ar["V1.2"]}}, w.assessor)
		return err
	})
	step("a claim about other requirements", func() (err error) {
		second, err = f.svc.Claims.UpdateClaim(f.ctx, second.ID, assess.ClaimUpdate{Version: second.Version,
			RequirementIDs: &[]string{w.ar["V2.1"], w.ar["V1.2"]}}, w.assessor)
		return err
	})
	// The workspace counts a requirement's claims and shows nothing else of them: a claim
	// about no requirement, or a change of a claim's words, leaves the list as it was.
	_, err = f.svc.Claims.CreateClaim(f.ctx, w.assessmentID, assess.NewClaim{Name: "Claim about the whole", Target: "The shop",
		Predicate: "It holds."}, w.assessor)
	require.NoError(t, err)
	_, err = f.svc.Claims.UpdateClaim(f.ctx, second.ID, assess.ClaimUpdate{Version: second.Version, Name: ptr("Second claim, renamed")}, w.assessor)
	require.NoError(t, err)
	kept, err := rev()
	r.kept("a claim about no requirement, a claim renamed", kept, err)
	step("the first claim deleted", func() error { return f.svc.Claims.DeleteClaim(f.ctx, claim.ID, claim.Version, w.viewAll) })
	step("the assessment renamed", func() error {
		a, err := f.svc.Assessments.FindAssessment(f.ctx, w.assessmentID, w.viewAll)
		require.NoError(t, err)
		_, err = f.svc.Assessments.UpdateAssessment(f.ctx, w.assessmentID, assess.AssessmentUpdate{Version: a.Version, Title: ptr("Renamed")}, w.viewAll)
		return err
	})
	_, err = svc.FindAssessmentRequirements(f.ctx, w.assessmentID, assess.AssessmentRequirementFilter{}, w.assessor)
	require.NoError(t, err)
	after, err := rev()
	r.kept("a read", after, err)

	_, err = svc.WorkspaceRevision(f.ctx, w.assessmentID, w.outsider)
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "the outsider may not see it")
	_, err = svc.WorkspaceRevision(f.ctx, assess.NewID(assess.PrefixAssessment, f.clock.Now()), w.viewAll)
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err))
}
