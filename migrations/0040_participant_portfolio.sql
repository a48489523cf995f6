-- A participant's portfolio kept per user (issue 27; docs/assessments.md, "Progress over time
-- and portfolio"; docs/performance.md, "A participant's portfolio at a million rows").
--
-- Migration 0039 keeps which entities have results against which standards, for an actor
-- who sees every assessment. A participant sees only the assessments they take part in
-- (assessment_participants, migrations 0033 and 0037), so their page still read every
-- finished assessment they may see, with its visibility, to find its columns, its total and
-- its rows: at the bench's million-row data make bench's participant takes part in 1,001
-- assessments (3,682 rows of assessment_participants), 22–25 ms and 7,000 buffer hits a page.
-- The same three tables, per user, are now kept by PostgreSQL in the transaction of every
-- write, whichever path writes:
--
--   participant_results  per user, entity and standard, how many rows of
--       assessment_participants (a user's ties to an assessment, in up to sixteen shards:
--       migration 0037) tie the user to finished (complete or archived) assessments of the
--       entity against the standard, and whether the entity is archived; a row exists while
--       there is one. The portfolio asks only whether there is one: the user then takes part
--       in such an assessment.
--   participant_entities  per user, the entities that are not archived with at least one
--       row above, with their name as the portfolio sorts it (lower(name)) and their number
--       of standards: a page is an index range of (user_id, sort_name, entity_id).
--   participant_standards  per user and standard, how many of those entities have results
--       against it: the user's columns and their ranks.
--
-- Shard rows, not assessments, are counted: a shard row appears or disappears under its own
-- row lock, so each change is a delta of its own, like 0039's counters. Counting assessments
-- would need to know, when one shard row appears, whether the user's other shards of the
-- assessment exist; two writers of different shards (two pieces of evidence linked at once)
-- would each miss the other's, unless every change took a lock per (user, assessment),
-- thousands of them in one bulk write (the data generator's COPY of the teams).
--
-- What changes a count:
--   * a shard row appearing or disappearing while its assessment is finished
--     (assessment_participants_change, replaced here: a change of ties that keeps the row
--     changes nothing; an assessment that is not finished costs one lookup of its row);
--   * an assessment becoming finished or not, moving to another entity, or being deleted
--     while finished (a row trigger whose WHEN keeps every other update from calling it):
--     every shard row of its participants, counted from the rows they come from (team
--     members in shard 0, the author and reviewer of each linked piece of evidence in the
--     evidence's shard, tie_shard), which the assessment's index ranges find (the kept
--     table has no index by assessment, which would cost every write of the hot path);
--   * a standard added to or removed from a finished assessment (attestation imports and the
--     data generator write finished assessments with their standards; the services change
--     standards only before an assessment starts: 0039);
--   * an entity archived, taken out of the archive, or renamed.
--
-- Races. A change of participants and an assessment becoming finished (or not) must see each
-- other: assessment_participants_change locks the assessments it changes FOR SHARE, in id
-- order, before their participant rows, and reads their state from the locked row. A
-- transaction finishing an assessment holds its row (UPDATE), so a change of its
-- participants waits and then counts with it finished; one that locked first makes the
-- update wait, whose trigger then reads the committed rows (writers run at READ COMMITTED:
-- each statement of a trigger sees what committed before it). The services hold that lock
-- already (WritableAssessment, evidenceLockError, lockAssessment): taking it again costs a
-- lookup.
--
-- Locks, in one order, which extends 0039's: assessments (the services lock one before they
-- change what is under it — FOR SHARE to link or unlink evidence, FOR UPDATE to change its
-- state or team — and a piece of evidence's row before its assessments), the rows the write
-- changes (team rows, links and what 0030's
-- triggers lock for them, evidence), assessments again (FOR SHARE, in id order, in
-- assessment_participants_change: for the services a lock they hold; a write that did not
-- take it first waits here, before any row below, for a transaction changing the state),
-- assessment_participants rows (key order), entities (FOR SHARE, in id order; an entity
-- archived or renamed holds its row), entity_results, portfolio_entities, portfolio_standards
-- (0039), then participant_results, participant_entities and participant_standards, each in
-- key order (participant_results_change, participant_portfolio_change). The triggers here
-- are named to fire after 0039's of the same event (PostgreSQL fires them in name order). As
-- in 0039, a statement changing several assessments' states or several pieces of evidence's
-- people runs a row trigger per row, each taking its rows in order.

LOCK TABLE assessments, assessment_standards, entities, assessment_members, assessment_requirement_evidence, evidence,
    assessment_participants IN EXCLUSIVE MODE;

CREATE TABLE participant_results (
    user_id     text NOT NULL,
    entity_id   text NOT NULL,
    standard_id text NOT NULL,
    ties        int NOT NULL,
    archived    boolean NOT NULL,
    PRIMARY KEY (user_id, entity_id, standard_id)
);
-- An entity archived or taken out of the archive flips the rows of all its users.
CREATE INDEX participant_results_entity_idx ON participant_results (entity_id, user_id, standard_id);

CREATE TABLE participant_entities (
    user_id   text NOT NULL,
    entity_id text NOT NULL,
    sort_name text NOT NULL,
    standards int NOT NULL,
    PRIMARY KEY (user_id, entity_id)
);
CREATE INDEX participant_entities_name_idx ON participant_entities (user_id, sort_name, entity_id);
-- An entity renamed sorts elsewhere for all its users.
CREATE INDEX participant_entities_entity_idx ON participant_entities (entity_id, user_id);

CREATE TABLE participant_standards (
    user_id     text NOT NULL,
    standard_id text NOT NULL,
    entities    int NOT NULL,
    PRIMARY KEY (user_id, standard_id)
);

INSERT INTO participant_results (user_id, entity_id, standard_id, ties, archived)
SELECT p.user_id, a.entity_id, s.standard_id, count(*), bool_or(e.state = 'archived')
FROM assessment_participants p JOIN assessments a ON a.id = p.assessment_id
    JOIN assessment_standards s ON s.assessment_id = a.id JOIN entities e ON e.id = a.entity_id
WHERE a.state IN ('complete', 'archived') GROUP BY p.user_id, a.entity_id, s.standard_id;
INSERT INTO participant_entities (user_id, entity_id, sort_name, standards)
SELECT r.user_id, r.entity_id, lower(e.name), count(*) FROM participant_results r JOIN entities e ON e.id = r.entity_id
WHERE NOT r.archived GROUP BY r.user_id, r.entity_id, e.name;
INSERT INTO participant_standards (user_id, standard_id, entities)
SELECT user_id, standard_id, count(*) FROM participant_results WHERE NOT archived GROUP BY user_id, standard_id;

-- participant_portfolio_change adds the deltas of users' entities' standards (+1: the user
-- has results of the entity against the standard and the entity is not archived, where they
-- had none or it was; -1 the other way) to participant_entities, then participant_standards,
-- each in key order, and removes the rows left at zero (rows it has locked already).
CREATE FUNCTION participant_portfolio_change(users text[], ents text[], stds text[], deltas int[]) RETURNS void
    LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO participant_entities AS p (user_id, entity_id, sort_name, standards)
    SELECT x.u, x.e, lower(en.name), x.d
    FROM (SELECT u, e, sum(d)::int AS d FROM unnest(users, ents, deltas) AS x(u, e, d) GROUP BY u, e HAVING sum(d) <> 0) x
        JOIN entities en ON en.id = x.e
    ORDER BY x.u, x.e
    ON CONFLICT (user_id, entity_id) DO UPDATE SET standards = p.standards + excluded.standards;
    DELETE FROM participant_entities p USING unnest(users, ents) AS x(u, e)
    WHERE p.user_id = x.u AND p.entity_id = x.e AND p.standards <= 0;
    INSERT INTO participant_standards AS p (user_id, standard_id, entities)
    SELECT u, s, sum(d)::int FROM unnest(users, stds, deltas) AS x(u, s, d) GROUP BY u, s HAVING sum(d) <> 0 ORDER BY u, s
    ON CONFLICT (user_id, standard_id) DO UPDATE SET entities = p.entities + excluded.entities;
    DELETE FROM participant_standards p USING unnest(users, stds) AS x(u, s)
    WHERE p.user_id = x.u AND p.standard_id = x.s AND p.entities <= 0;
END
$$;

-- participant_results_change adds the deltas to the (user, entity, standard) rows, in key
-- order, after locking the entities (FOR SHARE, in id order), removes the rows left at zero,
-- and passes on to participant_portfolio_change the rows that start or stop counting (their
-- ties become positive or zero, their entity not archived).
CREATE FUNCTION participant_results_change(users text[], ents text[], stds text[], deltas int[]) RETURNS void
    LANGUAGE plpgsql AS $$
DECLARE
    cu text[];
    ce text[];
    cs text[];
    cd int[];
BEGIN
    PERFORM 1 FROM entities e WHERE e.id = ANY (ents) ORDER BY e.id FOR SHARE;
    WITH d AS (SELECT u, e, s, sum(d)::int AS d FROM unnest(users, ents, stds, deltas) AS x(u, e, s, d)
            WHERE u IS NOT NULL GROUP BY u, e, s HAVING sum(d) <> 0),
    changed AS (
        INSERT INTO participant_results AS r (user_id, entity_id, standard_id, ties, archived)
        SELECT d.u, d.e, d.s, d.d, en.state = 'archived' FROM d JOIN entities en ON en.id = d.e
        ORDER BY d.u, d.e, d.s
        ON CONFLICT (user_id, entity_id, standard_id) DO UPDATE SET ties = r.ties + excluded.ties
        RETURNING r.user_id, r.entity_id, r.standard_id, r.ties, r.archived)
    SELECT array_agg(c.user_id), array_agg(c.entity_id), array_agg(c.standard_id), array_agg(sign(c.ties)::int - sign(c.ties - d.d)::int)
    INTO cu, ce, cs, cd
    FROM changed c JOIN d ON d.u = c.user_id AND d.e = c.entity_id AND d.s = c.standard_id
    WHERE NOT c.archived AND (c.ties > 0) <> (c.ties - d.d > 0);
    DELETE FROM participant_results r USING unnest(users, ents, stds) AS x(u, e, s)
    WHERE r.user_id = x.u AND r.entity_id = x.e AND r.standard_id = x.s AND r.ties <= 0;
    IF cu IS NOT NULL THEN
        PERFORM participant_portfolio_change(cu, ce, cs, cd);
    END IF;
END
$$;

-- assessment_participants_change as in 0037, and the rows of finished assessments counted:
-- the assessments are locked first and their state read from the locked rows (the header's
-- races). Without a finished one the change is 0037's.
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
        DELETE FROM assessment_participants p USING unnest(ku, ka, ks) AS x(u, a, s)
        WHERE p.user_id = x.u AND p.assessment_id = x.a AND p.shard = x.s AND p.ties <= 0;
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
    DELETE FROM assessment_participants p USING unnest(ku, ka, ks) AS x(u, a, s)
    WHERE p.user_id = x.u AND p.assessment_id = x.a AND p.shard = x.s AND p.ties <= 0;
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

-- assessment_tie_rows is, for each user who takes part in assessment id, how many rows of
-- assessment_participants tie them to it: the shards of their ties, counted from the rows
-- the ties come from (a team role in shard 0; the author and the reviewer of each linked
-- piece of evidence in its shard), by the assessment's own index ranges.
CREATE FUNCTION assessment_tie_rows(assessment text) RETURNS TABLE (user_id text, shards int)
    LANGUAGE sql STABLE AS $$
    SELECT t.u, count(DISTINCT t.s)::int FROM (
        SELECT m.user_id, 0::smallint FROM assessment_members m WHERE m.assessment_id = $1
        UNION ALL SELECT p.u, tie_shard(e.id) FROM assessment_requirement_evidence l JOIN evidence e ON e.id = l.evidence_id,
            LATERAL (VALUES (e.author_id), (e.reviewer_id)) p(u)
        WHERE l.assessment_id = $1) t(u, s)
    WHERE t.u IS NOT NULL GROUP BY t.u
$$;

-- An assessment that becomes finished (or stops being: reopened) or moves to another entity
-- changes the rows of each of its participants and standards; one being deleted takes them
-- away while its team, links and standards are still there (BEFORE: the cascades then
-- delete them, and the participants' change finds no assessment to count).
CREATE FUNCTION assessments_participant_portfolio() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    u text[];
    e text[];
    s text[];
    d int[];
BEGIN
    IF TG_OP = 'DELETE' THEN
        SELECT array_agg(p.user_id), array_agg(OLD.entity_id), array_agg(st.standard_id), array_agg(-p.shards) INTO u, e, s, d
        FROM assessment_standards st, assessment_tie_rows(OLD.id) p
        WHERE st.assessment_id = OLD.id;
    ELSE
        SELECT array_agg(p.user_id), array_agg(c.entity_id), array_agg(st.standard_id), array_agg(c.delta * p.shards) INTO u, e, s, d
        FROM (SELECT OLD.entity_id, -1 WHERE OLD.state IN ('complete', 'archived')
            UNION ALL SELECT NEW.entity_id, 1 WHERE NEW.state IN ('complete', 'archived')) c(entity_id, delta),
            assessment_standards st, assessment_tie_rows(NEW.id) p
        WHERE st.assessment_id = NEW.id;
    END IF;
    IF u IS NOT NULL THEN
        PERFORM participant_results_change(u, e, s, d);
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER assessments_participant_portfolio AFTER UPDATE ON assessments FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.entity_id IS DISTINCT FROM NEW.entity_id)
    EXECUTE FUNCTION assessments_participant_portfolio();
CREATE TRIGGER assessments_participant_portfolio_delete BEFORE DELETE ON assessments FOR EACH ROW
    WHEN (OLD.state IN ('complete', 'archived'))
    EXECUTE FUNCTION assessments_participant_portfolio();

-- A standard added to or removed from a finished assessment, for each of its participants.
CREATE FUNCTION assessment_standards_participant_portfolio() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    u text[];
    e text[];
    s text[];
    d int[];
BEGIN
    SELECT array_agg(p.user_id), array_agg(a.entity_id), array_agg(c.standard_id), array_agg(c.delta * p.shards) INTO u, e, s, d
    FROM (SELECT OLD.assessment_id, OLD.standard_id, -1 WHERE TG_OP IN ('UPDATE', 'DELETE')
        UNION ALL SELECT NEW.assessment_id, NEW.standard_id, 1 WHERE TG_OP IN ('UPDATE', 'INSERT')) c(assessment_id, standard_id, delta)
        JOIN assessments a ON a.id = c.assessment_id,
        LATERAL assessment_tie_rows(c.assessment_id) p
    WHERE a.state IN ('complete', 'archived');
    IF u IS NOT NULL THEN
        PERFORM participant_results_change(u, e, s, d);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER assessment_standards_participant_portfolio AFTER INSERT OR DELETE ON assessment_standards FOR EACH ROW
    EXECUTE FUNCTION assessment_standards_participant_portfolio();
CREATE TRIGGER assessment_standards_participant_portfolio_update AFTER UPDATE ON assessment_standards FOR EACH ROW
    WHEN (OLD.assessment_id IS DISTINCT FROM NEW.assessment_id OR OLD.standard_id IS DISTINCT FROM NEW.standard_id)
    EXECUTE FUNCTION assessment_standards_participant_portfolio();

-- An entity archived (or taken out of the archive) counts no longer (again) for any of its
-- users; one renamed sorts elsewhere for each of them. Named to fire after 0039's
-- entities_portfolio.
CREATE FUNCTION entities_portfolio_participants() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    u text[];
    s text[];
    d int;
BEGIN
    IF (OLD.state = 'archived') <> (NEW.state = 'archived') THEN
        d := CASE WHEN NEW.state = 'archived' THEN -1 ELSE 1 END;
        WITH changed AS (UPDATE participant_results SET archived = NEW.state = 'archived' WHERE entity_id = NEW.id
                RETURNING user_id, standard_id)
        SELECT array_agg(user_id ORDER BY user_id, standard_id), array_agg(standard_id ORDER BY user_id, standard_id) INTO u, s FROM changed;
        IF u IS NOT NULL THEN
            PERFORM participant_portfolio_change(u, array_fill(NEW.id, ARRAY[cardinality(u)]), s, array_fill(d, ARRAY[cardinality(u)]));
        END IF;
    END IF;
    UPDATE participant_entities SET sort_name = lower(NEW.name) WHERE entity_id = NEW.id AND sort_name <> lower(NEW.name);
    RETURN NULL;
END
$$;

CREATE TRIGGER entities_portfolio_participants AFTER UPDATE ON entities FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.name IS DISTINCT FROM NEW.name)
    EXECUTE FUNCTION entities_portfolio_participants();
