package postgres_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/migrations"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/work"
)

// oldAttachmentPrefix is the prefix attachments had before migration 0017 (now the
// attestations').
const oldAttachmentPrefix = "at_"

// TestMigration0017MovesAttachmentsToTheirPrefix migrates a database at version 16 that
// holds attachments made under the at_ prefix: every attachment id, and every audit row
// and event that recorded one (also of a file deleted since), is rewritten to af_, while
// nothing else changes — in particular not free text that merely looks like an old id (a
// file named after one). The files stay readable under their new ids; the old ids are 404.
func TestMigration0017MovesAttachmentsToTheirPrefix(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewEmptyDatabase(t))
	m0017 := migrateBelow(t, pool, 17)
	f := seedOldAttachments(t, pool)
	before := tableRows(t, pool)

	applyMigration(t, pool, m0017)
	after := tableRows(t, pool)

	renamed := map[string]string{}
	for _, id := range []string{f.inDatabase, f.inS3, f.deleted} {
		renamed[id] = "af_" + strings.TrimPrefix(id, oldAttachmentPrefix)
	}
	rename := func(t *testing.T, id any) string {
		t.Helper()
		require.Contains(t, renamed, id, "only ids of attachments are rewritten")
		return renamed[id.(string)]
	}
	want := before // rewritten in place into what the migration must leave
	for _, row := range want["evidence_attachments"] {
		row["id"] = rename(t, row["id"])
	}
	for _, row := range want["audit_log"] {
		if row["target_type"] == "evidence_attachment" {
			row["target_id"] = rename(t, row["target_id"])
		}
	}
	for _, row := range want["events"] {
		if row["type"] == string(assess.EventEvidenceAttachmentAdded) || row["type"] == string(assess.EventEvidenceAttachmentRemoved) {
			att := row["data"].(map[string]any)["attachment"].(map[string]any)
			att["id"] = rename(t, att["id"])
		}
	}
	require.Len(t, want, len(after), "the migration adds or drops no table")
	for table, rows := range want {
		require.ElementsMatch(t, rows, after[table], "table %s", table)
	}
	require.Equal(t, 5, count(t, pool, "SELECT count(*)::int FROM audit_log WHERE target_id LIKE 'af\\_%'"))
	require.Equal(t, 4, count(t, pool, `SELECT count(*)::int FROM events WHERE data #>> '{attachment,id}' LIKE 'af\_%'`))

	_, err := pool.Exec(ctx, `INSERT INTO evidence_attachments (id, evidence_id, filename, content_type, size_bytes, sha256,
		provider, storage_key) VALUES ($1, $2, 'late.txt', 'text/plain', 4, $3, 'database', 'evidence/late')`,
		assess.NewID(oldAttachmentPrefix, time.Now()), f.evidence, strings.Repeat("0", 64))
	var pgErr *pgconn.PgError
	require.ErrorAs(t, err, &pgErr)
	require.Equal(t, "23514", pgErr.Code, "the at_ prefix is refused for attachments")

	// The files work under their new ids with the store of today (migrated to the end).
	_, err = postgres.Migrate(ctx, pool, quiet)
	require.NoError(t, err)
	db := postgres.New(pool, nil)
	svc := testServices(db)
	stored, err := svc.Attachments.FindStoredAttachment(ctx, f.evidence, renamed[f.inDatabase], assess.SystemActor)
	require.NoError(t, err)
	rc, err := work.NewChunkStore(db).Get(ctx, stored.StorageKey)
	require.NoError(t, err)
	raw, err := io.ReadAll(rc)
	require.NoError(t, err)
	require.NoError(t, rc.Close())
	require.Equal(t, f.bytes, raw, "the bytes stay under their storage key")
	sum := sha256.Sum256(raw)
	require.Equal(t, hex.EncodeToString(sum[:]), stored.SHA256, "and match the recorded SHA-256, as a download checks")
	_, err = svc.Attachments.GetAttachment(ctx, f.evidence, f.inDatabase, assess.SystemActor)
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "an old at_ id no longer resolves")
}

// oldAttachments is what seedOldAttachments wrote.
type oldAttachments struct {
	evidence   string
	inDatabase string // bytes in blob_chunks
	inS3       string // named after the other one's id
	deleted    string // in the audit log and the events only
	bytes      []byte // the content of inDatabase
}

