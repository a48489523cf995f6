package postgres_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestNotificationsSayWhatHappenedToWhom: a notification names what happened, to which
// record and by whom, and speaks to the user the event concerns — the reviewer hears
// that evidence waits for their review, the author that it was approved, a new member
// that they were added to the team — where they all said "Evidence state changed" or
// "Assessment team changed". The e-mail to that user has the same subject; a chat post
// is headed with the words for everyone.
func TestNotificationsSayWhatHappenedToWhom(t *testing.T) {
	t.Parallel()
	k := &storeKit{newEventsFixture(t, allOn())}
	annU, beaU, ozU := k.user("ann", assess.RoleAssessor), k.user("bea", assess.RoleAssessor), k.user("otto", assess.RoleAssessor)
	ann, bea := signedIn(k.eventsFixture, annU), signedIn(k.eventsFixture, beaU)
	k.slack("ops", "evidence.*")

	type said struct{ Title, Message, Kind, You string }
	notification := func(event string, user assess.User) said {
		t.Helper()
		var s said
		require.NoError(t, k.pool.QueryRow(k.ctx, `SELECT title, message, coalesce(params->>'kind', ''), coalesce(params->>'you', '')
			FROM notifications WHERE event_id = $1 AND user_id = $2`, event, user.ID).Scan(&s.Title, &s.Message, &s.Kind, &s.You))
		return s
	}
	subjectTo := func(event, address string) string {
		t.Helper()
		var subject string
		require.NoError(t, k.pool.QueryRow(k.ctx, `SELECT subject FROM deliveries WHERE event_id = $1 AND recipient = $2`,
			event, address).Scan(&subject))
		return subject
	}

	e := k.evidence(ann, assess.NewEvidence{Name: "SBOM"})
	e, err := k.svc.Evidence.SubmitEvidence(k.ctx, e.ID, assess.EvidenceSubmit{Version: e.Version, ReviewerID: beaU.ID}, ann)
	require.NoError(t, err)
	submitted := k.lastEvent(assess.EventEvidenceStateChanged)
	require.Equal(t, said{"Evidence submitted for your review", "ann submitted “SBOM” for your review.", "submitted", "true"},
		notification(submitted, beaU))
	require.Equal(t, "Evidence submitted for your review: SBOM", subjectTo(submitted, "bea@example.com"))
	var chat string
	require.NoError(t, k.pool.QueryRow(k.ctx, `SELECT id FROM deliveries WHERE event_id = $1 AND channel = 'slack'`, submitted).Scan(&chat))
	task, err := k.svc.DeliveryStore.LoadDelivery(k.ctx, chat)
	require.NoError(t, err)
	require.Equal(t, "Evidence submitted for review", task.Title, "a shared channel is not anyone's review")

	_, err = k.svc.Evidence.ApproveEvidence(k.ctx, e.ID, assess.EvidenceReview{Version: e.Version}, bea)
	require.NoError(t, err)
	approved := k.lastEvent(assess.EventEvidenceStateChanged)
	require.Equal(t, said{"Your evidence was approved", "bea approved your evidence “SBOM”.", "approved", "true"},
		notification(approved, annU))
	require.Equal(t, "Your evidence was approved: SBOM", subjectTo(approved, "ann@example.com"))

	as := k.assessment("Shop L1", k.entity("Shop", assess.EntityActive), "", assess.AssessmentNew)
	_, err = k.svc.Assessments.ReplaceAssessmentTeam(k.ctx, as, assess.TeamUpdate{Version: 1, AssessorIDs: []string{ozU.ID}}, k.adminSignedIn())
	require.NoError(t, err)
	require.Equal(t, said{"You were added to the team of an assessment", "Ada Admin added you to the team of the assessment “Shop L1”.", "", "true"},
		notification(k.lastEvent(assess.EventAssessmentAssigned), ozU))
}
