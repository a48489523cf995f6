package postgres_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestMigration0040KeepsTheParticipantsPortfoliosThatExist migrates a database at version 39
// whose finished assessments (complete and archived) of two entities, and one of an archived
// entity, have team members and linked evidence (authored by one user, reviewed by another;
// two pieces of one author in two shards of one assessment), next to open and cancelled ones:
// the kept tables count each user's ties to the finished ones only, the archived entity's
// apart, and the triggers keep them from then on (an assessment reopened, one completed, a
// team member removed, the archived entity taken out of the archive and renamed).
func TestMigration0040KeepsTheParticipantsPortfoliosThatExist(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewEmptyDatabase(t))
	m0040 := migrateBelow(t, pool, 40)
	exec := func(sqls ...string) {
		t.Helper()
		for _, sql := range sqls {
			_, err := pool.Exec(ctx, sql)
			require.NoError(t, err, sql)
		}
	}
	exec(`INSERT INTO users (id, username, email) SELECT 'u_' || g, 'user' || g, 'user' || g || '@example.com' FROM generate_series(1, 4) g`,
		`INSERT INTO entities (id, name, entity_type, state) VALUES ('en_1', 'Shop', 'product', 'active'),
			('en_2', 'Bank', 'product', 'inactive'), ('en_3', 'Old', 'product', 'archived')`,
		`INSERT INTO standards (id, identifier, name, state) VALUES ('st_a', 'a', 'A', 'published'), ('st_b', 'b', 'B', 'published')`,
		`INSERT INTO requirements (id, standard_id, identifier, natural_key) VALUES ('rq_a', 'st_a', 'a', 'a'), ('rq_b', 'st_b', 'b', 'b')`,
		`INSERT INTO assessments (id, title, entity_id, state) VALUES ('as_1', 'One', 'en_1', 'complete'),
			('as_2', 'Two', 'en_1', 'archived'), ('as_3', 'Three', 'en_1', 'in_progress'), ('as_4', 'Four', 'en_2', 'complete'),
			('as_5', 'Five', 'en_2', 'cancelled'), ('as_6', 'Six', 'en_3', 'complete')`,
		`INSERT INTO assessment_standards (assessment_id, standard_id) VALUES ('as_1', 'st_a'), ('as_1', 'st_b'), ('as_2', 'st_a'),
			('as_3', 'st_b'), ('as_4', 'st_b'), ('as_5', 'st_a'), ('as_6', 'st_a')`,
		`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id)
			SELECT 'ar_' || substr(s.assessment_id, 4) || s.standard_id, s.assessment_id, 'rq_' || substr(s.standard_id, 4), s.standard_id
			FROM assessment_standards s`,
		// u_1 on the teams of as_1, as_2 and as_3; u_2 on those of as_4, as_5 and as_6.
		`INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ('as_1', 'u_1', 'assessor'), ('as_1', 'u_1', 'assessee'),
			('as_2', 'u_1', 'assessor'), ('as_3', 'u_1', 'assessor'), ('as_4', 'u_2', 'assessor'), ('as_5', 'u_2', 'assessor'),
			('as_6', 'u_2', 'assessor')`,
		// u_3 authors ev_a and ev_b (shards 1 and 2), u_4 reviews ev_b.
		`INSERT INTO evidence (id, name, author_id, reviewer_id) VALUES ('ev_a', 'A', 'u_3', NULL), ('ev_b', 'B', 'u_3', 'u_4')`,
		`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id) VALUES
			('ar_1st_a', 'ev_a', 'as_1'), ('ar_1st_b', 'ev_b', 'as_1'), ('ar_3st_b', 'ev_b', 'as_3'), ('ar_4st_b', 'ev_a', 'as_4')`)
	applyMigration(t, pool, m0040)

	require.Equal(t, map[string][]int32{
		"u_1/en_1/st_a": {2, 0}, "u_1/en_1/st_b": {1, 0}, // as_1 (one team row for both roles) and as_2; not as_3
		"u_2/en_2/st_b": {1, 0}, "u_2/en_3/st_a": {1, 1}, // as_4; as_6 of the archived entity
		"u_3/en_1/st_a": {2, 0}, "u_3/en_1/st_b": {2, 0}, "u_3/en_2/st_b": {1, 0}, // ev_a and ev_b in as_1: two shards; ev_a in as_4
		"u_4/en_1/st_a": {1, 0}, "u_4/en_1/st_b": {1, 0}, // reviewer of ev_b in as_1; as_3 is open
	}, progressByKey(t, pool, participantResultsSQL))
	require.Equal(t, map[string][]int32{
		"u_1/en_1/shop": {2}, "u_2/en_2/bank": {1}, "u_3/en_1/shop": {2}, "u_3/en_2/bank": {1}, "u_4/en_1/shop": {2},
	}, progressByKey(t, pool, participantEntitiesSQL))
	require.Equal(t, map[string][]int32{
		"u_1/st_a": {1}, "u_1/st_b": {1}, "u_2/st_b": {1}, "u_3/st_a": {1}, "u_3/st_b": {2}, "u_4/st_a": {1}, "u_4/st_b": {1},
	}, progressByKey(t, pool, participantStandardsSQL))
	requireParticipantPortfolio(t, pool)

	// From now on the triggers keep them.
	exec(`UPDATE assessments SET state = 'in_progress' WHERE id = 'as_4'`,
		`UPDATE assessments SET state = 'complete' WHERE id = 'as_3'`,
		`DELETE FROM assessment_members WHERE assessment_id = 'as_2'`,
		`UPDATE entities SET state = 'active', name = 'New' WHERE id = 'en_3'`)
	require.Equal(t, map[string][]int32{
		"u_1/en_1/shop": {2}, "u_2/en_3/new": {1}, "u_3/en_1/shop": {2}, "u_4/en_1/shop": {2},
	}, progressByKey(t, pool, participantEntitiesSQL))
	require.Equal(t, map[string][]int32{
		"u_1/st_a": {1}, "u_1/st_b": {1}, "u_2/st_a": {1}, "u_3/st_a": {1}, "u_3/st_b": {1}, "u_4/st_a": {1}, "u_4/st_b": {1},
	}, progressByKey(t, pool, participantStandardsSQL))
	requireParticipantPortfolio(t, pool)
}
