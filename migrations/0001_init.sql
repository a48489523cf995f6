-- Foundation schema: runtime configuration, the users table the setup gate counts,
-- sessions (completed by the identity work) and a record of periodic maintenance runs.

CREATE TABLE app_config (
    key        text PRIMARY KEY,
    value      text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
    id            text PRIMARY KEY CHECK (id LIKE 'u\_%'),
    username      text NOT NULL CHECK (length(username) BETWEEN 1 AND 128),
    email         text NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
    display_name  text NOT NULL DEFAULT '',
    password_hash text,
    active        boolean NOT NULL DEFAULT true,
    version       bigint NOT NULL DEFAULT 1,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE sessions (
    id         text PRIMARY KEY,
    user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz
);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE maintenance_runs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job         text NOT NULL,
    started_at  timestamptz NOT NULL,
    finished_at timestamptz NOT NULL,
    affected    bigint NOT NULL DEFAULT 0,
    worker      text NOT NULL DEFAULT ''
);
CREATE INDEX maintenance_runs_job_started_idx ON maintenance_runs (job, started_at DESC);
