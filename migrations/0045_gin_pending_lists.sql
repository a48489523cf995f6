-- Searches that do not slow down after writes (issue 27; docs/performance.md, "GIN pending
-- lists").
--
-- A GIN index (the search vectors of migration 0027, the trigram indexes of 0027 and 0043)
-- takes new rows into a pending list, which it merges into the index proper when the list
-- passes gin_pending_list_limit (4 MB by default) or at the table's next vacuum. Every
-- search through the index reads the whole pending list first: 3,000 new pieces of evidence
-- made a search of the evidence list for a word found nowhere 1.8–3.0 ms instead of 0.1, and
-- the global search reads the lists of fourteen such indexes. Autovacuum comes after 20 % of
-- a table's rows are new (20,000 pieces of evidence at make bench's million rows), so the
-- lists stay long. A limit of 256 kB keeps a search to 0.3–0.6 ms in the same test, for about
-- 9 µs more per row written (3,000 inserts: 199 → 226 ms; fastupdate off: 525 ms), and makes
-- the write that merges a list merge a sixteenth as much.
--
-- Every GIN index of ours carries the setting (TestGINIndexesKeepShortPendingLists); River's
-- own are left as River makes them.

ALTER INDEX assessments_description_trgm_idx SET (gin_pending_list_limit = 256);
ALTER INDEX assessments_search_idx SET (gin_pending_list_limit = 256);
ALTER INDEX assessments_title_trgm_idx SET (gin_pending_list_limit = 256);
ALTER INDEX claims_name_trgm_idx SET (gin_pending_list_limit = 256);
ALTER INDEX claims_search_idx SET (gin_pending_list_limit = 256);
ALTER INDEX entities_description_trgm_idx SET (gin_pending_list_limit = 256);
ALTER INDEX entities_name_trgm_idx SET (gin_pending_list_limit = 256);
ALTER INDEX entities_search_idx SET (gin_pending_list_limit = 256);
ALTER INDEX evidence_description_trgm_idx SET (gin_pending_list_limit = 256);
ALTER INDEX evidence_name_trgm_idx SET (gin_pending_list_limit = 256);
ALTER INDEX evidence_search_idx SET (gin_pending_list_limit = 256);
ALTER INDEX projects_name_trgm_idx SET (gin_pending_list_limit = 256);
ALTER INDEX projects_search_idx SET (gin_pending_list_limit = 256);
ALTER INDEX requirements_identifier_trgm_idx SET (gin_pending_list_limit = 256);
ALTER INDEX requirements_search_idx SET (gin_pending_list_limit = 256);
ALTER INDEX standards_name_trgm_idx SET (gin_pending_list_limit = 256);
ALTER INDEX standards_search_idx SET (gin_pending_list_limit = 256);
