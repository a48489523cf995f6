-- Shared state of the per-credential rate limits and of Idempotency-Key outcomes, so every
-- replica sees the same budgets and the same stored responses.

-- UNLOGGED: the counters are written on every API request and are worthless after a few
-- minutes; skipping the WAL makes the writes cheap. A database crash empties the table,
-- which only restores everybody's budget early.
CREATE UNLOGGED TABLE rate_limit_counters (
    key          text NOT NULL,
    window_start timestamptz NOT NULL,
    count        integer NOT NULL DEFAULT 1,
    PRIMARY KEY (key, window_start)
);
-- The purge deletes by age across all keys.
CREATE INDEX rate_limit_counters_window_idx ON rate_limit_counters (window_start);

-- One row per (caller, endpoint, key): in progress while status is NULL, completed once
-- the response is stored. Kept 24 hours.
CREATE TABLE idempotency_keys (
    scope        text NOT NULL,
    endpoint     text NOT NULL,
    key          text NOT NULL,
    request_hash bytea NOT NULL,
    status       integer,
    headers      jsonb,
    body         bytea,
    created_at   timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz,
    PRIMARY KEY (scope, endpoint, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
