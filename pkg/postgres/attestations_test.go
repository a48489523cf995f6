package postgres_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"image"
	"image/png"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/jsf"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

// attestationStore is the assessment fixture with a complete assessment: three
// requirements answered yes, partial and not applicable, a claim about the first two
// citing a piece of evidence, and a counter-claim about the first.
type attestationStore struct {
	*assessmentStore
	assessor, signer assess.Actor
	assessmentID     string
	evidenceID       string
	claimID, counter string
	reqs             []string
	svc              *services.Services
}

func newAttestationStore(t *testing.T) *attestationStore {
	t.Helper()
	s := &attestationStore{assessmentStore: newAssessmentStore(t)}
	perms := []assess.Perm{assess.PermAssessmentsView, assess.PermAssessmentsCreate, assess.PermAssessmentsManage, assess.PermAssessmentsEdit,
		assess.PermClaimsCreate, assess.PermEvidenceView, assess.PermAttestationsView, assess.PermAttestationsCreate,
		assess.PermAttestationsEdit, assess.PermAffirmationsManage, assess.PermSignaturesSign}
	s.assessor = s.user("assessor", perms...)
	s.signer = s.user("signer", assess.PermAssessmentsView, assess.PermAttestationsView, assess.PermSignaturesSign)
	s.svc = s.assessmentStore.svc
	a, err := s.svc.Assessments.CreateAssessment(s.ctx, assess.NewAssessment{Title: "Shop", EntityID: s.entity,
		Standards: []assess.AssessmentStandardInput{{StandardID: s.standard}}, AssesseeIDs: []string{s.signer.ID}}, s.assessor)
	require.NoError(t, err)
	_, err = s.svc.Assessments.TransitionAssessment(s.ctx, a.ID, assess.AssessmentTransition{To: assess.AssessmentInProgress, Version: a.Version}, s.assessor)
	require.NoError(t, err)
	s.assessmentID = a.ID
	rows, err := s.pool.Query(s.ctx, "SELECT id FROM assessment_requirements WHERE assessment_id = $1 ORDER BY id", a.ID)
	require.NoError(t, err)
	for rows.Next() {
		var id string
		require.NoError(t, rows.Scan(&id))
		s.reqs = append(s.reqs, id)
	}
	require.Len(t, s.reqs, 3)
	s.evidenceID = assess.NewID(assess.PrefixEvidence, time.Now())
	s.exec(`INSERT INTO evidence (id, name, author_id, valid_until) VALUES ($1, 'TLS scan', $2, '2031-01-31')`, s.evidenceID, s.assessor.ID)
	s.exec(`INSERT INTO evidence_attachments (id, evidence_id, filename, content_type, size_bytes, sha256, provider, storage_key)
		VALUES ($1, $2, 'scan.txt', 'text/plain', 5, repeat('ab', 32), 'database', 'k')`, assess.NewID(assess.PrefixAttachment, time.Now()), s.evidenceID)
	s.exec(`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id) VALUES ($1, $2, $3)`,
		s.reqs[0], s.evidenceID, a.ID)
	c, err := s.svc.Claims.CreateClaim(s.ctx, a.ID, assess.NewClaim{Name: "TLS", TargetEntityID: s.entity, Predicate: "Traffic is encrypted.",
		EvidenceIDs: []string{s.evidenceID}, RequirementIDs: s.reqs[:2]}, s.assessor)
	require.NoError(t, err)
	s.claimID = c.ID
	cc, err := s.svc.Claims.CreateClaim(s.ctx, a.ID, assess.NewClaim{Name: "Legacy", Target: "The admin console", Predicate: "Serves HTTP.",
		CountersClaimID: c.ID, RequirementIDs: s.reqs[:1]}, s.assessor)
	require.NoError(t, err)
	s.counter = cc.ID
	for i, r := range []string{"yes", "partial", "not_applicable"} {
		s.exec(`UPDATE assessment_requirements SET result = $2, rationale = 'Checked in the weekly scan.' WHERE id = $1`, s.reqs[i], r)
	}
	s.exec(`UPDATE assessments SET state = 'complete' WHERE id = $1`, a.ID)
	return s
}

