package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// skewedAuditLog fills an audit log of 30,000 rows as a busy organisation's looks: nine in
// ten are results recorded by one assessor, the rest evidence links by 25 others, and five
// are a rare kind of change (a key rotated by the system, on a role), each value of which
// the log's filters must find without walking the log.
func skewedAuditLog(t *testing.T) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	for _, sql := range []string{
		`INSERT INTO users (id, username, email) SELECT 'u_' || n, n, n || '@example.com'
			FROM unnest(ARRAY['busy', 'rare'] || ARRAY(SELECT 'member' || g FROM generate_series(1, 25) g)) n`,
		`INSERT INTO audit_log (actor, action, target_type, target_id, occurred_at)
			SELECT CASE WHEN g % 10 <> 0 THEN 'u_busy' ELSE 'u_member' || (g % 25 + 1) END,
				CASE WHEN g % 10 <> 0 THEN 'assessment.result_recorded' ELSE 'evidence.linked' END,
				CASE WHEN g % 10 <> 0 THEN 'assessment_requirement' ELSE 'evidence' END,
				CASE WHEN g % 10 <> 0 THEN 'ar_' || (g % 3000) ELSE 'ev_' || (g % 700) END,
				now() - interval '1 second' * (30000 - g)
			FROM generate_series(1, 30000) g`,
		// The rare rows, spread through the log's first half.
		`INSERT INTO audit_log (actor, action, target_type, target_id, occurred_at)
			SELECT 'system', 'key.rotated', 'role', 'ro_rare', now() - interval '1 day' * g FROM generate_series(1, 3) g`,
		`INSERT INTO audit_log (actor, action, target_type, target_id, occurred_at)
			SELECT 'u_rare', 'key.rotated', 'role', 'ro_rare', now() - interval '1 day' * g FROM generate_series(1, 2) g`,
		`ANALYZE audit_log`,
	} {
		_, err := pool.Exec(ctx, sql)
		require.NoError(t, err)
	}
	return pool
}

// TestAuditFiltersFindRareValuesByIndex: each filter of the audit log finds a rare value's
// rows by an index of its column, also after many pages of a common value. The shares the
// values of a filter select differ by orders of magnitude, and PostgreSQL switches a
// prepared statement to its generic plan after five runs if that looks no dearer: on it, a
// rare action, actor or target type was looked for by walking the whole log newest first
// (1,001,773 rows read, 170–200 ms a page at make bench's million-row data). Without the
// indexes of migration 0043 the actor, target and type filters read the whole log too.
// The rare value is measured on its eighth run, after seven of its own.
func TestAuditFiltersFindRareValuesByIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	one, ex := pgtest.Explained(t, skewedAuditLog(t))
	audit := postgres.NewAuditService(postgres.New(one, nil))
	for _, c := range []struct {
		name         string
		common, rare assess.AuditFilter
		want         int
	}{
		{"action", assess.AuditFilter{Action: "assessment.result_recorded"}, assess.AuditFilter{Action: "key.rotated"}, 5},
		{"action prefix", assess.AuditFilter{Action: "assessment."}, assess.AuditFilter{Action: "key."}, 5},
		{"actor by username", assess.AuditFilter{Actor: "busy"}, assess.AuditFilter{Actor: "rare"}, 2},
		{"actor by id", assess.AuditFilter{Actor: "u_busy"}, assess.AuditFilter{Actor: "u_rare"}, 2},
		{"actor not a user", assess.AuditFilter{Actor: "u_member1"}, assess.AuditFilter{Actor: "system"}, 3},
		{"target type", assess.AuditFilter{TargetType: "assessment_requirement"}, assess.AuditFilter{TargetType: "role"}, 5},
		{"target", assess.AuditFilter{TargetID: "ar_17"}, assess.AuditFilter{TargetID: "ro_rare"}, 5},
	} {
		for range 8 {
			page, err := audit.FindAudit(ctx, c.common)
			require.NoError(t, err, c.name)
			require.NotEmpty(t, page.Items, c.name)
		}
		for range 7 {
			_, err := audit.FindAudit(ctx, c.rare)
			require.NoError(t, err, c.name)
		}
		ex.Reset()
		page, err := audit.FindAudit(ctx, c.rare)
		require.NoError(t, err, c.name)
		require.Len(t, page.Items, c.want, c.name)
		read, statements := ex.RowsRead("audit_log", "FROM audit_log a")
		require.Equal(t, 1, statements, c.name)
		require.LessOrEqual(t, read, int64(60), "%s: a page of %d rows read %d of the log's 30,005\n%s",
			c.name, c.want, read, ex.Plans("FROM audit_log a"))
		require.Equal(t, []string{"force_custom_plan"}, ex.Setting("plan_cache_mode", "FROM audit_log a"),
			"%s: planned for its values on every page", c.name)
	}
}

