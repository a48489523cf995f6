package work

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// Claims belong to one assessment and are visible exactly when it is (visibility.go);
// they change only while it takes changes. The evidence a claim cites must be visible to
// whoever cites it, and is locked against change from then on (the evidence retention
// lock reads claim_evidence).

var errClaimNotFound = &assess.Error{Code: assess.ECodeNotFound, Message: "Claim not found."}

// claimSelect reads claims as the API shows them: the target entity's name, the cited
// evidence (ids, names, states and kinds of citation as four arrays in the same order) and
// the requirements, in one row. Arrays, not a JSON array of objects, which PostgreSQL built
// and the server parsed an object per citation (docs/performance.md, "Lists at the
// domain's scale"). The citations are sorted once, in a subquery the aggregates read in
// its order (nothing is joined above it that could reorder them, as PostgreSQL's manual
// requires of that form); an ORDER BY in each of the four aggregates sorted them four
// times (PostgreSQL 15 sorts each such aggregate's input on its own): 0.73–1.2 → 0.56–0.65
// ms for the page of make bench's busy assessment.
const claimSelect = `SELECT c.id, c.assessment_id, c.name, c.bom_ref, c.target, coalesce(c.target_entity_id, ''),
	coalesce(en.name, ''), c.predicate, c.reasoning, c.is_counter_claim, coalesce(c.counters_claim_id, ''),
	c.external_references, coalesce(c.created_by, ''), c.version, c.created_at, c.updated_at,
	coalesce(cev.ids, '{}'), coalesce(cev.names, '{}'), coalesce(cev.states, '{}'), coalesce(cev.kinds, '{}'),
	ARRAY(SELECT cr.assessment_requirement_id FROM claim_requirements cr WHERE cr.claim_id = c.id
		ORDER BY cr.assessment_requirement_id)
FROM claims c LEFT JOIN entities en ON en.id = c.target_entity_id
	LEFT JOIN LATERAL (SELECT array_agg(x.id) AS ids, array_agg(x.name) AS names, array_agg(x.state) AS states,
		array_agg(x.kind) AS kinds
		FROM (SELECT e.id, e.name, e.state, ce.kind FROM claim_evidence ce JOIN evidence e ON e.id = ce.evidence_id
			WHERE ce.claim_id = c.id ORDER BY lower(e.name), e.id) x) cev ON true`

// scanClaim reads a claim as stored: Target is the stored text, blank when only an
// entity is named (showClaim fills it for the API).
func scanClaim(row pgx.Row) (assess.Claim, error) {
	var c assess.Claim
	var ids, names, states, kinds []string
	err := row.Scan(&c.ID, &c.AssessmentID, &c.Name, &c.BOMRef, &c.Target, &c.TargetEntityID, &c.TargetEntityName,
		&c.Predicate, &c.Reasoning, &c.IsCounterClaim, &c.CountersClaimID, &c.ExternalReferences, &c.CreatedBy,
		&c.Version, &c.CreatedAt, &c.UpdatedAt, &ids, &names, &states, &kinds, &c.RequirementIDs)
	c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	c.Evidence, c.CounterEvidence, c.MitigationStrategies = []assess.ClaimEvidence{}, []assess.ClaimEvidence{}, []assess.ClaimEvidence{}
	if err == nil && (len(names) != len(ids) || len(states) != len(ids) || len(kinds) != len(ids)) {
		err = fmt.Errorf("claim %s: cited evidence read in arrays of different lengths", c.ID)
	}
	for i := range ids {
		if err != nil {
			break
		}
		e := assess.ClaimEvidence{ID: ids[i], Name: names[i], State: assess.EvidenceState(states[i])}
		switch assess.ClaimRelation(kinds[i]) {
		case assess.ClaimRelationEvidence:
			c.Evidence = append(c.Evidence, e)
		case assess.ClaimRelationCounterEvidence:
			c.CounterEvidence = append(c.CounterEvidence, e)
		case assess.ClaimRelationMitigation:
			c.MitigationStrategies = append(c.MitigationStrategies, e)
		}
	}
	if c.ExternalReferences == nil {
		c.ExternalReferences = []assess.ClaimReference{}
	}
	if c.RequirementIDs == nil {
		c.RequirementIDs = []string{}
	}
	return c, err
}

