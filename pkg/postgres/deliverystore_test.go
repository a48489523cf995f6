package postgres_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// deliveryTo causes an event (a new user) and returns its delivery to the webhook.
func (f *eventsFixture) deliveryTo(webhookID, username string) string {
	f.t.Helper()
	f.user(username)
	var id string
	require.NoError(f.t, f.pool.QueryRow(f.ctx, "SELECT id FROM deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT 1", webhookID).Scan(&id))
	return id
}

func failed(final bool) assess.DeliveryOutcome {
	return assess.DeliveryOutcome{StartedAt: time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC), Duration: 153 * time.Millisecond,
		HTTPStatus: 500, Error: "HTTP 500", Response: strings.Repeat("é", 600), Final: final,
		NextAttemptAt: time.Date(2026, 4, 1, 9, 0, 30, 0, time.UTC)}
}

var succeeded = assess.DeliveryOutcome{StartedAt: time.Date(2026, 4, 1, 9, 1, 0, 0, time.UTC), Duration: time.Second, Succeeded: true, HTTPStatus: 204}

// TestRecordDeliveryAttempts: attempts are numbered, a failure schedules a retry, a
// success is final; the log keeps the first KiB of the response; the delivery carries
// the envelope the webhook receives.
func TestRecordDeliveryAttempts(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	w := f.webhook("users", "user.*")
	id := f.deliveryTo(w.ID, "bob")
	task, err := f.svc.DeliveryStore.LoadDelivery(f.ctx, id)
	require.NoError(t, err)
	require.Empty(t, task.Skip)
	require.Equal(t, "bob", task.Summary)
	require.Equal(t, "User created", task.Title)
	require.Equal(t, "Ada Admin", task.ActorName)
	var env assess.Event
	require.NoError(t, json.Unmarshal(task.Envelope, &env))
	require.Equal(t, string(assess.EventUserCreated), env.Type)
	require.Equal(t, task.Delivery.EventID, env.ID)
	require.Equal(t, assess.EventActor{ID: f.admin.ID, DisplayName: "Ada Admin"}, env.Actor)

	require.NoError(t, f.svc.DeliveryStore.RecordDeliveryAttempt(f.ctx, id, failed(false)))
	d, err := f.svc.Deliveries.FindDelivery(f.ctx, assess.DeliveryKindWebhook, w.ID, id)
	require.NoError(t, err)
	require.Equal(t, assess.DeliveryRetrying, d.Status)
	require.Equal(t, 1, d.Attempts)
	require.Equal(t, 500, d.LastStatus)
	require.NotNil(t, d.NextAttemptAt)
	require.LessOrEqual(t, len(d.AttemptLog[0].Response), 1024)
	require.Equal(t, "153ms", d.AttemptLog[0].Duration)

	require.NoError(t, f.svc.DeliveryStore.RecordDeliveryAttempt(f.ctx, id, succeeded))
	d, err = f.svc.Deliveries.FindDelivery(f.ctx, assess.DeliveryKindWebhook, w.ID, id)
	require.NoError(t, err)
	require.Equal(t, assess.DeliverySucceeded, d.Status)
	require.Equal(t, 2, d.Attempts)
	require.Nil(t, d.NextAttemptAt)
	require.NotNil(t, d.CompletedAt)
	require.Equal(t, []int{1, 2}, []int{d.AttemptLog[0].Attempt, d.AttemptLog[1].Attempt})
	payload, err := json.Marshal(d.Payload)
	require.NoError(t, err)
	require.JSONEq(t, string(task.Envelope), string(payload))

	task, err = f.svc.DeliveryStore.LoadDelivery(f.ctx, id)
	require.NoError(t, err)
	require.Contains(t, task.Skip, "already succeeded")
	require.NoError(t, f.svc.DeliveryStore.SkipDelivery(f.ctx, id, "late"))
	d, err = f.svc.Deliveries.FindDelivery(f.ctx, assess.DeliveryKindWebhook, "", id)
	require.NoError(t, err)
	require.Equal(t, assess.DeliverySucceeded, d.Status, "a final delivery is not skipped")
	_, err = f.svc.Deliveries.FindDelivery(f.ctx, assess.DeliveryKindChat, "", id)
	requireCode(t, err, assess.ECodeNotFound, "")
}

