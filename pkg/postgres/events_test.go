package postgres_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestEmitRolledBackLeavesNothing: an event emitted in a transaction that rolls back
// leaves no event, notification, delivery or job behind.
func TestEmitRolledBackLeavesNothing(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	f.user("carol", assess.RoleAdmin)
	f.webhook("all", "*")
	f.slack("all", "*")
	before := f.count("SELECT count(*) FROM river_job")
	events := f.count("SELECT count(*) FROM events")

	id, err := f.db.EmitForTest(f.ctx, f.actor(), assess.NewEvent{Type: assess.EventUserLocked, Data: f.admin,
		SubjectUserID: f.admin.ID, Summary: "admin"}, false)
	require.NoError(t, err)
	require.Zero(t, f.count("SELECT count(*) FROM events WHERE id = $1", id))
	require.Equal(t, events, f.count("SELECT count(*) FROM events"))
	require.Zero(t, f.count("SELECT count(*) FROM notifications WHERE event_id = $1", id))
	require.Zero(t, f.count("SELECT count(*) FROM deliveries WHERE event_id = $1", id))
	require.Equal(t, before, f.count("SELECT count(*) FROM river_job"))

	// The same event committed fans out.
	id, err = f.db.EmitForTest(f.ctx, f.actor(), assess.NewEvent{Type: assess.EventUserLocked, Data: f.admin,
		SubjectUserID: f.admin.ID, Summary: "admin"}, true)
	require.NoError(t, err)
	require.Equal(t, []string{"carol"}, f.notified(id), "the actor is not notified, the other administrator is")
	require.Equal(t, before+3, f.count("SELECT count(*) FROM river_job"), "webhook, slack and carol's e-mail")
}

// TestRolledBackChangeLeavesNoEvent: a change that fails after emitting (an e-mailed
// invite while e-mail is off) leaves neither the invite nor its event.
func TestRolledBackChangeLeavesNoEvent(t *testing.T) {
	t.Parallel()
	cfg := allOn()
	cfg.SMTP = assess.SMTPOverrides{}
	f := newEventsFixture(t, cfg)
	f.webhook("invites", "invite.*")
	jobs := f.count("SELECT count(*) FROM river_job")
	_, _, err := f.svc.Invites.CreateInvite(f.ctx, assess.NewInvite{Email: "new@example.com", IntendedRole: assess.RoleAssessee, SendEmail: true}, f.actor())
	requireCode(t, err, assess.ECodeBusinessRule, "email_disabled")
	require.Zero(t, f.count("SELECT count(*) FROM invites"))
	require.Zero(t, f.count("SELECT count(*) FROM events WHERE type = $1", assess.EventInviteCreated))
	require.Zero(t, f.count("SELECT count(*) FROM deliveries"))
	require.Equal(t, jobs, f.count("SELECT count(*) FROM river_job"))
}

