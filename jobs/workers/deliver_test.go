package workers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/jobs"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/metrics"
	"github.com/assay-dev/assay/pkg/notify/notifytest"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
	"github.com/assay-dev/assay/pkg/secret"
)

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}

// deliveryStore is a real store on a fresh database, with every channel on and deliveries
// allowed to loopback receivers.
func deliveryStore(t testing.TB, mutate ...func(*postgres.DeliveryConfig)) *postgres.DB {
	t.Helper()
	pool := pgtest.NewPool(t)
	cfg := postgres.DeliveryConfig{
		WebhooksEnabled: true, SlackEnabled: true, TeamsEnabled: true, MattermostEnabled: true,
		WebhookMaxAttempts: 3, ChatMaxAttempts: 3, EmailMaxAttempts: 3, DisableAfterFailures: 20, AllowNetworks: loopback,
	}
	for _, m := range mutate {
		m(&cfg)
	}
	db := postgres.New(pool, nil).ConfigureDeliveries(cfg)
	require.NoError(t, fastServices(db).Roles.SyncBuiltinRoles(context.Background()))
	return db
}

// testDeliverer is the workers' shared state as NewClient builds it, with fast retries.
func testDeliverer(store assess.DeliveryStore, obs Observer, mutate ...func(*Config)) *deliverer {
	cfg := Config{
		Deliveries: store, Logger: quiet, AppURL: "https://assay.example.com", Version: "test",
		WebhooksEnabled: true, SlackEnabled: true, TeamsEnabled: true, MattermostEnabled: true,
		WebhookTimeout: 2 * time.Second, ChatTimeout: 2 * time.Second, SMTPTimeout: 2 * time.Second,
		DeliveryRetryBase: time.Second, OutboundAllowNetworks: loopback, Metrics: obs,
	}
	for _, m := range mutate {
		m(&cfg)
	}
	return newDeliverer(withDefaults(cfg))
}

var userSeq atomic.Int64

// createUser makes the store emit user.created.
func createUser(t testing.TB, db *postgres.DB) assess.User {
	t.Helper()
	n := userSeq.Add(1)
	u, err := fastServices(db).Users.CreateUser(context.Background(), assess.NewUser{NewAccount: assess.NewAccount{
		Username: fmt.Sprintf("user%d", n), Email: fmt.Sprintf("user%d@example.com", n), DisplayName: fmt.Sprintf("User %d", n), Password: "a long enough password",
	}}, assess.SystemActor)
	require.NoError(t, err)
	return u
}

// deliveryIDs lists the delivery ids of a destination, oldest first.
func deliveryIDs(t testing.TB, db *postgres.DB, column, destination string) []string {
	t.Helper()
	return column2(t, db, "SELECT id FROM deliveries WHERE "+column+" = $1 ORDER BY id", destination)
}

func column2(t testing.TB, db *postgres.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.PgxPool().Query(context.Background(), query, args...)
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		out = append(out, s)
	}
	require.NoError(t, rows.Err())
	return out
}

func jobRow(kind string, attempt, maxAttempts int) *rivertype.JobRow {
	return &rivertype.JobRow{ID: 42, Kind: kind, Attempt: attempt, MaxAttempts: maxAttempts}
}

// recorder is an HTTP receiver answering with the statuses given, then 200.
type recorder struct {
	mu       sync.Mutex
	statuses []int
	requests []*http.Request
	bodies   [][]byte
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.requests = append(r.requests, req)
	r.bodies = append(r.bodies, body)
	status := http.StatusOK
	if len(r.statuses) > 0 {
		status, r.statuses = r.statuses[0], r.statuses[1:]
	}
	r.mu.Unlock()
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, "status %d", status)
}

func (r *recorder) got() ([]*http.Request, [][]byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*http.Request(nil), r.requests...), append([][]byte(nil), r.bodies...)
}