// draftWithOneSlot is a new draft attestation of the fixture's assessment with one open
// signatory slot, "Lead".
func (s *attestationStore) draftWithOneSlot() assess.Attestation {
	s.t.Helper()
	at, err := s.svc.Attestations.CreateAttestation(s.ctx, assess.NewAttestation{AssessmentID: s.assessmentID}, s.assessor)
	require.NoError(s.t, err)
	at, err = s.svc.Attestations.AddSignatory(s.ctx, at.ID, assess.NewSignatory{Title: "Lead"}, s.assessor)
	require.NoError(s.t, err)
	return at
}

// signerOver is a signatory's own signer of the frozen statement (a fresh P-256 key).
func signerOver(t *testing.T, doc []byte) map[string]any {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	s, err := jsf.NewSigner(key, "ES256")
	require.NoError(t, err)
	obj, err := attest.SignStatement(doc, s)
	require.NoError(t, err)
	raw, err := jsf.Marshal(obj)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(raw, &out))
	return out
}

// TestAttestationLifecycle: a draft derives its map from the results and claims, takes
// overrides, freezes at the first signature, takes a digital and an electronic
// signature, is sealed once, verifies with the public key set (also after a rotation),
// locks the assessment's result and the cited evidence, and is listed once rescinded.
func TestAttestationLifecycle(t *testing.T) {
	t.Parallel()
	s := newAttestationStore(t)
	svc := s.svc.Attestations

	draft, err := svc.CreateAttestation(s.ctx, assess.NewAttestation{AssessmentID: s.assessmentID, Summary: "ASVS L1"}, s.assessor)
	require.NoError(t, err)
	require.Equal(t, assess.AttestationDraft, draft.State)
	require.ElementsMatch(t, []string{s.claimID, s.counter}, draft.ClaimIDs, "every claim of the assessment by default")
	require.NotNil(t, draft.Score)
	require.InDelta(t, 75.0, *draft.Score, 0.001, "mean of yes (1) and partial (0.5); not applicable left out")

	m, err := svc.FindAttestationRequirements(s.ctx, draft.ID, s.assessor)
	require.NoError(t, err)
	require.Len(t, m.Items, 3)
	require.Equal(t, []string{s.claimID}, m.Items[0].ClaimIDs)
	require.Equal(t, []string{s.counter}, m.Items[0].CounterClaimIDs)
	require.Nil(t, m.Items[2].Score, "not applicable has no score")

	m, err = svc.ChangeAttestationRequirements(s.ctx, draft.ID, assess.AttestationRequirementChanges{Version: draft.Version,
		Items: []assess.AttestationRequirementChange{{ID: s.reqs[1], ScoreOverride: ptr(0.8), Confidence: ptr(0.9), ConfidenceRationale: "Sampled."}}}, s.assessor)
	require.NoError(t, err)
	require.InDelta(t, 0.8, *m.Items[1].Score, 1e-9)
	require.Equal(t, draft.Version+1, m.Version, "the version to send next")
	require.InDelta(t, 90.0, *m.Score, 1e-9, "mean of 1 and the override 0.8")
	_, err = svc.ChangeAttestationRequirements(s.ctx, draft.ID, assess.AttestationRequirementChanges{Version: draft.Version + 1,
		Items: []assess.AttestationRequirementChange{{ID: s.assessmentID}}}, s.assessor)
	requireCode(t, err, assess.ECodeBusinessRule, "unknown")

	_, err = svc.FreezeAttestation(s.ctx, draft.ID, s.assessor)
	requireCode(t, err, assess.ECodeConflict, "no_slots")
	cannotSign := s.user("viewer", assess.PermAssessmentsView, assess.PermAssessmentsViewAll)
	_, err = svc.AddSignatory(s.ctx, draft.ID, assess.NewSignatory{Title: "CISO", UserID: cannotSign.ID}, s.assessor)
	requireCode(t, err, assess.ECodeBusinessRule, "unknown")
	_, err = svc.AddSignatory(s.ctx, draft.ID, assess.NewSignatory{Title: "CISO", UserID: s.signer.ID}, s.assessor)
	require.NoError(t, err)
	withSlots, err := svc.AddSignatory(s.ctx, draft.ID, assess.NewSignatory{Title: "Lead assessor", Organization: "Acme"}, s.assessor)
	require.NoError(t, err)
	require.Len(t, withSlots.Signatories, 2)
	require.Equal(t, "Shop", withSlots.Signatories[0].Organization, "the entity's name by default")
	pinned, open := withSlots.Signatories[0].ID, withSlots.Signatories[1].ID

	_, err = svc.Sign(s.ctx, draft.ID, pinned, assess.SignRequest{Kind: assess.SignatureElectronic,
		Electronic: &assess.ElectronicSignature{Name: "Mallory"}}, s.assessor)
	requireCode(t, err, assess.ECodePermissionDenied, "slot_pinned")

	doc, err := svc.FreezeAttestation(s.ctx, draft.ID, s.signer)
	require.NoError(t, err)
	require.False(t, doc.Sealed)
	_, err = svc.UpdateAttestation(s.ctx, draft.ID, assess.AttestationUpdate{Version: draft.Version + 4, Summary: ptr("x")}, s.assessor)
	requireCode(t, err, assess.ECodeConflict, "frozen")

	bad := signerOver(t, doc.Bytes)
	bad["value"] = "AAAA" + bad["value"].(string)[4:]
	_, err = svc.Sign(s.ctx, draft.ID, pinned, assess.SignRequest{Kind: assess.SignatureDigital, Digital: &assess.DigitalSignature{Signer: bad}}, s.signer)
	requireCode(t, err, assess.ECodeBusinessRule, "bad_signature")
	signed, err := svc.Sign(s.ctx, draft.ID, pinned, assess.SignRequest{Kind: assess.SignatureDigital,
		Digital: &assess.DigitalSignature{Signer: signerOver(t, doc.Bytes)}}, s.signer)
	require.NoError(t, err)
	require.Equal(t, "digital", signed.Signatories[0].Kind)
	require.NotEmpty(t, signed.Signatories[0].KeyID)

	_, err = svc.Seal(s.ctx, draft.ID, s.assessor)
	requireCode(t, err, assess.ECodeConflict, "unsigned_slots")
	_, err = svc.Sign(s.ctx, draft.ID, open, assess.SignRequest{Kind: assess.SignatureElectronic,
		Electronic: &assess.ElectronicSignature{Name: "Alan Assessor", Image: []byte("not an image")}}, s.assessor)
	requireCode(t, err, assess.ECodeValidation, "invalid")
	_, err = svc.Sign(s.ctx, draft.ID, open, assess.SignRequest{Kind: assess.SignatureElectronic,
		Electronic: &assess.ElectronicSignature{Name: "Alan Assessor"}}, s.assessor)
	require.NoError(t, err)

	// Concurrent seals: one wins, the others are told it is sealed.
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for range 3 {
		wg.Go(func() {
			_, err := svc.Seal(s.ctx, draft.ID, s.assessor)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	wins := 0
	for err := range errs {
		if err == nil {
			wins++
		} else {
			requireCode(t, err, assess.ECodeConflict, "not_signing")
		}
	}
	require.Equal(t, 1, wins)

	sealed, err := svc.AttestationDocument(s.ctx, draft.ID, s.signer)
	require.NoError(t, err)
	require.True(t, sealed.Sealed)
	verify := func(doc []byte) attest.Report {
		set, err := s.svc.PlatformKeys.PublicKeySet(s.ctx)
		require.NoError(t, err)
		keys, err := attest.ParseJWKS(set)
		require.NoError(t, err)
		return attest.Verify(doc, attest.Options{PlatformKeys: keys})
	}
	report := verify(sealed.Bytes)
	require.True(t, report.OK, "%+v", report)
	require.Equal(t, "2031-01-31", report.ValidUntil)

	_, err = s.svc.Assessments.TransitionAssessment(s.ctx, s.assessmentID, assess.AssessmentTransition{To: assess.AssessmentInProgress, Version: 100}, s.assessor)
	require.Error(t, err)
	var version int64
	require.NoError(t, s.pool.QueryRow(s.ctx, "SELECT version FROM assessments WHERE id = $1", s.assessmentID).Scan(&version))
	_, err = s.svc.Assessments.TransitionAssessment(s.ctx, s.assessmentID, assess.AssessmentTransition{To: assess.AssessmentInProgress, Version: version}, s.assessor)
	requireCode(t, err, assess.ECodeConflict, "affirmation_sealed")
	ev, err := s.svc.Evidence.FindEvidence(s.ctx, s.evidenceID, s.assessor)
	require.NoError(t, err)
	require.Equal(t, assess.LockAffirmationSealed, ev.Locked)

	_, err = s.svc.PlatformKeys.RotatePlatformKey(s.ctx, s.assessor)
	require.NoError(t, err)
	keys, err := s.svc.PlatformKeys.FindPlatformKeys(s.ctx)
	require.NoError(t, err)
	require.Len(t, keys.Items, 2)
	require.True(t, verify(sealed.Bytes).OK, "the retired key stays in the set")

	_, err = svc.Rescind(s.ctx, draft.ID, assess.RescindRequest{Reason: "The scan was of the wrong host."}, s.assessor)
	require.NoError(t, err)
	list, err := s.svc.PlatformKeys.RescissionList(s.ctx)
	require.NoError(t, err)
	set, err := s.svc.PlatformKeys.PublicKeySet(s.ctx)
	require.NoError(t, err)
	trusted, err := attest.ParseJWKS(set)
	require.NoError(t, err)
	rescissions, err := attest.ReadRescissions(list, trusted)
	require.NoError(t, err)
	r := attest.Verify(sealed.Bytes, attest.Options{PlatformKeys: trusted, Rescissions: rescissions})
	require.False(t, r.OK)
	require.NotNil(t, r.Rescinded)
	require.Equal(t, "The scan was of the wrong host.", r.Rescinded.Reason)
}

// TestDraftShowsTheValidityFreezingFixes: a draft has no validUntil yet but shows the one
// the first signature will fix (projectedValidUntil), following the evidence its chosen
// claims cite; once frozen, validUntil is exactly that day and the projection is gone.
func TestDraftShowsTheValidityFreezingFixes(t *testing.T) {
	t.Parallel()
	s := newAttestationStore(t)
	svc := s.svc.Attestations
	later := assess.NewID(assess.PrefixEvidence, time.Now())
	s.exec(`INSERT INTO evidence (id, name, author_id, valid_until) VALUES ($1, 'Pen test', $2, '2032-06-30')`, later, s.assessor.ID)
	s.exec(`INSERT INTO claim_evidence (claim_id, evidence_id, kind) VALUES ($1, $2, 'counter_evidence')`, s.counter, later)

	draft := s.draftWithOneSlot()
	require.Empty(t, draft.ValidUntil)
	require.Equal(t, "2031-01-31", draft.ProjectedValidUntil, "the earliest of the cited evidence")

	draft, err := svc.UpdateAttestation(s.ctx, draft.ID, assess.AttestationUpdate{Version: draft.Version, ClaimIDs: &[]string{s.counter}}, s.assessor)
	require.NoError(t, err)
	require.Equal(t, "2032-06-30", draft.ProjectedValidUntil, "only the evidence of the chosen claims counts")
	listed, err := svc.FindAttestations(s.ctx, assess.AttestationFilter{}, s.assessor)
	require.NoError(t, err)
	require.Len(t, listed.Items, 1)
	require.Equal(t, "2032-06-30", listed.Items[0].ProjectedValidUntil, "lists show it too")

	_, err = svc.FreezeAttestation(s.ctx, draft.ID, s.assessor)
	require.NoError(t, err)
	frozen, err := svc.FindAttestation(s.ctx, draft.ID, s.assessor)
	require.NoError(t, err)
	require.Equal(t, "2032-06-30", frozen.ValidUntil, "freezing fixes the day the draft showed")
	require.Empty(t, frozen.ProjectedValidUntil)

	undated := s.draftWithOneSlot()
	s.exec(`UPDATE evidence SET valid_until = NULL`)
	undated, err = svc.FindAttestation(s.ctx, undated.ID, s.assessor)
	require.NoError(t, err)
	require.Empty(t, undated.ProjectedValidUntil, "no end when no cited evidence expires")
}

// TestAttestationNeedsACompleteVisibleAssessment: 409 for an assessment in progress, 404
// for one the actor may not see.
func TestAttestationNeedsACompleteVisibleAssessment(t *testing.T) {
	t.Parallel()
	s := newAttestationStore(t)
	outsider := s.user("outsider", assess.PermAssessmentsView, assess.PermAttestationsCreate)
	_, err := s.svc.Attestations.CreateAttestation(s.ctx, assess.NewAttestation{AssessmentID: s.assessmentID}, outsider)
	requireCode(t, err, assess.ECodeNotFound, "")
	s.exec(`UPDATE assessments SET state = 'in_progress' WHERE id = $1`, s.assessmentID)
	_, err = s.svc.Attestations.CreateAttestation(s.ctx, assess.NewAttestation{AssessmentID: s.assessmentID}, s.assessor)
	requireCode(t, err, assess.ECodeConflict, "not_complete")
}

// TestInvalidDocumentIsNeverServed: a record the API would refuse but the database holds
// (a claim reference of no CycloneDX type, from an older version or a hand edit) makes the
// statement break the schema: freezing answers 500 export_invalid, records the problem in
// the audit log and stores nothing.
func TestInvalidDocumentIsNeverServed(t *testing.T) {
	t.Parallel()
	s := newAttestationStore(t)
	s.exec(`UPDATE claims SET external_references = '[{"type": "carrier-pigeon", "url": "https://example.com"}]' WHERE id = $1`, s.claimID)
	at := s.draftWithOneSlot()
	_, err := s.svc.Attestations.FreezeAttestation(s.ctx, at.ID, s.assessor)
	requireCode(t, err, assess.ECodeExportInvalid, "")
	_, err = s.svc.Attestations.ExportAttestation(s.ctx, at.ID, "1.6", s.assessor)
	requireCode(t, err, assess.ECodeExportInvalid, "")
	var audited int
	require.NoError(t, s.pool.QueryRow(s.ctx, `SELECT count(*) FROM audit_log WHERE action = 'attestation.export_invalid' AND target_id = $1`,
		at.ID).Scan(&audited))
	require.Equal(t, 2, audited)
	var state string
	require.NoError(t, s.pool.QueryRow(s.ctx, `SELECT state FROM attestations WHERE id = $1`, at.ID).Scan(&state))
	require.Equal(t, "draft", state)
}

// TestAttestationExpiringIsAnnouncedOnce: a sealed attestation whose validity (the earliest
// valid-until day of the evidence it cites) ends within the reminder days is announced
// once by the expiry job (attestation.expiring, its creator the subject).
func TestAttestationExpiringIsAnnouncedOnce(t *testing.T) {
	t.Parallel()
	s := newAttestationStore(t)
	svc := s.svc.Attestations
	at := s.draftWithOneSlot()
	_, err := svc.Sign(s.ctx, at.ID, at.Signatories[0].ID, assess.SignRequest{Kind: assess.SignatureElectronic,
		Electronic: &assess.ElectronicSignature{Name: "Lead"}}, s.assessor)
	require.NoError(t, err)
	_, err = svc.Seal(s.ctx, at.ID, s.assessor)
	require.NoError(t, err)
	s.exec(`UPDATE attestations SET valid_until = current_date + 5 WHERE id = $1`, at.ID)
	run, err := s.svc.Evidence.ExpireEvidence(s.ctx, 30)
	require.NoError(t, err)
	require.Equal(t, int64(1), run.AttestationsReminded)
	run, err = s.svc.Evidence.ExpireEvidence(s.ctx, 30)
	require.NoError(t, err)
	require.Zero(t, run.AttestationsReminded, "once")
	var events int
	require.NoError(t, s.pool.QueryRow(s.ctx, `SELECT count(*) FROM events WHERE type = 'attestation.expiring'`).Scan(&events))
	require.Equal(t, 1, events)
}

// TestSignWithTheProfileImage: an electronic signature asking for the profile's image uses
// it (422 no_image when none is kept).
func TestSignWithTheProfileImage(t *testing.T) {
	t.Parallel()
	s := newAttestationStore(t)
	svc := s.svc.Attestations
	at := s.draftWithOneSlot()
	sign := assess.SignRequest{Kind: assess.SignatureElectronic, Electronic: &assess.ElectronicSignature{Name: "Lead", UseProfileImage: true}}
	_, err := svc.Sign(s.ctx, at.ID, at.Signatories[0].ID, sign, s.assessor)
	requireCode(t, err, assess.ECodeBusinessRule, "no_image")
	var img bytes.Buffer
	require.NoError(t, png.Encode(&img, image.NewGray(image.Rect(0, 0, 8, 4))))
	require.NoError(t, svc.SetProfileSignatureImage(s.ctx, assess.SignatureImage{Image: img.Bytes()}, s.assessor))
	signed, err := svc.Sign(s.ctx, at.ID, at.Signatories[0].ID, sign, s.assessor)
	require.NoError(t, err)
	require.True(t, signed.Signatories[0].HasImage)
}
