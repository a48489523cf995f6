-- Invites: only the SHA-256 of the token is stored; the status is derived.

CREATE TABLE invites (
    id          text PRIMARY KEY CHECK (id LIKE 'inv\_%'),
    email       text,
    role_id     text NOT NULL REFERENCES roles (id) ON DELETE RESTRICT,
    token_hash  bytea NOT NULL,
    created_by  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    consumed_at timestamptz,
    consumed_by text,
    revoked_at  timestamptz
);
CREATE UNIQUE INDEX invites_token_hash_key ON invites (token_hash);
CREATE INDEX invites_created_idx ON invites (id DESC);
