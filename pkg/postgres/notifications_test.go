package postgres_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestNotificationsPagingAndReading: a user pages through their notifications newest
// first, filters unread ones, marks one and then all read; another user's notification
// is not_found.
func TestNotificationsPagingAndReading(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	carol := f.user("carol", assess.RoleAdmin)
	for _, name := range []string{"user1", "user2", "user3", "user4", "user5"} {
		f.user(name)
	}
	first, err := f.svc.Notifications.FindNotifications(f.ctx, carol.ID, assess.NotificationFilter{PageRequest: assess.PageRequest{Limit: 2}})
	require.NoError(t, err)
	all := first.Items
	require.Len(t, all, 2)
	require.NotEmpty(t, first.NextCursor)
	require.Equal(t, "User created", all[0].Title)
	require.Equal(t, "user5", all[0].Params["summary"])
	require.Equal(t, "Ada Admin", all[0].Params["actor"])
	require.Equal(t, "Ada Admin created the account user5.", all[0].Message, "the event in words (assess.DescribeEvent)")
	var seen []string
	for cursor := ""; ; {
		page, err := f.svc.Notifications.FindNotifications(f.ctx, carol.ID, assess.NotificationFilter{PageRequest: assess.PageRequest{Limit: 2, Cursor: cursor}})
		require.NoError(t, err)
		for _, p := range page.Items {
			seen = append(seen, p.Params["summary"])
		}
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	// carol holds admin.users from her creation on, so she heard of that too.
	require.Equal(t, []string{"user5", "user4", "user3", "user2", "user1", "carol"}, seen)

	count, err := f.svc.Notifications.CountUnreadNotifications(f.ctx, carol.ID)
	require.NoError(t, err)
	require.Equal(t, 6, count)
	read, err := f.svc.Notifications.MarkNotificationRead(f.ctx, carol.ID, all[0].ID)
	require.NoError(t, err)
	require.True(t, read.Read)
	require.NotNil(t, read.ReadAt)
	unread, err := f.svc.Notifications.FindNotifications(f.ctx, carol.ID, assess.NotificationFilter{Unread: true, PageRequest: assess.PageRequest{Limit: 50}})
	require.NoError(t, err)
	require.Len(t, unread.Items, 5)

	_, err = f.svc.Notifications.MarkNotificationRead(f.ctx, f.admin.ID, all[1].ID)
	requireCode(t, err, assess.ECodeNotFound, "")
	_, err = f.svc.Notifications.MarkNotificationRead(f.ctx, carol.ID, "nt_nonsense")
	requireCode(t, err, assess.ECodeNotFound, "")
	_, err = f.svc.Notifications.FindNotifications(f.ctx, carol.ID, assess.NotificationFilter{PageRequest: assess.PageRequest{Cursor: "!!"}})
	requireCode(t, err, assess.ECodeValidation, "invalid")

	n, err := f.svc.Notifications.MarkAllNotificationsRead(f.ctx, carol.ID)
	require.NoError(t, err)
	require.Equal(t, 5, n)
	count, err = f.svc.Notifications.CountUnreadNotifications(f.ctx, carol.ID)
	require.NoError(t, err)
	require.Zero(t, count)
}

// TestIdentityEventsAndTheirAudience covers the identity operations' events: who is the
// subject, who hears about it, and that deactivation is its own event.
func TestIdentityEventsAndTheirAudience(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	carol := f.user("carol", assess.RoleAdmin)
	bob := f.user("bob")

	// An administrator changes bob's display name: bob (the subject) is told.
	bob, err := f.svc.Users.UpdateUser(f.ctx, bob.ID, assess.UserUpdate{Version: bob.Version, DisplayName: ptr("Bob B")}, f.actor())
	require.NoError(t, err)
	require.Equal(t, []string{"bob"}, f.notified(f.lastEvent(assess.EventUserUpdated)))
	// bob changes his own profile: nobody is told (he is the actor).
	bob, err = f.svc.Users.UpdateUser(f.ctx, bob.ID, assess.UserUpdate{Version: bob.Version, DisplayName: ptr("Bobby")}, assess.Actor{ID: bob.ID})
	require.NoError(t, err)
	require.Empty(t, f.notified(f.lastEvent(assess.EventUserUpdated)))
	updates := f.count("SELECT count(*) FROM events WHERE type = $1", assess.EventUserUpdated)

	// Deactivation alone is user.deactivated, told to the other administrators.
	bob, err = f.svc.Users.UpdateUser(f.ctx, bob.ID, assess.UserUpdate{Version: bob.Version, Active: ptr(false)}, f.actor())
	require.NoError(t, err)
	require.Equal(t, []string{"carol"}, f.notified(f.lastEvent(assess.EventUserDeactivated)))
	require.Equal(t, updates, f.count("SELECT count(*) FROM events WHERE type = $1", assess.EventUserUpdated))
	// Re-activation with a new name is user.updated only.
	_, err = f.svc.Users.UpdateUser(f.ctx, bob.ID, assess.UserUpdate{Version: bob.Version, Active: ptr(true), Email: ptr("bob2@example.com")}, f.actor())
	require.NoError(t, err)
	require.Equal(t, updates+1, f.count("SELECT count(*) FROM events WHERE type = $1", assess.EventUserUpdated))
	require.Equal(t, 1, f.count("SELECT count(*) FROM events WHERE type = $1", assess.EventUserDeactivated))
	// An administrator's password reset is no event.
	events := f.count("SELECT count(*) FROM events")
	require.NoError(t, f.svc.Users.ResetPassword(f.ctx, bob.ID, "another long password", f.actor()))
	require.Equal(t, events, f.count("SELECT count(*) FROM events"))

	// An API key created for bob by an administrator: bob is told; revoking twice is one event.
	key, _, err := f.svc.APIKeys.CreateAPIKey(f.ctx, bob.ID, assess.NewAPIKey{Name: "CI"}, f.actor())
	require.NoError(t, err)
	require.Equal(t, []string{"bob"}, f.notified(f.lastEvent(assess.EventAPIKeyCreated)))
	require.NoError(t, f.svc.APIKeys.RevokeAPIKey(f.ctx, bob.ID, key.ID, f.actor()))
	require.NoError(t, f.svc.APIKeys.RevokeAPIKey(f.ctx, bob.ID, key.ID, f.actor()))
	require.Equal(t, 1, f.count("SELECT count(*) FROM events WHERE type = $1", assess.EventAPIKeyRevoked))

	// Roles: holders of admin.roles other than the actor.
	role, err := f.svc.Roles.CreateRole(f.ctx, assess.NewRole{Name: "auditor", Permissions: []string{"admin.audit"}}, f.actor())
	require.NoError(t, err)
	require.Equal(t, []string{"carol"}, f.notified(f.lastEvent(assess.EventRoleCreated)))
	_, err = f.svc.Roles.UpdateRole(f.ctx, role.ID, assess.RoleUpdate{Version: role.Version, Description: ptr("Reads the log")}, assess.Actor{ID: carol.ID})
	require.NoError(t, err)
	require.Equal(t, []string{"admin"}, f.notified(f.lastEvent(assess.EventRoleUpdated)))
	require.NoError(t, f.svc.Roles.DeleteRole(f.ctx, role.ID, f.actor()))
	require.Equal(t, 1, f.count("SELECT count(*) FROM events WHERE type = $1", assess.EventRoleDeleted))
}

// TestLockoutEmitsUserLocked: the third wrong password locks the account; the system is
// the actor, the user and the administrators are told, and by e-mail.
func TestLockoutEmitsUserLocked(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	bob := f.user("bob")
	for range 3 {
		_, err := f.svc.Identity.Authenticate(f.ctx, "bob", "a wrong password!", assess.Actor{IP: "192.0.2.1"})
		require.ErrorIs(t, err, assess.ErrBadCredentials)
	}
	ev := f.lastEvent(assess.EventUserLocked)
	var actor, subject string
	require.NoError(t, f.pool.QueryRow(f.ctx, "SELECT actor_id, subject_user_id FROM events WHERE id = $1", ev).Scan(&actor, &subject))
	require.Equal(t, "system", actor)
	require.Equal(t, bob.ID, subject)
	require.Equal(t, []string{"admin", "bob"}, f.notified(ev))
	require.Equal(t, []string{"email:admin@example.com", "email:bob@example.com"}, f.deliveryKeys(ev))
	require.Equal(t, 1, f.count("SELECT count(*) FROM events WHERE type = $1", assess.EventUserLocked))
}

// TestInviteEventsAndEmail: an e-mailed invite queues the invite e-mail with its token
// sealed; redeeming it creates the user and tells the inviter.
func TestInviteEventsAndEmail(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	carol := f.user("carol", assess.RoleAdmin)
	_, _, err := f.svc.Invites.CreateInvite(f.ctx, assess.NewInvite{IntendedRole: assess.RoleAssessor, SendEmail: true}, f.actor())
	requireCode(t, err, assess.ECodeBusinessRule, "email_required")

	inv, token, err := f.svc.Invites.CreateInvite(f.ctx, assess.NewInvite{Email: "dave@example.com", IntendedRole: assess.RoleAssessor, SendEmail: true},
		assess.Actor{ID: carol.ID})
	require.NoError(t, err)
	require.Equal(t, []string{"admin"}, f.notified(f.lastEvent(assess.EventInviteCreated)))
	var id, params string
	require.NoError(t, f.pool.QueryRow(f.ctx, "SELECT id, params FROM deliveries WHERE event_type = 'email.invite'").Scan(&id, &params))
	require.NotContains(t, params, token, "parameters are stored sealed")
	task, err := f.svc.DeliveryStore.LoadDelivery(f.ctx, id)
	require.NoError(t, err)
	require.Empty(t, task.Skip)
	require.Equal(t, &assess.EmailMessage{To: "dave@example.com", Template: assess.EmailTemplateInvite, Params: map[string]string{
		"token": token, "role": assess.RoleAssessor, "inviter": "carol", "expiresAt": inv.ExpiresAt.Format("2006-01-02T15:04:05Z07:00")}}, task.Email)

	require.NoError(t, f.svc.Invites.Register(f.ctx, assess.RegistrationInviteOnly, assess.Registration{NewAccount: assess.NewAccount{
		Username: "dave", Email: "dave@example.com", DisplayName: "Dave", Password: "dave's long password"}, InviteToken: token}, assess.Actor{}))
	consumed := f.lastEvent(assess.EventInviteConsumed)
	require.Equal(t, []string{"carol"}, f.notified(consumed), "the inviter is told")
	require.Equal(t, []string{"admin", "carol"}, f.notified(f.lastEvent(assess.EventUserCreated)))
}

// TestPurgeReadNotifications: read notifications past the retention go, unread ones stay
// however old they are.
func TestPurgeReadNotifications(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	carol := f.user("carol", assess.RoleAdmin)
	f.user("dave")
	f.user("erin")
	page, err := f.svc.Notifications.FindNotifications(f.ctx, carol.ID, assess.NotificationFilter{PageRequest: assess.PageRequest{Limit: 50}})
	require.NoError(t, err)
	list := page.Items
	require.Len(t, list, 3)
	_, err = f.svc.Notifications.MarkNotificationRead(f.ctx, carol.ID, list[0].ID)
	require.NoError(t, err)

	n, err := f.svc.DeliveryStore.PurgeReadNotifications(f.ctx, list[0].CreatedAt) // created before: none
	require.NoError(t, err)
	require.Zero(t, n)
	n, err = f.svc.DeliveryStore.PurgeReadNotifications(f.ctx, time.Now().Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, int64(1), n, "only the read one")
	count, err := f.svc.Notifications.CountUnreadNotifications(f.ctx, carol.ID)
	require.NoError(t, err)
	require.Equal(t, 2, count)
	left, err := f.svc.Notifications.FindNotifications(f.ctx, carol.ID, assess.NotificationFilter{PageRequest: assess.PageRequest{Limit: 50}})
	require.NoError(t, err)
	require.Len(t, left.Items, 2)
}
