package work

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/jsf"
	"github.com/assay-dev/assay/pkg/postgres"
)

// The data of the PDF reports (pkg/report lays them out, docs/attestations.md "PDF
// reports"): one read-only snapshot per report, a handful of queries whatever the number
// of requirements, rows read one at a time into the report's own slices.

// ReportService implements assess.ReportService.
type ReportService struct {
	db  *postgres.DB
	cfg AttestationConfig
}

// NewReportService returns the service on db; cfg gives the service's public URL for the
// "how to verify" line.
func NewReportService(db *postgres.DB, cfg AttestationConfig) *ReportService {
	return &ReportService{db, cfg}
}

// snapshot runs read in one repeatable-read, read-only transaction.
func (s *ReportService) snapshot(ctx context.Context, read func(tx pgx.Tx) error) error {
	tx, err := s.db.Pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return postgres.DBError(err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	return postgres.DBError(read(tx))
}

// AssessmentReport implements assess.ReportService.
func (s *ReportService) AssessmentReport(ctx context.Context, id string, actor assess.Actor) (assess.Report, error) {
	var r assess.Report
	err := s.snapshot(ctx, func(tx pgx.Tx) error {
		if _, err := postgres.VisibleAssessmentState(ctx, tx, actor, id, false); err != nil {
			return err
		}
		var err error
		r, err = s.assessmentReport(ctx, tx, id, actor)
		if err != nil {
			return err
		}
		r.Kind, r.ID = assess.ReportOfAssessment, id
		if a, err := findAssessment(ctx, tx, id, projectToday(s.db.Now())); err == nil && a.ConformanceScore != nil {
			r.Score = a.ConformanceScore
		} else if err != nil {
			return err
		}
		return tx.QueryRow(ctx, "SELECT coalesce((SELECT key_id FROM platform_keys WHERE active), '')").Scan(&r.PlatformKeyID)
	})
	return r, err
}

// assessmentReport reads what both kinds of report show of assessment id: the record,
// its requirements with results, the figures per standard and level, the claims and the
// evidence (each when the actor may see them).
func (s *ReportService) assessmentReport(ctx context.Context, tx pgx.Tx, id string, actor assess.Actor) (assess.Report, error) {
	a, err := findAssessment(ctx, tx, id, projectToday(s.db.Now()))
	if err != nil {
		return assess.Report{}, err
	}
	r := assess.Report{AssessmentID: id, Title: a.Title, Description: a.Description, State: string(a.State), EntityName: a.EntityName,
		ProjectName: a.ProjectName, DueDate: a.DueDate, StartedAt: a.StartedAt, EndedAt: a.EndedAt, CreatedAt: a.CreatedAt,
		AppURL: s.cfg.AppURL, GeneratedAt: s.db.Now().UTC(), GeneratedBy: actorName(actor)}
	if err := tx.QueryRow(ctx, "SELECT en.entity_type FROM assessments a JOIN entities en ON en.id = a.entity_id WHERE a.id = $1", id).
		Scan(&r.EntityType); err != nil {
		return r, err
	}
	for _, u := range a.Assessors {
		r.Assessors = append(r.Assessors, personName(u))
	}
	for _, u := range a.Assessees {
		r.Assessees = append(r.Assessees, personName(u))
	}
	if r.Requirements, err = reportRequirements(ctx, tx, id); err != nil {
		return r, err
	}
	if r.Standards, err = reportStandards(ctx, tx, a, r.Requirements); err != nil {
		return r, err
	}
	for _, q := range r.Requirements {
		r.Figures.Add(q.Result)
	}
	r.OmittedClaims = !actor.Can(assess.PermClaimsView)
	r.OmittedEvidence = !actor.Can(assess.PermEvidenceView) && !actor.Can(assess.PermEvidenceViewAll)
	if !r.OmittedClaims {
		if r.Claims, err = reportClaims(ctx, tx, "c.assessment_id = $1", id, r.Requirements); err != nil {
			return r, err
		}
	}
	if !r.OmittedEvidence {
		r.Evidence, err = reportEvidence(ctx, tx, `e.id IN (SELECT are.evidence_id FROM assessment_requirement_evidence are WHERE are.assessment_id = $1
			UNION SELECT ce.evidence_id FROM claim_evidence ce JOIN claims c ON c.id = ce.claim_id WHERE c.assessment_id = $1)`, id)
	}
	return r, err
}

// actorName names who asked for a report: the user's display name, else their username.
func actorName(a assess.Actor) string {
	if a.Principal == nil {
		return a.ID
	}
	return personName(assess.UserRef{Username: a.Principal.User.Username, DisplayName: a.Principal.User.DisplayName})
}

func personName(u assess.UserRef) string {
	if u.DisplayName != "" {
		return u.DisplayName
	}
	return u.Username
}

// reportRequirements reads the requirements of assessment id in its order, with their
// results, rationales and counts of linked evidence (kept on the row by PostgreSQL); a
// requirement without a name (ASVS has only texts) is named by its text.
func reportRequirements(ctx context.Context, q pgx.Tx, id string) ([]assess.ReportRequirement, error) {
	rows, err := q.Query(ctx, `SELECT ar.id, ar.standard_id, r.identifier, coalesce(nullif(r.name, ''), r.description), coalesce(ar.result, ''), ar.rationale,
			ar.evidence_links
		FROM assessment_requirements ar JOIN requirements r ON r.id = ar.requirement_id
		WHERE ar.assessment_id = $1 ORDER BY ar.id`, id)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (assess.ReportRequirement, error) {
		var it assess.ReportRequirement
		err := row.Scan(&it.ID, &it.StandardID, &it.Identifier, &it.Name, &it.Result, &it.Rationale, &it.EvidenceCount)
		return it, err
	})
}

