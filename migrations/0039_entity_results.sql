-- The portfolio's results per entity and standard, kept as counters, and an index of each
-- entity's finished assessments (issue 27; docs/assessments.md, "Progress over time and
-- portfolio"; docs/performance.md, "The portfolio at a million rows").
--
-- The portfolio's first page read every finished assessment and each of its standards to
-- find its columns, its total and its page of entities: at the bench's million-row data
-- 4,097 results of 10,002 assessments and 995 entities, 10.5 ms a page for an administrator,
-- where the same page over a thousand rows reads a handful. What it asks of them is only
-- which entities have results against which standards, so PostgreSQL now keeps that, in the
-- transaction of every write, whichever path writes (the services, attestation imports, the
-- data generator's COPY, deletes):
--
--   entity_results  per entity and standard, how many finished (complete or archived)
--       assessments of the entity are against the standard, and whether the entity is
--       archived; a row exists while there is one;
--   portfolio_entities  the entities that are not archived with at least one row above:
--       their name as the portfolio sorts it (lower(name)) and their number of standards,
--       so that a page is the first rows of an index;
--   portfolio_standards  per standard, how many of those entities have results against it:
--       the columns and their ranks.
--
-- An assessment counts once it is finished, with its rows of assessment_standards. Writers
-- change an assessment's standards only before it starts and under the lock of its row
-- (work.replaceAssessmentStandards), so no standard is added to an assessment that another
-- transaction is completing. No foreign keys: every row is counted from rows that have them.
--
-- Locks, in one order: a change locks the entities it counts for (FOR SHARE, in id order; an
-- entity being archived or renamed holds its row, so it waits for them and they for it),
-- then its rows of entity_results in key order, then those of portfolio_entities and last
-- portfolio_standards, each in key order (portfolio_change). Row triggers on the kept tables
-- would lock the last two in the order a statement happens to visit rows: sixteen
-- connections completing and reopening assessments while their entities were archived
-- deadlocked within seconds (TestPortfolioKeptResultsUnderConcurrentWriters). A standard's
-- row of portfolio_standards changes only when an entity gets its first result against the
-- standard, loses its last one, or is archived: only those changes queue on it.

LOCK TABLE assessments, assessment_standards, entities IN EXCLUSIVE MODE;

CREATE TABLE entity_results (
    entity_id   text NOT NULL,
    standard_id text NOT NULL,
    results     int NOT NULL,
    archived    boolean NOT NULL,
    PRIMARY KEY (entity_id, standard_id)
);

CREATE TABLE portfolio_entities (
    entity_id text PRIMARY KEY,
    sort_name text NOT NULL,
    standards int NOT NULL
);
CREATE INDEX portfolio_entities_name_idx ON portfolio_entities (sort_name, entity_id);

CREATE TABLE portfolio_standards (
    standard_id text PRIMARY KEY,
    entities    int NOT NULL
);

-- The cells of a page and an entity's score history read an entity's finished assessments,
-- latest first: one index range, where the state index matched every finished assessment
-- and the join read every assessment's standards (2.8 ms for a page's 198 results at a
-- million rows).
CREATE INDEX assessments_finished_idx ON assessments (entity_id, (coalesce(ended_at, updated_at)) DESC, id DESC)
    WHERE state IN ('complete', 'archived');

INSERT INTO entity_results (entity_id, standard_id, results, archived)
SELECT a.entity_id, s.standard_id, count(*), bool_or(e.state = 'archived')
FROM assessments a JOIN assessment_standards s ON s.assessment_id = a.id JOIN entities e ON e.id = a.entity_id
WHERE a.state IN ('complete', 'archived') GROUP BY a.entity_id, s.standard_id;
INSERT INTO portfolio_entities (entity_id, sort_name, standards)
SELECT r.entity_id, lower(e.name), count(*) FROM entity_results r JOIN entities e ON e.id = r.entity_id
WHERE NOT r.archived GROUP BY r.entity_id, e.name;
INSERT INTO portfolio_standards (standard_id, entities)
SELECT standard_id, count(*) FROM entity_results WHERE NOT archived GROUP BY standard_id;

