package postgres

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/logging"
	"github.com/assay-dev/assay/pkg/secret"
)

// ledgerLockKey serialises ledger changes (first key creation, rotation) across processes.
const ledgerLockKey int64 = 0x61737361793a6b6c

// Keyring returns the keyring of this DB (passthrough until LoadKeyring ran).
func (db *DB) Keyring() *secret.Keyring { return db.Keys }

// WithEncryptedFields returns a copy of db that treats fields as the registry of secret
// columns. Tests and benchmarks use it to point the key tooling at tables of their own.
func (db *DB) WithEncryptedFields(fields []EncryptedField) *DB {
	c := *db // shares the pool, keyring and setup state
	c.fields = fields
	return &c
}

// LoadKeyring reads the key ledger and unwraps it with master (nil: passthrough). With a
// master key and an empty ledger it creates key version 1. The keyring writes an audit
// row for every value it cannot open, and reloads the ledger when it meets a version
// another process created.
func (db *DB) LoadKeyring(ctx context.Context, master []byte, actor assess.Actor) (*secret.Keyring, error) {
	ledger, err := db.readLedger(ctx)
	if err != nil {
		return nil, err
	}
	if len(master) > 0 && len(ledger) == 0 {
		if err := db.createFirstVersion(ctx, master, actor); err != nil {
			return nil, err
		}
		if ledger, err = db.readLedger(ctx); err != nil {
			return nil, err
		}
	}
	k := secret.NewKeyring(master, ledger)
	k.Reload = db.readLedger
	k.OnUnavailable = db.auditUnavailable
	db.Keys = k
	return k, nil
}

func (db *DB) auditUnavailable(ctx context.Context, version int, aad string) {
	actor := assess.ActorFrom(ctx)
	if actor.ID == "" {
		actor = assess.SystemActor
	}
	if actor.RequestID == "" {
		actor.RequestID = logging.RequestID(ctx)
	}
	// Its own transaction: the audit row must outlive a failing change that met the value.
	bg := context.WithoutCancel(ctx)
	err := db.Change(bg, actor, func(tx *Tx) error {
		return tx.Record(bg, assess.ChangeKeyUnavailable, Target{Type: "encrypted_value", ID: aad},
			map[string]any{"keyVersion": version}, assess.NewEvent{})
	})
	if err != nil {
		slog.Default().ErrorContext(ctx, "audit of undecryptable value failed", slog.String("error", err.Error()))
	}
}

func (db *DB) readLedger(ctx context.Context) ([]secret.KeyVersion, error) {
	rows, err := db.Pool.Query(ctx, `SELECT version, salt, wrapped_kek, created_at, created_by, is_current
		FROM encryption_keys ORDER BY version`)
	if err != nil {
		return nil, fmt.Errorf("read key ledger: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (secret.KeyVersion, error) {
		var kv secret.KeyVersion
		err := r.Scan(&kv.Version, &kv.Salt, &kv.WrappedKEK, &kv.CreatedAt, &kv.CreatedBy, &kv.Current)
		return kv, err
	})
}

// createFirstVersion creates version 1 unless another process won the race.
func (db *DB) createFirstVersion(ctx context.Context, master []byte, actor assess.Actor) error {
	return db.Change(ctx, actor, func(tx *Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", ledgerLockKey); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM encryption_keys").Scan(&n); err != nil || n > 0 {
			return err
		}
		kv, _, err := secret.NewKeyVersion(master, 1, actor.ID, tx.Now)
		if err != nil {
			return err
		}
		if err := insertKeyVersion(ctx, tx, kv); err != nil {
			return err
		}
		return tx.Record(ctx, assess.ChangeKEKCreated, Target{Type: "encryption_key", ID: "1"}, map[string]any{"version": 1}, assess.NewEvent{})
	})
}

func insertKeyVersion(ctx context.Context, tx pgx.Tx, kv secret.KeyVersion) error {
	_, err := tx.Exec(ctx, `INSERT INTO encryption_keys (version, salt, wrapped_kek, is_current, created_at, created_by)
		VALUES ($1, $2, $3, true, $4, $5)`, kv.Version, kv.Salt, kv.WrappedKEK, kv.CreatedAt, kv.CreatedBy)
	return err
}

// errNeedsMasterKey refuses key operations in passthrough mode.
var errNeedsMasterKey = &assess.Error{Code: assess.ECodeBusinessRule,
	Message: "This needs MASTER_ENCRYPTION_KEY: the service runs in passthrough mode (secrets stored in plaintext)."}

// EncryptionStatus implements assess.EncryptionService.
func (s *EncryptionService) EncryptionStatus(ctx context.Context) (assess.EncryptionStatus, error) {
	st := assess.EncryptionStatus{Mode: "encrypted", Versions: []assess.EncryptionKeyVersion{}}
	if s.db.Keys.Passthrough() {
		st.Mode = "passthrough"
	}
	ledger, err := s.db.readLedger(ctx)
	if err != nil {
		return st, err
	}
	unusable := map[int]bool{}
	for _, v := range s.db.Keys.Unusable() {
		unusable[v] = true
	}
	for _, kv := range ledger {
		if kv.Current {
			st.CurrentVersion = kv.Version
		}
		st.Versions = append(st.Versions, assess.EncryptionKeyVersion{Version: kv.Version, CreatedAt: kv.CreatedAt.UTC(),
			CreatedBy: kv.CreatedBy, Current: kv.Current, Usable: !s.db.Keys.Passthrough() && !unusable[kv.Version]})
	}
	for _, f := range s.db.fields {
		c := assess.EncryptedFieldCount{Kind: f.Kind}
		err := s.db.Pool.QueryRow(ctx, fmt.Sprintf(`SELECT count(*) FILTER (WHERE starts_with(%[1]s, $1)),
			count(*) FILTER (WHERE NOT starts_with(%[1]s, $1)) FROM %[2]s WHERE %[3]s AND %[1]s IS NOT NULL`,
			pgx.Identifier{f.Column}.Sanitize(), pgx.Identifier{f.Table}.Sanitize(), f.where()),
			secret.Prefix).Scan(&c.Encrypted, &c.Plaintext)
		if err != nil {
			return st, fmt.Errorf("count %s: %w", f.Kind, err)
		}
		st.Fields = append(st.Fields, c)
	}
	return st, nil
}

var _ assess.EncryptionService = (*EncryptionService)(nil)