// TestCommittedChangeFansOut: creating a user records user.created with the user as data,
// notifies the other administrators (not the actor), and queues one delivery and one job
// per webhook, chat destination and e-mail address, with the configured attempts.
func TestCommittedChangeFansOut(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	f.user("carol", assess.RoleAdmin)
	wh := f.webhook("users", "user.*")
	ch := f.slack("everything", "*")
	f.webhook("roles", "role.*")
	_, err := f.svc.Rules.CreateRule(f.ctx, assess.RuleGlobal, "", assess.NewNotificationRule{Name: "ops", EventTypes: []string{"user.created"},
		Emails: []string{"ops@example.com"}}, f.actor())
	require.NoError(t, err)

	bob := f.user("bob")
	ev := f.lastEvent(assess.EventUserCreated)
	var data assess.User
	var actorName, summary, link string
	var raw []byte
	require.NoError(t, f.pool.QueryRow(f.ctx, "SELECT data, actor_name, summary, link FROM events WHERE id = $1", ev).Scan(&raw, &actorName, &summary, &link))
	require.NoError(t, json.Unmarshal(raw, &data))
	require.Equal(t, bob, data)
	require.Equal(t, "Ada Admin", actorName)
	require.Equal(t, "bob", summary)
	require.Equal(t, "/admin/users?id="+bob.ID, link)

	require.Equal(t, []string{"carol"}, f.notified(ev))
	require.Equal(t, []string{"chat:" + ch.ID, "email:ops@example.com", "webhook:" + wh.ID}, f.deliveryKeys(ev))
	rows, err := f.pool.Query(f.ctx, `SELECT j.kind, j.queue, j.max_attempts, d.max_attempts FROM deliveries d
		JOIN river_job j ON j.args->>'deliveryId' = d.id WHERE d.event_id = $1 ORDER BY j.kind`, ev)
	require.NoError(t, err)
	type job struct {
		Kind, Queue         string
		JobMax, DeliveryMax int
	}
	var got []job
	for rows.Next() {
		var j job
		require.NoError(t, rows.Scan(&j.Kind, &j.Queue, &j.JobMax, &j.DeliveryMax))
		got = append(got, j)
	}
	require.Equal(t, []job{{"delivery.chat", "deliveries", 4, 4}, {"delivery.email", "deliveries", 3, 3},
		{"delivery.webhook", "deliveries", 6, 6}}, got)
}

// TestFanOutDeduplicates: a webhook selected by its filter and by two rules, a user who is
// a default recipient and has a personal rule, and an address listed twice each get one.
func TestFanOutDeduplicates(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	carol := f.user("carol", assess.RoleAdmin)
	wh := f.webhook("users", "user.*")
	for _, name := range []string{"one", "two"} {
		_, err := f.svc.Rules.CreateRule(f.ctx, assess.RuleGlobal, "", assess.NewNotificationRule{Name: name, EventTypes: []string{"user.*"},
			Channels: assess.RuleChannels{InApp: true, Email: true, WebhookIDs: []string{wh.ID}}, Roles: []string{assess.RoleAdmin},
			Emails: []string{"Carol@Example.com"}}, f.actor())
		require.NoError(t, err)
	}
	_, err := f.svc.Rules.CreateRule(f.ctx, assess.RulePersonal, carol.ID, assess.NewNotificationRule{Name: "mine", EventTypes: []string{"*"},
		Channels: assess.RuleChannels{InApp: true, Email: true}}, assess.Actor{ID: carol.ID})
	require.NoError(t, err)

	f.user("bob")
	ev := f.lastEvent(assess.EventUserCreated)
	require.Equal(t, []string{"carol"}, f.notified(ev))
	require.Equal(t, []string{"email:carol@example.com", "webhook:" + wh.ID}, f.deliveryKeys(ev))
}

// TestSwitchedOffChannelsGetNoDeliveries: with webhooks, chat and e-mail off the event is
// recorded and in-app notifications appear, but nothing is queued.
func TestSwitchedOffChannelsGetNoDeliveries(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	f.user("carol", assess.RoleAdmin)
	f.webhook("users", "user.*")
	f.slack("users", "user.*")
	f.db.ConfigureDeliveries(allOff())
	jobs := f.count("SELECT count(*) FROM river_job")

	f.user("bob")
	ev := f.lastEvent(assess.EventUserCreated)
	require.Equal(t, []string{"carol"}, f.notified(ev))
	require.Empty(t, f.deliveryKeys(ev))
	require.Equal(t, jobs, f.count("SELECT count(*) FROM river_job"))
}

// TestInactiveDestinationsGetNothing: a switched-off webhook is left out.
func TestInactiveDestinationsGetNothing(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	w := f.webhook("users", "user.*")
	_, err := f.svc.Webhooks.UpdateWebhook(f.ctx, w.ID, assess.WebhookUpdate{Version: w.Version, Active: ptr(false)}, f.actor())
	require.NoError(t, err)
	f.user("bob")
	require.Empty(t, f.deliveryKeys(f.lastEvent(assess.EventUserCreated)))
}
