package postgres_test

import (
	"context"
	"errors"
	"net/netip"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/services"
)

// eventsFixture is a store with an administrator, for the event and delivery tests.
type eventsFixture struct {
	t     *testing.T
	ctx   context.Context
	pool  *pgxpool.Pool
	db    *postgres.DB
	svc   *services.Services
	clock *tickingClock
	admin assess.User
	cfg   postgres.DeliveryConfig
}

// allOn switches every channel on, with e-mail configured through the environment.
func allOn() postgres.DeliveryConfig {
	host, on := "smtp.test", true
	return postgres.DeliveryConfig{WebhooksEnabled: true, SlackEnabled: true, TeamsEnabled: true, MattermostEnabled: true,
		WebhookMaxAttempts: 6, ChatMaxAttempts: 4, EmailMaxAttempts: 3, DisableAfterFailures: 3,
		SMTP: assess.SMTPOverrides{Enabled: &on, Host: &host}, PasswordResetTTL: time.Hour, Version: "test",
		AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
}

// tickingClock advances a millisecond at every reading, so identifiers made one after
// the other sort in that order.
type tickingClock struct{ fakeClock }

func (c *tickingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Millisecond)
	return c.now
}

// allOff switches every outbound channel off.
func allOff() postgres.DeliveryConfig {
	cfg := allOn()
	cfg.WebhooksEnabled, cfg.SlackEnabled, cfg.TeamsEnabled, cfg.MattermostEnabled = false, false, false, false
	cfg.SMTP = assess.SMTPOverrides{Enabled: ptr(false)}
	return cfg
}

func newEventsFixture(t *testing.T, cfg postgres.DeliveryConfig) *eventsFixture {
	t.Helper()
	ctx := context.Background()
	clock := &tickingClock{fakeClock{now: time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)}}
	db, accounts := newIdentityDB(t, clock.Now)
	db.ConfigureDeliveries(cfg)
	_, err := db.LoadKeyring(ctx, masterKey(t), assess.Actor{ID: "test"})
	require.NoError(t, err)
	admin, err := accounts.CreateFirstAdmin(ctx, assess.NewAccount{Username: "admin", Email: "admin@example.com",
		DisplayName: "Ada Admin", Password: "the admin password"}, assess.Actor{})
	require.NoError(t, err)
	return &eventsFixture{t: t, ctx: ctx, pool: db.PgxPool(), db: db, svc: testServices(db), clock: clock, admin: admin, cfg: cfg}
}

// actor is the administrator as the actor of a change.
func (f *eventsFixture) actor() assess.Actor { return assess.Actor{ID: f.admin.ID} }

// user creates an account holding roles (assessee when none).
func (f *eventsFixture) user(name string, roles ...string) assess.User {
	f.t.Helper()
	u, err := f.svc.Users.CreateUser(f.ctx, assess.NewUser{NewAccount: assess.NewAccount{Username: name, Email: name + "@example.com",
		DisplayName: name, Password: "a long enough password"}, Roles: roles}, f.actor())
	require.NoError(f.t, err)
	return u
}

// count runs a counting query.
func (f *eventsFixture) count(sql string, args ...any) int {
	f.t.Helper()
	var n int
	require.NoError(f.t, f.pool.QueryRow(f.ctx, sql, args...).Scan(&n))
	return n
}

// lastEvent returns the id of the newest event of typ.
func (f *eventsFixture) lastEvent(typ assess.EventName) string {
	f.t.Helper()
	var id string
	require.NoError(f.t, f.pool.QueryRow(f.ctx, "SELECT id FROM events WHERE type = $1 ORDER BY id DESC LIMIT 1", typ).Scan(&id))
	return id
}

// notified lists the usernames notified of an event.
func (f *eventsFixture) notified(eventID string) []string {
	f.t.Helper()
	rows, err := f.pool.Query(f.ctx, `SELECT u.username FROM notifications n JOIN users u ON u.id = n.user_id
		WHERE n.event_id = $1 ORDER BY u.username`, eventID)
	require.NoError(f.t, err)
	var names []string
	for rows.Next() {
		var n string
		require.NoError(f.t, rows.Scan(&n))
		names = append(names, n)
	}
	require.NoError(f.t, rows.Err())
	return names
}

// deliveryKeys lists the dedupe keys of an event's deliveries.
func (f *eventsFixture) deliveryKeys(eventID string) []string {
	f.t.Helper()
	rows, err := f.pool.Query(f.ctx, "SELECT dedupe_key FROM deliveries WHERE event_id = $1 ORDER BY dedupe_key", eventID)
	require.NoError(f.t, err)
	var keys []string
	for rows.Next() {
		var k string
		require.NoError(f.t, rows.Scan(&k))
		keys = append(keys, k)
	}
	require.NoError(f.t, rows.Err())
	return keys
}

// webhook creates a webhook on a public-looking https URL.
func (f *eventsFixture) webhook(name string, filter ...string) assess.Webhook {
	f.t.Helper()
	w, _, err := f.svc.Webhooks.CreateWebhook(f.ctx, assess.NewWebhook{Name: name, URL: "https://hooks.example.com/" + name, EventTypes: filter}, f.actor())
	require.NoError(f.t, err)
	return w
}

// slack creates a Slack destination.
func (f *eventsFixture) slack(name string, filter ...string) assess.ChatDestination {
	f.t.Helper()
	c, err := f.svc.Chat.CreateChatDestination(f.ctx, assess.NewChatDestination{Platform: assess.ChannelSlack, Name: name,
		URL: "https://hooks.slack.com/services/T0/B0/" + name + "wxyz", EventTypes: filter}, f.actor())
	require.NoError(f.t, err)
	return c
}

// requireCode asserts an *assess.Error with code and, when given, a detail code.
func requireCode(t *testing.T, err error, code, detail string) {
	t.Helper()
	var e *assess.Error
	require.True(t, errors.As(err, &e), "want *assess.Error %s, got %v", code, err)
	require.Equal(t, code, e.Code, e.Message)
	if detail != "" {
		var codes []string
		for _, d := range e.Details {
			codes = append(codes, d.Code)
		}
		require.Contains(t, codes, detail)
	}
}

func ptr[T any](v T) *T { return &v }
