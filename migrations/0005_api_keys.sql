-- API keys: the secret is never stored; its SHA-256 is, sealed through the keyring.

CREATE TABLE api_keys (
    id           text PRIMARY KEY CHECK (id LIKE 'ak\_%'),
    user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    secret_hash  text NOT NULL,
    created_by   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz,
    last_used_at timestamptz,
    revoked_at   timestamptz
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id, id);
