-- The domain gauges (issue 25 item 5; docs/deployment.md, "Metrics"): counts of assessments,
-- evidence and attestations by state, of users and of pending deliveries, computed every
-- METRICS_DOMAIN_REFRESH_INTERVAL by one leader-elected job and kept here, so that every
-- process (API replicas, workers) exports the same figures and a scrape costs one row read.
CREATE TABLE domain_metrics (
    id           int PRIMARY KEY CHECK (id = 1),
    snapshot     jsonb NOT NULL,
    refreshed_at timestamptz NOT NULL
);
