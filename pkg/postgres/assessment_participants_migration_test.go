package postgres_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestMigration0033FindsTheParticipantsThatExist migrates a database at version 32 whose
// assessments have team members in one or both roles and evidence linked by an author, an
// author who also reviews, and a reviewer of someone else's evidence: the table holds each
// user's ties to each assessment as counted from those sources, and the triggers keep it
// from then on (a removed team role and a deleted piece of evidence take their ties away).
func TestMigration0033FindsTheParticipantsThatExist(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewEmptyDatabase(t))
	m0033 := migrateBelow(t, pool, 33)
	exec := func(sql string) {
		t.Helper()
		_, err := pool.Exec(ctx, sql)
		require.NoError(t, err, sql)
	}
	for _, sql := range []string{
		`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'Shop', 'product')`,
		`INSERT INTO users (id, username, email) SELECT 'u_' || g, 'user' || g, 'user' || g || '@example.com' FROM generate_series(1, 5) g`,
		`INSERT INTO standards (id, identifier, name, state) VALUES ('st_a', 'a', 'A', 'published')`,
		`INSERT INTO requirements (id, standard_id, identifier, natural_key) SELECT 'rq_' || g, 'st_a', 'a' || g, 'a' || g FROM generate_series(1, 3) g`,
		`INSERT INTO assessments (id, title, entity_id, state) VALUES ('as_1', 'One', 'en_1', 'in_progress'), ('as_2', 'Two', 'en_1', 'in_progress')`,
		`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id)
			SELECT 'ar_' || a || g, 'as_' || a, 'rq_' || g, 'st_a' FROM generate_series(1, 2) a, generate_series(1, 3) g`,
		`INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ('as_1', 'u_1', 'assessor'), ('as_1', 'u_1', 'assessee'),
			('as_1', 'u_2', 'assessee'), ('as_2', 'u_2', 'assessor')`,
		`INSERT INTO evidence (id, name, author_id, reviewer_id) VALUES ('ev_1', 'E1', 'u_3', NULL), ('ev_2', 'E2', 'u_4', 'u_4'),
			('ev_3', 'E3', 'u_2', 'u_5')`,
		`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id) VALUES
			('ar_11', 'ev_1', 'as_1'), ('ar_12', 'ev_1', 'as_1'), ('ar_21', 'ev_2', 'as_2'), ('ar_13', 'ev_3', 'as_1')`,
	} {
		exec(sql)
	}
	want := progressByKey(t, pool, participantsAggregateSQL)
	require.Equal(t, map[string][]int32{
		"u_1/as_1": {2},                  // both roles
		"u_2/as_1": {2}, "u_2/as_2": {1}, // assessee, and author of ev_3 linked once; assessor of as_2
		"u_3/as_1": {2}, // author of ev_1, linked twice
		"u_4/as_2": {2}, // author and reviewer of ev_2
		"u_5/as_1": {1}, // reviewer of ev_3
	}, want)
	applyMigration(t, pool, m0033)
	require.Equal(t, want, progressByKey(t, pool, participantsSQL))

	exec(`DELETE FROM assessment_members WHERE user_id = 'u_1' AND role = 'assessee'`)
	exec(`DELETE FROM evidence WHERE id = 'ev_3'`)
	exec(`UPDATE evidence SET reviewer_id = 'u_1' WHERE id = 'ev_1'`)
	require.Equal(t, map[string][]int32{
		"u_1/as_1": {3}, "u_2/as_1": {1}, "u_2/as_2": {1}, "u_3/as_1": {2}, "u_4/as_2": {2},
	}, progressByKey(t, pool, participantsSQL))
	require.Equal(t, progressByKey(t, pool, participantsAggregateSQL), progressByKey(t, pool, participantsSQL))
}

// TestMigration0035FindsEachEvidencesAssessments migrates a database at version 34 whose
// evidence is linked to requirements of two assessments, twice to one, and cited by claims:
// the table counts each piece's links and citations per assessment, and keeps them after.
func TestMigration0035FindsEachEvidencesAssessments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewEmptyDatabase(t))
	m0035 := migrateBelow(t, pool, 35)
	exec := func(sql string) {
		t.Helper()
		_, err := pool.Exec(ctx, sql)
		require.NoError(t, err, sql)
	}
	for _, sql := range []string{
		`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'Shop', 'product')`,
		`INSERT INTO users (id, username, email) VALUES ('u_1', 'user1', 'user1@example.com')`,
		`INSERT INTO standards (id, identifier, name, state) VALUES ('st_a', 'a', 'A', 'published')`,
		`INSERT INTO requirements (id, standard_id, identifier, natural_key) SELECT 'rq_' || g, 'st_a', 'a' || g, 'a' || g FROM generate_series(1, 3) g`,
		`INSERT INTO assessments (id, title, entity_id, state) VALUES ('as_1', 'One', 'en_1', 'in_progress'), ('as_2', 'Two', 'en_1', 'in_progress')`,
		`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id)
			SELECT 'ar_' || a || g, 'as_' || a, 'rq_' || g, 'st_a' FROM generate_series(1, 2) a, generate_series(1, 3) g`,
		`INSERT INTO evidence (id, name, author_id) VALUES ('ev_1', 'E1', 'u_1'), ('ev_2', 'E2', 'u_1')`,
		`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id) VALUES
			('ar_11', 'ev_1', 'as_1'), ('ar_12', 'ev_1', 'as_1'), ('ar_21', 'ev_1', 'as_2')`,
		`INSERT INTO claims (id, assessment_id, name, target, predicate) VALUES ('cl_1', 'as_2', 'C', 'T', 'P')`,
		`INSERT INTO claim_evidence (claim_id, evidence_id, kind) VALUES ('cl_1', 'ev_1', 'evidence'), ('cl_1', 'ev_2', 'counter_evidence')`,
	} {
		exec(sql)
	}
	applyMigration(t, pool, m0035)
	require.Equal(t, map[string][]int32{"ev_1/as_1": {2}, "ev_1/as_2": {2}, "ev_2/as_2": {1}}, progressByKey(t, pool, evidenceAssessmentsSQL))
	exec(`DELETE FROM claims WHERE id = 'cl_1'`)
	exec(`DELETE FROM assessments WHERE id = 'as_1'`)
	require.Equal(t, map[string][]int32{"ev_1/as_2": {1}}, progressByKey(t, pool, evidenceAssessmentsSQL))
	require.Equal(t, progressByKey(t, pool, evidenceAssessmentsAggregateSQL), progressByKey(t, pool, evidenceAssessmentsSQL))
}

