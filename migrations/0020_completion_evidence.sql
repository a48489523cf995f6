-- The evidence an assessment needs linked before it completes becomes a setting of each
-- assessment (issue 26 item 4; docs/assessments.md, "Complete"):
--
--   none            no evidence;
--   at_least_one    evidence linked to at least one requirement, unless every answer is
--                   not applicable: the only rule until now;
--   every_positive  evidence linked to every requirement answered yes or partial.
--
-- New assessments take every_positive. The assessments that exist keep at_least_one, the
-- rule they were created under: an assessment about to complete, or one reopened to fix
-- a result, must not start failing a rule nobody chose for it. Its team can raise the rule
-- with PATCH while the assessment is not complete, archived or cancelled.

ALTER TABLE assessments ADD COLUMN completion_evidence text NOT NULL DEFAULT 'at_least_one'
    CHECK (completion_evidence IN ('none', 'at_least_one', 'every_positive'));

ALTER TABLE assessments ALTER COLUMN completion_evidence SET DEFAULT 'every_positive';
