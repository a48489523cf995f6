-- CycloneDX attestation documents imported from elsewhere (issue 24 item 1; docs/attestations.md,
-- "Importing attestations"). One row per document, whatever it created: the original bytes
-- (exported unchanged), where it came from, and the report of the import (what was created,
-- linked and repaired, and the verdict on its signatures). The records an import creates
-- name it (import_id) and are read-only.

CREATE TABLE attestation_imports (
    id            text PRIMARY KEY CHECK (id LIKE 'ai\_%'),
    -- The document's identity: its serial number and version when it has a serial number,
    -- else its SHA-256. The same document is imported once.
    import_key    text NOT NULL UNIQUE,
    serial_number text NOT NULL DEFAULT '',
    doc_version   int NOT NULL DEFAULT 1,
    sha256        text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    spec_version  text NOT NULL,
    source        text NOT NULL CHECK (length(source) BETWEEN 1 AND 2048),
    filename      text NOT NULL DEFAULT '',
    document      bytea NOT NULL,
    signatures    text NOT NULL CHECK (signatures IN ('valid', 'untrusted', 'invalid', 'absent')),
    report        jsonb NOT NULL,
    imported_by   text REFERENCES users (id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX attestation_imports_created_idx ON attestation_imports (id DESC);

ALTER TABLE assessments ADD COLUMN import_id text REFERENCES attestation_imports (id) ON DELETE RESTRICT;
ALTER TABLE evidence ADD COLUMN import_id text REFERENCES attestation_imports (id) ON DELETE RESTRICT;
-- The files an imported evidence descriptor names (name, URL, media type, SHA-256); they are
-- not fetched.
ALTER TABLE evidence ADD COLUMN external_files jsonb NOT NULL DEFAULT '[]'::jsonb;
ALTER TABLE claims ADD COLUMN import_id text REFERENCES attestation_imports (id) ON DELETE RESTRICT;
ALTER TABLE attestations ADD COLUMN import_id text REFERENCES attestation_imports (id) ON DELETE RESTRICT;
CREATE INDEX assessments_import_idx ON assessments (import_id) WHERE import_id IS NOT NULL;
CREATE INDEX evidence_import_idx ON evidence (import_id) WHERE import_id IS NOT NULL;
CREATE INDEX claims_import_idx ON claims (import_id) WHERE import_id IS NOT NULL;
CREATE INDEX attestations_import_idx ON attestations (import_id) WHERE import_id IS NOT NULL;

-- An imported attestation has its own state: it was neither frozen, signed nor sealed here.
-- Its statement may be empty (a document without an affirmation).
ALTER TABLE attestations DROP CONSTRAINT attestations_state_check;
ALTER TABLE attestations ADD CONSTRAINT attestations_state_check
    CHECK (state IN ('draft', 'signing', 'sealed', 'rescinded', 'imported'));
ALTER TABLE attestations DROP CONSTRAINT attestations_statement_check;
ALTER TABLE attestations ADD CONSTRAINT attestations_statement_check
    CHECK (length(statement) <= 10000 AND (length(statement) >= 1 OR state = 'imported'));
ALTER TABLE attestations ADD CONSTRAINT attestations_imported_check
    CHECK ((state = 'imported') = (import_id IS NOT NULL));
