package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/secret"
)

const rewriteBatch = 500

// rewriteField visits every secret row of f in key order, in batches, and stores the new
// value change returns for it. Writes are compare-and-set on the old value, so a
// concurrent writer is never overwritten: a batch is written in one statement, and a row
// that changed meanwhile is read again and offered to change again. The walk can be
// interrupted and run again at any point.
func (db *DB) rewriteField(ctx context.Context, f EncryptedField, change func(id, value string) (string, bool, error)) (int64, error) {
	q := rewriteQueries(f)
	var changed int64
	last := ""
	for {
		rows, err := db.Pool.Query(ctx, q.list, last)
		if err != nil {
			return changed, fmt.Errorf("%s: list: %w", f.Kind, err)
		}
		batch, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (rewrite, error) {
			var x rewrite
			return x, r.Scan(&x.id, &x.old)
		})
		if err != nil {
			return changed, fmt.Errorf("%s: list: %w", f.Kind, err)
		}
		n, err := db.rewriteBatch(ctx, f, q, batch, change)
		changed += n
		if err != nil {
			return changed, err
		}
		if len(batch) < rewriteBatch {
			return changed, nil
		}
		last = batch[len(batch)-1].id
	}
}

type rewrite struct{ id, old string }

type fieldQueries struct{ list, updateMany, updateOne, reread string }

func rewriteQueries(f EncryptedField) fieldQueries {
	table, col, idCol := pgx.Identifier{f.Table}.Sanitize(), pgx.Identifier{f.Column}.Sanitize(), pgx.Identifier{f.IDColumn}.Sanitize()
	return fieldQueries{
		list: fmt.Sprintf(`SELECT %[1]s::text, %[2]s FROM %[3]s WHERE %[4]s AND %[2]s IS NOT NULL AND %[1]s::text > $1
			ORDER BY %[1]s::text LIMIT %[5]d`, idCol, col, table, f.where(), rewriteBatch),
		updateMany: fmt.Sprintf(`UPDATE %[1]s AS t SET %[2]s = v.new FROM unnest($1::text[], $2::text[], $3::text[]) AS v(id, old, new)
			WHERE t.%[3]s::text = v.id AND t.%[2]s = v.old RETURNING v.id`, table, col, idCol),
		updateOne: fmt.Sprintf(`UPDATE %s SET %s = $1 WHERE %s::text = $2 AND %s = $3`, table, col, idCol, col),
		reread:    fmt.Sprintf(`SELECT %s FROM %s WHERE %s::text = $1`, col, table, idCol),
	}
}

// rewriteBatch writes the changes of one batch in a single compare-and-set statement and
// retries, row by row, those a concurrent writer changed in between.
func (db *DB) rewriteBatch(ctx context.Context, f EncryptedField, q fieldQueries, batch []rewrite, change func(id, value string) (string, bool, error)) (int64, error) {
	var ids, olds, news []string
	for _, r := range batch {
		next, ok, err := change(r.id, r.old)
		if err != nil {
			return 0, fmt.Errorf("%s %s: %w", f.Kind, r.id, err)
		}
		if ok {
			ids, olds, news = append(ids, r.id), append(olds, r.old), append(news, next)
		}
	}
	if len(ids) == 0 {
		return 0, nil
	}
	rows, err := db.Pool.Query(ctx, q.updateMany, ids, olds, news)
	if err != nil {
		return 0, fmt.Errorf("%s: update: %w", f.Kind, err)
	}
	done, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, fmt.Errorf("%s: update: %w", f.Kind, err)
	}
	changed := int64(len(done))
	written := make(map[string]bool, len(done))
	for _, id := range done {
		written[id] = true
	}
	for _, id := range ids {
		if written[id] {
			continue
		}
		ok, err := db.rewriteOne(ctx, f, q, id, change)
		if err != nil {
			return changed, err
		}
		if ok {
			changed++
		}
	}
	return changed, nil
}

// rewriteOne retries one row that changed under us until its change sticks, the row no
// longer needs one, or it is gone.
func (db *DB) rewriteOne(ctx context.Context, f EncryptedField, q fieldQueries, id string, change func(id, value string) (string, bool, error)) (bool, error) {
	for {
		var value string
		if err := db.Pool.QueryRow(ctx, q.reread, id).Scan(&value); errors.Is(err, pgx.ErrNoRows) {
			return false, nil
		} else if err != nil {
			return false, fmt.Errorf("%s %s: reread: %w", f.Kind, id, err)
		}
		next, ok, err := change(id, value)
		if err != nil || !ok {
			return false, err
		}
		tag, err := db.Pool.Exec(ctx, q.updateOne, next, id, value)
		if err != nil {
			return false, fmt.Errorf("%s %s: update: %w", f.Kind, id, err)
		}
		if tag.RowsAffected() == 1 {
			return true, nil
		}
	}
}

