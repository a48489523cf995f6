-- Global search (issue 25 item 3; docs/assessments.md, "Search"). Each searched table gets
-- search_vector: its title (weight A) and its text (weight B) as English, German and simple
-- (unstemmed, for prefixes and identifiers) lexemes, kept by PostgreSQL and indexed with GIN.
-- Titles and identifiers also get trigram indexes (pg_trgm, a trusted extension), so that
-- V1.2.3, 8.1.2 or a part of a title match where words do not.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- search_document is the weighted vector of a title and a text in the three configurations.
-- IMMUTABLE (every configuration is named), so it can compute a stored column.
CREATE FUNCTION search_document(title text, body text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN setweight(to_tsvector('english'::regconfig, title) || to_tsvector('german'::regconfig, title)
               || to_tsvector('simple'::regconfig, title), 'A')
        || setweight(to_tsvector('english'::regconfig, body) || to_tsvector('german'::regconfig, body)
               || to_tsvector('simple'::regconfig, body), 'B');

ALTER TABLE standards ADD COLUMN search_vector tsvector
    GENERATED ALWAYS AS (search_document(identifier || ' ' || name, description || ' ' || owner)) STORED;
ALTER TABLE requirements ADD COLUMN search_vector tsvector
    GENERATED ALWAYS AS (search_document(identifier || ' ' || name, description)) STORED;
ALTER TABLE entities ADD COLUMN search_vector tsvector
    GENERATED ALWAYS AS (search_document(name, description)) STORED;
ALTER TABLE projects ADD COLUMN search_vector tsvector
    GENERATED ALWAYS AS (search_document(name, description)) STORED;
ALTER TABLE assessments ADD COLUMN search_vector tsvector
    GENERATED ALWAYS AS (search_document(title, description)) STORED;
ALTER TABLE evidence ADD COLUMN search_vector tsvector
    GENERATED ALWAYS AS (search_document(name, description || ' ' || classification)) STORED;
ALTER TABLE claims ADD COLUMN search_vector tsvector
    GENERATED ALWAYS AS (search_document(name, target || ' ' || predicate || ' ' || reasoning)) STORED;

CREATE INDEX standards_search_idx ON standards USING gin (search_vector);
CREATE INDEX requirements_search_idx ON requirements USING gin (search_vector);
CREATE INDEX entities_search_idx ON entities USING gin (search_vector);
CREATE INDEX projects_search_idx ON projects USING gin (search_vector);
CREATE INDEX assessments_search_idx ON assessments USING gin (search_vector);
CREATE INDEX evidence_search_idx ON evidence USING gin (search_vector);
CREATE INDEX claims_search_idx ON claims USING gin (search_vector);

CREATE INDEX standards_name_trgm_idx ON standards USING gin (name gin_trgm_ops, identifier gin_trgm_ops);
CREATE INDEX requirements_identifier_trgm_idx ON requirements USING gin (identifier gin_trgm_ops, name gin_trgm_ops);
CREATE INDEX entities_name_trgm_idx ON entities USING gin (name gin_trgm_ops);
CREATE INDEX projects_name_trgm_idx ON projects USING gin (name gin_trgm_ops);
CREATE INDEX assessments_title_trgm_idx ON assessments USING gin (title gin_trgm_ops);
CREATE INDEX evidence_name_trgm_idx ON evidence USING gin (name gin_trgm_ops);
CREATE INDEX claims_name_trgm_idx ON claims USING gin (name gin_trgm_ops);
-- An exact title always reaches the ranking (lower(title) = the query), as the other
-- tables' lower(name) indexes let it.
CREATE INDEX claims_name_lower_idx ON claims (lower(name));
CREATE INDEX requirements_identifier_lower_idx ON requirements (lower(identifier));
