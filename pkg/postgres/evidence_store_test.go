package postgres_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

func evidenceIDOf(e assess.Evidence) string { return e.ID }

// evidence creates a piece of evidence as author through the service and returns it.
func (k *storeKit) evidence(author assess.Actor, ne assess.NewEvidence) assess.Evidence {
	k.t.Helper()
	e, err := k.svc.Evidence.CreateEvidence(k.ctx, ne, author)
	require.NoError(k.t, err)
	return e
}

// evidenceWorkspace is an entity, a published standard of four requirements and a place
// to put assessments of them, for the evidence tests.
type evidenceWorkspace struct {
	*storeKit
	entity, standard string
	requirements     []string
}

func newEvidenceWorkspace(t *testing.T) *evidenceWorkspace {
	t.Helper()
	k := newStoreKit(t)
	w := &evidenceWorkspace{storeKit: k, entity: k.entity("Shop", assess.EntityActive), standard: k.standard("asvs", "5", assess.StandardPublished)}
	for _, r := range []string{"V1", "V2", "V3", "V4"} {
		w.requirements = append(w.requirements, k.requirement(w.standard, r))
	}
	return w
}

// assessmentWith makes an assessment in state with the workspace's requirements loaded
// and returns it with their assessment requirement ids.
func (w *evidenceWorkspace) assessmentWith(title string, state assess.AssessmentState) (string, []string) {
	w.t.Helper()
	as := w.assessment(title, w.entity, "", state)
	ars := make([]string, len(w.requirements))
	for i, rq := range w.requirements {
		ars[i] = w.load(as, w.standard, rq)
	}
	return as, ars
}

