-- Counts that only grow look for nothing to delete (issue 27; docs/performance.md, "Creates
-- after the shards").
--
-- assessment_participants_change (0033, 0037, 0040) and evidence_assessments_change (0035)
-- add each statement's deltas to their rows and then deleted the rows whose count had fallen
-- to zero, also when every delta was positive and no count could have fallen: the DELETE
-- still joined the changed keys with the table. Creating evidence linked to a requirement
-- ran both (0.14 ms of the 1.9 ms of database time a create costs with one client at
-- make bench's data), creating a claim citing evidence and an assessment with its team one
-- each. Now a statement deletes only when one of its deltas is negative; the functions are
-- otherwise those of 0040 and 0035. The property tests of the kept sets
-- (TestAssessmentProgressCountersFollowEveryChange, TestParticipantPortfolio…) still hold them
-- equal to their sources after every kind of change, unlinks and deletes included.

CREATE OR REPLACE FUNCTION assessment_participants_change(users text[], assessments text[], shards smallint[], deltas int[]) RETURNS void
    LANGUAGE plpgsql AS $$
DECLARE
    ku text[];
    ka text[];
    ks smallint[];
    kd int[];
    fin text[];
    pu text[];
    pa text[];
    pd int[];
    ru text[];
    re text[];
    rs text[];
    rd int[];
BEGIN
    SELECT array_agg(u ORDER BY u, a, s), array_agg(a ORDER BY u, a, s), array_agg(s ORDER BY u, a, s), array_agg(d ORDER BY u, a, s)
    INTO ku, ka, ks, kd
    FROM (SELECT u, a, s, sum(d)::int AS d FROM unnest(users, assessments, shards, deltas) AS x(u, a, s, d)
        WHERE u IS NOT NULL AND a IS NOT NULL GROUP BY u, a, s HAVING sum(d) <> 0) c;
    IF ku IS NULL THEN
        RETURN;
    END IF;
    -- FILTER, not WHERE: PostgreSQL would push a WHERE on the state into the locking
    -- subquery, which then would not lock (nor wait for) a row whose state, as the
    -- statement's snapshot has it, does not match.
    SELECT array_agg(l.id) FILTER (WHERE l.state IN ('complete', 'archived')) INTO fin
    FROM (SELECT a.id, a.state FROM assessments a WHERE a.id = ANY (ka) ORDER BY a.id FOR SHARE) l;
    IF fin IS NULL THEN
        INSERT INTO assessment_participants AS p (user_id, assessment_id, shard, ties)
        SELECT u, a, s, d FROM unnest(ku, ka, ks, kd) AS x(u, a, s, d) ORDER BY u, a, s
        ON CONFLICT (user_id, assessment_id, shard) DO UPDATE SET ties = p.ties + excluded.ties;
        IF 0 > ANY (kd) THEN
            DELETE FROM assessment_participants p USING unnest(ku, ka, ks) AS x(u, a, s)
            WHERE p.user_id = x.u AND p.assessment_id = x.a AND p.shard = x.s AND p.ties <= 0;
        END IF;
        RETURN;
    END IF;
    -- A row is new when its ties are the delta (a row that existed had ties > 0), and goes
    -- when its ties fall to zero: +1 and -1 for the rows of finished assessments.
    WITH c AS (
        INSERT INTO assessment_participants AS p (user_id, assessment_id, shard, ties)
        SELECT u, a, s, d FROM unnest(ku, ka, ks, kd) AS x(u, a, s, d) ORDER BY u, a, s
        ON CONFLICT (user_id, assessment_id, shard) DO UPDATE SET ties = p.ties + excluded.ties
        RETURNING p.user_id, p.assessment_id, p.shard, p.ties)
    SELECT array_agg(c.user_id), array_agg(c.assessment_id), array_agg(CASE WHEN c.ties > 0 THEN 1 ELSE -1 END)
    INTO pu, pa, pd
    FROM c JOIN unnest(ku, ka, ks, kd) AS x(u, a, s, d) ON x.u = c.user_id AND x.a = c.assessment_id AND x.s = c.shard
    WHERE c.assessment_id = ANY (fin) AND (c.ties = x.d) = (c.ties > 0);
    IF 0 > ANY (kd) THEN
        DELETE FROM assessment_participants p USING unnest(ku, ka, ks) AS x(u, a, s)
        WHERE p.user_id = x.u AND p.assessment_id = x.a AND p.shard = x.s AND p.ties <= 0;
    END IF;
    IF pu IS NULL THEN
        RETURN;
    END IF;
    SELECT array_agg(x.u), array_agg(a.entity_id), array_agg(st.standard_id), array_agg(x.d) INTO ru, re, rs, rd
    FROM unnest(pu, pa, pd) AS x(u, a, d) JOIN assessments a ON a.id = x.a JOIN assessment_standards st ON st.assessment_id = x.a;
    IF ru IS NOT NULL THEN
        PERFORM participant_results_change(ru, re, rs, rd);
    END IF;
END
$$;

CREATE OR REPLACE FUNCTION evidence_assessments_change(evidence text[], assessments text[], deltas int[]) RETURNS void
    LANGUAGE plpgsql AS $$
DECLARE
    ke text[];
    ka text[];
    kd int[];
BEGIN
    SELECT array_agg(e ORDER BY e, a), array_agg(a ORDER BY e, a), array_agg(d ORDER BY e, a) INTO ke, ka, kd
    FROM (SELECT e, a, sum(d)::int AS d FROM unnest(evidence, assessments, deltas) AS x(e, a, d)
        WHERE e IS NOT NULL AND a IS NOT NULL GROUP BY e, a HAVING sum(d) <> 0) c;
    IF ke IS NULL THEN
        RETURN;
    END IF;
    INSERT INTO evidence_assessments AS p (evidence_id, assessment_id, ties)
    SELECT e, a, d FROM unnest(ke, ka, kd) AS x(e, a, d) ORDER BY e, a
    ON CONFLICT (evidence_id, assessment_id) DO UPDATE SET ties = p.ties + excluded.ties;
    IF 0 > ANY (kd) THEN
        DELETE FROM evidence_assessments p USING unnest(ke, ka) AS x(e, a)
        WHERE p.evidence_id = x.e AND p.assessment_id = x.a AND p.ties <= 0;
    END IF;
END
$$;