// seedOldAttachments writes attachments with at_ ids and the audit rows, events,
// notifications and deliveries the store of version 16 wrote for them (shaped by the
// domain types, as the store shapes them).
func seedOldAttachments(t *testing.T, pool *pgxpool.Pool) oldAttachments {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	author := assess.UserRef{ID: assess.NewID(assess.PrefixUser, now), Username: "author", DisplayName: "Ann Author"}
	f := oldAttachments{evidence: assess.NewID(assess.PrefixEvidence, now), bytes: []byte("%PDF-1.7\nthe report\n"),
		inDatabase: assess.NewID(oldAttachmentPrefix, now), inS3: assess.NewID(oldAttachmentPrefix, now),
		deleted: assess.NewID(oldAttachmentPrefix, now)}
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := pool.Exec(ctx, sql, args...)
		require.NoError(t, err)
	}
	exec("INSERT INTO users (id, username, email, display_name) VALUES ($1, $2, 'author@example.com', $3)",
		author.ID, author.Username, author.DisplayName)
	exec("INSERT INTO evidence (id, name, author_id) VALUES ($1, 'Pen test', $2)", f.evidence, author.ID)

	sum := sha256.Sum256(f.bytes)
	files := []assess.Attachment{
		{ID: f.inDatabase, Filename: "report.pdf", Provider: assess.StorageDatabase, SHA256: hex.EncodeToString(sum[:]),
			SizeBytes: int64(len(f.bytes))},
		{ID: f.inS3, Filename: f.inDatabase + ".pdf", Provider: assess.StorageS3, SHA256: strings.Repeat("ab", 32), SizeBytes: 9},
		{ID: f.deleted, Filename: "old.pdf", Provider: assess.StorageS3, SHA256: strings.Repeat("cd", 32), SizeBytes: 7},
	}
	for i := range files {
		a := &files[i]
		a.EvidenceID, a.ContentType, a.UploadedBy, a.CreatedAt = f.evidence, "application/pdf", &author, now
		key := "evidence/" + f.evidence + "/" + strings.Repeat(string(rune('a'+i)), 32)
		if a.ID == f.deleted {
			exec("INSERT INTO blob_garbage (provider, storage_key) VALUES ($1, $2)", a.Provider, key)
		} else {
			exec(`INSERT INTO evidence_attachments (id, evidence_id, filename, content_type, size_bytes, sha256, provider,
				storage_key, uploaded_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
				a.ID, a.EvidenceID, a.Filename, a.ContentType, a.SizeBytes, a.SHA256, a.Provider, key, author.ID, now)
		}
		if a.Provider == assess.StorageDatabase {
			exec("INSERT INTO blob_chunks (blob_key, seq, data) VALUES ($1, 0, $2)", key, f.bytes)
		}
		changes := []assess.Change{assess.ChangeEvidenceAttachmentAdded}
		if a.ID == f.deleted {
			changes = append(changes, assess.ChangeEvidenceAttachmentRemoved)
		}
		for _, c := range changes {
			recordOldChange(t, pool, author, oldChange{change: c, targetType: "evidence_attachment", targetID: a.ID,
				details: map[string]any{"evidenceId": a.EvidenceID, "filename": a.Filename, "contentType": a.ContentType,
					"sizeBytes": a.SizeBytes, "sha256": a.SHA256},
				data:    assess.AttachmentEvent{EvidenceID: f.evidence, EvidenceName: "Pen test", Attachment: *a},
				summary: a.Filename, link: "/evidence/" + f.evidence})
		}
	}
	recordOldChange(t, pool, author, oldChange{change: assess.ChangeEvidenceAttachmentCorrupt, targetType: "evidence_attachment",
		targetID: f.inDatabase, details: map[string]any{"evidenceId": f.evidence, "filename": "report.pdf", "problem": "sha256",
			"provider": assess.StorageDatabase}})
	recordOldChange(t, pool, author, oldChange{change: assess.ChangeEvidenceUpdated, targetType: "evidence", targetID: f.evidence,
		details: map[string]any{"name": "Findings of " + f.inS3},
		data: map[string]any{"evidence": map[string]any{"id": f.evidence, "name": "Findings of " + f.inS3,
			"description": "see " + f.deleted}},
		summary: "Findings of " + f.inS3, link: "/evidence/" + f.evidence})
	return f
}

// oldChange is a change as the store of version 16 recorded it.
type oldChange struct {
	change               assess.Change
	targetType, targetID string
	details              map[string]any
	data                 any // the event's, when the change is announced
	summary, link        string
}

// recordOldChange writes the audit row of c and, when it is announced, its event with
// one in-app notification for actor and one e-mail delivery.
func recordOldChange(t *testing.T, pool *pgxpool.Pool, actor assess.UserRef, c oldChange) {
	t.Helper()
	ctx := context.Background()
	details, err := json.Marshal(c.details)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO audit_log (actor, action, target_type, target_id, details, scope_id)
		VALUES ($1, $2, $3, $4, $5, '')`, actor.ID, c.change.Action, c.targetType, c.targetID, details)
	require.NoError(t, err)
	if c.change.Event == "" {
		return
	}
	data, err := json.Marshal(c.data)
	require.NoError(t, err)
	now := time.Now()
	event := assess.NewID(assess.PrefixEvent, now)
	_, err = pool.Exec(ctx, `INSERT INTO events (id, type, occurred_at, actor_id, actor_name, summary, link, data)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, event, c.change.Event, now, actor.ID, actor.DisplayName, c.summary, c.link, data)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO notifications (id, user_id, event_id, type, title, message, link, params, created_at)
		VALUES ($1, $2, $3, $4, 'A change', $5, $6, $7, $8)`, assess.NewID(assess.PrefixNotification, now), actor.ID, event,
		c.change.Event, c.summary+" (by "+actor.DisplayName+")", c.link, map[string]string{"actor": actor.DisplayName, "summary": c.summary},
		now)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `INSERT INTO deliveries (id, event_id, event_type, channel, recipient, subject, template,
		dedupe_key, max_attempts, created_at, updated_at) VALUES ($1, $2, $3, 'email', 'team@example.com', $4, 'event',
		'email:team@example.com', 3, $5, $5)`, assess.NewID(assess.PrefixDelivery, now), event, c.change.Event, "A change: "+c.summary, now)
	require.NoError(t, err)
}

