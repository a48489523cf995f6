package work

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// expiryBatch bounds the evidence one transaction of the expiry job changes, so a large
// backlog is worked off in short transactions.
const expiryBatch = 200

// ExpireEvidence implements assess.EvidenceExpiry on the store's clock: evidence whose
// valid-until day is before today becomes expired (evidence.expired, the author
// notified); evidence not expired whose valid-until day is today or within reminderDays
// is announced once (evidence.expiring, marked in expiring_notified_at, which a new
// validUntil clears). reminderDays 0 sends no reminders. Rows locked by a change in
// progress are left for the next run; running twice changes nothing more.
func (s *EvidenceService) ExpireEvidence(ctx context.Context, reminderDays int) (assess.EvidenceExpiryRun, error) {
	var run assess.EvidenceExpiryRun
	for {
		n, err := s.expiryStep(ctx, `WITH picked AS (SELECT id, state FROM evidence
			WHERE valid_until < $1::date AND state <> 'expired' ORDER BY valid_until, id LIMIT $3 FOR UPDATE SKIP LOCKED)
			UPDATE evidence e SET state = 'expired', version = e.version + 1, updated_at = $2
			FROM picked WHERE e.id = picked.id RETURNING e.id, picked.state`, 0, assess.ChangeEvidenceExpired)
		run.Expired += n
		if err != nil {
			return run, err
		}
		if n < expiryBatch {
			break
		}
	}
	for reminderDays > 0 {
		n, err := s.expiryStep(ctx, `WITH picked AS (SELECT id, state FROM evidence
			WHERE valid_until BETWEEN $1::date AND $1::date + $4::int AND state <> 'expired' AND expiring_notified_at IS NULL
			ORDER BY valid_until, id LIMIT $3 FOR UPDATE SKIP LOCKED)
			UPDATE evidence e SET expiring_notified_at = $2 FROM picked WHERE e.id = picked.id RETURNING e.id, picked.state`,
			reminderDays, assess.ChangeEvidenceExpiring)
		run.Reminded += n
		if err != nil {
			return run, err
		}
		if n < expiryBatch {
			break
		}
	}
	for reminderDays > 0 {
		n, err := s.remindAttestations(ctx, reminderDays)
		run.AttestationsReminded += n
		if err != nil || n < expiryBatch {
			return run, err
		}
	}
	return run, nil
}

// remindAttestations announces once (attestation.expiring, the creator the subject) each
// sealed attestation whose valid-until day is today or within reminderDays.
func (s *EvidenceService) remindAttestations(ctx context.Context, reminderDays int) (int64, error) {
	var n int64
	err := s.db.Change(ctx, assess.SystemActor, func(tx *postgres.Tx) error {
		rows, err := tx.Query(ctx, `WITH picked AS (SELECT id FROM attestations
			WHERE state = 'sealed' AND valid_until BETWEEN $1::date AND $1::date + $4::int AND expiring_notified_at IS NULL
			ORDER BY valid_until, id LIMIT $3 FOR UPDATE SKIP LOCKED)
			UPDATE attestations t SET expiring_notified_at = $2 FROM picked WHERE t.id = picked.id
			RETURNING t.id, coalesce(t.created_by, '')`, evidenceToday(tx), tx.Now, expiryBatch, reminderDays)
		if err != nil {
			return err
		}
		picked, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct{ ID, Creator string }])
		if err != nil {
			return err
		}
		for _, p := range picked {
			if err := recordAttestation(ctx, tx, assess.ChangeAttestationExpiring, p.ID, nil, p.Creator, nil); err != nil {
				return err
			}
		}
		n = int64(len(picked))
		return nil
	})
	return n, err
}

// expiryStep runs one batch of the expiry job as the system: sql picks and updates the
// rows (parameters: today, the time of the change, the batch size, reminderDays when
// nonzero) and returns each id with its previous state; c is recorded for each, the
// author being the subject.
func (s *EvidenceService) expiryStep(ctx context.Context, sql string, reminderDays int, c assess.Change) (int64, error) {
	var n int64
	err := s.db.Change(ctx, assess.SystemActor, func(tx *postgres.Tx) error {
		n = 0
		args := []any{evidenceToday(tx), tx.Now, expiryBatch}
		if reminderDays > 0 {
			args = append(args, reminderDays)
		}
		rows, err := tx.Query(ctx, sql, args...)
		if err != nil {
			return err
		}
		type picked struct {
			id    string
			state assess.EvidenceState
		}
		changed, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (picked, error) {
			var p picked
			return p, r.Scan(&p.id, &p.state)
		})
		if err != nil {
			return err
		}
		for _, p := range changed {
			details := map[string]any{}
			if c == assess.ChangeEvidenceExpired {
				details["from"], details["to"] = p.state, assess.EvidenceExpired
			}
			if _, err := recordEvidence(ctx, tx, c, p.id, details, func(d *assess.EvidenceEvent) (string, string) {
				if c == assess.ChangeEvidenceExpired {
					d.PreviousState = p.state
				}
				return d.Author.ID, ""
			}); err != nil {
				return err
			}
		}
		n = int64(len(changed))
		return nil
	})
	return n, err
}
