-- Identity and access: roles (a user holds a set of them), sign-in state, sessions.

CREATE TABLE roles (
    id          text PRIMARY KEY CHECK (id LIKE 'ro\_%'),
    name        text NOT NULL CHECK (name ~ '^[a-z][a-z0-9_]{1,62}$'),
    description text NOT NULL DEFAULT '',
    builtin     boolean NOT NULL DEFAULT false,
    version     bigint NOT NULL DEFAULT 1,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX roles_name_key ON roles (name);

CREATE TABLE role_permissions (
    role_id    text NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
    permission text NOT NULL,
    PRIMARY KEY (role_id, permission)
);

CREATE TABLE user_roles (
    user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role_id text NOT NULL REFERENCES roles (id) ON DELETE RESTRICT,
    PRIMARY KEY (user_id, role_id)
);
CREATE INDEX user_roles_role_idx ON user_roles (role_id);

ALTER TABLE users
    ADD COLUMN failed_logins       integer NOT NULL DEFAULT 0,
    ADD COLUMN locked_until        timestamptz,
    ADD COLUMN last_login_at       timestamptz,
    ADD COLUMN password_changed_at timestamptz;

ALTER TABLE sessions
    ADD COLUMN last_seen_at timestamptz,
    ADD COLUMN ip           text NOT NULL DEFAULT '',
    ADD COLUMN user_agent   text NOT NULL DEFAULT '';
