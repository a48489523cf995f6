package work

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// The activity timeline of an assessment is its audit rows: every change under an
// assessment records the assessment's id as its scope (Target.Scope), and the timeline
// lists those rows newest first on the index audit_log (scope_id, id DESC).

// timelineSelect reads audit rows with the actor as people know them (a user's username
// and display name, or a label for the service and the command line) and the record
// changed by name, with its page, in the same query (postgres.AuditTargetNameSQL).
const timelineSelect = `SELECT a.id, a.occurred_at, a.actor, coalesce(au.username, ''),
	CASE
		WHEN a.actor = 'system' THEN 'System'
		WHEN starts_with(a.actor, 'cli:') THEN 'Command line'
		ELSE coalesce(nullif(au.display_name, ''), au.username, a.actor)
	END,
	a.action, a.target_type, a.target_id,
	coalesce(` + postgres.AuditTargetNameSQL + `, ''), coalesce(` + postgres.AuditTargetLinkSQL + `, ''), a.details
FROM audit_log a LEFT JOIN users au ON au.id = a.actor`

func scanTimelineEntry(row pgx.Row) (assess.TimelineEntry, error) {
	var e assess.TimelineEntry
	err := row.Scan(timelineDest(&e)...)
	tidyTimelineEntry(&e)
	return e, err
}

// timelineDest is where the columns of timelineSelect are scanned into.
func timelineDest(e *assess.TimelineEntry) []any {
	return []any{&e.ID, &e.OccurredAt, &e.Actor.ID, &e.Actor.Username, &e.Actor.DisplayName, &e.Action,
		&e.TargetType, &e.TargetID, &e.TargetName, &e.TargetLink, &e.Details}
}

func tidyTimelineEntry(e *assess.TimelineEntry) {
	e.OccurredAt = e.OccurredAt.UTC()
	if e.Details == nil {
		e.Details = map[string]any{}
	}
}

// FindTimeline implements assess.WorkNoteService: the changes recorded under the
// assessment, newest first, keyset paginated on the audit row's id.
func (s *WorkNoteService) FindTimeline(ctx context.Context, assessmentID string, f assess.TimelineFilter, actor assess.Actor) (assess.Page[assess.TimelineEntry], error) {
	if _, err := postgres.VisibleAssessmentState(ctx, s.db.Pool, actor, assessmentID, false); err != nil {
		return assess.Page[assess.TimelineEntry]{}, postgres.DBError(err)
	}
	l := postgres.NewList("timeline", timelineSelect, postgres.AuditNewestFirst)
	// scope_id <> '' lets the planner use the partial index whatever the parameter.
	l.Where("a.scope_id = " + l.Arg(assessmentID) + " AND a.scope_id <> ''")
	// On its generic plan: PostgreSQL kept planning the page anew for every assessment
	// (make bench's timeline-busy: 3,001 plans in 2,993 calls, 3.5 ms of planning against
	// 3.1 ms of execution a call under load), each time to the plan the generic one is —
	// the scope index newest first, each row's names by primary key (EXPLAIN EXECUTE on the
	// million-row data: planning 1.4 → 0.02 ms, execution 0.3 ms alike).
	l.GenericPlan()
	return postgres.CollectPage(ctx, s.db.Pool, l, f.PageRequest, scanTimelineEntry, func(e assess.TimelineEntry) []any { return []any{e.ID} })
}