// TestEvidenceListFilters: every filter of the evidence list — state, author and
// reviewer (an id or me), tag, search (wildcards literal), expiring within n days (today
// included, expired evidence left out), counter-evidence, linked to an assessment or a
// requirement — and every order (newest first, name, valid-until with the undated last,
// paged across them) run in SQL.
func TestEvidenceListFilters(t *testing.T) {
	t.Parallel()
	w := newEvidenceWorkspace(t)
	annU, bobU := w.user("ann", assess.RoleAssessor), w.user("bob", assess.RoleAssessor)
	ann, bob, all := signedIn(w.eventsFixture, annU), signedIn(w.eventsFixture, bobU), w.adminSignedIn()
	web, supply := w.tag("web"), w.tag("supply")
	as, ars := w.assessmentWith("Review", assess.AssessmentInProgress)
	w.member(as, annU, assess.RoleInAssessmentAssessor)
	w.member(as, bobU, assess.RoleInAssessmentAssessor)
	names := map[string]string{}
	ids := map[string]string{}
	for _, c := range []struct {
		key    string
		author assess.Actor
		ne     assess.NewEvidence
	}{
		{"pentest", ann, assess.NewEvidence{Name: "Pen test report", Description: "External scan of the shop", ValidUntil: w.day(5),
			TagIDs: []string{web}, RequirementIDs: []string{ars[0]}}},
		{"sbom", ann, assess.NewEvidence{Name: "SBOM", IsCounterEvidence: true, ValidUntil: w.day(30), TagIDs: []string{web, supply},
			RequirementIDs: []string{ars[1]}}},
		{"firewall", bob, assess.NewEvidence{Name: "Firewall policy", Description: "Covers 100% of ports", ValidUntil: w.day(0),
			RequirementIDs: []string{ars[0]}}},
		{"cert", bob, assess.NewEvidence{Name: "Old certificate", ValidUntil: w.day(-1)}},
		{"stale", bob, assess.NewEvidence{Name: "stale scan", ValidUntil: w.day(3)}},
		{"note", ann, assess.NewEvidence{Name: "Undated note", Description: "Lists 1000 ports"}},
	} {
		e := w.evidence(c.author, c.ne)
		names[e.ID], ids[c.key] = c.key, e.ID
	}
	w.exec(`UPDATE evidence SET state = 'claimed' WHERE id = $1`, ids["firewall"])
	w.exec(`UPDATE evidence SET state = 'expired' WHERE id IN ($1, $2)`, ids["cert"], ids["stale"])
	w.exec(`UPDATE evidence SET state = 'in_review', reviewer_id = $2 WHERE id = $1`, ids["note"], bobU.ID)

	list := func(f assess.EvidenceFilter, actor assess.Actor) []string {
		t.Helper()
		page, err := w.svc.Evidence.FindEvidenceList(w.ctx, f, actor)
		require.NoError(t, err)
		return namesOf(page.Items, evidenceIDOf, names)
	}
	for _, c := range []struct {
		name  string
		f     assess.EvidenceFilter
		actor assess.Actor
		want  []string
	}{
		{"newest first", assess.EvidenceFilter{}, all, []string{"note", "stale", "cert", "firewall", "sbom", "pentest"}},
		{"by name whatever the case", assess.EvidenceFilter{Sort: "name"}, all, []string{"firewall", "cert", "pentest", "sbom", "stale", "note"}},
		{"soonest valid-until first, undated last", assess.EvidenceFilter{Sort: "validUntil"}, all,
			[]string{"cert", "firewall", "stale", "pentest", "sbom", "note"}},
		{"state", assess.EvidenceFilter{State: "expired"}, all, []string{"stale", "cert"}},
		{"author", assess.EvidenceFilter{Author: annU.ID}, all, []string{"note", "sbom", "pentest"}},
		{"author me", assess.EvidenceFilter{Author: assess.EvidenceFilterMe}, ann, []string{"note", "sbom", "pentest"}},
		{"reviewer me", assess.EvidenceFilter{Reviewer: assess.EvidenceFilterMe}, bob, []string{"note"}},
		{"tag", assess.EvidenceFilter{Tag: web}, all, []string{"sbom", "pentest"}},
		{"other tag", assess.EvidenceFilter{Tag: supply}, all, []string{"sbom"}},
		{"search in description, any case", assess.EvidenceFilter{Q: "SHOP"}, all, []string{"pentest"}},
		{"a percent sign matches itself", assess.EvidenceFilter{Q: "100%"}, all, []string{"firewall"}},
		{"expiring within 5 days: today to the fifth day, not expired", assess.EvidenceFilter{ExpiringWithin: 5}, all, []string{"firewall", "pentest"}},
		{"expiring within 30 days", assess.EvidenceFilter{ExpiringWithin: 30, Sort: "validUntil"}, all, []string{"firewall", "pentest", "sbom"}},
		{"expiring within 4 days", assess.EvidenceFilter{ExpiringWithin: 4}, all, []string{"firewall"}},
		{"counter-evidence", assess.EvidenceFilter{Counter: true}, all, []string{"sbom"}},
		{"linked to the assessment", assess.EvidenceFilter{Assessment: as}, all, []string{"firewall", "sbom", "pentest"}},
		{"linked to a requirement", assess.EvidenceFilter{Requirement: ars[0]}, all, []string{"firewall", "pentest"}},
		{"filters combine", assess.EvidenceFilter{Author: assess.EvidenceFilterMe, Tag: web, ExpiringWithin: 5}, ann, []string{"pentest"}},
	} {
		t.Run(c.name, func(t *testing.T) { require.Equal(t, c.want, list(c.f, c.actor)) })
	}

	t.Run("valid-until pages cross into the undated", func(t *testing.T) {
		var got []string
		f := assess.EvidenceFilter{Sort: "validUntil", PageRequest: assess.PageRequest{Limit: 4}}
		for range 3 {
			page, err := w.svc.Evidence.FindEvidenceList(w.ctx, f, all)
			require.NoError(t, err)
			got = append(got, namesOf(page.Items, evidenceIDOf, names)...)
			if page.NextCursor == "" {
				break
			}
			f.Cursor = page.NextCursor
		}
		require.Equal(t, []string{"cert", "firewall", "stale", "pentest", "sbom", "note"}, got)
	})
}