// EncryptSecrets encrypts every plaintext secret of the registry under the current key
// version. It is idempotent and safe while the service serves traffic.
func (s *EncryptionService) EncryptSecrets(ctx context.Context, actor assess.Actor) (assess.SecretsMigration, error) {
	var res assess.SecretsMigration
	if s.db.Keys.Passthrough() {
		return res, errNeedsMasterKey
	}
	for _, f := range s.db.fields {
		n, err := s.db.rewriteField(ctx, f, func(id, value string) (string, bool, error) {
			if secret.IsEncrypted(value) {
				return "", false, nil
			}
			sealed, err := s.db.Keys.Seal(ctx, f.AAD(id), []byte(value))
			return sealed, err == nil, err
		})
		res.Encrypted += n
		if err != nil {
			return res, err
		}
	}
	st, err := s.EncryptionStatus(ctx)
	if err != nil {
		return res, err
	}
	for _, c := range st.Fields {
		res.AlreadyEncrypted += c.Encrypted
	}
	res.AlreadyEncrypted -= res.Encrypted
	return res, s.db.Change(ctx, actor, func(tx *Tx) error {
		return tx.Record(ctx, assess.ChangeSecretsMigrated, Target{}, map[string]any{
			"encrypted": res.Encrypted, "alreadyEncrypted": res.AlreadyEncrypted, "keyVersion": s.db.Keys.Current()}, assess.NewEvent{})
	})
}

// rotationLockKey makes rotations exclusive across processes for their whole run.
const rotationLockKey int64 = 0x61737361793a726f

// RotateEncryptionKey implements assess.EncryptionService: it appends a KEK version with a
// fresh salt, makes it current, and rewraps every data key under it. Old versions stay
// in the ledger so values written meanwhile by other replicas still open. It refuses
// when the master key does not open the current version (a mistyped key must not start
// a new ledger branch); RecoverLostKey is the deliberate way past that.
func (s *EncryptionService) RotateEncryptionKey(ctx context.Context, actor assess.Actor) (assess.RotationResult, error) {
	if s.db.Keys.Passthrough() {
		return assess.RotationResult{}, errNeedsMasterKey
	}
	if s.db.Keys.Current() == 0 {
		return assess.RotationResult{}, &assess.Error{Code: assess.ECodeKeyUnavailable, Message: "The configured master key " +
			"does not open the current key version. Configure the right MASTER_ENCRYPTION_KEY; if it is lost, see " +
			"`assay-ctl rotate-encryption-key --recover-lost-key` in docs/encryption.md."}
	}
	return s.rotate(ctx, actor, false)
}

// RecoverLostKey starts a new key version under the configured master key although the
// existing versions cannot be opened (the old master key is lost). Values under the old
// versions stay unreadable and must be re-entered; new values are sealed again.
func (s *EncryptionService) RecoverLostKey(ctx context.Context, actor assess.Actor) (assess.RotationResult, error) {
	if s.db.Keys.Passthrough() {
		return assess.RotationResult{}, errNeedsMasterKey
	}
	if s.db.Keys.Current() != 0 {
		return assess.RotationResult{}, &assess.Error{Code: assess.ECodeBusinessRule,
			Message: "The master key opens the current key version: nothing is lost, use a normal rotation."}
	}
	return s.rotate(ctx, actor, true)
}