-- portfolio_change adds the deltas of entities' standards (+1: the entity has results against
-- the standard and is not archived, where it had none or was; -1 the other way) to
-- portfolio_entities, then portfolio_standards, each in key order, and removes the rows left
-- at zero (rows it has locked already).
CREATE FUNCTION portfolio_change(ents text[], stds text[], deltas int[]) RETURNS void
    LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO portfolio_entities AS p (entity_id, sort_name, standards)
    SELECT x.e, lower(en.name), x.d FROM (SELECT e, sum(d)::int AS d FROM unnest(ents, deltas) AS u(e, d) GROUP BY e HAVING sum(d) <> 0) x
        JOIN entities en ON en.id = x.e
    ORDER BY x.e
    ON CONFLICT (entity_id) DO UPDATE SET standards = p.standards + excluded.standards;
    DELETE FROM portfolio_entities WHERE entity_id = ANY (ents) AND standards <= 0;
    INSERT INTO portfolio_standards AS p (standard_id, entities)
    SELECT s, sum(d)::int FROM unnest(stds, deltas) AS u(s, d) GROUP BY s HAVING sum(d) <> 0 ORDER BY s
    ON CONFLICT (standard_id) DO UPDATE SET entities = p.entities + excluded.entities;
    DELETE FROM portfolio_standards WHERE standard_id = ANY (stds) AND entities <= 0;
END
$$;

-- entity_results_change adds the deltas to the (entity, standard) rows, in key order, removes
-- the rows left at zero, and passes on to portfolio_change the pairs that start or stop
-- counting (a row's results become positive or zero, its entity not archived).
CREATE FUNCTION entity_results_change(ents text[], stds text[], deltas int[]) RETURNS void
    LANGUAGE plpgsql AS $$
DECLARE
    ce text[];
    cs text[];
    cd int[];
BEGIN
    PERFORM 1 FROM entities e WHERE e.id = ANY (ents) ORDER BY e.id FOR SHARE;
    WITH d AS (SELECT e, s, sum(d)::int AS d FROM unnest(ents, stds, deltas) AS u(e, s, d) GROUP BY e, s HAVING sum(d) <> 0),
    changed AS (
        INSERT INTO entity_results AS r (entity_id, standard_id, results, archived)
        SELECT d.e, d.s, d.d, en.state = 'archived' FROM d JOIN entities en ON en.id = d.e
        ORDER BY d.e, d.s
        ON CONFLICT (entity_id, standard_id) DO UPDATE SET results = r.results + excluded.results
        RETURNING r.entity_id, r.standard_id, r.results, r.archived)
    SELECT array_agg(c.entity_id), array_agg(c.standard_id), array_agg(sign(c.results)::int - sign(c.results - d.d)::int)
    INTO ce, cs, cd
    FROM changed c JOIN d ON d.e = c.entity_id AND d.s = c.standard_id
    WHERE NOT c.archived AND (c.results > 0) <> (c.results - d.d > 0);
    DELETE FROM entity_results r USING unnest(ents, stds) AS x(e, s)
    WHERE r.entity_id = x.e AND r.standard_id = x.s AND r.results <= 0;
    IF ce IS NOT NULL THEN
        PERFORM portfolio_change(ce, cs, cd);
    END IF;
END
$$;

-- An assessment that becomes finished (or stops being: reopened) or moves to another entity
-- changes the rows of each of its standards; one being deleted takes its results away while
-- its standards are still there (BEFORE: the cascade then deletes them, and their trigger
-- finds no assessment to count). The triggers' WHEN keeps every other update (a title, a
-- version, a score) from calling it. An assessment inserted already finished has no standards
-- yet: their inserts count it.
CREATE FUNCTION assessments_entity_results() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    e text[];
    s text[];
    d int[];
