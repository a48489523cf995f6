-- The number of words of each rationale, counted in Go (assess.RationaleWords: tokens
-- holding a letter or digit) when it is written, so that completing an assessment checks
-- the rationale minimum with the same rule as recording a result, whatever the
-- database's locale.
ALTER TABLE assessment_requirements ADD COLUMN rationale_words int NOT NULL DEFAULT 0;
