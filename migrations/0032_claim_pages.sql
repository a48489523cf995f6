-- The claims citing a piece of evidence, page by page (issue 27 item 2; docs/assessments.md,
-- "Claims"): GET /evidence/{id}/claims is keyset-paginated on (claim_id, kind) within the
-- evidence, which this index serves; the (evidence_id, assessment_id) index of 0029 would
-- sort every citation of the evidence for each page. The claims of an assessment page on
-- claims_assessment_idx (assessment_id, id) of 0011.
CREATE INDEX IF NOT EXISTS claim_evidence_evidence_claim_idx ON claim_evidence (evidence_id, claim_id, kind);
