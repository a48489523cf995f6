-- Indexes for list filters and sorts that read the whole table at make bench's
-- million-row data (docs/performance.md, "Every filter and sort of the lists").
--
-- The evidence list sorted by valid-until (undated last) and its "expiring within" filter:
-- the sort key is coalesce(valid_until, 'infinity'), which evidence_valid_until_idx (valid
-- until alone, dated rows only) cannot order. Sorted, every page read and sorted all
-- 105,008 pieces of evidence: 223 ms for the administrator, 298 for a participant.
CREATE INDEX evidence_valid_until_sort_idx ON evidence ((coalesce(valid_until, 'infinity'::date)), id);
-- Counter-evidence is rare: the filter read every row to find none (20–24 ms).
CREATE INDEX evidence_counter_idx ON evidence (id DESC) WHERE is_counter_evidence;
-- The entity list filtered by owner (and a user's deletion, which clears the owner).
CREATE INDEX entities_owner_idx ON entities (owner_id, lower(name), id) WHERE owner_id IS NOT NULL;
-- The audit log filtered by who acted, by target or by target type, newest first: a rare
-- actor or type was found by walking the whole log backwards (130–190 ms at a million rows).
CREATE INDEX audit_log_actor_idx ON audit_log (actor, id DESC);
CREATE INDEX audit_log_target_idx ON audit_log (target_id, id DESC);
CREATE INDEX audit_log_type_idx ON audit_log (target_type, id DESC);
-- A list's search matches the name or the description (List.Search, ILIKE '%q%'); the names
-- have trigram indexes (0027), the descriptions had none, so a search matching few rows
-- read the whole table (entities 92–116 ms, evidence 49–53 ms at a million rows).
CREATE INDEX entities_description_trgm_idx ON entities USING gin (description gin_trgm_ops);
CREATE INDEX evidence_description_trgm_idx ON evidence USING gin (description gin_trgm_ops);
CREATE INDEX assessments_description_trgm_idx ON assessments USING gin (description gin_trgm_ops);
