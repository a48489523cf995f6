package work

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// evidenceLockSQL loads the facts the retention lock of evidence $1 is decided from
// (assess.EvidenceLockFacts).
const evidenceLockSQL = `SELECT e.state, ` + evidenceLockFactsSQL + ` FROM evidence e WHERE e.id = $1`

// evidenceLock returns why evidence id refuses changes (assess.EvidenceLock: approved,
// cited by a claim, linked to a read-only assessment, frozen by an attestation) or "" when
// it takes them. The locks bind every caller, administrators included; visibility is the
// caller's business (evidenceVisible first). Callers that change the evidence should hold
// its row lock (SELECT … FOR UPDATE) before asking, so the answer holds until commit.
// Unknown evidence answers "".
func evidenceLock(ctx context.Context, q postgres.Querier, id string) (string, error) {
	var f assess.EvidenceLockFacts
	err := q.QueryRow(ctx, evidenceLockSQL, id).Scan(&f.State, &f.CitedByClaim, &f.AttestationStates, &f.AssessmentStates)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return assess.EvidenceLock(f), nil
}

// evidenceLockError is evidenceLock as an error: assess.ErrEvidenceLocked with the reason,
// or nil when the evidence is not locked. Within a change (q is a *Tx) the assessments the
// evidence is linked to are locked FOR SHARE first, so none of them can become complete,
// archived or cancelled (a state change locks the assessment FOR UPDATE) before the change
// commits: the answer holds until then.
func evidenceLockError(ctx context.Context, q postgres.Querier, id string) error {
	if tx, ok := q.(*postgres.Tx); ok {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM assessments a WHERE a.id IN (SELECT l.assessment_id
			FROM assessment_requirement_evidence l WHERE l.evidence_id = $1) ORDER BY a.id FOR SHARE OF a`, id); err != nil {
			return err
		}
	}
	reason, err := evidenceLock(ctx, q, id)
	if err != nil {
		return err
	}
	if reason != "" {
		return assess.ErrEvidenceLocked(reason)
	}
	return nil
}