// reportStandards gives the figures of each standard of assessment a and of each level of
// those standards that holds one of its requirements (directly or through a group above).
func reportStandards(ctx context.Context, q pgx.Tx, a assess.Assessment, reqs []assess.ReportRequirement) ([]assess.ReportStandard, error) {
	out := make([]assess.ReportStandard, len(a.Standards))
	at := map[string]int{}
	for i, st := range a.Standards {
		out[i] = assess.ReportStandard{ID: st.ID, Name: st.Name, Version: st.StandardVersion, LevelName: st.LevelName}
		at[st.ID] = i
	}
	results := make(map[string]string, len(reqs))
	for _, it := range reqs {
		results[it.ID] = it.Result
		if i, ok := at[it.StandardID]; ok {
			out[i].Figures.Add(it.Result)
		}
	}
	rows, err := q.Query(ctx, `WITH RECURSIVE up AS (
			SELECT ar.id AS ar_id, r.id, r.parent_id FROM assessment_requirements ar JOIN requirements r ON r.id = ar.requirement_id
			WHERE ar.assessment_id = $1
			UNION SELECT up.ar_id, p.id, p.parent_id FROM up JOIN requirements p ON p.id = up.parent_id
		)
		SELECT l.standard_id, l.identifier, l.title, array_agg(DISTINCT up.ar_id)
		FROM levels l JOIN level_requirements lr ON lr.level_id = l.id JOIN up ON up.id = lr.requirement_id
		GROUP BY l.id ORDER BY l.standard_id, l.position, l.identifier`, a.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var standardID string
		var lv assess.ReportLevel
		var ids []string
		if err := rows.Scan(&standardID, &lv.Identifier, &lv.Title, &ids); err != nil {
			return nil, err
		}
		i, ok := at[standardID]
		if !ok {
			continue
		}
		for _, ar := range ids {
			lv.Figures.Add(results[ar])
		}
		out[i].Levels = append(out[i].Levels, lv)
	}
	return out, rows.Err()
}

