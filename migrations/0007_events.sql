-- Events and deliveries: the event log, in-app notifications, webhook and chat
-- destinations, the delivery log of every outbound channel, notification rules, stored
-- SMTP settings and password-reset tokens. Secrets (webhook URL and secret, chat URL,
-- e-mail parameters, SMTP password) are sealed through the keyring; see
-- pkg/postgres/encryption_fields.go.

CREATE TABLE events (
    id              text PRIMARY KEY CHECK (id LIKE 'evt\_%'),
    type            text NOT NULL,
    occurred_at     timestamptz NOT NULL,
    actor_id        text NOT NULL,
    actor_name      text NOT NULL,
    subject_user_id text,
    summary         text NOT NULL DEFAULT '',
    link            text NOT NULL DEFAULT '',
    data            jsonb NOT NULL
);
CREATE INDEX events_occurred_idx ON events (occurred_at);

CREATE TABLE notifications (
    id         text PRIMARY KEY CHECK (id LIKE 'nt\_%'),
    user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    event_id   text REFERENCES events (id) ON DELETE SET NULL,
    type       text NOT NULL,
    title      text NOT NULL,
    message    text NOT NULL,
    link       text NOT NULL DEFAULT '',
    params     jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL,
    read_at    timestamptz
);
-- One notification per event and user, however many rules match.
CREATE UNIQUE INDEX notifications_event_user_key ON notifications (event_id, user_id);
CREATE INDEX notifications_user_idx ON notifications (user_id, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id, id DESC) WHERE read_at IS NULL;

CREATE TABLE webhooks (
    id                   text PRIMARY KEY CHECK (id LIKE 'wh\_%'),
    name                 text NOT NULL,
    description          text NOT NULL DEFAULT '',
    url                  text NOT NULL,            -- sealed
    secret               text NOT NULL,            -- sealed, whsec_…
    event_types          text[] NOT NULL,
    active               boolean NOT NULL DEFAULT true,
    consecutive_failures integer NOT NULL DEFAULT 0,
    disabled_at          timestamptz,
    version              bigint NOT NULL DEFAULT 1,
    created_by           text NOT NULL,
    created_at           timestamptz NOT NULL,
    updated_at           timestamptz NOT NULL
);

CREATE TABLE chat_destinations (
    id                   text PRIMARY KEY CHECK (id LIKE 'ch\_%'),
    platform             text NOT NULL CHECK (platform IN ('slack', 'teams', 'mattermost')),
    name                 text NOT NULL,
    channel_name         text NOT NULL DEFAULT '',
    url                  text NOT NULL,            -- sealed
    url_hint             text NOT NULL,
    event_types          text[] NOT NULL,
    active               boolean NOT NULL DEFAULT true,
    consecutive_failures integer NOT NULL DEFAULT 0,
    disabled_at          timestamptz,
    version              bigint NOT NULL DEFAULT 1,
    created_by           text NOT NULL,
    created_at           timestamptz NOT NULL,
    updated_at           timestamptz NOT NULL
);
CREATE INDEX chat_destinations_platform_idx ON chat_destinations (platform, id);

CREATE TABLE deliveries (
    id              text PRIMARY KEY CHECK (id LIKE 'dl\_%'),
    event_id        text REFERENCES events (id) ON DELETE CASCADE,
    event_type      text NOT NULL,
    channel         text NOT NULL CHECK (channel IN ('webhook', 'email', 'slack', 'teams', 'mattermost')),
    webhook_id      text REFERENCES webhooks (id) ON DELETE CASCADE,
    chat_id         text REFERENCES chat_destinations (id) ON DELETE CASCADE,
    recipient       text NOT NULL DEFAULT '',
    subject         text NOT NULL DEFAULT '',
    template        text NOT NULL DEFAULT '',
    params          text,                         -- sealed JSON of e-mail template values
    dedupe_key      text NOT NULL,                -- channel:destination or email:address
    status          text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'retrying', 'succeeded', 'failed', 'skipped')),
    attempts        integer NOT NULL DEFAULT 0,
    max_attempts    integer NOT NULL,
    last_status     integer,
    last_error      text NOT NULL DEFAULT '',
    next_attempt_at timestamptz,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    completed_at    timestamptz
);
-- One delivery per event and destination, however many subscriptions and rules match.
CREATE UNIQUE INDEX deliveries_event_dedupe_key ON deliveries (event_id, dedupe_key);
CREATE INDEX deliveries_webhook_idx ON deliveries (webhook_id, id DESC) WHERE webhook_id IS NOT NULL;
CREATE INDEX deliveries_chat_idx ON deliveries (chat_id, id DESC) WHERE chat_id IS NOT NULL;
CREATE INDEX deliveries_channel_idx ON deliveries (channel, id DESC);
CREATE INDEX deliveries_completed_idx ON deliveries (completed_at) WHERE completed_at IS NOT NULL;

CREATE TABLE delivery_attempts (
    delivery_id text NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    attempt     integer NOT NULL,
    started_at  timestamptz NOT NULL,
    duration_ms integer NOT NULL,
    outcome     text NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
    http_status integer,
    error       text NOT NULL DEFAULT '',
    response    text NOT NULL DEFAULT '',
    PRIMARY KEY (delivery_id, attempt)
);

CREATE TABLE notification_rules (
    id          text PRIMARY KEY CHECK (id LIKE 'nr\_%'),
    scope       text NOT NULL CHECK (scope IN ('global', 'personal')),
    owner_id    text REFERENCES users (id) ON DELETE CASCADE,
    name        text NOT NULL,
    event_types text[] NOT NULL,
    in_app      boolean NOT NULL DEFAULT false,
    email       boolean NOT NULL DEFAULT false,
    webhook_ids text[] NOT NULL DEFAULT '{}',
    chat_ids    text[] NOT NULL DEFAULT '{}',
    roles       text[] NOT NULL DEFAULT '{}',
    emails      text[] NOT NULL DEFAULT '{}',
    enabled     boolean NOT NULL DEFAULT true,
    version     bigint NOT NULL DEFAULT 1,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    CHECK ((scope = 'personal') = (owner_id IS NOT NULL))
);
CREATE INDEX notification_rules_scope_idx ON notification_rules (scope, owner_id, id) WHERE enabled;

-- Stored SMTP settings (one row, id 'smtp': a text key, as the secret registry needs);
-- the environment overrides each field it sets.
CREATE TABLE smtp_settings (
    id                       text PRIMARY KEY DEFAULT 'smtp' CHECK (id = 'smtp'),
    enabled                  boolean NOT NULL DEFAULT false,
    host                     text NOT NULL DEFAULT '',
    port                     integer NOT NULL DEFAULT 587,
    secure                   boolean NOT NULL DEFAULT false,
    username                 text NOT NULL DEFAULT '',
    password                 text NOT NULL DEFAULT '',  -- sealed when set
    sender                   text NOT NULL DEFAULT '',
    tls_reject_unauthorized  boolean NOT NULL DEFAULT true,
    version                  bigint NOT NULL DEFAULT 1,
    updated_at               timestamptz NOT NULL
);

CREATE TABLE password_resets (
    id          text PRIMARY KEY CHECK (id LIKE 'prt\_%'),
    user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash  bytea NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    consumed_at timestamptz
);
CREATE INDEX password_resets_user_idx ON password_resets (user_id);