// TestAutoDisableAfterConsecutiveFailures: a success resets the count; the third final
// failure in a row switches the webhook off, as the system, with channel.webhook.disabled
// in the same transaction; re-enabling clears the count.
func TestAutoDisableAfterConsecutiveFailures(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn()) // DisableAfterFailures: 3
	carol := f.user("carol", assess.RoleAdmin)
	w := f.webhook("flaky", "user.*")

	for i, name := range []string{"user1", "user2"} {
		require.NoError(t, f.svc.DeliveryStore.RecordDeliveryAttempt(f.ctx, f.deliveryTo(w.ID, name), failed(true)))
		got, err := f.svc.Webhooks.FindWebhook(f.ctx, w.ID)
		require.NoError(t, err)
		require.Equal(t, i+1, got.ConsecutiveFailures)
	}
	require.NoError(t, f.svc.DeliveryStore.RecordDeliveryAttempt(f.ctx, f.deliveryTo(w.ID, "user3"), succeeded))
	got, err := f.svc.Webhooks.FindWebhook(f.ctx, w.ID)
	require.NoError(t, err)
	require.Zero(t, got.ConsecutiveFailures, "a success resets the count")

	for _, name := range []string{"user4", "user5"} {
		require.NoError(t, f.svc.DeliveryStore.RecordDeliveryAttempt(f.ctx, f.deliveryTo(w.ID, name), failed(true)))
	}
	require.Zero(t, f.count("SELECT count(*) FROM events WHERE type = $1", assess.EventWebhookDisabled))
	require.NoError(t, f.svc.DeliveryStore.RecordDeliveryAttempt(f.ctx, f.deliveryTo(w.ID, "user6"), failed(true)))
	got, err = f.svc.Webhooks.FindWebhook(f.ctx, w.ID)
	require.NoError(t, err)
	require.False(t, got.Active)
	require.NotNil(t, got.DisabledAt)
	require.Equal(t, 3, got.ConsecutiveFailures)

	ev := f.lastEvent(assess.EventWebhookDisabled)
	var actor string
	require.NoError(t, f.pool.QueryRow(f.ctx, "SELECT actor_id FROM events WHERE id = $1", ev).Scan(&actor))
	require.Equal(t, "system", actor)
	require.Equal(t, []string{"admin", "carol"}, f.notified(ev), "the system is the actor: every holder is told")
	require.Equal(t, []string{"email:admin@example.com", "email:carol@example.com"}, f.deliveryKeys(ev), "e-mailed by default")
	require.Equal(t, 1, auditCount(t, f.pool, "webhook.disabled"))

	got, err = f.svc.Webhooks.UpdateWebhook(f.ctx, w.ID, assess.WebhookUpdate{Version: got.Version, Active: ptr(true)}, assess.Actor{ID: carol.ID})
	require.NoError(t, err)
	require.True(t, got.Active)
	require.Zero(t, got.ConsecutiveFailures)
	require.Nil(t, got.DisabledAt)
}

