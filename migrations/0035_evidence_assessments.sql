-- The assessments each piece of evidence is linked to or cited in, kept as a table (issue 27
-- item 2; docs/performance.md, "Lists at the domain's scale"). Whether a participant may see a
-- piece of evidence depends on those assessments (docs/assessments.md, "Who sees what"); an
-- evidence page of a participant of a thousand assessments tests each candidate row against
-- them, and a row cited by ten claims of one assessment had ten citations to look at, then
-- the links, before one probe of assessment_participants (14 ms a page at a million claims).
-- Here each row's assessments are one short index range.
--
--   ties  links and citations of the evidence in the assessment; a row exists while ties > 0.
--
-- Kept by statement triggers on assessment_requirement_evidence and claim_evidence (whose
-- assessment_id the trigger of migration 0029 fills before the row is written), in the
-- transaction of every write and whatever path writes. No foreign keys: the triggers remove
-- what they add (a deleted assessment or piece of evidence deletes its links and citations
-- by cascade, and those deletes reach here).

LOCK TABLE assessment_requirement_evidence, claim_evidence IN EXCLUSIVE MODE;

CREATE TABLE evidence_assessments (
    evidence_id   text NOT NULL,
    assessment_id text NOT NULL,
    ties          int NOT NULL,
    PRIMARY KEY (evidence_id, assessment_id)
);

INSERT INTO evidence_assessments (evidence_id, assessment_id, ties)
SELECT evidence_id, assessment_id, count(*) FROM (
    SELECT evidence_id, assessment_id FROM assessment_requirement_evidence
    UNION ALL SELECT evidence_id, assessment_id FROM claim_evidence) t
GROUP BY evidence_id, assessment_id;

-- evidence_assessments_change adds the deltas to the (evidence, assessment) pairs in key
-- order and removes the pairs left without a link or citation.
CREATE FUNCTION evidence_assessments_change(evidence text[], assessments text[], deltas int[]) RETURNS void
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
    DELETE FROM evidence_assessments p USING unnest(ke, ka) AS x(e, a)
    WHERE p.evidence_id = x.e AND p.assessment_id = x.a AND p.ties <= 0;
END
$$;

CREATE FUNCTION evidence_assessments_count() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    e text[];
    a text[];
    d int[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(evidence_id), array_agg(assessment_id), array_agg(1) INTO e, a, d FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(evidence_id), array_agg(assessment_id), array_agg(-1) INTO e, a, d FROM old_rows;
    ELSE
        SELECT array_agg(evidence_id), array_agg(assessment_id), array_agg(s) INTO e, a, d
        FROM (SELECT evidence_id, assessment_id, 1 AS s FROM new_rows UNION ALL SELECT evidence_id, assessment_id, -1 FROM old_rows) c;
    END IF;
    PERFORM evidence_assessments_change(e, a, d);
    RETURN NULL;
END
$$;

-- Named to fire after the link triggers of migrations 0030 and 0033 (name order): requirement
-- rows, progress and participant rows first, as every other writer locks them.
CREATE TRIGGER assessment_requirement_evidence_subjects_insert AFTER INSERT ON assessment_requirement_evidence
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evidence_assessments_count();
CREATE TRIGGER assessment_requirement_evidence_subjects_update AFTER UPDATE ON assessment_requirement_evidence
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evidence_assessments_count();
CREATE TRIGGER assessment_requirement_evidence_subjects_delete AFTER DELETE ON assessment_requirement_evidence
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evidence_assessments_count();
CREATE TRIGGER claim_evidence_assessments_insert AFTER INSERT ON claim_evidence
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evidence_assessments_count();
CREATE TRIGGER claim_evidence_assessments_update AFTER UPDATE ON claim_evidence
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evidence_assessments_count();
CREATE TRIGGER claim_evidence_assessments_delete AFTER DELETE ON claim_evidence
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evidence_assessments_count();