func serve(t testing.TB, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestWebhookDeliverySucceeds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := deliveryStore(t)
	rec := &recorder{}
	wh, _, err := fastServices(db).Webhooks.CreateWebhook(ctx, assess.NewWebhook{Name: "ci", URL: serve(t, rec) + "/hook", EventTypes: []string{"user.*"}}, assess.SystemActor)
	require.NoError(t, err)
	createUser(t, db)
	ids := deliveryIDs(t, db, "webhook_id", wh.ID)
	require.Len(t, ids, 1)

	jm := metrics.NewJobMetrics()
	d := testDeliverer(fastServices(db).DeliveryStore, jm)
	w := &DeliverWebhookWorker{d: d}
	job := &river.Job[jobs.DeliverWebhookArgs]{JobRow: jobRow("delivery.webhook", 1, 3), Args: jobs.DeliverWebhookArgs{DeliveryID: ids[0]}}
	require.NoError(t, w.Work(ctx, job))

	reqs, bodies := rec.got()
	require.Len(t, reqs, 1)
	require.Equal(t, ids[0], reqs[0].Header.Get("webhook-id"))
	var env assess.Event
	require.NoError(t, json.Unmarshal(bodies[0], &env))
	require.Equal(t, string(assess.EventUserCreated), env.Type)

	got, err := fastServices(db).Deliveries.FindDelivery(ctx, assess.DeliveryKindWebhook, wh.ID, ids[0])
	require.NoError(t, err)
	require.Equal(t, assess.DeliverySucceeded, got.Status)
	require.Equal(t, 1, got.Attempts)
	require.Len(t, got.AttemptLog, 1)
	require.Equal(t, http.StatusOK, got.AttemptLog[0].HTTPStatus)
	require.Equal(t, "status 200", got.AttemptLog[0].Response)

	// A duplicate job of the finished delivery sends nothing.
	require.NoError(t, w.Work(ctx, job))
	reqs, _ = rec.got()
	require.Len(t, reqs, 1)
}

func TestWebhookFailureIsRetriedUntilTheLastAttempt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := deliveryStore(t)
	rec := &recorder{statuses: []int{500, 503, 502}}
	wh, _, err := fastServices(db).Webhooks.CreateWebhook(ctx, assess.NewWebhook{Name: "down", URL: serve(t, rec), EventTypes: []string{"*"}}, assess.SystemActor)
	require.NoError(t, err)
	createUser(t, db)
	id := deliveryIDs(t, db, "webhook_id", wh.ID)[0]
	w := &DeliverWebhookWorker{d: testDeliverer(fastServices(db).DeliveryStore, nil)}

	for attempt := 1; attempt <= 3; attempt++ {
		job := &river.Job[jobs.DeliverWebhookArgs]{JobRow: jobRow("delivery.webhook", attempt, 3), Args: jobs.DeliverWebhookArgs{DeliveryID: id}}
		before := time.Now()
		workErr := w.Work(ctx, job)
		require.Error(t, workErr, "a failure returns an error so River retries (or discards the last)")
		var cancel *rivertype.JobCancelError
		require.False(t, errors.As(workErr, &cancel))
		d, err := fastServices(db).Deliveries.FindDelivery(ctx, assess.DeliveryKindWebhook, wh.ID, id)
		require.NoError(t, err)
		require.Equal(t, attempt, d.Attempts)
		if attempt < 3 {
			require.Equal(t, assess.DeliveryRetrying, d.Status)
			require.NotNil(t, d.NextAttemptAt)
			wait := d.NextAttemptAt.Sub(before)
			base := RetryDelay(time.Second, attempt, 0)
			require.InDelta(t, float64(base), float64(wait), float64(base)*0.2+float64(time.Second), "attempt %d", attempt)
			require.Equal(t, metrics.JobRetried, JobOutcome(job.JobRow, workErr))
		} else {
			require.Equal(t, assess.DeliveryFailed, d.Status)
			require.Nil(t, d.NextAttemptAt)
			require.Equal(t, "HTTP 502 Bad Gateway", d.LastError)
			require.Equal(t, metrics.JobFailed, JobOutcome(job.JobRow, workErr))
		}
	}
	wh, err = fastServices(db).Webhooks.FindWebhook(ctx, wh.ID)
	require.NoError(t, err)
	require.Equal(t, 1, wh.ConsecutiveFailures)
}

