package postgres_test

import (
	"context"
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