// TestRedeliver: only a finished delivery is queued again, under its id, with a fresh
// attempt budget and a new job.
func TestRedeliver(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	w := f.webhook("users", "user.*")
	id := f.deliveryTo(w.ID, "bob")
	_, err := f.svc.Deliveries.Redeliver(f.ctx, assess.DeliveryKindWebhook, w.ID, id, f.actor())
	requireCode(t, err, assess.ECodeConflict, "pending")
	require.NoError(t, f.svc.DeliveryStore.RecordDeliveryAttempt(f.ctx, id, failed(true)))
	jobs := f.count("SELECT count(*) FROM river_job WHERE args->>'deliveryId' = $1", id)

	d, err := f.svc.Deliveries.Redeliver(f.ctx, assess.DeliveryKindWebhook, w.ID, id, f.actor())
	require.NoError(t, err)
	require.Equal(t, id, d.ID)
	require.Equal(t, assess.DeliveryPending, d.Status)
	require.Equal(t, 1, d.Attempts)
	require.Equal(t, 7, d.MaxAttempts)
	require.Nil(t, d.CompletedAt)
	require.Equal(t, jobs+1, f.count("SELECT count(*) FROM river_job WHERE args->>'deliveryId' = $1 AND kind = 'delivery.webhook'", id))
	_, err = f.svc.Deliveries.Redeliver(f.ctx, assess.DeliveryKindWebhook, w.ID, id, f.actor())
	requireCode(t, err, assess.ECodeConflict, "")
	require.Equal(t, 1, auditCount(t, f.pool, "delivery.redelivered"))

	require.NoError(t, f.svc.DeliveryStore.RecordDeliveryAttempt(f.ctx, id, succeeded))
	d, err = f.svc.Deliveries.FindDelivery(f.ctx, assess.DeliveryKindWebhook, w.ID, id)
	require.NoError(t, err)
	require.Equal(t, 2, d.AttemptLog[1].Attempt, "numbering continues")
}

// TestFindDeliveriesAndPurge: the log pages newest first and filters by status; the
// purge removes final deliveries older than the retention and events nothing needs.
func TestFindDeliveriesAndPurge(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	w := f.webhook("users", "user.*")
	var ids []string
	for _, name := range []string{"user1", "user2", "user3"} {
		ids = append(ids, f.deliveryTo(w.ID, name))
	}
	require.NoError(t, f.svc.DeliveryStore.RecordDeliveryAttempt(f.ctx, ids[0], succeeded))
	require.NoError(t, f.svc.DeliveryStore.SkipDelivery(f.ctx, ids[1], "The webhook is inactive."))

	page, err := f.svc.Deliveries.FindDeliveries(f.ctx, assess.DeliveryFilter{Kind: assess.DeliveryKindWebhook, DestinationID: w.ID,
		PageRequest: assess.PageRequest{Limit: 2}})
	require.NoError(t, err)
	require.Equal(t, []string{ids[2], ids[1]}, []string{page.Items[0].ID, page.Items[1].ID})
	page, err = f.svc.Deliveries.FindDeliveries(f.ctx, assess.DeliveryFilter{Kind: assess.DeliveryKindWebhook, DestinationID: w.ID,
		PageRequest: assess.PageRequest{Cursor: page.NextCursor, Limit: 2}})
	require.NoError(t, err)
	require.Equal(t, ids[0], page.Items[0].ID)
	require.Empty(t, page.NextCursor)
	page, err = f.svc.Deliveries.FindDeliveries(f.ctx, assess.DeliveryFilter{Kind: assess.DeliveryKindWebhook, Status: assess.DeliverySkipped})
	require.NoError(t, err)
	require.Len(t, page.Items, 1)
	require.Equal(t, "The webhook is inactive.", page.Items[0].LastError)
	_, err = f.svc.Deliveries.FindDeliveries(f.ctx, assess.DeliveryFilter{Kind: assess.DeliveryKindWebhook, DestinationID: "wh_01kn44arm06b7r2nsbmgefek7n"})
	requireCode(t, err, assess.ECodeNotFound, "")

	n, err := f.svc.DeliveryStore.PurgeDeliveries(f.ctx, assess.DeliveryKindWebhook, f.clock.Now().Add(-time.Hour))
	require.NoError(t, err)
	require.Zero(t, n, "nothing is old enough")
	events := f.count("SELECT count(*) FROM events")
	n, err = f.svc.DeliveryStore.PurgeDeliveries(f.ctx, assess.DeliveryKindWebhook, f.clock.Now().Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, int64(2), n, "the succeeded and the skipped one")
	require.Equal(t, 1, f.count("SELECT count(*) FROM deliveries WHERE webhook_id = $1", w.ID), "the pending one stays")
	require.Less(t, f.count("SELECT count(*) FROM events"), events, "events nothing refers to are gone")
	require.Equal(t, 1, f.count("SELECT count(*) FROM events e JOIN deliveries d ON d.event_id = e.id WHERE d.id = $1", ids[2]))
}
