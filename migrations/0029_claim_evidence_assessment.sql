-- Evidence cited by a claim is visible to the participants of the claim's assessment
-- (docs/assessments.md, "Who sees what"). Testing that for a row used to join every citation
-- to its claim; at 300,000 claims that join cost a participant's search and evidence list
-- hundreds of milliseconds. A claim never moves to another assessment, so the citation keeps
-- its claim's assessment, filled in by PostgreSQL on every insert, and the rule reads one
-- index: (evidence_id, assessment_id) for a row, (assessment_id, evidence_id) for a set.
ALTER TABLE claim_evidence ADD COLUMN assessment_id text;
UPDATE claim_evidence ce SET assessment_id = c.assessment_id FROM claims c WHERE c.id = ce.claim_id;
ALTER TABLE claim_evidence ALTER COLUMN assessment_id SET NOT NULL;

CREATE FUNCTION claim_evidence_fill_assessment() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    SELECT c.assessment_id INTO NEW.assessment_id FROM claims c WHERE c.id = NEW.claim_id;
    RETURN NEW; -- a claim that does not exist leaves NULL: refused, as its foreign key is
END
$$;
CREATE TRIGGER claim_evidence_fill_assessment BEFORE INSERT OR UPDATE OF claim_id ON claim_evidence
    FOR EACH ROW EXECUTE FUNCTION claim_evidence_fill_assessment();

DROP INDEX claim_evidence_evidence_idx;
CREATE INDEX claim_evidence_evidence_idx ON claim_evidence (evidence_id, assessment_id);
CREATE INDEX claim_evidence_assessment_idx ON claim_evidence (assessment_id, evidence_id);

CREATE OR REPLACE FUNCTION evidence_visible(uid text, eid text) RETURNS boolean
    LANGUAGE sql STABLE AS $$
    SELECT user_has_permission(uid, 'evidence.view_all') OR user_has_permission(uid, 'assessments.view_all')
        OR EXISTS (SELECT 1 FROM evidence e WHERE e.id = eid AND (e.author_id = uid OR e.reviewer_id = uid))
        OR EXISTS (SELECT 1 FROM assessment_requirement_evidence l WHERE l.evidence_id = eid
                   AND assessment_participant(uid, l.assessment_id))
        OR EXISTS (SELECT 1 FROM claim_evidence ce WHERE ce.evidence_id = eid
                   AND assessment_participant(uid, ce.assessment_id))
$$;