// TestAuditActorFilterMatchesNamesAndRecordedActors: the actor filter matches what was
// recorded as the actor and the user of that username (case-insensitive), both when a
// username is also a recorded actor ("system"; what was recorded matches exactly), newest
// first across both, and its cursor
// stays valid when the name resolves otherwise between pages.
func TestAuditActorFilterMatchesNamesAndRecordedActors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	for _, sql := range []string{
		`INSERT INTO users (id, username, email) VALUES ('u_ann', 'Ann', 'ann@example.com'), ('u_sys', 'System', 'sys@example.com')`,
		`INSERT INTO audit_log (actor, action) VALUES ('system', 'a1'), ('u_sys', 'a2'), ('u_ann', 'a3'), ('system', 'a4'),
			('u_sys', 'a5'), ('anonymous', 'a6'), ('u_ann', 'a7'), ('cli:root', 'a8')`,
	} {
		_, err := pool.Exec(ctx, sql)
		require.NoError(t, err)
	}
	audit := postgres.NewAuditService(postgres.New(pool, nil))
	actions := func(f assess.AuditFilter) []string {
		t.Helper()
		var out []string
		for {
			page, err := audit.FindAudit(ctx, f)
			require.NoError(t, err, f.Actor)
			for _, r := range page.Items {
				out = append(out, r.Action)
			}
			if page.NextCursor == "" {
				return out
			}
			f.Cursor = page.NextCursor
		}
	}
	two := assess.PageRequest{Limit: 2}
	require.Equal(t, []string{"a7", "a3"}, actions(assess.AuditFilter{Actor: "ann", PageRequest: two}), "by username, any case")
	require.Equal(t, []string{"a7", "a3"}, actions(assess.AuditFilter{Actor: "u_ann", PageRequest: two}), "by id")
	require.Equal(t, []string{"a5", "a4", "a2", "a1"}, actions(assess.AuditFilter{Actor: "system", PageRequest: two}),
		"the system and the user named System, newest first")
	require.Equal(t, []string{"a8"}, actions(assess.AuditFilter{Actor: "cli:root"}))
	require.Equal(t, []string{"a6"}, actions(assess.AuditFilter{Actor: " anonymous "}))
	require.Empty(t, actions(assess.AuditFilter{Actor: "nobody"}))

	// Renamed between two pages: the next page's cursor is still taken, and the old name
	// now matches no one.
	page, err := audit.FindAudit(ctx, assess.AuditFilter{Actor: "Ann", PageRequest: assess.PageRequest{Limit: 1}})
	require.NoError(t, err)
	require.NotEmpty(t, page.NextCursor)
	_, err = pool.Exec(ctx, `UPDATE users SET username = 'Anna' WHERE id = 'u_ann'`)
	require.NoError(t, err)
	next, err := audit.FindAudit(ctx, assess.AuditFilter{Actor: "Ann", PageRequest: assess.PageRequest{Limit: 1, Cursor: page.NextCursor}})
	require.NoError(t, err, "the cursor binds what was asked, not what it resolved to")
	require.Empty(t, next.Items)
}
