-- Key ledger for envelope encryption, and the audit log (the identity work builds its API
-- on it).

CREATE TABLE encryption_keys (
    version     integer PRIMARY KEY CHECK (version > 0),
    salt        bytea NOT NULL,
    wrapped_kek bytea NOT NULL,
    is_current  boolean NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text NOT NULL,
    rekeyed_at  timestamptz
);
CREATE UNIQUE INDEX encryption_keys_one_current ON encryption_keys (is_current) WHERE is_current;

CREATE TABLE audit_log (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    occurred_at timestamptz NOT NULL DEFAULT now(),
    actor       text NOT NULL,
    action      text NOT NULL,
    target_type text NOT NULL DEFAULT '',
    target_id   text NOT NULL DEFAULT '',
    details     jsonb NOT NULL DEFAULT '{}'::jsonb,
    request_id  text NOT NULL DEFAULT '',
    ip          text NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_occurred_idx ON audit_log (occurred_at DESC, id DESC);
CREATE INDEX audit_log_action_idx ON audit_log (action, occurred_at DESC);