// reportClaims reads the claims matching where ($1 is arg), by name, with the
// identifiers of their requirements, and notes each claim's name on its requirements.
func reportClaims(ctx context.Context, q pgx.Tx, where string, arg any, reqs []assess.ReportRequirement) ([]assess.ReportClaim, error) {
	rows, err := q.Query(ctx, claimSelect+" WHERE "+where+" ORDER BY lower(c.name), c.id", arg)
	if err != nil {
		return nil, err
	}
	claims, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.Claim, error) {
		c, err := scanClaim(r)
		return showClaim(c), err
	})
	if err != nil {
		return nil, err
	}
	byID := make(map[string]int, len(reqs))
	for i, it := range reqs {
		byID[it.ID] = i
	}
	names := func(list []assess.ClaimEvidence) []string {
		out := make([]string, len(list))
		for i, e := range list {
			out[i] = e.Name
		}
		return out
	}
	out := make([]assess.ReportClaim, len(claims))
	for i, c := range claims {
		rc := assess.ReportClaim{Name: c.Name, Target: c.Target, Predicate: c.Predicate, Reasoning: c.Reasoning, Counter: c.IsCounterClaim,
			Evidence: names(c.Evidence), CounterEvidence: names(c.CounterEvidence), Mitigations: names(c.MitigationStrategies)}
		for _, ar := range c.RequirementIDs {
			j, ok := byID[ar]
			if !ok {
				continue
			}
			rc.Requirements = append(rc.Requirements, reqs[j].Identifier)
			if c.IsCounterClaim {
				reqs[j].CounterClaims = append(reqs[j].CounterClaims, c.Name)
			} else {
				reqs[j].Claims = append(reqs[j].Claims, c.Name)
			}
		}
		out[i] = rc
	}
	return out, nil
}

// reportEvidence reads the evidence matching where ($1 is arg), by name, with its files.
func reportEvidence(ctx context.Context, q pgx.Tx, where string, arg any) ([]assess.ReportEvidence, error) {
	rows, err := q.Query(ctx, `SELECT e.name, e.state, e.description, coalesce(to_char(e.valid_until, 'YYYY-MM-DD'), ''),
			coalesce(nullif(au.display_name, ''), au.username, ''),
			coalesce((SELECT jsonb_agg(jsonb_build_object('Filename', f.filename, 'SHA256', f.sha256, 'Size', f.size_bytes)
				ORDER BY f.filename, f.id) FROM evidence_attachments f WHERE f.evidence_id = e.id), '[]'::jsonb)
		FROM evidence e LEFT JOIN users au ON au.id = e.author_id
		WHERE `+where+` ORDER BY lower(e.name), e.id`, arg)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.ReportEvidence, error) {
		var e assess.ReportEvidence
		err := r.Scan(&e.Name, &e.State, &e.Description, &e.ValidUntil, &e.Author, &e.Files)
		return e, err
	})
}

// AttestationReport implements assess.AttestationService: the assessment's report with the
// attestation's map (scores, confidence, its claims), the evidence its claims cite, the
// signatories with the verdict on each signature, and the stored document's SHA-256.
func (s *ReportService) AttestationReport(ctx context.Context, id string, actor assess.Actor) (assess.Report, error) {
	var r assess.Report
	err := s.snapshot(ctx, func(tx pgx.Tx) error {
		assessmentID, _, err := visibleAttestation(ctx, tx, actor, id, false)
		if err != nil {
			return err
		}
		t, err := storedAttestation(ctx, tx, id)
		if err != nil {
			return err
		}
		if r, err = s.assessmentReport(ctx, tx, assessmentID, actor); err != nil {
			return err
		}
		r.Kind, r.ID, r.State, r.Score = assess.ReportOfAttestation, id, string(t.State), t.Score
		if err := attestationClaimsAndEvidence(ctx, tx, &r, t); err != nil {
			return err
		}
		ra := &assess.ReportAttestation{Summary: t.Summary, Statement: t.Statement, SerialNumber: t.SerialNumber, FrozenAt: t.FrozenAt,
			SealedAt: t.SealedAt, SealKeyID: t.SealKeyID, ValidUntil: t.ValidUntil, RescindedAt: t.RescindedAt, RescindReason: t.RescindReason}
		for _, o := range t.Assessors {
			ra.Assessors = append(ra.Assessors, o.Name)
		}
		r.Attestation = ra
		if err := verifyForReport(ctx, tx, t, ra); err != nil {
			return err
		}
		r.PlatformKeyID = t.SealKeyID
		if r.PlatformKeyID == "" {
			return tx.QueryRow(ctx, "SELECT coalesce((SELECT key_id FROM platform_keys WHERE active), '')").Scan(&r.PlatformKeyID)
		}
		return nil
	})
	return r, err
}