func TestSwitchedOffChannelIsSkipped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := deliveryStore(t)
	rec := &recorder{}
	wh, _, err := fastServices(db).Webhooks.CreateWebhook(ctx, assess.NewWebhook{Name: "ci", URL: serve(t, rec), EventTypes: []string{"*"}}, assess.SystemActor)
	require.NoError(t, err)
	createUser(t, db)
	id := deliveryIDs(t, db, "webhook_id", wh.ID)[0]
	w := &DeliverWebhookWorker{d: testDeliverer(fastServices(db).DeliveryStore, nil, func(c *Config) { c.WebhooksEnabled = false })}
	require.NoError(t, w.Work(ctx, &river.Job[jobs.DeliverWebhookArgs]{JobRow: jobRow("delivery.webhook", 1, 3), Args: jobs.DeliverWebhookArgs{DeliveryID: id}}))
	d, err := fastServices(db).Deliveries.FindDelivery(ctx, assess.DeliveryKindWebhook, wh.ID, id)
	require.NoError(t, err)
	require.Equal(t, assess.DeliverySkipped, d.Status)
	require.Contains(t, d.LastError, "switched off")
	reqs, _ := rec.got()
	require.Empty(t, reqs)

	// A delivery that no longer exists cancels its job.
	err = w.Work(ctx, &river.Job[jobs.DeliverWebhookArgs]{JobRow: jobRow("delivery.webhook", 1, 3), Args: jobs.DeliverWebhookArgs{DeliveryID: "dl_01J00000000000000000000000"}})
	var cancel *rivertype.JobCancelError
	require.ErrorAs(t, err, &cancel)
}

func TestInterruptedDeliveryIsRecordedAndSnoozed(t *testing.T) {
	t.Parallel()
	db := deliveryStore(t)
	arrived, release := make(chan struct{}), make(chan struct{})
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // the server notices a closed connection only after the body
		close(arrived)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release) }) // runs before the server's Close
	wh, _, err := fastServices(db).Webhooks.CreateWebhook(context.Background(), assess.NewWebhook{Name: "slow", URL: url, EventTypes: []string{"*"}}, assess.SystemActor)
	require.NoError(t, err)
	createUser(t, db)
	id := deliveryIDs(t, db, "webhook_id", wh.ID)[0]
	w := &DeliverWebhookWorker{d: testDeliverer(fastServices(db).DeliveryStore, nil)}

	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }() // the worker is stopped mid-request
	err = w.Work(ctx, &river.Job[jobs.DeliverWebhookArgs]{JobRow: jobRow("delivery.webhook", 3, 3), Args: jobs.DeliverWebhookArgs{DeliveryID: id}})
	var snooze *rivertype.JobSnoozeError
	require.ErrorAs(t, err, &snooze, "even the last attempt is retried: an interruption is not the receiver's failure")
	d, err := fastServices(db).Deliveries.FindDelivery(context.Background(), assess.DeliveryKindWebhook, wh.ID, id)
	require.NoError(t, err)
	require.Equal(t, assess.DeliveryRetrying, d.Status)
	require.Contains(t, d.LastError, "interrupted")
}

func TestChatDeliveryPostsThePlatformPayload(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := deliveryStore(t)
	rec := &recorder{}
	ch, err := fastServices(db).Chat.CreateChatDestination(ctx, assess.NewChatDestination{
		Platform: assess.ChannelSlack, Name: "ops", URL: serve(t, rec) + "/services/T/B/x", EventTypes: []string{"user.created"},
	}, assess.SystemActor)
	require.NoError(t, err)
	u := createUser(t, db)
	ids := deliveryIDs(t, db, "chat_id", ch.ID)
	require.Len(t, ids, 1)
	w := &DeliverChatWorker{d: testDeliverer(fastServices(db).DeliveryStore, nil)}
	require.NoError(t, w.Work(ctx, &river.Job[jobs.DeliverChatArgs]{JobRow: jobRow("delivery.chat", 1, 3), Args: jobs.DeliverChatArgs{DeliveryID: ids[0]}}))

	_, bodies := rec.got()
	require.Len(t, bodies, 1)
	var msg struct {
		Text   string `json:"text"`
		Blocks []struct {
			Type     string `json:"type"`
			Elements []struct {
				URL string `json:"url"`
			} `json:"elements"`
		} `json:"blocks"`
	}
	require.NoError(t, json.Unmarshal(bodies[0], &msg))
	require.Contains(t, msg.Text, "User created")
	last := msg.Blocks[len(msg.Blocks)-1]
	require.Equal(t, "actions", last.Type)
	require.Equal(t, "https://assay.example.com/admin/users?id="+u.ID, last.Elements[0].URL)

	d, err := fastServices(db).Deliveries.FindDelivery(ctx, assess.DeliveryKindChat, ch.ID, ids[0])
	require.NoError(t, err)
	require.Equal(t, assess.DeliverySucceeded, d.Status)
}