func (s *EncryptionService) rotate(ctx context.Context, actor assess.Actor, recovered bool) (assess.RotationResult, error) {
	var res assess.RotationResult
	conn, err := s.db.Pool.Acquire(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Release()
	var locked bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", rotationLockKey).Scan(&locked); err != nil {
		return res, err
	}
	if !locked {
		return res, &assess.Error{Code: assess.ECodeConflict, Message: "Another key rotation is running; try again when it has finished."}
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", rotationLockKey) }()

	var kek []byte
	err = s.db.Change(ctx, actor, func(tx *Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", ledgerLockKey); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM encryption_keys").Scan(&res.PreviousVersion); err != nil {
			return err
		}
		kv, k, err := s.db.Keys.NewVersion(res.PreviousVersion+1, actor.ID, tx.Now)
		if err != nil {
			return err
		}
		kek, res.Version = k, kv.Version
		if _, err := tx.Exec(ctx, "UPDATE encryption_keys SET is_current = false WHERE is_current"); err != nil {
			return err
		}
		if err := insertKeyVersion(ctx, tx, kv); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeKEKRotated, Target{Type: "encryption_key", ID: fmt.Sprint(kv.Version)},
			map[string]any{"version": kv.Version, "previousVersion": res.PreviousVersion, "recoveredLostKey": recovered}, assess.NewEvent{})
	})
	if err != nil {
		return res, fmt.Errorf("rotate: %w", err)
	}
	s.db.Keys.AddVersion(res.Version, kek)
	for _, f := range s.db.fields {
		n, err := s.db.rewriteField(ctx, f, func(id, value string) (string, bool, error) {
			v, err := secret.ParseVersion(value)
			if !secret.IsEncrypted(value) || err != nil || v >= res.Version {
				return "", false, nil
			}
			if !s.db.Keys.Usable(v) {
				res.Unreadable++ // counted, left as is: rotation must not stop at a lost value
				return "", false, nil
			}
			next, err := s.db.Keys.Rewrap(ctx, f.AAD(id), value, res.Version)
			return next, err == nil, err
		})
		res.Rewrapped += n
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// RekeyMaster moves the key ledger from oldMaster to newMaster: every KEK version is
// rewrapped with a fresh salt; data keys are untouched. The ledger and the secret tables
// are locked against writes meanwhile. It refuses, changing nothing, when oldMaster does
// not open the ledger. It returns how many versions were rekeyed (0: already done).
func (s *EncryptionService) RekeyMaster(ctx context.Context, oldMaster, newMaster []byte, actor assess.Actor) (int, error) {
	rekeyed := 0
	err := s.db.Change(ctx, actor, func(tx *Tx) error {
		rekeyed = 0 // a retried attempt counts afresh
		if _, err := tx.Exec(ctx, "LOCK TABLE encryption_keys IN ACCESS EXCLUSIVE MODE"); err != nil {
			return err
		}
		for _, f := range s.db.fields {
			if _, err := tx.Exec(ctx, "LOCK TABLE "+pgx.Identifier{f.Table}.Sanitize()+" IN SHARE MODE"); err != nil {
				return err
			}
		}
		rows, err := tx.Query(ctx, "SELECT version, salt, wrapped_kek, created_at, created_by, is_current FROM encryption_keys ORDER BY version")
		if err != nil {
			return err
		}
		ledger, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (secret.KeyVersion, error) {
			var kv secret.KeyVersion
			return kv, r.Scan(&kv.Version, &kv.Salt, &kv.WrappedKEK, &kv.CreatedAt, &kv.CreatedBy, &kv.Current)
		})
		if err != nil {
			return err
		}
		if len(ledger) == 0 {
			return &assess.Error{Code: assess.ECodeBusinessRule, Message: "The key ledger is empty: there is nothing to rekey."}
		}
		for _, kv := range ledger {
			next, err := secret.RewrapKEK(oldMaster, newMaster, kv)
			if errors.Is(err, secret.ErrWrongMasterKey) {
				if _, errNew := secret.UnwrapKEK(newMaster, kv); errNew == nil {
					continue // already under the new master key (an earlier run)
				}
				return &assess.Error{Code: assess.ECodeKeyUnavailable, Message: fmt.Sprintf(
					"OLD_MASTER_ENCRYPTION_KEY does not open key version %d (nor does MASTER_ENCRYPTION_KEY); nothing was changed.", kv.Version)}
			}
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "UPDATE encryption_keys SET salt = $1, wrapped_kek = $2, rekeyed_at = $3 WHERE version = $4",
				next.Salt, next.WrappedKEK, tx.Now, kv.Version); err != nil {
				return err
			}
			rekeyed++
		}
		if rekeyed == 0 {
			return nil
		}
		return tx.Record(ctx, assess.ChangeMasterRekeyed, Target{Type: "encryption_key"},
			map[string]any{"versions": rekeyed, "currentVersion": currentOf(ledger)}, assess.NewEvent{})
	})
	return rekeyed, err
}

func currentOf(ledger []secret.KeyVersion) int {
	for _, kv := range ledger {
		if kv.Current {
			return kv.Version
		}
	}
	return 0
}
