package work

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Attestations belong to one complete assessment and are visible exactly when it is
// (visibility.go). A draft changes freely; the first signature (or a digital signatory
// fetching the statement) freezes it: from then on only signatures are added, then the
// platform's seal (attestation_signing.go, docs/attestations.md).

var errAttestationNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "Attestation not found."}

// citedValidUntilSQL is the earliest valid-until day of the evidence the claims of
// attestation t cite (NULL when none expires): the validity freezing fixes
// (attestation_signing.go), and what a draft shows ahead of it.
const citedValidUntilSQL = `(SELECT min(e.valid_until) FROM attestation_claims ac
		JOIN claim_evidence ce ON ce.claim_id = ac.claim_id JOIN evidence e ON e.id = ce.evidence_id
		WHERE ac.attestation_id = t.id)`

// attestationSelect reads attestations as the API shows them: the assessment's title and
// entity, the creator, the assessors, the chosen claims and the signatory slots in one row.
const attestationSelect = `SELECT t.id, t.assessment_id, a.title, a.entity_id, en.name, t.summary, t.statement, t.state,
	coalesce(t.serial_number, ''), t.frozen_at, t.sealed_at, coalesce(t.seal_key_id, ''),
	coalesce(to_char(t.valid_until, 'YYYY-MM-DD'), ''), t.score::float8, t.rescinded_at, t.rescind_reason,
	coalesce(t.created_by, ''), coalesce(cu.username, ''), coalesce(cu.display_name, ''), t.version, t.created_at, t.updated_at,
	coalesce((SELECT jsonb_agg(jsonb_build_object('id', ao.id, 'name', ao.name, 'url', ao.url, 'thirdParty', ao.third_party,
		'description', ao.description, 'version', ao.version, 'createdAt', ao.created_at, 'updatedAt', ao.updated_at) ORDER BY x.position)
		FROM attestation_assessors x JOIN assessors ao ON ao.id = x.assessor_id WHERE x.attestation_id = t.id), '[]'::jsonb),
	ARRAY(SELECT ac.claim_id FROM attestation_claims ac WHERE ac.attestation_id = t.id ORDER BY ac.claim_id),
	coalesce((SELECT jsonb_agg(jsonb_build_object('id', s.id, 'title', s.title, 'organization', s.organization,
		'user', CASE WHEN su.id IS NULL THEN NULL ELSE jsonb_build_object('id', su.id, 'username', su.username, 'displayName', su.display_name) END,
		'kind', coalesce(s.kind, ''),
		'signedBy', CASE WHEN sb.id IS NULL THEN NULL ELSE jsonb_build_object('id', sb.id, 'username', sb.username, 'displayName', sb.display_name) END,
		'signedAt', s.signed_at, 'signerName', s.signer_name, 'keyId', s.key_id, 'hasImage', s.image_png IS NOT NULL) ORDER BY s.position)
		FROM attestation_signatories s LEFT JOIN users su ON su.id = s.user_id LEFT JOIN users sb ON sb.id = s.signed_by
		WHERE s.attestation_id = t.id), '[]'::jsonb),
	coalesce(t.import_id, ''), coalesce(im.serial_number, ''), coalesce(im.source, ''), coalesce(im.signatures, ''),
	CASE WHEN t.state = 'draft' THEN coalesce(to_char(` + citedValidUntilSQL + `, 'YYYY-MM-DD'), '') ELSE '' END
FROM attestations t JOIN assessments a ON a.id = t.assessment_id JOIN entities en ON en.id = a.entity_id
LEFT JOIN users cu ON cu.id = t.created_by LEFT JOIN attestation_imports im ON im.id = t.import_id`