// showClaim fills what the API derives: a claim about an entity without a text target
// shows the entity's name as its target.
func showClaim(c assess.Claim) assess.Claim {
	if c.Target == "" {
		c.Target = c.TargetEntityName
	}
	return c
}

// storedClaim reads a claim inside tx, as stored (no visibility check: the caller did it).
func storedClaim(ctx context.Context, q postgres.Querier, id string) (assess.Claim, error) {
	c, err := scanClaim(q.QueryRow(ctx, claimSelect+" WHERE c.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return c, errClaimNotFound
	}
	return c, err
}

// claimTarget names a claim in the audit log, under its assessment's timeline.
func claimTarget(c assess.Claim) postgres.Target {
	return postgres.Target{Type: "claim", ID: c.ID, Scope: c.AssessmentID}
}

// claimEvent is the event of a change to claim c: its team is the audience, and only
// users who may see the assessment hear of it.
func claimEvent(ctx context.Context, q postgres.Querier, c assess.Claim) (assess.NewEvent, error) {
	team, err := postgres.AssessmentTeam(ctx, q, c.AssessmentID)
	return assess.NewEvent{Data: showClaim(c), Summary: c.Name, Link: "/assessments/" + c.AssessmentID + "?tab=claims",
		Audience: team, AssessmentID: c.AssessmentID}, err
}

// FindClaims implements assess.ClaimService: oldest first, keyset paginated on the claim id
// within the assessment (index claims_assessment_idx). The requirement filter tests each
// claim by its primary key in claim_requirements, so a page reads at most the assessment's
// claims from the cursor on, whatever the size of the table. Whoever needs every claim of
// an assessment reads them in the store (reportClaims, attestationContent,
// setAttestationClaims), never page by page through this list.
func (s *ClaimService) FindClaims(ctx context.Context, assessmentID string, f assess.ClaimFilter, actor assess.Actor) (assess.Page[assess.Claim], error) {
	if _, err := postgres.VisibleAssessmentState(ctx, s.db.Pool, actor, assessmentID, false); err != nil {
		return assess.Page[assess.Claim]{}, postgres.DBError(err)
	}
	l := postgres.NewList("claims", claimSelect, postgres.OldestFirst("c.id"))
	l.Where("c.assessment_id = " + l.Arg(assessmentID))
	if f.Requirement != "" {
		l.Where("EXISTS (SELECT 1 FROM claim_requirements fr WHERE fr.claim_id = c.id AND fr.assessment_requirement_id = " +
			l.Arg(f.Requirement) + ")")
	}
	return postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, func(r pgx.Row) (assess.Claim, error) {
		c, err := scanClaim(r)
		return showClaim(c), err
	}, func(c assess.Claim) []any { return []any{c.ID} })
}