func TestEmailDeliveryReachesTheMailServer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mp := notifytest.StartMailpit(t)
	on, host, from := true, mp.SMTPHost, "Assay <assay@example.com>"
	port := mp.SMTPPort
	db := deliveryStore(t, func(c *postgres.DeliveryConfig) {
		c.SMTP = assess.SMTPOverrides{Enabled: &on, Host: &host, Port: &port, From: &from}
	})
	admin, err := fastServices(db).Identity.CreateFirstAdmin(ctx, assess.NewAccount{Username: "admin", Email: "admin@example.com", DisplayName: "Ada Admin", Password: "a long enough password"}, assess.SystemActor)
	require.NoError(t, err)
	d, err := fastServices(db).Email.SendTestEmail(ctx, "ops@example.com", assess.Actor{ID: admin.ID})
	require.NoError(t, err)

	jm := metrics.NewJobMetrics()
	w := &DeliverEmailWorker{d: testDeliverer(fastServices(db).DeliveryStore, jm)}
	require.NoError(t, w.Work(ctx, &river.Job[jobs.DeliverEmailArgs]{JobRow: jobRow("delivery.email", 1, 3), Args: jobs.DeliverEmailArgs{DeliveryID: d.ID}}))

	msgs := mp.WaitForMessages(t, 1, 10*time.Second)
	require.Equal(t, "ops@example.com", msgs[0].To[0].Address)
	require.Equal(t, d.Subject, msgs[0].Subject)
	require.Contains(t, msgs[0].Text, "sent by Ada Admin")
	require.Contains(t, msgs[0].Text, "https://assay.example.com/")
	require.Contains(t, msgs[0].HTML, `href="https://assay.example.com/"`)

	got, err := fastServices(db).Deliveries.FindDelivery(ctx, assess.DeliveryKindEmail, "", d.ID)
	require.NoError(t, err)
	require.Equal(t, assess.DeliverySucceeded, got.Status)
}

func TestPurgeDeliveriesKeepsRecentAndUnfinished(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := deliveryStore(t)
	rec := &recorder{}
	wh, _, err := fastServices(db).Webhooks.CreateWebhook(ctx, assess.NewWebhook{Name: "ci", URL: serve(t, rec), EventTypes: []string{"user.*"}}, assess.SystemActor)
	require.NoError(t, err)
	user := createUser(t, db)
	createUser(t, db)
	ids := deliveryIDs(t, db, "webhook_id", wh.ID)
	require.Len(t, ids, 2)
	w := &DeliverWebhookWorker{d: testDeliverer(fastServices(db).DeliveryStore, nil)}
	require.NoError(t, w.Work(ctx, &river.Job[jobs.DeliverWebhookArgs]{JobRow: jobRow("delivery.webhook", 1, 3), Args: jobs.DeliverWebhookArgs{DeliveryID: ids[0]}}))
	// Two in-app notifications, one of them read.
	_, err = db.PgxPool().Exec(ctx, `INSERT INTO notifications (id, user_id, type, title, message, created_at, read_at)
		VALUES ('nt_read', $1, 'user.created', 't', 'm', now(), now()), ('nt_unread', $1, 'user.created', 't', 'm', now(), NULL)`, user.ID)
	require.NoError(t, err)

	later := time.Now().Add(48 * time.Hour)
	purge := &PurgeDeliveriesWorker{Store: fastServices(db).DeliveryStore, Maintenance: db, Logger: quiet, Now: func() time.Time { return later }, WorkerName: "t"}
	job := &river.Job[jobs.PurgeDeliveriesArgs]{
		JobRow: &rivertype.JobRow{ID: 1, Kind: jobs.PurgeDeliveriesArgs{}.Kind()},
		Args:   jobs.PurgeDeliveriesArgs{WebhookRetention: 24 * time.Hour, ChatRetention: 24 * time.Hour, NotificationRetention: 24 * time.Hour},
	}
	require.NoError(t, purge.Work(ctx, job))
	require.NoError(t, purge.Work(ctx, job)) // idempotent
	require.Equal(t, ids[1:], deliveryIDs(t, db, "webhook_id", wh.ID), "the finished one is gone, the pending one stays")
	require.Equal(t, []string{"nt_unread"}, column2(t, db, "SELECT id FROM notifications WHERE id IN ('nt_read', 'nt_unread')"),
		"read notifications past the retention go, unread ones stay")

	// Within the retention nothing goes.
	purge.Now = time.Now
	require.NoError(t, purge.Work(ctx, job))
	require.Len(t, deliveryIDs(t, db, "webhook_id", wh.ID), 1)
	require.Equal(t, []string{"3"}, column2(t, db, "SELECT count(*)::text FROM maintenance_runs WHERE job = 'maintenance.purge_deliveries'"))
}

