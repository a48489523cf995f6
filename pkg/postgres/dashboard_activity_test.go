package postgres_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestDashboardRecentActivityIsWhatTheCallerMaySee (issue 25 item 1): the dashboard's recent
// activity is the newest changes recorded under assessments — each with its assessment and
// the change as the timeline words it — at most ten, newest first; a participant gets only
// those of their assessments, an outsider none of another team's, and changes outside any
// assessment (a user's profile) never appear.
func TestDashboardRecentActivityIsWhatTheCallerMaySee(t *testing.T) {
	t.Parallel()
	w := newSearchWorld(t)
	var ours, theirs []int64
	for i := range 12 {
		scope := w.ours
		if i%3 == 2 {
			scope = w.theirs
		}
		var id int64
		require.NoError(t, w.pool.QueryRow(w.ctx, `INSERT INTO audit_log (actor, action, target_type, target_id, scope_id)
			VALUES ($1, 'assessment.updated', 'assessment', $2, $2) RETURNING id`, w.member.ID, scope).Scan(&id))
		if scope == w.ours {
			ours = append([]int64{id}, ours...)
		} else {
			theirs = append([]int64{id}, theirs...)
		}
	}
	w.exec(`INSERT INTO audit_log (actor, action, target_type, target_id) VALUES ($1, 'user.updated', 'user', $1)`, w.member.ID)

	activity := func(actor assess.Actor) ([]int64, []string) {
		d, err := w.svc.Dashboard.Dashboard(w.ctx, actor)
		require.NoError(t, err)
		var ids []int64
		var titles []string
		for _, a := range d.RecentActivity {
			ids = append(ids, a.Entry.ID)
			titles = append(titles, a.AssessmentTitle)
			require.Equal(t, a.AssessmentID, a.Entry.TargetID)
			require.Equal(t, "assessment.updated", a.Entry.Action)
			require.Equal(t, w.member.ID, a.Entry.Actor.ID)
		}
		return ids, titles
	}
	got, titles := activity(w.member)
	require.Equal(t, ours, got, "the member: every change of our assessment, newest first")
	require.Equal(t, "Quarterly access review", titles[0])
	got, _ = activity(w.outsider)
	require.Equal(t, theirs, got, "the outsider: only their team's")
	got, _ = activity(w.admin)
	require.Len(t, got, assess.DashboardRecentActivity, "at most ten")
	require.Equal(t, max(ours[0], theirs[0]), got[0], "newest first, every team's")
	require.IsIncreasing(t, []int64{got[9], got[5], got[0]})
}
