-- Attestations, affirmations and the platform's signing keys (docs/attestations.md).

-- The platform's signing keys: one active, the retired ones kept so that documents they
-- sealed still verify (the public JWKS lists them all). The private key is PKCS#8 PEM,
-- sealed through the keyring (pkg/secret) like every stored secret.
CREATE TABLE platform_keys (
    id          text PRIMARY KEY CHECK (id LIKE 'pk\_%'),
    algorithm   text NOT NULL CHECK (algorithm IN ('Ed25519', 'ES256', 'ES384', 'ES512')),
    key_id      text NOT NULL UNIQUE,
    public_jwk  jsonb NOT NULL,
    private_key text NOT NULL,
    active      boolean NOT NULL DEFAULT false,
    created_by  text REFERENCES users (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    retired_at  timestamptz,
    CHECK (active = (retired_at IS NULL))
);
CREATE UNIQUE INDEX platform_keys_one_active_idx ON platform_keys (active) WHERE active;

-- Organisations that attest (CycloneDX declarations.assessors).
CREATE TABLE assessors (
    id          text PRIMARY KEY CHECK (id LIKE 'ao\_%'),
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
    url         text NOT NULL DEFAULT '',
    third_party boolean NOT NULL,
    description text NOT NULL DEFAULT '',
    version     bigint NOT NULL DEFAULT 1,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX assessors_name_idx ON assessors (lower(name));

-- An attestation of a complete assessment. document holds the exact bytes of the frozen
-- statement (state signing), then of the sealed document: exports serve them unchanged.
CREATE TABLE attestations (
    id             text PRIMARY KEY CHECK (id LIKE 'at\_%'),
    assessment_id  text NOT NULL REFERENCES assessments (id) ON DELETE RESTRICT,
    summary        text NOT NULL DEFAULT '',
    statement      text NOT NULL CHECK (length(statement) BETWEEN 1 AND 10000),
    state          text NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'signing', 'sealed', 'rescinded')),
    serial_number  text,
    document       bytea,
    frozen_at      timestamptz,
    sealed_at      timestamptz,
    sealed_by      text REFERENCES users (id) ON DELETE SET NULL,
    seal_key_id    text,
    valid_until    date,
    expiring_notified_at timestamptz,
    score          numeric(5, 2) CHECK (score BETWEEN 0 AND 100),
    rescinded_at   timestamptz,
    rescinded_by   text REFERENCES users (id) ON DELETE SET NULL,
    rescind_reason text NOT NULL DEFAULT '',
    created_by     text REFERENCES users (id) ON DELETE SET NULL,
    version        bigint NOT NULL DEFAULT 1,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CHECK ((state = 'draft') = (document IS NULL))
);
CREATE INDEX attestations_assessment_idx ON attestations (assessment_id, id DESC);
CREATE INDEX attestations_created_idx ON attestations (id DESC);
CREATE UNIQUE INDEX attestations_serial_idx ON attestations (serial_number) WHERE serial_number IS NOT NULL;
CREATE INDEX attestations_valid_until_idx ON attestations (valid_until, id) WHERE state = 'sealed';

CREATE TABLE attestation_assessors (
    attestation_id text NOT NULL REFERENCES attestations (id) ON DELETE CASCADE,
    assessor_id    text NOT NULL REFERENCES assessors (id) ON DELETE RESTRICT,
    position       int NOT NULL,
    PRIMARY KEY (attestation_id, assessor_id)
);
CREATE INDEX attestation_assessors_assessor_idx ON attestation_assessors (assessor_id);

-- The claims of the assessment chosen for the attestation.
CREATE TABLE attestation_claims (
    attestation_id text NOT NULL REFERENCES attestations (id) ON DELETE CASCADE,
    claim_id       text NOT NULL REFERENCES claims (id) ON DELETE RESTRICT,
    PRIMARY KEY (attestation_id, claim_id)
);
CREATE INDEX attestation_claims_claim_idx ON attestation_claims (claim_id);

-- The assessor's own score and confidence per requirement; requirements without a row
-- take the score derived from their result.
CREATE TABLE attestation_requirements (
    attestation_id            text NOT NULL REFERENCES attestations (id) ON DELETE CASCADE,
    assessment_requirement_id text NOT NULL REFERENCES assessment_requirements (id) ON DELETE CASCADE,
    score_override            numeric(5, 4) CHECK (score_override BETWEEN 0 AND 1),
    confidence                numeric(5, 4) CHECK (confidence BETWEEN 0 AND 1),
    confidence_rationale      text NOT NULL DEFAULT '',
    PRIMARY KEY (attestation_id, assessment_requirement_id)
);

-- Signatory slots of an attestation's affirmation. The signer's identity is a snapshot
-- taken at signing; an electronic signature may carry a re-encoded PNG image, a digital
-- one is the JSF signer object accepted after verification.
CREATE TABLE attestation_signatories (
    id             text PRIMARY KEY CHECK (id LIKE 'sg\_%'),
    attestation_id text NOT NULL REFERENCES attestations (id) ON DELETE CASCADE,
    position       int NOT NULL,
    title          text NOT NULL CHECK (length(title) BETWEEN 1 AND 300),
    organization   text NOT NULL CHECK (length(organization) BETWEEN 1 AND 300),
    user_id        text REFERENCES users (id) ON DELETE SET NULL,
    kind           text CHECK (kind IN ('electronic', 'digital')),
    signed_by      text REFERENCES users (id) ON DELETE SET NULL,
    signed_at      timestamptz,
    signer_name    text NOT NULL DEFAULT '',
    signer_role    text NOT NULL DEFAULT '',
    signer_org     text NOT NULL DEFAULT '',
    image_png      bytea,
    signer         jsonb,
    key_id         text NOT NULL DEFAULT '',
    UNIQUE (attestation_id, position),
    CHECK ((kind IS NULL) = (signed_at IS NULL))
);
CREATE INDEX attestation_signatories_user_idx ON attestation_signatories (user_id) WHERE user_id IS NOT NULL;

-- Public keys users sign with (the private keys never reach the service): recorded when a
-- digital signature with the key is accepted, or added on the profile.
CREATE TABLE user_signing_keys (
    id         text PRIMARY KEY CHECK (id LIKE 'uk\_%'),
    user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    label      text NOT NULL CHECK (length(label) BETWEEN 1 AND 300),
    algorithm  text NOT NULL,
    key_id     text NOT NULL,
    public_jwk jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, key_id)
);
