package work

import (
	"context"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// claimRelations are the sets a claim change writes; nil leaves a set as it is.
type claimRelations struct {
	Evidence, CounterEvidence, Mitigation, Requirements *[]string
}

// evidenceSets pairs each evidence set with its kind and the request field naming it.
func (r claimRelations) evidenceSets() []struct {
	field string
	kind  assess.ClaimRelation
	ids   *[]string
} {
	return []struct {
		field string
		kind  assess.ClaimRelation
		ids   *[]string
	}{
		{"evidenceIds", assess.ClaimRelationEvidence, r.Evidence},
		{"counterEvidenceIds", assess.ClaimRelationCounterEvidence, r.CounterEvidence},
		{"mitigationEvidenceIds", assess.ClaimRelationMitigation, r.Mitigation},
	}
}

// claimRule is a 422 about one field of a claim request.
func claimRule(field, code, message string) error {
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: message,
		Details: []assess.Detail{{Field: field, Code: code, Message: message}}}
}

// checkClaim checks what claim c (as it will be stored; before is the stored claim, zero
// for a new one) and the sets rel refer to, where they changed: the target entity exists,
// the claim countered is another claim of the same assessment, the evidence is visible to
// the actor, the requirements are the assessment's.
func checkClaim(ctx context.Context, tx *postgres.Tx, c, before assess.Claim, rel claimRelations) error {
	if c.TargetEntityID != "" && c.TargetEntityID != before.TargetEntityID {
		var ok bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM entities WHERE id = $1)", c.TargetEntityID).Scan(&ok); err != nil {
			return err
		}
		if !ok {
			return claimRule("targetEntityId", "unknown_entity", "No entity "+c.TargetEntityID+".")
		}
	}
	if c.CountersClaimID != "" && c.CountersClaimID != before.CountersClaimID {
		var ok bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM claims WHERE id = $1 AND assessment_id = $2 AND id <> $3)",
			c.CountersClaimID, c.AssessmentID, c.ID).Scan(&ok); err != nil {
			return err
		}
		if !ok {
			return claimRule("countersClaimId", "unknown_claim", "No other claim "+c.CountersClaimID+" in this assessment.")
		}
	}
	for _, set := range rel.evidenceSets() {
		if set.ids == nil || len(*set.ids) == 0 {
			continue
		}
		if err := checkCitedEvidence(ctx, tx, set.field, *set.ids); err != nil {
			return err
		}
	}
	if rel.Requirements != nil && len(*rel.Requirements) > 0 {
		rows, err := tx.Query(ctx, "SELECT id FROM assessment_requirements WHERE assessment_id = $1 AND id = ANY ($2)",
			c.AssessmentID, *rel.Requirements)
		if err != nil {
			return err
		}
		if missing, err := firstMissing(rows, *rel.Requirements); err != nil || missing != "" {
			if err != nil {
				return err
			}
			return claimRule("requirementIds", "unknown_requirement", "No requirement "+missing+" in this assessment.")
		}
	}
	return nil
}

// checkCitedEvidence answers 422 unknown_evidence on field for the first id that is not
// evidence the actor may see: what one cannot see cannot be cited (and is not revealed).
func checkCitedEvidence(ctx context.Context, tx *postgres.Tx, field string, ids []string) error {
	var args postgres.SQLArgs
	sql := "SELECT e.id FROM evidence e WHERE e.id = ANY (" + args.Add(ids) + ")"
	if cond := postgres.EvidenceVisibleSQL(tx.Actor, "e.id", "e.author_id", "e.reviewer_id", args.Add); cond != "" {
		sql += " AND " + cond
	}
	rows, err := tx.Query(ctx, sql, args...)
	if err != nil {
		return err
	}
	missing, err := firstMissing(rows, ids)
	if err != nil || missing == "" {
		return err
	}
	return claimRule(field, "unknown_evidence", "No evidence "+missing+".")
}

// firstMissing reads the ids rows found and returns the first of want not among them.
func firstMissing(rows pgx.Rows, want []string) (string, error) {
	var found []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return "", err
		}
		found = append(found, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", err
	}
	for _, id := range want {
		if !slices.Contains(found, id) {
			return id, nil
		}
	}
	return "", nil
}

// writeClaimRelations replaces the sets of rel that are given, locking in the order of
// the link writers (lockCitedEvidence): the newly cited evidence, then the requirement rows
// that lose or gain the claim (they count their claims, migrations/0038; the old and the new
// in id order, so that the delete and the insert below never take them in another order),
// and only then the citations, whose trigger takes the evidence's assessments.
func writeClaimRelations(ctx context.Context, tx *postgres.Tx, claimID string, rel claimRelations) error {
	if rel.Requirements != nil {
		var cited []string
		for _, set := range rel.evidenceSets() {
			if set.ids != nil {
				cited = append(cited, *set.ids...)
			}
		}
		if len(cited) > 0 {
			lock := lockCitedEvidence(cited)
			if _, err := tx.Exec(ctx, lock.SQL, lock.Args...); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `SELECT 1 FROM assessment_requirements
			WHERE id = ANY ($2::text[]) OR id IN (SELECT assessment_requirement_id FROM claim_requirements WHERE claim_id = $1)
			ORDER BY id FOR NO KEY UPDATE`, claimID, *rel.Requirements); err != nil {
			return err
		}
	}
	for _, set := range rel.evidenceSets() {
		if set.ids == nil {
			continue
		}
		if _, err := tx.Exec(ctx, "DELETE FROM claim_evidence WHERE claim_id = $1 AND kind = $2", claimID, set.kind); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "INSERT INTO claim_evidence (claim_id, evidence_id, kind) SELECT $1, unnest($2::text[]), $3",
			claimID, *set.ids, set.kind); err != nil {
			return err
		}
	}
	if rel.Requirements != nil {
		if _, err := tx.Exec(ctx, "DELETE FROM claim_requirements WHERE claim_id = $1", claimID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "INSERT INTO claim_requirements (claim_id, assessment_requirement_id) SELECT $1, unnest($2::text[])",
			claimID, *rel.Requirements); err != nil {
			return err
		}
	}
	return nil
}
