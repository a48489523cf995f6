-- Indexes that repeated their table's primary key (issue 11, docs/performance.md).
--
-- Each of these was a B-tree on (id DESC), the newest-first order of its list. The primary
-- key's own B-tree on id serves that order as well (PostgreSQL scans it backward, keyset
-- conditions included), so the second index only cost an insert per created row, and
-- memory.
DROP INDEX IF EXISTS invites_created_idx;
DROP INDEX IF EXISTS standards_created_idx;
DROP INDEX IF EXISTS entities_created_idx;
DROP INDEX IF EXISTS projects_created_idx;
DROP INDEX IF EXISTS assessments_created_idx;
DROP INDEX IF EXISTS evidence_created_idx;