BEGIN
    IF TG_OP = 'DELETE' THEN
        SELECT array_agg(OLD.entity_id), array_agg(st.standard_id), array_agg(-1) INTO e, s, d
        FROM assessment_standards st WHERE st.assessment_id = OLD.id;
    ELSE
        SELECT array_agg(c.entity_id), array_agg(st.standard_id), array_agg(c.delta) INTO e, s, d
        FROM (SELECT OLD.entity_id, -1 WHERE OLD.state IN ('complete', 'archived')
            UNION ALL SELECT NEW.entity_id, 1 WHERE NEW.state IN ('complete', 'archived')) c(entity_id, delta),
            assessment_standards st
        WHERE st.assessment_id = NEW.id;
    END IF;
    IF e IS NOT NULL THEN
        PERFORM entity_results_change(e, s, d);
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER assessments_entity_results AFTER UPDATE ON assessments FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.entity_id IS DISTINCT FROM NEW.entity_id)
    EXECUTE FUNCTION assessments_entity_results();
CREATE TRIGGER assessments_entity_results_delete BEFORE DELETE ON assessments FOR EACH ROW
    WHEN (OLD.state IN ('complete', 'archived'))
    EXECUTE FUNCTION assessments_entity_results();

-- A standard added to or removed from a finished assessment (an attestation import writes
-- finished assessments with their standards, and so does the data generator).
CREATE FUNCTION assessment_standards_entity_results() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    e text[];
    s text[];
    d int[];
BEGIN
    SELECT array_agg(a.entity_id), array_agg(c.standard_id), array_agg(c.delta) INTO e, s, d
    FROM (SELECT OLD.assessment_id, OLD.standard_id, -1 WHERE TG_OP IN ('UPDATE', 'DELETE')
        UNION ALL SELECT NEW.assessment_id, NEW.standard_id, 1 WHERE TG_OP IN ('UPDATE', 'INSERT')) c(assessment_id, standard_id, delta)
        JOIN assessments a ON a.id = c.assessment_id
    WHERE a.state IN ('complete', 'archived');
    IF e IS NOT NULL THEN
        PERFORM entity_results_change(e, s, d);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER assessment_standards_entity_results AFTER INSERT OR DELETE ON assessment_standards FOR EACH ROW
    EXECUTE FUNCTION assessment_standards_entity_results();
CREATE TRIGGER assessment_standards_entity_results_update AFTER UPDATE ON assessment_standards FOR EACH ROW
    WHEN (OLD.assessment_id IS DISTINCT FROM NEW.assessment_id OR OLD.standard_id IS DISTINCT FROM NEW.standard_id)
    EXECUTE FUNCTION assessment_standards_entity_results();

-- An entity archived (or taken out of the archive) counts no longer (again); one renamed
-- sorts elsewhere.
CREATE FUNCTION entities_portfolio() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    s text[];
    d int;
BEGIN
    IF (OLD.state = 'archived') <> (NEW.state = 'archived') THEN
        d := CASE WHEN NEW.state = 'archived' THEN -1 ELSE 1 END;
        WITH changed AS (UPDATE entity_results SET archived = NEW.state = 'archived' WHERE entity_id = NEW.id RETURNING standard_id)
        SELECT array_agg(standard_id ORDER BY standard_id) INTO s FROM changed;
        IF s IS NOT NULL THEN
            PERFORM portfolio_change(array_fill(NEW.id, ARRAY[cardinality(s)]), s, array_fill(d, ARRAY[cardinality(s)]));
        END IF;
    END IF;
    UPDATE portfolio_entities SET sort_name = lower(NEW.name) WHERE entity_id = NEW.id AND sort_name <> lower(NEW.name);
    RETURN NULL;
END
$$;

CREATE TRIGGER entities_portfolio AFTER UPDATE ON entities FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.name IS DISTINCT FROM NEW.name)
    EXECUTE FUNCTION entities_portfolio();