// TestEvidenceVisibility: the evidence list, its counts and its filters show each caller
// only what they may see — their own evidence, evidence linked to or cited in an
// assessment they take part in, everything with evidence.view_all — and
// assessmentCount, the assessment and requirement filters and the links count only the
// assessments the caller may see (evidence.view_all does not widen those); what a caller
// may not see is 404 on reads and writes.
func TestEvidenceVisibility(t *testing.T) {
	t.Parallel()
	w := newEvidenceWorkspace(t)
	users := map[string]assess.User{}
	for _, u := range []struct{ name, role string }{{"ann", assess.RoleAssessor}, {"bea", assess.RoleAssessee},
		{"dan", assess.RoleAssessee}, {"cid", assess.RoleAssessor}, {"vic", assess.RoleAssessee}} {
		users[u.name] = w.user(u.name, u.role)
	}
	role := w.newID(assess.PrefixRole)
	w.exec(`INSERT INTO roles (id, name) VALUES ($1, 'evidence_auditor')`, role)
	w.exec(`INSERT INTO role_permissions (role_id, permission) VALUES ($1, 'evidence.view_all')`, role)
	w.exec(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, users["vic"].ID, role)
	actors := map[string]assess.Actor{"admin": w.adminSignedIn()}
	for name, u := range users {
		actors[name] = signedIn(w.eventsFixture, u)
	}
	team, teamARs := w.assessmentWith("Team", assess.AssessmentInProgress)
	other, otherARs := w.assessmentWith("Other", assess.AssessmentInProgress)
	cited, _ := w.assessmentWith("Cited", assess.AssessmentInProgress)
	w.member(team, users["bea"], assess.RoleInAssessmentAssessee)
	w.member(cited, users["dan"], assess.RoleInAssessmentAssessee)

	names := map[string]string{}
	ev := map[string]string{}
	for _, e := range []struct{ key, author string }{{"linked", "ann"}, {"cited", "admin"}, {"private", "admin"}, {"own", "ann"}} {
		created := w.evidence(actors[e.author], assess.NewEvidence{Name: e.key})
		names[created.ID], ev[e.key] = e.key, created.ID
	}
	w.exec(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id) VALUES
		($1, $3, $4), ($2, $3, $5)`, teamARs[0], otherARs[0], ev["linked"], team, other)
	claim := w.newID(assess.PrefixClaim)
	w.exec(`INSERT INTO claims (id, assessment_id, name, target, predicate) VALUES ($1, $2, 'C', 'Shop', 'P')`, claim, cited)
	w.exec(`INSERT INTO claim_evidence (claim_id, evidence_id, kind) VALUES ($1, $2, 'evidence')`, claim, ev["cited"])

	// Who sees what, and how many of "linked"'s two assessments each may see.
	for _, c := range []struct {
		who         string
		sees        []string
		linkedCount int
	}{
		{"admin", []string{"own", "private", "cited", "linked"}, 2},
		{"vic", []string{"own", "private", "cited", "linked"}, 0},
		{"ann", []string{"own", "linked"}, 2}, // the author of linked evidence takes part in both assessments
		{"bea", []string{"linked"}, 1},
		{"dan", []string{"cited"}, -1},
		{"cid", []string{}, -1},
	} {
		t.Run(c.who, func(t *testing.T) {
			actor := actors[c.who]
			page, err := w.svc.Evidence.FindEvidenceList(w.ctx, assess.EvidenceFilter{}, actor)
			require.NoError(t, err)
			require.Equal(t, c.sees, namesOf(page.Items, evidenceIDOf, names))
			for _, e := range page.Items {
				if names[e.ID] == "linked" {
					require.Equal(t, c.linkedCount, e.AssessmentCount, "assessmentCount in the list")
				}
			}
			for key, id := range ev {
				one, err := w.svc.Evidence.FindEvidence(w.ctx, id, actor)
				if !slices.Contains(c.sees, key) {
					require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "%s reads %s", c.who, key)
					_, err = w.svc.Evidence.UpdateEvidence(w.ctx, id, assess.EvidenceUpdate{Version: 1, Name: ptr("x")}, actor)
					require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "%s changes %s", c.who, key)
					continue
				}
				require.NoError(t, err, "%s reads %s", c.who, key)
				if key == "linked" {
					require.Equal(t, c.linkedCount, one.AssessmentCount, "assessmentCount of the record")
				}
			}
		})
	}

	bea := actors["bea"]
	filtered := func(f assess.EvidenceFilter) []string {
		t.Helper()
		page, err := w.svc.Evidence.FindEvidenceList(w.ctx, f, bea)
		require.NoError(t, err)
		return namesOf(page.Items, evidenceIDOf, names)
	}
	require.Equal(t, []string{"linked"}, filtered(assess.EvidenceFilter{Assessment: team}))
	require.Equal(t, []string{}, filtered(assess.EvidenceFilter{Assessment: other}), "the link into an assessment bea does not see stays hidden")
	require.Equal(t, []string{}, filtered(assess.EvidenceFilter{Requirement: otherARs[0]}))
	links, err := w.svc.Evidence.FindEvidenceLinks(w.ctx, ev["linked"], bea)
	require.NoError(t, err)
	require.Len(t, links, 1)
	require.Equal(t, team, links[0].AssessmentID)
	links, err = w.svc.Evidence.FindEvidenceLinks(w.ctx, ev["linked"], actors["admin"])
	require.NoError(t, err)
	require.Len(t, links, 2)
	claims, err := w.svc.Evidence.FindEvidenceClaims(w.ctx, ev["cited"], assess.PageRequest{}, actors["vic"])
	require.NoError(t, err)
	require.Empty(t, claims.Items, "vic sees the evidence but not the assessment of the claim")
	claims, err = w.svc.Evidence.FindEvidenceClaims(w.ctx, ev["cited"], assess.PageRequest{}, actors["dan"])
	require.NoError(t, err)
	require.Equal(t, []assess.EvidenceClaim{{ID: claim, Name: "C", AssessmentID: cited, Relation: "evidence"}}, claims.Items)
}

// TestEvidenceUpdateRules: updates check the version (409 naming the current one), check
// validUntil against the validFrom the evidence ends up with, replace the tag set, and
// are refused while the evidence is in review, whoever asks; deletion checks the version
// and takes the links, tags and notes with it.
func TestEvidenceUpdateRules(t *testing.T) {
	t.Parallel()
	w := newEvidenceWorkspace(t)
	annU, bobU := w.user("ann", assess.RoleAssessor), w.user("bob", assess.RoleAssessor)
	ann, bob := signedIn(w.eventsFixture, annU), signedIn(w.eventsFixture, bobU)
	web, supply := w.tag("web"), w.tag("supply")
	as, ars := w.assessmentWith("Review", assess.AssessmentInProgress)
	w.member(as, annU, assess.RoleInAssessmentAssessee)
	e := w.evidence(ann, assess.NewEvidence{Name: "Report", ValidFrom: "2026-03-01", ValidUntil: "2026-12-31", TagIDs: []string{web},
		RequirementIDs: []string{ars[0]}})
	update := func(u assess.EvidenceUpdate, actor assess.Actor) error {
		t.Helper()
		if u.Version == 0 {
			u.Version = e.Version
		}
		after, err := w.svc.Evidence.UpdateEvidence(w.ctx, e.ID, u, actor)
		if err == nil {
			require.Equal(t, e.Version+1, after.Version)
			e = after
		}
		return err
	}
	err := update(assess.EvidenceUpdate{Version: e.Version + 1, Name: ptr("x")}, ann)
	var ae *assess.Error
	require.ErrorAs(t, err, &ae)
	require.Equal(t, assess.ECodeVersionConflict, ae.Code)
	require.Equal(t, "The current version is 1.", ae.Details[0].Message)
	requireDetail(t, update(assess.EvidenceUpdate{ValidUntil: ptr("2026-02-28")}, ann), assess.ECodeValidation, "validUntil", "before_valid_from")
	require.NoError(t, update(assess.EvidenceUpdate{ValidFrom: ptr(""), ValidUntil: ptr("2026-02-28")}, ann))
	require.Equal(t, "", e.ValidFrom)
	require.Equal(t, "2026-02-28", e.ValidUntil)
	requireDetail(t, update(assess.EvidenceUpdate{ValidFrom: ptr("2026-03-01")}, ann), assess.ECodeValidation, "validUntil", "before_valid_from")
	require.NoError(t, update(assess.EvidenceUpdate{TagIDs: &[]string{supply}}, ann))
	require.Equal(t, []string{"supply"}, []string{e.Tags[0].Name})
	require.Len(t, e.Tags, 1)
	requireDetail(t, update(assess.EvidenceUpdate{TagIDs: &[]string{w.newID(assess.PrefixTag)}}, ann), assess.ECodeValidation, "tagIds", "unknown")
	require.NoError(t, update(assess.EvidenceUpdate{Description: ptr("Checked")}, ann))
	require.Len(t, e.Tags, 1, "an absent tag set stays")

	submitted, err := w.svc.Evidence.SubmitEvidence(w.ctx, e.ID, assess.EvidenceSubmit{Version: e.Version, ReviewerID: bobU.ID}, ann)
	require.NoError(t, err)
	e = submitted
	for name, actor := range map[string]assess.Actor{"author": ann, "reviewer": bob, "administrator": w.adminSignedIn()} {
		t.Run("in review, changed by the "+name, func(t *testing.T) {
			requireDetail(t, update(assess.EvidenceUpdate{Name: ptr("x")}, actor), assess.ECodeConflict, "state", assess.CodeInReview)
		})
	}
	w.exec(`UPDATE evidence SET state = 'in_progress' WHERE id = $1`, e.ID)
	_, err = w.svc.Evidence.AddEvidenceNote(w.ctx, e.ID, assess.NewEvidenceNote{Content: "Looks fine"}, ann)
	require.NoError(t, err)

	err = w.svc.Evidence.DeleteEvidence(w.ctx, e.ID, e.Version-1, ann)
	requireDetail(t, err, assess.ECodeVersionConflict, "version", "stale")
	require.NoError(t, w.svc.Evidence.DeleteEvidence(w.ctx, e.ID, e.Version, ann))
	for _, table := range []string{"evidence", "evidence_tags", "evidence_notes", "assessment_requirement_evidence"} {
		require.Equal(t, 0, w.count(`SELECT count(*) FROM `+table), table)
	}
}

// TestEvidenceReviewRules: the reviewer is never the author (422 four_eyes) and must be an
// active user holding evidence.review, as the database's roles say (422
// reviewer_cannot_review); only the reviewer decides (422 not_reviewer), never the author,
// on the version read; a rejection keeps its note; approved evidence is locked.
func TestEvidenceReviewRules(t *testing.T) {
	t.Parallel()
	w := newEvidenceWorkspace(t)
	annU, bobU, beaU, gusU := w.user("ann", assess.RoleAssessor), w.user("bob", assess.RoleAssessor),
		w.user("bea", assess.RoleAssessee), w.user("gus", assess.RoleAssessor)
	w.exec(`UPDATE users SET active = false WHERE id = $1`, gusU.ID)
	ann, bob := signedIn(w.eventsFixture, annU), signedIn(w.eventsFixture, bobU)
	e := w.evidence(ann, assess.NewEvidence{Name: "Report"})
	submit := func(reviewer string) error {
		after, err := w.svc.Evidence.SubmitEvidence(w.ctx, e.ID, assess.EvidenceSubmit{Version: e.Version, ReviewerID: reviewer}, ann)
		if err == nil {
			e = after
		}
		return err
	}
	requireDetail(t, submit(annU.ID), assess.ECodeBusinessRule, "reviewerId", assess.CodeFourEyes)
	requireDetail(t, submit(beaU.ID), assess.ECodeBusinessRule, "reviewerId", assess.CodeReviewerCannotReview)
	requireDetail(t, submit(gusU.ID), assess.ECodeBusinessRule, "reviewerId", assess.CodeReviewerCannotReview)
	requireDetail(t, submit(w.newID(assess.PrefixUser)), assess.ECodeBusinessRule, "reviewerId", assess.CodeReviewerCannotReview)
	// bea is granted evidence.review through a role of her own: the database decides.
	role := w.newID(assess.PrefixRole)
	w.exec(`INSERT INTO roles (id, name) VALUES ($1, 'reviewers')`, role)
	w.exec(`INSERT INTO role_permissions (role_id, permission) VALUES ($1, 'evidence.review')`, role)
	w.exec(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, beaU.ID, role)
	require.NoError(t, submit(beaU.ID))
	require.Equal(t, assess.EvidenceInReview, e.State)
	require.Equal(t, beaU.ID, e.Reviewer.ID)
	require.NotNil(t, e.SubmittedAt)
	require.Equal(t, assess.ECodeInvalidState, assess.ErrorCode(submit(bobU.ID)), "already in review")
	bea := signedIn(w.eventsFixture, beaU)

	decide := func(approve bool, actor assess.Actor, version int64) error {
		var after assess.Evidence
		var err error
		if approve {
			after, err = w.svc.Evidence.ApproveEvidence(w.ctx, e.ID, assess.EvidenceReview{Version: version}, actor)
		} else {
			after, err = w.svc.Evidence.RejectEvidence(w.ctx, e.ID, assess.EvidenceReject{Version: version, Note: "Add the scope."}, actor)
		}
		if err == nil {
			e = after
		}
		return err
	}
	requireDetail(t, decide(true, w.adminSignedIn(), e.Version), assess.ECodeBusinessRule, "evidence", assess.CodeNotReviewer)
	requireDetail(t, decide(true, ann, e.Version), assess.ECodeBusinessRule, "evidence", assess.CodeFourEyes)
	_, err := w.svc.Evidence.ApproveEvidence(w.ctx, e.ID, assess.EvidenceReview{Version: e.Version}, bob)
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "bob does not see the evidence")
	requireDetail(t, decide(true, bea, e.Version-1), assess.ECodeVersionConflict, "version", "stale")
	require.NoError(t, decide(false, bea, e.Version))
	require.Equal(t, assess.EvidenceInProgress, e.State)
	require.Equal(t, 1, w.count(`SELECT count(*) FROM evidence_notes WHERE evidence_id = $1 AND kind = 'rejection' AND content = 'Add the scope.'
		AND author_id = $2`, e.ID, beaU.ID))
	var ae *assess.Error
	require.ErrorAs(t, decide(true, bea, e.Version), &ae)
	require.Equal(t, assess.ECodeInvalidState, ae.Code, "only evidence in review is decided")
	require.Equal(t, []assess.Detail{{Field: "state", Code: "allowed", Message: "in_review"}, {Field: "state", Code: "allowed", Message: "expired"}}, ae.Details)

	require.NoError(t, submit(beaU.ID))
	require.NoError(t, decide(true, bea, e.Version))
	require.Equal(t, assess.EvidenceClaimed, e.State)
	require.Equal(t, assess.LockClaimed, e.Locked)
	requireDetail(t, decide(false, bea, e.Version), assess.ECodeConflict, "evidence", assess.LockClaimed)
	_, err = w.svc.Evidence.UpdateEvidence(w.ctx, e.ID, assess.EvidenceUpdate{Version: e.Version, Name: ptr("x")}, w.adminSignedIn())
	requireDetail(t, err, assess.ECodeConflict, "evidence", assess.LockClaimed)
}

// TestEvidenceLinkRules: a link goes to a requirement of an assessment the caller sees
// (404 otherwise, as for an unknown one) that takes changes (409 read_only); the same link
// twice is 409 naming assessmentRequirementId; links named at creation follow the same
// rules and a refused one creates nothing; approved evidence may be linked but not
// unlinked; an unlink needs a link the caller sees.
func TestEvidenceLinkRules(t *testing.T) {
	t.Parallel()
	w := newEvidenceWorkspace(t)
	annU, beaU := w.user("ann", assess.RoleAssessor), w.user("bea", assess.RoleAssessee)
	ann, bea := signedIn(w.eventsFixture, annU), signedIn(w.eventsFixture, beaU)
	open, openARs := w.assessmentWith("Open", assess.AssessmentInProgress)
	done, doneARs := w.assessmentWith("Done", assess.AssessmentComplete)
	_, hiddenARs := w.assessmentWith("Hidden", assess.AssessmentInProgress)
	w.member(open, annU, assess.RoleInAssessmentAssessor)
	w.member(open, beaU, assess.RoleInAssessmentAssessee)
	w.member(done, annU, assess.RoleInAssessmentAssessor)

	_, err := w.svc.Evidence.CreateEvidence(w.ctx, assess.NewEvidence{Name: "Refused", RequirementIDs: []string{openARs[0], hiddenARs[0]}}, ann)
	requireDetail(t, err, assess.ECodeNotFound, "requirementIds", assess.ECodeNotFound)
	require.Equal(t, 0, w.count(`SELECT count(*) FROM evidence`), "nothing was created")
	e := w.evidence(ann, assess.NewEvidence{Name: "Report", RequirementIDs: []string{openARs[0]}})
	require.Equal(t, 1, e.AssessmentCount)

	link := func(arID string, actor assess.Actor) error {
		_, err := w.svc.Evidence.LinkEvidence(w.ctx, e.ID, assess.NewEvidenceLink{AssessmentRequirementID: arID}, actor)
		return err
	}
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(link(hiddenARs[1], ann)), "an assessment ann does not see")
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(link(w.newID(assess.PrefixAssessmentRequirement), ann)), "an unknown requirement")
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(link("ar_nonsense", ann)))
	requireDetail(t, link(doneARs[0], ann), assess.ECodeConflict, "state", "read_only")
	requireDetail(t, link(openARs[0], ann), assess.ECodeAlreadyExists, "assessmentRequirementId", "taken")
	require.NoError(t, link(openARs[1], ann))
	require.NoError(t, link(hiddenARs[1], w.adminSignedIn()), "the administrator sees every assessment")
	require.Equal(t, 3, w.count(`SELECT count(*) FROM assessment_requirement_evidence WHERE evidence_id = $1`, e.ID))

	err = w.svc.Evidence.UnlinkEvidence(w.ctx, e.ID, hiddenARs[1], bea)
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "bea does not see the link into Hidden")
	err = w.svc.Evidence.UnlinkEvidence(w.ctx, e.ID, openARs[2], bea)
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "no such link")
	require.NoError(t, w.svc.Evidence.UnlinkEvidence(w.ctx, e.ID, openARs[1], bea))

	w.exec(`UPDATE evidence SET state = 'claimed' WHERE id = $1`, e.ID)
	require.NoError(t, link(openARs[3], ann), "approved evidence is reused")
	err = w.svc.Evidence.UnlinkEvidence(w.ctx, e.ID, openARs[3], ann)
	requireDetail(t, err, assess.ECodeConflict, "evidence", assess.LockClaimed)
	got, err := w.svc.Evidence.FindEvidence(w.ctx, e.ID, ann)
	require.NoError(t, err)
	require.Equal(t, 2, got.AssessmentCount, "Open and Hidden, which ann now takes part in as the author of linked evidence")
}

// TestEvidenceExpiry: the expiry job expires evidence whose valid-until day has passed,
// in any state but expired, and reminds once of evidence reaching it within the reminder
// days (today included); a second run changes nothing; a new validUntil re-arms the
// reminder; expired evidence given a day that has not passed (or none) is renewed to
// in_progress, one that has passed keeps it expired.
func TestEvidenceExpiry(t *testing.T) {
	t.Parallel()
	w := newEvidenceWorkspace(t)
	annU, bobU := w.user("ann", assess.RoleAssessor), w.user("bob", assess.RoleAssessor)
	ann := signedIn(w.eventsFixture, annU)
	names := map[string]string{}
	ev := map[string]assess.Evidence{}
	for _, c := range []struct {
		key, until string
		state      assess.EvidenceState
	}{
		{"past", w.day(-1), assess.EvidenceInProgress},
		{"approved-past", w.day(-2), assess.EvidenceClaimed},
		{"in-review-past", w.day(-1), assess.EvidenceInReview},
		{"long-expired", w.day(-5), assess.EvidenceExpired},
		{"expired-in-3", w.day(3), assess.EvidenceExpired}, // expired by hand: not announced as expiring
		{"today", w.day(0), assess.EvidenceInProgress},
		{"in-14", w.day(14), assess.EvidenceInProgress},
		{"in-15", w.day(15), assess.EvidenceInProgress},
		{"undated", "", assess.EvidenceInProgress},
	} {
		e := w.evidence(ann, assess.NewEvidence{Name: c.key, ValidUntil: c.until})
		w.exec(`UPDATE evidence SET state = $2, reviewer_id = CASE WHEN $2 = 'in_progress' THEN NULL ELSE $3 END WHERE id = $1`, e.ID, c.state, bobU.ID)
		names[e.ID], ev[c.key] = c.key, e
	}
	states := func() map[string]assess.EvidenceState {
		t.Helper()
		out := map[string]assess.EvidenceState{}
		rows, err := w.pool.Query(w.ctx, `SELECT id, state FROM evidence`)
		require.NoError(t, err)
		for rows.Next() {
			var id string
			var s assess.EvidenceState
			require.NoError(t, rows.Scan(&id, &s))
			out[names[id]] = s
		}
		require.NoError(t, rows.Err())
		return out
	}
	expire := func(days int) assess.EvidenceExpiryRun {
		t.Helper()
		run, err := w.svc.Evidence.ExpireEvidence(w.ctx, days)
		require.NoError(t, err)
		return run
	}
	reminded := func() []string {
		t.Helper()
		page, err := w.svc.Evidence.FindEvidenceList(w.ctx, assess.EvidenceFilter{Sort: "name"}, w.adminSignedIn())
		require.NoError(t, err)
		var out []string
		for _, e := range page.Items {
			if w.count(`SELECT count(*) FROM evidence WHERE id = $1 AND expiring_notified_at IS NOT NULL`, e.ID) == 1 {
				out = append(out, names[e.ID])
			}
		}
		return out
	}

	require.Equal(t, assess.EvidenceExpiryRun{Expired: 3}, expire(0), "no reminders with 0 days")
	require.Empty(t, reminded())
	require.Equal(t, assess.EvidenceExpiryRun{Reminded: 2}, expire(14))
	require.Equal(t, map[string]assess.EvidenceState{"past": "expired", "approved-past": "expired", "in-review-past": "expired",
		"long-expired": "expired", "expired-in-3": "expired", "today": "in_progress", "in-14": "in_progress", "in-15": "in_progress", "undated": "in_progress"}, states())
	require.Equal(t, []string{"in-14", "today"}, reminded())
	require.Equal(t, 3, w.count(`SELECT count(*) FROM audit_log WHERE action = $1`, assess.ChangeEvidenceExpired.Action))
	require.Equal(t, 2, w.count(`SELECT count(*) FROM audit_log WHERE action = $1`, assess.ChangeEvidenceExpiring.Action))
	require.Equal(t, assess.EvidenceExpiryRun{}, expire(14), "a second run changes nothing")

	update := func(key, until string) assess.Evidence {
		t.Helper()
		current, err := w.svc.Evidence.FindEvidence(w.ctx, ev[key].ID, ann)
		require.NoError(t, err)
		after, err := w.svc.Evidence.UpdateEvidence(w.ctx, current.ID, assess.EvidenceUpdate{Version: current.Version, ValidUntil: &until}, ann)
		require.NoError(t, err)
		return after
	}
	update("in-14", w.day(13))
	update("in-15", w.day(10))
	require.Equal(t, []string{"today"}, reminded(), "a new validUntil re-arms the reminder")
	require.Equal(t, assess.EvidenceExpiryRun{Reminded: 2}, expire(14))

	require.Equal(t, assess.EvidenceExpired, update("past", w.day(-1)).State, "a day that has passed keeps it expired")
	require.Equal(t, assess.EvidenceInProgress, update("past", w.day(0)).State, "renewed")
	require.Equal(t, assess.EvidenceInProgress, update("approved-past", "").State, "renewed without an end, to be reviewed again")
	require.Equal(t, 2, w.count(`SELECT count(*) FROM audit_log WHERE action = $1`, assess.ChangeEvidenceRenewed.Action))

	w.clock.Add(24 * time.Hour) // tomorrow: today's evidence has expired, the renewed one too
	require.Equal(t, assess.EvidenceExpiryRun{Expired: 2}, expire(0))
	require.Equal(t, assess.EvidenceExpired, states()["today"])
	require.Equal(t, assess.EvidenceExpired, states()["past"])
	require.Equal(t, assess.EvidenceInProgress, states()["approved-past"])
}