func TestRetryDelay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		base   time.Duration
		n      int
		jitter float64
		want   time.Duration
	}{
		{30 * time.Second, 1, 0, 30 * time.Second},
		{30 * time.Second, 2, 0, 2 * time.Minute},
		{30 * time.Second, 3, 0, 8 * time.Minute},
		{30 * time.Second, 5, 0, 128 * time.Minute},
		{30 * time.Second, 6, 0, 512 * time.Minute},
		{30 * time.Second, 7, 0, 12 * time.Hour}, // 2048 min, capped
		{30 * time.Second, 100, 0, 12 * time.Hour},
		{30 * time.Second, 1, 0.2, 36 * time.Second},
		{30 * time.Second, 1, -0.2, 24 * time.Second},
		{30 * time.Second, 1, 5, 36 * time.Second}, // jitter is clamped
		{30 * time.Second, 100, 0.2, 12 * time.Hour},
		{100 * time.Millisecond, 3, 0, 1600 * time.Millisecond},
		{0, 1, 0, 30 * time.Second}, // default base
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, RetryDelay(tt.base, tt.n, tt.jitter), "base %s attempt %d jitter %.1f", tt.base, tt.n, tt.jitter)
	}
	seen := map[float64]bool{}
	for id := int64(1); id <= 200; id++ {
		j := jitterOf(id, 1)
		require.GreaterOrEqual(t, j, -0.2)
		require.LessOrEqual(t, j, 0.2)
		require.Equal(t, j, jitterOf(id, 1), "stable per job and attempt")
		seen[j] = true
	}
	require.Greater(t, len(seen), 150, "deliveries failing together spread out")
}

func TestJobOutcome(t *testing.T) {
	t.Parallel()
	row := func(attempt, maxAttempts int) *rivertype.JobRow { return jobRow("k", attempt, maxAttempts) }
	require.Equal(t, metrics.JobCompleted, JobOutcome(row(1, 3), nil))
	require.Equal(t, metrics.JobRetried, JobOutcome(row(1, 3), errors.New("x")))
	require.Equal(t, metrics.JobFailed, JobOutcome(row(3, 3), errors.New("x")))
	require.Equal(t, metrics.JobCancelled, JobOutcome(row(1, 3), river.JobCancel(errors.New("x"))))
	require.Equal(t, metrics.JobSnoozed, JobOutcome(row(3, 3), river.JobSnooze(time.Second)))
	require.Equal(t, metrics.JobRetried, JobOutcome(row(1, 3), fmt.Errorf("wrapped: %w", errors.New("x"))))
}

// TestPurgeDeliveriesIsScheduled checks a client with the delivery store runs the purge
// on start, as a periodic job.
func TestPurgeDeliveriesIsScheduled(t *testing.T) {
	t.Parallel()
	db := deliveryStore(t)
	c, err := NewClient(db.PgxPool(), Config{RunWorkers: true, Maintenance: db, Deliveries: fastServices(db).DeliveryStore, Logger: quiet, Name: "worker-p",
		WebhookRetention: time.Hour, ChatRetention: time.Hour, EmailRetention: time.Hour})
	require.NoError(t, err)
	require.NoError(t, c.Start(context.Background()))
	t.Cleanup(func() { _ = Stop(c, 5*time.Second) })
	require.Eventually(t, func() bool {
		return len(column2(t, db, "SELECT worker FROM maintenance_runs WHERE job = 'maintenance.purge_deliveries'")) == 1
	}, 15*time.Second, 100*time.Millisecond)
}

// fastServices are the store's services on db with a cheap password hasher (tests only).
func fastServices(db *postgres.DB) *services.Services {
	cfg := services.DefaultConfig()
	cfg.Identity.Hasher = secret.NewHasher(secret.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1}, 2)
	return services.NewWith(db, cfg)
}