// TestMigration0037CountsParticipantsInShards migrates a database at version 36 whose
// evidence ids end in characters of different shards (ev_a and ev_q share one): each user's
// ties are split by the shard of the evidence that makes them (a team role's in shard 0),
// summing to what they were. From then on a piece of evidence deleted takes its links, and
// with them its people's ties and the requirement rows' link counts, and a new author takes
// over the ties of the evidence.
func TestMigration0037CountsParticipantsInShards(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := openPool(t, pgtest.NewEmptyDatabase(t))
	m0037 := migrateBelow(t, pool, 37)
	exec := func(sql string) {
		t.Helper()
		_, err := pool.Exec(ctx, sql)
		require.NoError(t, err, sql)
	}
	for _, sql := range []string{
		`INSERT INTO entities (id, name, entity_type) VALUES ('en_1', 'Shop', 'product')`,
		`INSERT INTO users (id, username, email) SELECT 'u_' || g, 'user' || g, 'user' || g || '@example.com' FROM generate_series(1, 3) g`,
		`INSERT INTO standards (id, identifier, name, state) VALUES ('st_a', 'a', 'A', 'published')`,
		`INSERT INTO requirements (id, standard_id, identifier, natural_key) SELECT 'rq_' || g, 'st_a', 'a' || g, 'a' || g FROM generate_series(1, 3) g`,
		`INSERT INTO assessments (id, title, entity_id, state) VALUES ('as_1', 'One', 'en_1', 'in_progress')`,
		`INSERT INTO assessment_requirements (id, assessment_id, requirement_id, standard_id)
			SELECT 'ar_1' || g, 'as_1', 'rq_' || g, 'st_a' FROM generate_series(1, 3) g`,
		`INSERT INTO assessment_members (assessment_id, user_id, role) VALUES ('as_1', 'u_1', 'assessor')`,
		`INSERT INTO evidence (id, name, author_id, reviewer_id) VALUES ('ev_a', 'A', 'u_2', NULL), ('ev_b', 'B', 'u_2', 'u_3'),
			('ev_q', 'Q', 'u_2', NULL)`,
		`INSERT INTO assessment_requirement_evidence (assessment_requirement_id, evidence_id, assessment_id) VALUES
			('ar_11', 'ev_a', 'as_1'), ('ar_12', 'ev_a', 'as_1'), ('ar_11', 'ev_b', 'as_1'), ('ar_13', 'ev_q', 'as_1')`,
	} {
		exec(sql)
	}
	pairs := progressByKey(t, pool, participantsSQL)
	applyMigration(t, pool, m0037)
	require.Equal(t, pairs, progressByKey(t, pool, participantsSQL), "the same ties in all")
	require.Equal(t, map[string][]int32{
		"u_1/as_1/0": {1},                    // assessor
		"u_2/as_1/1": {3}, "u_2/as_1/2": {1}, // ev_a twice and ev_q ('a' and 'q' are 1 mod 16); ev_b ('b': 2)
		"u_3/as_1/2": {1}, // reviewer of ev_b
	}, progressByKey(t, pool, participantShardsSQL))

	exec(`DELETE FROM evidence WHERE id = 'ev_a'`)
	exec(`UPDATE evidence SET author_id = 'u_1' WHERE id = 'ev_b'`)
	require.Equal(t, map[string][]int32{
		"u_1/as_1/0": {1}, "u_1/as_1/2": {1}, "u_2/as_1/1": {1}, "u_3/as_1/2": {1},
	}, progressByKey(t, pool, participantShardsSQL))
	require.Equal(t, progressByKey(t, pool, participantShardsAggregateSQL), progressByKey(t, pool, participantShardsSQL))
	require.Equal(t, progressByKey(t, pool, evidenceAssessmentsAggregateSQL), progressByKey(t, pool, evidenceAssessmentsSQL))
	var wrong int
	require.NoError(t, pool.QueryRow(ctx, wrongLinkCountsSQL).Scan(&wrong))
	require.Zero(t, wrong, "requirement rows whose link count is not their links")
}