func scanAttestation(row pgx.Row) (assess.Attestation, error) {
	var t assess.Attestation
	var imp assess.ImportedFrom
	err := row.Scan(&t.ID, &t.AssessmentID, &t.AssessmentTitle, &t.EntityID, &t.EntityName, &t.Summary, &t.Statement, &t.State,
		&t.SerialNumber, &t.FrozenAt, &t.SealedAt, &t.SealKeyID, &t.ValidUntil, &t.Score, &t.RescindedAt, &t.RescindReason,
		&t.CreatedBy.ID, &t.CreatedBy.Username, &t.CreatedBy.DisplayName, &t.Version, &t.CreatedAt, &t.UpdatedAt,
		&t.Assessors, &t.ClaimIDs, &t.Signatories, &imp.ID, &imp.SerialNumber, &imp.Source, &imp.Signatures, &t.ProjectedValidUntil)
	if imp.ID != "" {
		t.Imported = &imp
	}
	t.CreatedAt, t.UpdatedAt = t.CreatedAt.UTC(), t.UpdatedAt.UTC()
	for _, p := range []**time.Time{&t.FrozenAt, &t.SealedAt, &t.RescindedAt} {
		if *p != nil {
			u := (*p).UTC()
			*p = &u
		}
	}
	if t.ClaimIDs == nil {
		t.ClaimIDs = []string{}
	}
	return t, err
}

// storedAttestation reads attestation id inside tx without a visibility check.
func storedAttestation(ctx context.Context, q postgres.Querier, id string) (assess.Attestation, error) {
	t, err := scanAttestation(q.QueryRow(ctx, attestationSelect+" WHERE t.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return t, errAttestationNotFound
	}
	return t, err
}

// visibleAttestation checks that attestation id exists under an assessment the actor may
// see (404 otherwise) and returns its assessment and state; lock takes the row lock.
func visibleAttestation(ctx context.Context, q postgres.Querier, actor assess.Actor, id string, lock bool) (assessmentID string, state assess.AttestationState, err error) {
	if !assess.ValidID(assess.PrefixAttestation, id) {
		return "", "", errAttestationNotFound
	}
	var args postgres.SQLArgs
	sql := "SELECT t.assessment_id, t.state FROM attestations t WHERE t.id = " + args.Add(id)
	if cond := postgres.AssessmentVisibleSQL(actor, "t.assessment_id", args.Add); cond != "" {
		sql += " AND " + cond
	}
	if lock {
		sql += " FOR UPDATE OF t"
	}
	err = q.QueryRow(ctx, sql, args...).Scan(&assessmentID, &state)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", errAttestationNotFound
	}
	return assessmentID, state, err
}

// draftAttestation is visibleAttestation for a change of a draft: locked, version
// checked, 409 frozen once signing began.
func draftAttestation(ctx context.Context, tx *postgres.Tx, id string, version int64) (assessmentID string, err error) {
	assessmentID, state, err := visibleAttestation(ctx, tx, tx.Actor, id, true)
	if err != nil {
		return "", err
	}
	if state != assess.AttestationDraft {
		return "", assess.ErrAttestationFrozen
	}
	if version > 0 {
		if err := tx.LockVersion(ctx, "attestations", id, version, errAttestationNotFound); err != nil {
			return "", err
		}
	}
	return assessmentID, nil
}

func attestationTarget(t assess.Attestation) postgres.Target {
	return postgres.Target{Type: "attestation", ID: t.ID, Scope: t.AssessmentID}
}

// recordAttestation reads attestation id as stored and records change c about it, with
// the assessment's team as the audience (and subject, when given).
func recordAttestation(ctx context.Context, tx *postgres.Tx, c assess.Change, id string, details map[string]any, subject string, out *assess.Attestation) error {
	t, err := storedAttestation(ctx, tx, id)
	if err != nil {
		return err
	}
	if out != nil {
		*out = t
	}
	team, err := postgres.AssessmentTeam(ctx, tx, t.AssessmentID)
	if err != nil {
		return err
	}
	if details == nil {
		details = map[string]any{}
	}
	details["assessment"] = t.AssessmentTitle
	var ev assess.NewEvent
	if c.Event != "" {
		ev = assess.NewEvent{Data: t, Summary: t.AssessmentTitle, Link: "/attestations/" + t.ID, Audience: attestationAudience(c, t, team),
			AssessmentID: t.AssessmentID, SubjectUserID: subject}
	}
	return tx.Record(ctx, c, attestationTarget(t), details, ev)
}

// attestationAudience is who an attestation's event concerns besides its subject. Most
// concern the assessment's team. Those that ask someone to act are worded for the users
// asked ("An attestation awaits your signature", "Your attestation is ready to seal"), and
// the fan-out words an event so for its whole audience: they go to those users alone — the
// signatories pinned to a slot when the statement freezes, the subject alone (the user
// pinned, the creator) for the others — and the team follows them in the timeline.
func attestationAudience(c assess.Change, t assess.Attestation, team []string) []string {
	switch c.Event {
	case assess.EventAffirmationFrozen:
		var pinned []string
		for _, s := range t.Signatories {
			if s.User != nil && s.SignedAt == nil {
				pinned = append(pinned, s.User.ID)
			}
		}
		return pinned
	case assess.EventAffirmationAssigned, assess.EventAffirmationSealReady, assess.EventAttestationExpiring:
		return nil
	}
	return team
}

