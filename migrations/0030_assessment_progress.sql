-- An assessment's progress kept as counters (issue 27 item 2; docs/assessments.md,
-- "Progress"; docs/performance.md, "Assessment progress as counters"). The assessment list
-- used to count the answers of every requirement of its page's assessments, with a lookup
-- of the links of each: 50 assessments on ASVS are 22,000 rows per page. PostgreSQL now
-- keeps the counts itself, in the transaction of every write, whichever path writes
-- (the services, attestation imports, the data generator's COPY, deletes and cascades), so
-- no Go path has to remember to, and a page reads one indexed row per assessment and
-- standard.
--
--   assessment_requirements.evidence_links  the links of each requirement row, kept by the
--       statement triggers of assessment_requirement_evidence;
--   assessment_progress  per assessment and standard: the requirement rows (total), those
--       answered (a result and a rationale that is not blank), each result, and those with
--       at least one link (evidence_links > 0); kept by the statement triggers of
--       assessment_requirements, which add each statement's differences in one statement.
--
-- Statement triggers with transition tables, one per event (PostgreSQL allows transition
-- tables only on single-event triggers): starting an assessment inserts its 442 requirement
-- rows in one statement and changes its counters once, where row triggers would change
-- them 442 times. A counter row of an assessment exists once it has requirements; none
-- means zero.
--
-- Locks: a statement locks the requirement rows it changes before the counter rows, and
-- the triggers take several of either in key order, so two writers never wait for each
-- other in opposite orders (docs/performance.md says which orders our code takes).

-- No link may be written between the counting below and the triggers that keep the counts
-- from then on (ALTER TABLE then keeps the requirement table from readers too, until the
-- migration commits: 21 s for 811,163 requirement rows on a loaded machine).
LOCK TABLE assessment_requirements, assessment_requirement_evidence IN EXCLUSIVE MODE;

ALTER TABLE assessment_requirements ADD COLUMN evidence_links int NOT NULL DEFAULT 0;
UPDATE assessment_requirements ar SET evidence_links = l.n
    FROM (SELECT assessment_requirement_id, count(*) AS n FROM assessment_requirement_evidence GROUP BY 1) l
    WHERE ar.id = l.assessment_requirement_id;

CREATE TABLE assessment_progress (
    assessment_id  text NOT NULL REFERENCES assessments (id) ON DELETE CASCADE,
    standard_id    text NOT NULL REFERENCES standards (id) ON DELETE CASCADE,
    total          int NOT NULL DEFAULT 0,
    answered       int NOT NULL DEFAULT 0,
    yes            int NOT NULL DEFAULT 0,
    partial        int NOT NULL DEFAULT 0,
    no             int NOT NULL DEFAULT 0,
    not_applicable int NOT NULL DEFAULT 0,
    with_evidence  int NOT NULL DEFAULT 0,
    PRIMARY KEY (assessment_id, standard_id)
);

INSERT INTO assessment_progress (assessment_id, standard_id, total, answered, yes, partial, no, not_applicable, with_evidence)
SELECT assessment_id, standard_id, count(*), count(*) FILTER (WHERE result IS NOT NULL AND btrim(rationale) <> ''),
    count(*) FILTER (WHERE result = 'yes'), count(*) FILTER (WHERE result = 'partial'),
    count(*) FILTER (WHERE result = 'no'), count(*) FILTER (WHERE result = 'not_applicable'),
    count(*) FILTER (WHERE evidence_links > 0)
FROM assessment_requirements GROUP BY assessment_id, standard_id;

-- What the rows of a statement add to the counters: each inserted row counts +1, each
-- deleted row -1, an updated row its new self less its old self. A statement that changes
-- no count (a version bump, an assignee) leaves the counter rows untouched. Several
-- counter rows are written in key order (INSERT … SELECT … ORDER BY locks them so).
CREATE FUNCTION assessment_progress_count() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO assessment_progress AS p (assessment_id, standard_id, total, answered, yes, partial, no, not_applicable, with_evidence)
        SELECT assessment_id, standard_id, count(*), count(*) FILTER (WHERE result IS NOT NULL AND btrim(rationale) <> ''),
            count(*) FILTER (WHERE result = 'yes'), count(*) FILTER (WHERE result = 'partial'),
            count(*) FILTER (WHERE result = 'no'), count(*) FILTER (WHERE result = 'not_applicable'),
            count(*) FILTER (WHERE evidence_links > 0)
        FROM new_rows GROUP BY assessment_id, standard_id ORDER BY assessment_id, standard_id
        ON CONFLICT (assessment_id, standard_id) DO UPDATE SET total = p.total + excluded.total,
            answered = p.answered + excluded.answered, yes = p.yes + excluded.yes, partial = p.partial + excluded.partial,
            no = p.no + excluded.no, not_applicable = p.not_applicable + excluded.not_applicable,
            with_evidence = p.with_evidence + excluded.with_evidence;
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO assessment_progress AS p (assessment_id, standard_id, total, answered, yes, partial, no, not_applicable, with_evidence)
        SELECT assessment_id, standard_id, sum(total), sum(answered), sum(yes), sum(partial), sum(no), sum(not_applicable), sum(with_evidence)
        FROM (SELECT assessment_id, standard_id, s AS total,
                CASE WHEN result IS NOT NULL AND btrim(rationale) <> '' THEN s ELSE 0 END AS answered,
                CASE result WHEN 'yes' THEN s ELSE 0 END AS yes, CASE result WHEN 'partial' THEN s ELSE 0 END AS partial,
                CASE result WHEN 'no' THEN s ELSE 0 END AS no, CASE result WHEN 'not_applicable' THEN s ELSE 0 END AS not_applicable,
                CASE WHEN evidence_links > 0 THEN s ELSE 0 END AS with_evidence
            FROM (SELECT n.assessment_id, n.standard_id, n.result, n.rationale, n.evidence_links, 1 AS s FROM new_rows n
                UNION ALL
                SELECT o.assessment_id, o.standard_id, o.result, o.rationale, o.evidence_links, -1 FROM old_rows o) r) c
        GROUP BY assessment_id, standard_id
        HAVING sum(total) <> 0 OR sum(answered) <> 0 OR sum(yes) <> 0 OR sum(partial) <> 0 OR sum(no) <> 0
            OR sum(not_applicable) <> 0 OR sum(with_evidence) <> 0
        ORDER BY assessment_id, standard_id
        ON CONFLICT (assessment_id, standard_id) DO UPDATE SET total = p.total + excluded.total,
            answered = p.answered + excluded.answered, yes = p.yes + excluded.yes, partial = p.partial + excluded.partial,
            no = p.no + excluded.no, not_applicable = p.not_applicable + excluded.not_applicable,
            with_evidence = p.with_evidence + excluded.with_evidence;
    ELSE
        -- The assessment may be going too (a cascade): only counters still there change.
        UPDATE assessment_progress p SET total = p.total - d.total, answered = p.answered - d.answered,
            yes = p.yes - d.yes, partial = p.partial - d.partial, no = p.no - d.no,
            not_applicable = p.not_applicable - d.not_applicable, with_evidence = p.with_evidence - d.with_evidence
        FROM (SELECT assessment_id, standard_id, count(*) AS total,
                count(*) FILTER (WHERE result IS NOT NULL AND btrim(rationale) <> '') AS answered,
                count(*) FILTER (WHERE result = 'yes') AS yes, count(*) FILTER (WHERE result = 'partial') AS partial,
                count(*) FILTER (WHERE result = 'no') AS no, count(*) FILTER (WHERE result = 'not_applicable') AS not_applicable,
                count(*) FILTER (WHERE evidence_links > 0) AS with_evidence
            FROM old_rows GROUP BY assessment_id, standard_id) d
        WHERE p.assessment_id = d.assessment_id AND p.standard_id = d.standard_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER assessment_requirements_count_insert AFTER INSERT ON assessment_requirements
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_progress_count();
CREATE TRIGGER assessment_requirements_count_update AFTER UPDATE ON assessment_requirements
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_progress_count();
CREATE TRIGGER assessment_requirements_count_delete AFTER DELETE ON assessment_requirements
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_progress_count();

-- The links a statement adds or removes change evidence_links of their requirement rows
-- (which the triggers above then count). Several rows are locked in id order first, as a
-- bulk write of results locks them. A requirement row deleted by the same statement (an
-- assessment deleted with everything under it) is no longer there to change.
CREATE FUNCTION assessment_requirement_links_count() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    ids text[];
    deltas int[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(id ORDER BY id), array_agg(n ORDER BY id) INTO ids, deltas
        FROM (SELECT assessment_requirement_id AS id, count(*)::int AS n FROM new_rows GROUP BY 1) d;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(id ORDER BY id), array_agg(n ORDER BY id) INTO ids, deltas
        FROM (SELECT assessment_requirement_id AS id, -count(*)::int AS n FROM old_rows GROUP BY 1) d;
    ELSE
        SELECT array_agg(id ORDER BY id), array_agg(n ORDER BY id) INTO ids, deltas
        FROM (SELECT id, sum(s)::int AS n
            FROM (SELECT assessment_requirement_id AS id, 1 AS s FROM new_rows
                UNION ALL SELECT assessment_requirement_id, -1 FROM old_rows) c
            GROUP BY id HAVING sum(s) <> 0) d;
    END IF;
    IF ids IS NULL THEN
        RETURN NULL;
    END IF;
    IF cardinality(ids) > 1 THEN
        PERFORM 1 FROM assessment_requirements WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
    END IF;
    UPDATE assessment_requirements ar SET evidence_links = ar.evidence_links + d.n
    FROM unnest(ids, deltas) AS d(id, n) WHERE ar.id = d.id;
    RETURN NULL;
END
$$;

CREATE TRIGGER assessment_requirement_evidence_count_insert AFTER INSERT ON assessment_requirement_evidence
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_requirement_links_count();
CREATE TRIGGER assessment_requirement_evidence_count_update AFTER UPDATE ON assessment_requirement_evidence
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_requirement_links_count();
CREATE TRIGGER assessment_requirement_evidence_count_delete AFTER DELETE ON assessment_requirement_evidence
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_requirement_links_count();