// migrateBelow applies the migrations before version to the empty database of pool, each
// in its own transaction and recorded in schema_migrations as Migrate does, and returns
// migration version.
func migrateBelow(t *testing.T, pool *pgxpool.Pool, version int) postgres.Migration {
	t.Helper()
	all, err := postgres.LoadMigrations(migrations.FS)
	require.NoError(t, err)
	_, err = pool.Exec(context.Background(), `CREATE TABLE schema_migrations (version integer PRIMARY KEY,
		name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
	require.NoError(t, err)
	var next postgres.Migration
	for _, m := range all {
		switch {
		case m.Version < version:
			applyMigration(t, pool, m)
		case m.Version == version:
			next = m
		}
	}
	require.Equal(t, version, next.Version, "migration %04d exists", version)
	return next
}

// applyMigration applies m in one transaction, as Migrate does.
func applyMigration(t *testing.T, pool *pgxpool.Pool, m postgres.Migration) {
	t.Helper()
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	_, err = tx.Exec(ctx, m.SQL)
	require.NoError(t, err, m.Name)
	_, err = tx.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", m.Version, m.Name)
	require.NoError(t, err)
	require.NoError(t, tx.Commit(ctx))
}

// tableRows reads every row of every application table (schema_migrations aside) as JSON
// objects, by table name.
func tableRows(t *testing.T, pool *pgxpool.Pool) map[string][]map[string]any {
	t.Helper()
	ctx := context.Background()
	rows, err := pool.Query(ctx, `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> 'schema_migrations'`)
	require.NoError(t, err)
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	out := make(map[string][]map[string]any, len(names))
	for _, name := range names {
		var raw string
		require.NoError(t, pool.QueryRow(ctx, "SELECT coalesce(jsonb_agg(to_jsonb(t)), '[]')::text FROM "+
			pgx.Identifier{name}.Sanitize()+" t").Scan(&raw))
		var table []map[string]any
		dec := json.NewDecoder(strings.NewReader(raw))
		dec.UseNumber()
		require.NoError(t, dec.Decode(&table), name)
		out[name] = table
	}
	return out
}