// FindAttestations implements assess.AttestationService: newest first, keyset paginated.
func (s *AttestationService) FindAttestations(ctx context.Context, f assess.AttestationFilter, actor assess.Actor) (assess.Page[assess.Attestation], error) {
	l := postgres.NewList("attestations", attestationSelect, postgres.NewestFirst("t.id"))
	postgres.Equal(l, "t.assessment_id", f.Assessment)
	postgres.Equal(l, "t.state", f.State)
	if cond := postgres.AssessmentVisibleSQL(actor, "t.assessment_id", l.Arg); cond != "" {
		l.Where(cond)
	}
	return postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanAttestation, func(t assess.Attestation) []any { return []any{t.ID} })
}

// FindAttestation implements assess.AttestationService.
func (s *AttestationService) FindAttestation(ctx context.Context, id string, actor assess.Actor) (assess.Attestation, error) {
	if _, _, err := visibleAttestation(ctx, s.db.Pool, actor, id, false); err != nil {
		return assess.Attestation{}, postgres.DBError(err)
	}
	t, err := storedAttestation(ctx, s.db.Pool, id)
	return t, postgres.DBError(err)
}

// CreateAttestation implements assess.AttestationService: a draft of a complete
// assessment, with every claim of it unless claimIds chooses, and its score.
func (s *AttestationService) CreateAttestation(ctx context.Context, n assess.NewAttestation, actor assess.Actor) (assess.Attestation, error) {
	var out assess.Attestation
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := n.Validate(); err != nil {
			return err
		}
		state, err := postgres.VisibleAssessmentState(ctx, tx, tx.Actor, n.AssessmentID, true)
		if err != nil {
			return err
		}
		if state != assess.AssessmentComplete {
			return assess.ErrAssessmentNotComplete
		}
		var title string
		if err := tx.QueryRow(ctx, "SELECT title FROM assessments WHERE id = $1", n.AssessmentID).Scan(&title); err != nil {
			return err
		}
		if n.Statement == "" {
			n.Statement = "We affirm that the claims of this attestation of \u201c" + title + "\u201d are accurate and complete to the best of our knowledge."
		}
		id := assess.NewID(assess.PrefixAttestation, tx.Now)
		if _, err := tx.Exec(ctx, `INSERT INTO attestations (id, assessment_id, summary, statement, created_by, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6)`, id, n.AssessmentID, n.Summary, n.Statement, postgres.Nullable(userIDOf(tx.Actor)), tx.Now); err != nil {
			return err
		}
		if err := setAttestationAssessors(ctx, tx, id, n.AssessorIDs); err != nil {
			return err
		}
		if err := setAttestationClaims(ctx, tx, id, n.AssessmentID, n.ClaimIDs, n.ClaimIDs == nil); err != nil {
			return err
		}
		if err := refreshAttestationScore(ctx, tx, id, n.AssessmentID); err != nil {
			return err
		}
		return recordAttestation(ctx, tx, assess.ChangeAttestationCreated, id, nil, "", &out)
	})
	return out, err
}

// UpdateAttestation implements assess.AttestationService: drafts only.
func (s *AttestationService) UpdateAttestation(ctx context.Context, id string, u assess.AttestationUpdate, actor assess.Actor) (assess.Attestation, error) {
	var out assess.Attestation
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		assessmentID, err := draftAttestation(ctx, tx, id, u.Version)
		if err != nil {
			return err
		}
		if err := u.Validate(); err != nil {
			return err
		}
		if u.Summary != nil {
			if _, err := tx.Exec(ctx, "UPDATE attestations SET summary = $2 WHERE id = $1", id, *u.Summary); err != nil {
				return err
			}
		}
		if u.Statement != nil {
			if _, err := tx.Exec(ctx, "UPDATE attestations SET statement = $2 WHERE id = $1", id, *u.Statement); err != nil {
				return err
			}
		}
		if u.AssessorIDs != nil {
			if err := setAttestationAssessors(ctx, tx, id, *u.AssessorIDs); err != nil {
				return err
			}
		}
		if u.ClaimIDs != nil {
			if err := setAttestationClaims(ctx, tx, id, assessmentID, *u.ClaimIDs, false); err != nil {
				return err
			}
		}
		if err := tx.BumpVersion(ctx, "attestations", id); err != nil {
			return err
		}
		return recordAttestation(ctx, tx, assess.ChangeAttestationUpdated, id, map[string]any{"changes": u}, "", &out)
	})
	return out, err
}