// attestationClaimsAndEvidence narrows the report to the attestation's map: each
// requirement's score and confidence, the claims chosen for it, and the evidence they cite.
func attestationClaimsAndEvidence(ctx context.Context, tx pgx.Tx, r *assess.Report, t assess.Attestation) error {
	items, _, err := attestationMap(ctx, tx, t.ID, t.AssessmentID)
	if err != nil {
		return err
	}
	byID := make(map[string]assess.AttestationRequirement, len(items))
	for _, it := range items {
		byID[it.ID] = it
	}
	for i := range r.Requirements {
		q := &r.Requirements[i]
		m := byID[q.ID]
		q.Score, q.Confidence, q.ConfidenceRationale = m.Score, m.Confidence, m.ConfidenceRationale
		q.Claims, q.CounterClaims = nil, nil
	}
	if !r.OmittedClaims {
		if r.Claims, err = reportClaims(ctx, tx, "c.id = ANY ($1::text[])", t.ClaimIDs, r.Requirements); err != nil {
			return err
		}
	}
	if !r.OmittedEvidence {
		r.Evidence, err = reportEvidence(ctx, tx, "e.id IN (SELECT ce.evidence_id FROM claim_evidence ce WHERE ce.claim_id = ANY ($1::text[]))", t.ClaimIDs)
	}
	return err
}

// verifyForReport hashes the stored document of t and verifies it as a receiver would,
// with every platform key: the seal's verdict, each digital signatory's, and the problems.
func verifyForReport(ctx context.Context, tx pgx.Tx, t assess.Attestation, ra *assess.ReportAttestation) error {
	var doc []byte
	if err := tx.QueryRow(ctx, "SELECT document FROM attestations WHERE id = $1", t.ID).Scan(&doc); err != nil {
		return err
	}
	var checks []attest.Check
	if doc != nil {
		sum := sha256.Sum256(doc)
		ra.DocumentSHA256 = hex.EncodeToString(sum[:])
		keys, err := platformPublicKeys(ctx, tx)
		if err != nil {
			return err
		}
		rep := attest.Verify(doc, attest.Options{PlatformKeys: keys})
		checks, ra.Problems = rep.Checks, rep.Problems
		ra.Verified = rep.OK && t.State != assess.AttestationRescinded
		for _, c := range rep.Checks {
			if c.Pointer == "" {
				ra.SealStatus = string(c.Status)
			}
		}
	}
	for _, sg := range t.Signatories {
		rs := assess.ReportSignatory{Title: sg.Title, Organization: sg.Organization, Kind: sg.Kind, SignerName: sg.SignerName,
			SignedAt: sg.SignedAt, KeyID: sg.KeyID, Verification: assess.SignatoryUnsigned}
		switch {
		case sg.SignedAt == nil:
		case sg.Kind == string(assess.SignatureDigital):
			rs.Verification, rs.Reason = string(attest.StatusInvalid), "no signature with this key in the document"
			if i := slices.IndexFunc(checks, func(c attest.Check) bool { return c.Signer == "signatory" && c.Thumbprint == sg.KeyID }); i >= 0 {
				rs.Verification, rs.Reason = string(checks[i].Status), checks[i].Reason
			}
		default:
			rs.Verification = assess.SignatoryRecorded
		}
		ra.Signatories = append(ra.Signatories, rs)
	}
	return nil
}

// platformPublicKeys are the public halves of every platform key, active and retired.
func platformPublicKeys(ctx context.Context, tx pgx.Tx) ([]jsf.JWK, error) {
	rows, err := tx.Query(ctx, "SELECT public_jwk FROM platform_keys ORDER BY created_at")
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (jsf.JWK, error) {
		var raw json.RawMessage
		var k jsf.JWK
		if err := r.Scan(&raw); err != nil {
			return k, err
		}
		return k, json.Unmarshal(raw, &k)
	})
}

var _ assess.ReportService = (*ReportService)(nil)
