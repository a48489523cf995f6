-- Each user's dashboard layout (issue 25 item 1; docs/assessments.md, "Dashboard layout"): the
-- tiles {widget, x, y, w, h} of their dashboard as one JSON array, validated by the service
-- (assess.DashboardLayoutInput) before it is kept. A user without a row gets the default of
-- their role, which lives in the code (assess.DefaultDashboardLayout), so a better default
-- reaches everyone who has not arranged their own.
CREATE TABLE dashboard_layouts (
    user_id    text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    widgets    jsonb NOT NULL CHECK (jsonb_typeof(widgets) = 'array' AND jsonb_array_length(widgets) <= 32),
    updated_at timestamptz NOT NULL
);