// DeleteAttestation implements assess.AttestationService: drafts only.
func (s *AttestationService) DeleteAttestation(ctx context.Context, id string, version int64, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if _, err := draftAttestation(ctx, tx, id, version); err != nil {
			return err
		}
		var before assess.Attestation
		if err := recordAttestation(ctx, tx, assess.ChangeAttestationDeleted, id, nil, "", &before); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "DELETE FROM attestations WHERE id = $1", id)
		return err
	})
}

// setAttestationAssessors replaces the assessors of attestation id, in the order given;
// an unknown assessor is 422.
func setAttestationAssessors(ctx context.Context, tx *postgres.Tx, id string, ids []string) error {
	if _, err := tx.Exec(ctx, "DELETE FROM attestation_assessors WHERE attestation_id = $1", id); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	tag, err := tx.Exec(ctx, `INSERT INTO attestation_assessors (attestation_id, assessor_id, position)
		SELECT $1, ao.id, x.n FROM unnest($2::text[]) WITH ORDINALITY x(id, n) JOIN assessors ao ON ao.id = x.id`, id, ids)
	if err != nil {
		return err
	}
	if int(tag.RowsAffected()) != len(ids) {
		return invalidIDs("assessorIds", "Every assessor must exist (see /api/v1/assessors).")
	}
	return nil
}

// setAttestationClaims replaces the chosen claims of attestation id: all claims of the
// assessment, or those of ids, each of which must belong to it (422 otherwise).
func setAttestationClaims(ctx context.Context, tx *postgres.Tx, id, assessmentID string, ids []string, all bool) error {
	if _, err := tx.Exec(ctx, "DELETE FROM attestation_claims WHERE attestation_id = $1", id); err != nil {
		return err
	}
	if all {
		_, err := tx.Exec(ctx, `INSERT INTO attestation_claims (attestation_id, claim_id)
			SELECT $1, c.id FROM claims c WHERE c.assessment_id = $2`, id, assessmentID)
		return err
	}
	tag, err := tx.Exec(ctx, `INSERT INTO attestation_claims (attestation_id, claim_id)
		SELECT $1, c.id FROM claims c WHERE c.assessment_id = $2 AND c.id = ANY ($3::text[])`, id, assessmentID, ids)
	if err != nil {
		return err
	}
	if int(tag.RowsAffected()) != len(ids) {
		return invalidIDs("claimIds", "Every claim must be a claim of the attestation's assessment.")
	}
	return nil
}

func invalidIDs(field, message string) error {
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: message, Details: []assess.Detail{{Field: field, Code: "unknown", Message: message}}}
}

// attestationMapSQL reads the map of attestation $1 over the requirements of assessment
// $2: result and rationale, the assessor's override and confidence, the chosen claims and
// counter-claims about each requirement, in the assessment's order.
const attestationMapSQL = `SELECT ar.id, r.identifier, r.name, r.description, ar.standard_id, coalesce(ar.result, ''), ar.rationale,
	o.score_override::float8, o.confidence::float8, coalesce(o.confidence_rationale, ''), ar.requirement_id,
	ARRAY(SELECT c.id FROM claim_requirements cr JOIN claims c ON c.id = cr.claim_id
		JOIN attestation_claims ac ON ac.claim_id = c.id AND ac.attestation_id = $1
		WHERE cr.assessment_requirement_id = ar.id AND NOT c.is_counter_claim ORDER BY c.id),
	ARRAY(SELECT c.id FROM claim_requirements cr JOIN claims c ON c.id = cr.claim_id
		JOIN attestation_claims ac ON ac.claim_id = c.id AND ac.attestation_id = $1
		WHERE cr.assessment_requirement_id = ar.id AND c.is_counter_claim ORDER BY c.id)
FROM assessment_requirements ar JOIN requirements r ON r.id = ar.requirement_id
LEFT JOIN attestation_requirements o ON o.attestation_id = $1 AND o.assessment_requirement_id = ar.id
WHERE ar.assessment_id = $2 ORDER BY ar.id`

