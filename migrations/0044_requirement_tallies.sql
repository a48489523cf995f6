-- The dashboard at a million rows (issue 27; docs/performance.md, "The dashboard's first
-- computation").
--
-- requirement_tallies: per requirement, how often finished assessments (complete or
-- archived) answered it yes, partial and no. The dashboard's weakest requirements are the
-- lowest mean conformance among them; an administrator's aggregated every result of every
-- finished assessment on each computation (400,000 rows, 301 ms of a 395 ms dashboard at
-- make bench's million-row data). Kept by PostgreSQL in the transaction of every write,
-- whatever path writes (the services, attestation imports, the data generator's COPY,
-- deletes and cascades):
--
--   * an assessment becoming finished adds its answers, one leaving the finished states (a
--     reopen) takes them away, and a finished assessment being deleted takes them away
--     before its requirement rows go (assessments' triggers);
--   * requirement rows of a finished assessment written, changed or deleted change the
--     tallies by their differences (assessment_requirements' statement triggers, the same
--     functions as the progress counters of migration 0030, one statement each).
--
-- A tally row exists once a requirement has been answered in a finished assessment; rows
-- that fall back to zero stay (the dashboard reads those with a no or partial only). Several
-- rows are written in requirement order, so two writers never wait for each other in
-- opposite orders.
--
-- evidence_assessments_assessment_idx: a participant's evidence, gathered as the pieces tied
-- to the assessments they take part in (VisibleEvidenceIDsSQL), read by assessment instead
-- of as every link and citation of those assessments (100,000 citations: 189 ms of a
-- participant's dashboard).

LOCK TABLE assessments, assessment_requirements IN EXCLUSIVE MODE;

CREATE INDEX evidence_assessments_assessment_idx ON evidence_assessments (assessment_id, evidence_id);

CREATE TABLE requirement_tallies (
    requirement_id text PRIMARY KEY REFERENCES requirements (id) ON DELETE CASCADE,
    yes            int NOT NULL DEFAULT 0,
    partial        int NOT NULL DEFAULT 0,
    no             int NOT NULL DEFAULT 0
);

INSERT INTO requirement_tallies (requirement_id, yes, partial, no)
SELECT ar.requirement_id, count(*) FILTER (WHERE ar.result = 'yes'), count(*) FILTER (WHERE ar.result = 'partial'),
    count(*) FILTER (WHERE ar.result = 'no')
FROM assessment_requirements ar JOIN assessments a ON a.id = ar.assessment_id
WHERE a.state IN ('complete', 'archived') AND ar.result IN ('yes', 'partial', 'no')
GROUP BY ar.requirement_id;

-- requirement_tallies_add adds the answers of (requirement, result, sign) rows to the
-- tallies, in requirement order.
CREATE FUNCTION requirement_tallies_add(requirements text[], results text[], signs int[]) RETURNS void
    LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO requirement_tallies AS t (requirement_id, yes, partial, no)
    SELECT r, y, p, n
    FROM (SELECT r, coalesce(sum(s) FILTER (WHERE res = 'yes'), 0) AS y, coalesce(sum(s) FILTER (WHERE res = 'partial'), 0) AS p,
            coalesce(sum(s) FILTER (WHERE res = 'no'), 0) AS n
        FROM unnest(requirements, results, signs) AS x(r, res, s) WHERE res IN ('yes', 'partial', 'no')
        GROUP BY r) d
    WHERE y <> 0 OR p <> 0 OR n <> 0
    ORDER BY r
    ON CONFLICT (requirement_id) DO UPDATE SET yes = t.yes + excluded.yes, partial = t.partial + excluded.partial,
        no = t.no + excluded.no;
END
$$;

-- The answers of an assessment entering or leaving the finished states, or deleted while
-- finished. (Its requirement rows' own triggers then find no finished assessment: a cascade
-- deletes them after the assessment row is gone.)
CREATE FUNCTION requirement_tallies_assessment() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    was boolean := TG_OP <> 'INSERT' AND OLD.state IN ('complete', 'archived');
    is_now boolean := TG_OP <> 'DELETE' AND NEW.state IN ('complete', 'archived');
    delta int;
    target text;
BEGIN
    IF was = is_now THEN
        RETURN NULL;
    END IF;
    IF is_now THEN
        delta := 1;
        target := NEW.id;
    ELSE
        delta := -1;
        target := OLD.id;
    END IF;
    PERFORM requirement_tallies_add(array_agg(ar.requirement_id), array_agg(ar.result), array_agg(delta))
    FROM assessment_requirements ar WHERE ar.assessment_id = target AND ar.result IN ('yes', 'partial', 'no');
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER assessments_tallies_state AFTER UPDATE OF state ON assessments
    FOR EACH ROW EXECUTE FUNCTION requirement_tallies_assessment();
CREATE TRIGGER assessments_tallies_delete BEFORE DELETE ON assessments
    FOR EACH ROW WHEN (OLD.state IN ('complete', 'archived')) EXECUTE FUNCTION requirement_tallies_assessment();

-- The differences a statement on the requirement rows of finished assessments makes: each
-- inserted row's answer +1, each deleted row's -1, an updated row its new answer less its
-- old one. Rows of assessments not finished change nothing here.
CREATE FUNCTION requirement_tallies_rows() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    reqs text[];
    results text[];
    deltas int[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(n.requirement_id), array_agg(n.result), array_agg(1) INTO reqs, results, deltas
        FROM new_rows n JOIN assessments a ON a.id = n.assessment_id
        WHERE a.state IN ('complete', 'archived') AND n.result IN ('yes', 'partial', 'no');
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(o.requirement_id), array_agg(o.result), array_agg(-1) INTO reqs, results, deltas
        FROM old_rows o JOIN assessments a ON a.id = o.assessment_id
        WHERE a.state IN ('complete', 'archived') AND o.result IN ('yes', 'partial', 'no');
    ELSE
        SELECT array_agg(c.requirement_id), array_agg(c.result), array_agg(c.s) INTO reqs, results, deltas
        FROM (SELECT n.assessment_id, n.requirement_id, n.result, 1 AS s FROM new_rows n
              UNION ALL SELECT o.assessment_id, o.requirement_id, o.result, -1 FROM old_rows o) c
        JOIN assessments a ON a.id = c.assessment_id
        WHERE a.state IN ('complete', 'archived') AND c.result IN ('yes', 'partial', 'no');
    END IF;
    -- Most statements are answers to assessments in progress: nothing to add.
    IF reqs IS NOT NULL THEN
        PERFORM requirement_tallies_add(reqs, results, deltas);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER assessment_requirements_tallies_insert AFTER INSERT ON assessment_requirements
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION requirement_tallies_rows();
CREATE TRIGGER assessment_requirements_tallies_update AFTER UPDATE ON assessment_requirements
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION requirement_tallies_rows();
CREATE TRIGGER assessment_requirements_tallies_delete AFTER DELETE ON assessment_requirements
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION requirement_tallies_rows();
