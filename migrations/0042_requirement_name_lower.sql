-- A search reaches a requirement named exactly as the query (lower(name) = the query) by
-- this index, as it reaches one by its identifier (requirements_identifier_lower_idx,
-- migration 0027). Without it, the exact-title branch of every search read every
-- requirement of every standard: 102,685 rows, 16–36 ms of each search on make bench's
-- million-row data.
CREATE INDEX requirements_name_lower_idx ON requirements (lower(name));
