-- The claims about each requirement row of an assessment, counted on the row as its
-- evidence links are (migrations/0030_assessment_progress.sql; docs/performance.md,
-- "Conditional reads"):
--
--   assessment_requirements.claim_links  the rows of claim_requirements that name the
--       requirement row, kept by the statement triggers of claim_requirements below.
--
-- The workspace shows each row's count of claims, and its revision (the ETag) has to move
-- when a claim about a requirement is made, changed or deleted. Both used to read
-- claim_requirements: the count per row, and the revision a hash over every claim
-- citation of the assessment, whose cost grew with the assessment's claims (1.7 ms of
-- database time a request for an assessment with ~10,000 citations). With the count kept
-- on the row, a citation moves its requirement row's version (xmin), which the revision
-- already hashes, and the count is a column.
--
-- Locks: the trigger locks several requirement rows in id order, as a bulk write of results
-- and the link counter do. A claim's writer cites its evidence before its requirements
-- (its evidence's key share first), and a change of a claim's requirements locks the old
-- and the new rows in id order before it deletes and inserts (pkg/postgres/work,
-- writeClaimRelations), so that its two statements never take them in another order.

-- No citation may be written between the counting below and the triggers that keep the
-- count from then on.
LOCK TABLE assessment_requirements, claim_requirements IN EXCLUSIVE MODE;

ALTER TABLE assessment_requirements ADD COLUMN claim_links int NOT NULL DEFAULT 0;
UPDATE assessment_requirements ar SET claim_links = c.n
    FROM (SELECT assessment_requirement_id, count(*) AS n FROM claim_requirements GROUP BY 1) c
    WHERE ar.id = c.assessment_requirement_id;

-- The citations a statement adds or removes change claim_links of their requirement rows.
-- A requirement row deleted by the same statement (an assessment deleted with everything
-- under it) is no longer there to change. The counters of assessment_progress do not
-- change with claim_links, so their trigger leaves them untouched.
CREATE FUNCTION assessment_requirement_claims_count() RETURNS trigger
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
    UPDATE assessment_requirements ar SET claim_links = ar.claim_links + d.n
    FROM unnest(ids, deltas) AS d(id, n) WHERE ar.id = d.id;
    RETURN NULL;
END
$$;

CREATE TRIGGER claim_requirements_count_insert AFTER INSERT ON claim_requirements
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_requirement_claims_count();
CREATE TRIGGER claim_requirements_count_update AFTER UPDATE ON claim_requirements
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_requirement_claims_count();
CREATE TRIGGER claim_requirements_count_delete AFTER DELETE ON claim_requirements
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION assessment_requirement_claims_count();
