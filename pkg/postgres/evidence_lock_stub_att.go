package postgres

// Temporary: replaced by evi's evidence_lock.go at merge (the lead deletes this file).

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// evidenceLock returns why evidence id refuses changes ("" when it does not), in the
// contract's order: claimed, cited by a claim, linked to a terminal assessment.
func evidenceLock(ctx context.Context, q querier, id string) (reason string, err error) {
	err = q.QueryRow(ctx, `SELECT CASE
		WHEN e.state = 'claimed' THEN $2
		WHEN EXISTS (SELECT 1 FROM claim_evidence ce WHERE ce.evidence_id = e.id) THEN $3
		WHEN EXISTS (SELECT 1 FROM assessment_requirement_evidence l JOIN assessments a ON a.id = l.assessment_id
			WHERE l.evidence_id = e.id AND a.state IN ('complete', 'archived', 'cancelled')) THEN $4
		ELSE '' END
		FROM evidence e WHERE e.id = $1`, id, assess.LockClaimed, assess.LockLinkedToClaim, assess.LockAssessmentTerminal).Scan(&reason)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", errEvidenceNotFound
	}
	return reason, err
}