// FindClaim implements assess.ClaimService: 404 for a claim whose assessment the actor
// may not see.
func (s *ClaimService) FindClaim(ctx context.Context, id string, actor assess.Actor) (assess.Claim, error) {
	if !assess.ValidID(assess.PrefixClaim, id) {
		return assess.Claim{}, errClaimNotFound
	}
	var args postgres.SQLArgs
	sql := claimSelect + " WHERE c.id = " + args.Add(id)
	if cond := postgres.AssessmentVisibleSQL(actor, "c.assessment_id", args.Add); cond != "" {
		sql += " AND " + cond
	}
	c, err := scanClaim(s.db.Pool.QueryRow(ctx, sql, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		return c, errClaimNotFound
	}
	return showClaim(c), postgres.DBError(err)
}

// UpdateClaim implements assess.ClaimService: absent fields stay, arrays replace.
func (s *ClaimService) UpdateClaim(ctx context.Context, id string, upd assess.ClaimUpdate, actor assess.Actor) (assess.Claim, error) {
	var after assess.Claim
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := writableClaim(ctx, tx, id); err != nil {
			return err
		}
		if err := upd.Validate(); err != nil {
			return err
		}
		if err := tx.LockVersion(ctx, "claims", id, upd.Version, errClaimNotFound); err != nil {
			return err
		}
		before, err := storedClaim(ctx, tx, id)
		if err != nil {
			return err
		}
		next := before
		if err := upd.Apply(&next); err != nil {
			return err
		}
		if upd.ExternalReferences != nil {
			next.ExternalReferences = *upd.ExternalReferences
		}
		rel := claimRelations{Evidence: upd.EvidenceIDs, CounterEvidence: upd.CounterEvidenceIDs,
			Mitigation: upd.MitigationEvidenceIDs, Requirements: upd.RequirementIDs}
		if err := checkClaim(ctx, tx, next, before, rel); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE claims SET name = $2, target = $3, target_entity_id = $4, predicate = $5, reasoning = $6,
			is_counter_claim = $7, counters_claim_id = $8, external_references = $9 WHERE id = $1`,
			id, next.Name, next.Target, postgres.Nullable(next.TargetEntityID), next.Predicate, next.Reasoning, next.IsCounterClaim,
			postgres.Nullable(next.CountersClaimID), next.ExternalReferences); err != nil {
			return err
		}
		if err := writeClaimRelations(ctx, tx, id, rel); err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, "claims", id); err != nil {
			return err
		}
		return recordClaim(ctx, tx, assess.ChangeClaimUpdated, id, map[string]any{"changes": upd}, &after)
	})
	return after, err
}

// DeleteClaim implements assess.ClaimService. Counter-claims of the claim stay
// counter-claims, countering nothing; the evidence it cited is no longer locked by it.
func (s *ClaimService) DeleteClaim(ctx context.Context, id string, version int64, actor assess.Actor) error {
	return s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := writableClaim(ctx, tx, id); err != nil {
			return err
		}
		if err := tx.LockVersion(ctx, "claims", id, version, errClaimNotFound); err != nil {
			return err
		}
		before, err := storedClaim(ctx, tx, id)
		if err != nil {
			return err
		}
		ev, err := claimEvent(ctx, tx, before)
		if err != nil {
			return err
		}
		// The delete's cascades take the evidence's assessments (the citations) before the
		// requirement rows (their claim counts); the rows are locked first, as the link
		// writers take them (lockCitedEvidence).
		if _, err := tx.Exec(ctx, `SELECT 1 FROM assessment_requirements
			WHERE id IN (SELECT assessment_requirement_id FROM claim_requirements WHERE claim_id = $1) ORDER BY id FOR NO KEY UPDATE`, id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM claims WHERE id = $1", id); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeClaimDeleted, claimTarget(before), map[string]any{"name": before.Name}, ev)
	})
}

// writableClaim checks that claim id exists under an assessment the actor may see (404
// otherwise, the claim's own) that takes changes (409 read_only).
func writableClaim(ctx context.Context, tx *postgres.Tx, id string) error {
	if !assess.ValidID(assess.PrefixClaim, id) {
		return errClaimNotFound
	}
	var assessmentID string
	err := tx.QueryRow(ctx, "SELECT assessment_id FROM claims WHERE id = $1", id).Scan(&assessmentID)
	if errors.Is(err, pgx.ErrNoRows) {
		return errClaimNotFound
	}
	if err != nil {
		return err
	}
	if err := postgres.WritableAssessment(ctx, tx, tx.Actor, assessmentID); err != nil {
		if errors.Is(err, postgres.ErrAssessmentNotFound) {
			return errClaimNotFound
		}
		return err
	}
	return nil
}

// recordClaim reads claim id as the change leaves it into *out and records change c.
func recordClaim(ctx context.Context, tx *postgres.Tx, c assess.Change, id string, details map[string]any, out *assess.Claim) error {
	stored, err := storedClaim(ctx, tx, id)
	if err != nil {
		return err
	}
	*out = showClaim(stored)
	ev, err := claimEvent(ctx, tx, stored)
	if err != nil {
		return err
	}
	if details == nil {
		details = map[string]any{}
	}
	details["name"] = stored.Name
	return tx.Record(ctx, c, claimTarget(stored), details, ev)
}

// userIDOf is the actor's user id, or "" for the service and the command line.
func userIDOf(a assess.Actor) string {
	if assess.ValidID(assess.PrefixUser, a.ID) {
		return a.ID
	}
	return ""
}

var _ assess.ClaimService = (*ClaimService)(nil)
