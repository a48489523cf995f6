package postgres_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestQueuedLinksAnswerAsLoaded: a page's tags and links read together in one batch
// (QueueTags, QueueLinks) are what LoadTags and ForEachLink answer one query at a time, in
// the same order and with every record present; and a batch on the pool gives its
// connection back when closed (with a pool of one, the next read would wait forever).
func TestQueuedLinksAnswerAsLoaded(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, err := postgres.OpenPool(ctx, pgtest.NewDatabase(t), postgres.PoolConfig{MaxConns: 1, ApplicationName: "test"})
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	db := postgres.New(pool, nil)
	_, err = pool.Exec(ctx, `INSERT INTO tags (id, name) VALUES ('tg_b', 'beta'), ('tg_a', 'Alpha'), ('tg_c', 'gamma');
		INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'One', 'team'), ('en_2', 'Two', 'team'), ('en_3', 'Three', 'team');
		INSERT INTO entity_tags (entity_id, tag_id) VALUES ('en_1', 'tg_c'), ('en_1', 'tg_b'), ('en_1', 'tg_a'), ('en_2', 'tg_b')`)
	require.NoError(t, err)
	ids := []string{"en_3", "en_2", "en_1"}
	const namesSQL = `SELECT id, name FROM entities WHERE id = ANY($1) ORDER BY name`

	loaded, err := postgres.LoadTags(ctx, db.Pool, postgres.EntityTags, ids)
	require.NoError(t, err)
	require.Equal(t, map[string][]assess.TagRef{
		"en_1": {{ID: "tg_a", Name: "Alpha", Color: "#6366f1"}, {ID: "tg_b", Name: "beta", Color: "#6366f1"}, {ID: "tg_c", Name: "gamma", Color: "#6366f1"}},
		"en_2": {{ID: "tg_b", Name: "beta", Color: "#6366f1"}},
		"en_3": {},
	}, loaded)
	var name string
	var names []string
	require.NoError(t, postgres.ForEachLink(ctx, db.Pool, namesSQL, ids, []any{&name},
		func(owner string) { names = append(names, owner+" "+name) }))
	require.Equal(t, []string{"en_1 One", "en_3 Three", "en_2 Two"}, names)

	for range 3 {
		var b pgx.Batch
		queued := postgres.QueueTags(&b, postgres.EntityTags, ids)
		var queuedNames []string
		postgres.QueueLinks(&b, namesSQL, ids, []any{&name}, func(owner string) { queuedNames = append(queuedNames, owner+" "+name) })
		require.NoError(t, db.Pool.SendBatch(ctx, &b).Close())
		require.Equal(t, loaded, queued)
		require.Equal(t, names, queuedNames)
	}
}

// TestCompareFoldedOrdersAsPostgreSQL: the server's order of a record's links
// (CompareFolded, then the bytes) is PostgreSQL's lower(x), x in the C collation, for
// names differing in case, punctuation, digits, length, and in letters beyond ASCII (which
// that lower() leaves as they are); and a record's tags come out in it, read alone or with
// a page.
func TestCompareFoldedOrdersAsPostgreSQL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	names := []string{"beta", "Beta", "BETA2", "beta-2", "beta_2", "beta.2", "b", "", "Ärzte", "ärzte", "Zoë", "zoe", "ZOE", "_x", "~x",
		"10", "9", "Ωmega", "ωmega", "straße", "STRASSE", "a b", "a\tb", "ab"}
	rows, err := pool.Query(ctx, `SELECT x FROM unnest($1::text[]) x ORDER BY lower(x COLLATE "C") COLLATE "C", x COLLATE "C"`, names)
	require.NoError(t, err)
	want, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	got := slices.Clone(names)
	slices.SortFunc(got, func(a, b string) int { return cmp.Or(postgres.CompareFolded(a, b), strings.Compare(a, b)) })
	require.Equal(t, want, got)

	_, err = pool.Exec(ctx, `INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'One', 'team'), ('en_2', 'Two', 'team')`)
	require.NoError(t, err)
	var tagged []string
	for i, n := range []string{"Ärzte", "zoe", "Beta", "beta-2", "beta_2", "_x", "Ωmega", "a b", "ab"} {
		id := fmt.Sprintf("tg_%02d", i)
		_, err = pool.Exec(ctx, `INSERT INTO tags (id, name) VALUES ($1, $2)`, id, n)
		require.NoError(t, err)
		_, err = pool.Exec(ctx, `INSERT INTO entity_tags (entity_id, tag_id) VALUES ('en_1', $1)`, id)
		require.NoError(t, err)
		tagged = append(tagged, n)
	}
	rows, err = pool.Query(ctx, `SELECT name FROM tags WHERE name = ANY($1) ORDER BY lower(name COLLATE "C") COLLATE "C"`, tagged)
	require.NoError(t, err)
	want, err = pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	for _, ids := range [][]string{{"en_1"}, {"en_2", "en_1"}} {
		var b pgx.Batch
		queued := postgres.QueueTags(&b, postgres.EntityTags, ids)
		require.NoError(t, pool.SendBatch(ctx, &b).Close())
		loaded, err := postgres.LoadTags(ctx, pool, postgres.EntityTags, ids)
		require.NoError(t, err)
		for _, tags := range []map[string][]assess.TagRef{queued, loaded} {
			got := []string{}
			for _, tg := range tags["en_1"] {
				got = append(got, tg.Name)
			}
			require.Equal(t, want, got, ids)
		}
	}
}