// attestationMap reads the map and, per entry, the requirement of the standard (rq_…).
func attestationMap(ctx context.Context, q postgres.Querier, id, assessmentID string) ([]assess.AttestationRequirement, map[string]string, error) {
	rows, err := q.Query(ctx, attestationMapSQL, id, assessmentID)
	if err != nil {
		return nil, nil, err
	}
	refs := map[string]string{}
	items, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (assess.AttestationRequirement, error) {
		var it assess.AttestationRequirement
		var rq string
		err := r.Scan(&it.ID, &it.Identifier, &it.Name, &it.Description, &it.StandardID, &it.Result, &it.Rationale, &it.ScoreOverride,
			&it.Confidence, &it.ConfidenceRationale, &rq, &it.ClaimIDs, &it.CounterClaimIDs)
		refs[it.ID] = rq
		it.DerivedScore = assess.ResultScore(it.Result)
		it.Score = it.DerivedScore
		if it.ScoreOverride != nil {
			it.Score = it.ScoreOverride
		}
		if it.ClaimIDs == nil {
			it.ClaimIDs = []string{}
		}
		if it.CounterClaimIDs == nil {
			it.CounterClaimIDs = []string{}
		}
		return it, err
	})
	if items == nil {
		items = []assess.AttestationRequirement{}
	}
	return items, refs, err
}

// refreshAttestationScore stores the overall score of the attestation's map.
func refreshAttestationScore(ctx context.Context, tx *postgres.Tx, id, assessmentID string) error {
	items, _, err := attestationMap(ctx, tx, id, assessmentID)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, "UPDATE attestations SET score = $2 WHERE id = $1", id, assess.AttestationScore(items))
	return err
}

// FindAttestationRequirements implements assess.AttestationService.
func (s *AttestationService) FindAttestationRequirements(ctx context.Context, id string, actor assess.Actor) (assess.AttestationRequirementList, error) {
	assessmentID, _, err := visibleAttestation(ctx, s.db.Pool, actor, id, false)
	if err != nil {
		return assess.AttestationRequirementList{}, postgres.DBError(err)
	}
	return attestationMapList(ctx, s.db.Pool, id, assessmentID)
}

// attestationMapList is the map with the attestation's version and score.
func attestationMapList(ctx context.Context, q postgres.Querier, id, assessmentID string) (assess.AttestationRequirementList, error) {
	var out assess.AttestationRequirementList
	if err := q.QueryRow(ctx, "SELECT version, score::float8 FROM attestations WHERE id = $1", id).Scan(&out.Version, &out.Score); err != nil {
		return out, postgres.DBError(err)
	}
	var err error
	out.Items, _, err = attestationMap(ctx, q, id, assessmentID)
	return out, postgres.DBError(err)
}

// ChangeAttestationRequirements implements assess.AttestationService: overrides and
// confidence of requirements of the assessment, drafts only; the whole map is returned.
func (s *AttestationService) ChangeAttestationRequirements(ctx context.Context, id string, c assess.AttestationRequirementChanges, actor assess.Actor) (assess.AttestationRequirementList, error) {
	var out assess.AttestationRequirementList
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		assessmentID, err := draftAttestation(ctx, tx, id, c.Version)
		if err != nil {
			return err
		}
		if err := c.Validate(); err != nil {
			return err
		}
		ids := make([]string, len(c.Items))
		for i, it := range c.Items {
			ids[i] = it.ID
		}
		var known int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM assessment_requirements WHERE assessment_id = $1 AND id = ANY ($2::text[])",
			assessmentID, ids).Scan(&known); err != nil {
			return err
		}
		if known != len(ids) {
			return invalidIDs("items", "Every item must be a requirement (ar_…) of the attestation's assessment.")
		}
		for _, it := range c.Items {
			if _, err := tx.Exec(ctx, `INSERT INTO attestation_requirements (attestation_id, assessment_requirement_id, score_override,
				confidence, confidence_rationale) VALUES ($1, $2, $3, $4, $5)
				ON CONFLICT (attestation_id, assessment_requirement_id) DO UPDATE SET score_override = EXCLUDED.score_override,
				confidence = EXCLUDED.confidence, confidence_rationale = EXCLUDED.confidence_rationale`,
				id, it.ID, it.ScoreOverride, it.Confidence, it.ConfidenceRationale); err != nil {
				return err
			}
		}
		if err := refreshAttestationScore(ctx, tx, id, assessmentID); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "attestations", id); err != nil {
			return err
		}
		if err := recordAttestation(ctx, tx, assess.ChangeAttestationUpdated, id, map[string]any{"requirements": len(c.Items)}, "", nil); err != nil {
			return err
		}
		out, err = attestationMapList(ctx, tx, id, assessmentID)
		return err
	})
	return out, err
}

// AddSignatory implements assess.AttestationService: a slot of a draft, pinned to a user
// who can see the assessment (422 otherwise), organisation defaulting to the entity's name.
func (s *AttestationService) AddSignatory(ctx context.Context, id string, n assess.NewSignatory, actor assess.Actor) (assess.Attestation, error) {
	var out assess.Attestation
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		assessmentID, err := draftAttestation(ctx, tx, id, 0)
		if err != nil {
			return err
		}
		if err := n.Validate(); err != nil {
			return err
		}
		if n.UserID != "" {
			var sees bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND active) AND assessment_visible($1, $2)
				AND user_has_permission($1, 'signatures.sign')`, n.UserID, assessmentID).Scan(&sees); err != nil {
				return err
			}
			if !sees {
				return invalidIDs("userId", "The signatory must be an active user who can see the assessment and may sign (signatures.sign).")
			}
		}
		if n.Organization == "" {
			if err := tx.QueryRow(ctx, `SELECT en.name FROM assessments a JOIN entities en ON en.id = a.entity_id WHERE a.id = $1`,
				assessmentID).Scan(&n.Organization); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO attestation_signatories (id, attestation_id, position, title, organization, user_id)
			VALUES ($1, $2, (SELECT coalesce(max(position), 0) + 1 FROM attestation_signatories WHERE attestation_id = $2), $3, $4, $5)`,
			assess.NewID(assess.PrefixSignatory, tx.Now), id, n.Title, n.Organization, postgres.Nullable(n.UserID)); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "attestations", id); err != nil {
			return err
		}
		return recordAttestation(ctx, tx, assess.ChangeAffirmationAssigned, id, map[string]any{"title": n.Title}, n.UserID, &out)
	})
	return out, err
}

// RemoveSignatory implements assess.AttestationService: drafts only.
func (s *AttestationService) RemoveSignatory(ctx context.Context, id, slotID string, actor assess.Actor) (assess.Attestation, error) {
	var out assess.Attestation
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if _, err := draftAttestation(ctx, tx, id, 0); err != nil {
			return err
		}
		var title string
		err := tx.QueryRow(ctx, "DELETE FROM attestation_signatories WHERE id = $1 AND attestation_id = $2 RETURNING title", slotID, id).Scan(&title)
		if errors.Is(err, pgx.ErrNoRows) {
			return &assess.Error{Code: assess.ECodeNotFound, Message: "Signatory slot not found."}
		}
		if err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "attestations", id); err != nil {
			return err
		}
		return recordAttestation(ctx, tx, assess.ChangeAffirmationUnassigned, id, map[string]any{"title": title}, "", &out)
	})
	return out, err
}

// attestationStates returns the states of the attestations of an assessment, each once:
// whether one holds its result is assess.AttestationHoldsResult's (reopenBlockers).
func attestationStates(ctx context.Context, q postgres.Querier, assessmentID string) ([]assess.AttestationState, error) {
	var states []assess.AttestationState
	err := q.QueryRow(ctx, `SELECT ARRAY(SELECT DISTINCT state FROM attestations WHERE assessment_id = $1)`,
		assessmentID).Scan(&states)
	return states, err
}

// RecordAttestation records change c about attestation id in tx, with its assessment's team
// as the audience, for flows of the composition package (the attestation import).
func RecordAttestation(ctx context.Context, tx *postgres.Tx, c assess.Change, id string, details map[string]any) (assess.Attestation, error) {
	var out assess.Attestation
	err := recordAttestation(ctx, tx, c, id, details, "", &out)
	return out, err
}
