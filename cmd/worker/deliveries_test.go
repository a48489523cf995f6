package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/cmd/internal/boot"
	"github.com/assay-dev/assay/jobs/workers"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/config"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
	"github.com/assay-dev/assay/pkg/secret"
)

// These tests run the worker as it is deployed (the run function, or the test binary as a
// child process) against a real PostgreSQL and real HTTP receivers on 127.0.0.1. Events
// are caused through the store's public API, so emission, fan-out, the River jobs and the
// workers are all exercised.

// Child-process mode: the test binary runs the worker when this variable is set.
const (
	envChild        = "ASSAY_TEST_WORKER_CHILD"
	envRescueAfter  = "ASSAY_TEST_RESCUE_AFTER"
	childReadyToken = "worker started"
)

// runChild runs the worker in a child process started by a test (see startChild).
func runChild() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rescue, _ := time.ParseDuration(os.Getenv(envRescueAfter))
	err := runWorker(ctx, options{Environ: os.Environ(), Stdout: os.Stdout, Tune: func(c *workers.Config) {
		if rescue > 0 {
			c.RescueStuckJobsAfter = rescue
		}
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, boot.Describe(err))
		return 1
	}
	return 0
}

// env is the worker environment of a test: fast retries, loopback receivers allowed.
func env(dsn string, extra ...string) []string {
	return append([]string{
		"DATABASE_PROVIDER=postgres", "DATABASE_URL=" + dsn, "SHUTDOWN_TIMEOUT=5s", "LOG_LEVEL=warn",
		"APP_URL=https://assay.example.com", "OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32",
		"DELIVERY_RETRY_BASE_MS=200", "WEBHOOK_TIMEOUT=3000", "WEBHOOK_MAX_RETRIES=3",
	}, extra...)
}

// storeFor opens the store as the server would be configured by environ.
func storeFor(t *testing.T, environ []string) *postgres.DB {
	t.Helper()
	cfg, err := config.FromEnviron(environ)
	require.NoError(t, err)
	pool, err := postgres.OpenPool(context.Background(), cfg.DatabaseURL, postgres.PoolConfig{MaxConns: 5})
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	db := postgres.New(pool, nil).ConfigureDeliveries(boot.DeliveryConfig(cfg))
	require.NoError(t, fastServices(db).Roles.SyncBuiltinRoles(context.Background()))
	return db
}

var users atomic.Int64

func createUser(t *testing.T, db *postgres.DB) assess.User {
	t.Helper()
	n := users.Add(1)
	u, err := fastServices(db).Users.CreateUser(context.Background(), assess.NewUser{NewAccount: assess.NewAccount{
		Username: fmt.Sprintf("user%d", n), Email: fmt.Sprintf("user%d@example.com", n), DisplayName: fmt.Sprintf("User %d", n), Password: "a long enough password",
	}}, assess.SystemActor)
	require.NoError(t, err)
	return u
}

func createWebhook(t *testing.T, db *postgres.DB, url string) (assess.Webhook, string) {
	t.Helper()
	wh, secret, err := fastServices(db).Webhooks.CreateWebhook(context.Background(), assess.NewWebhook{
		Name: "receiver", URL: url, EventTypes: []string{string(assess.EventUserCreated)},
	}, assess.SystemActor)
	require.NoError(t, err)
	return wh, secret
}

// webhookDeliveries lists the newest deliveries to a webhook, of status when not empty.
func webhookDeliveries(t *testing.T, db *postgres.DB, webhookID, status string, limit int) []assess.Delivery {
	t.Helper()
	page, err := fastServices(db).Deliveries.FindDeliveries(context.Background(), assess.DeliveryFilter{
		Kind: assess.DeliveryKindWebhook, DestinationID: webhookID, Status: status, PageRequest: assess.PageRequest{Limit: limit}})
	require.NoError(t, err)
	return page.Items
}

// startWorker runs the worker in-process until the test ends.
func startWorker(t *testing.T, opts options) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runWorker(ctx, opts) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(20 * time.Second):
			t.Error("worker did not stop")
		}
	})
}

// received is one request a receiver got.
type received struct {
	at     time.Time
	header http.Header
	body   []byte
}

// receiver answers with statuses in turn (then 200) and keeps what it got.
type receiver struct {
	mu       sync.Mutex
	statuses []int
	got      []received
	delay    time.Duration
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	time.Sleep(r.delay)
	r.mu.Lock()
	r.got = append(r.got, received{at: time.Now(), header: req.Header.Clone(), body: body})
	status := http.StatusOK
	if len(r.statuses) > 0 {
		status, r.statuses = r.statuses[0], r.statuses[1:]
	}
	r.mu.Unlock()
	w.WriteHeader(status)
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitDelivery waits until the only delivery of a webhook is final and returns it with
// its attempt log.
func waitDelivery(t *testing.T, db *postgres.DB, webhookID string, timeout time.Duration) assess.Delivery {
	t.Helper()
	var d assess.Delivery
	require.Eventually(t, func() bool {
		ds := webhookDeliveries(t, db, webhookID, "", 10)
		if len(ds) != 1 || (ds[0].Status != assess.DeliverySucceeded && ds[0].Status != assess.DeliveryFailed) {
			return false
		}
		var err error
		d, err = fastServices(db).Deliveries.FindDelivery(context.Background(), assess.DeliveryKindWebhook, webhookID, ds[0].ID)
		require.NoError(t, err)
		return true
	}, timeout, 50*time.Millisecond)
	return d
}

// TestWebhookRetriedWithBackoffUntilDelivered: the receiver fails three times, then
// accepts. The event is delivered once, after four attempts spaced by the backoff, all
// signed for the same webhook-id; the worker's /metrics counts them.
func TestWebhookRetriedWithBackoffUntilDelivered(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	metricsPort := freePort(t)
	environ := env(dsn, "METRICS_ENABLED=true", "METRICS_PREFIX=assay_", "METRICS_TOKEN=scrape",
		fmt.Sprintf("WORKER_METRICS_PORT=%d", metricsPort))
	db := storeFor(t, environ)
	rec := &receiver{statuses: []int{500, 500, 500}}
	wh, secret := createWebhook(t, db, serve(t, rec)+"/hook")
	metricsAddr := make(chan string, 1)
	startWorker(t, options{Environ: environ, Stdout: io.Discard, MetricsReady: func(a string) { metricsAddr <- a }})
	createUser(t, db)

	d := waitDelivery(t, db, wh.ID, 30*time.Second)
	t.Run("delivered at the fourth attempt", func(t *testing.T) {
		require.Equal(t, assess.DeliverySucceeded, d.Status)
		require.Equal(t, 4, d.Attempts)
		require.Len(t, d.AttemptLog, 4)
		for i, a := range d.AttemptLog {
			require.Equal(t, i+1, a.Attempt)
			if i < 3 {
				require.Equal(t, assess.DeliveryFailed, a.Outcome)
				require.Equal(t, http.StatusInternalServerError, a.HTTPStatus)
				continue
			}
			require.Equal(t, assess.DeliverySucceeded, a.Outcome)
			require.Equal(t, http.StatusOK, a.HTTPStatus)
		}
	})
	t.Run("every attempt is signed for the same webhook-id, spaced by the backoff", func(t *testing.T) {
		reqs := rec.requests()
		require.Len(t, reqs, 4, "delivered once: no request after the success")
		require.Len(t, d.AttemptLog, 4)
		verifier, err := standardwebhooks.NewWebhook(secret)
		require.NoError(t, err)
		for i, r := range reqs {
			require.Equal(t, d.ID, r.header.Get("webhook-id"), "the same webhook-id on every attempt")
			require.NoError(t, verifier.Verify(r.body, r.header))
			if i > 0 {
				gap := d.AttemptLog[i].StartedAt.Sub(d.AttemptLog[i-1].StartedAt)
				least := workers.RetryDelay(200*time.Millisecond, i, -0.2)
				require.GreaterOrEqual(t, gap, least, "gap before attempt %d", i+1)
				t.Logf("attempt %d started %s after attempt %d (backoff at least %s)", i+1, gap.Round(time.Millisecond), i, least)
			}
		}
	})

	// /metrics of the worker, behind the token.
	addr := <-metricsAddr
	t.Run("the worker's /metrics counts jobs, deliveries and attempts", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/metrics", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer scrape")
		require.Eventually(t, func() bool {
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			text := string(body)
			return resp.StatusCode == http.StatusOK &&
				strings.Contains(text, `assay_jobs_total{kind="delivery.webhook",outcome="retried"} 3`) &&
				strings.Contains(text, `assay_jobs_total{kind="delivery.webhook",outcome="completed"} 1`) &&
				strings.Contains(text, `assay_deliveries_total{channel="webhook",outcome="succeeded"} 1`) &&
				strings.Contains(text, `assay_delivery_attempts_total{channel="webhook",outcome="failed"} 3`) &&
				strings.Contains(text, `assay_delivery_duration_seconds_count{channel="webhook"} 4`) &&
				strings.Contains(text, `assay_db_pool_max_connections`)
		}, 5*time.Second, 100*time.Millisecond)
	})
	t.Run("the worker's /metrics needs the token", func(t *testing.T) {
		resp, err := http.Get("http://" + addr + "/metrics")
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	})
}

// TestUnreachableWebhookFailsAndIsSwitchedOff: a receiver that never answers fails each
// delivery after WEBHOOK_MAX_RETRIES; at DELIVERY_DISABLE_AFTER_FAILURES consecutive
// failed deliveries the destination is switched off and channel.webhook.disabled recorded.
func TestUnreachableWebhookFailsAndIsSwitchedOff(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	environ := env(dsn, "WEBHOOK_MAX_RETRIES=1", "DELIVERY_DISABLE_AFTER_FAILURES=2", "DELIVERY_RETRY_BASE_MS=100")
	db := storeFor(t, environ)
	down := fmt.Sprintf("http://127.0.0.1:%d/hook", freePort(t)) // nothing listens there
	wh, _ := createWebhook(t, db, down)
	startWorker(t, options{Environ: environ, Stdout: io.Discard})
	createUser(t, db)
	createUser(t, db)

	ctx := context.Background()
	if !t.Run("switched off after two failed deliveries", func(t *testing.T) {
		require.Eventually(t, func() bool {
			w, err := fastServices(db).Webhooks.FindWebhook(ctx, wh.ID)
			require.NoError(t, err)
			return !w.Active
		}, 30*time.Second, 50*time.Millisecond)
		w, err := fastServices(db).Webhooks.FindWebhook(ctx, wh.ID)
		require.NoError(t, err)
		require.NotNil(t, w.DisabledAt)
		require.Equal(t, 2, w.ConsecutiveFailures)
	}) {
		t.FailNow()
	}
	t.Run("each delivery failed after WEBHOOK_MAX_RETRIES", func(t *testing.T) {
		ds := webhookDeliveries(t, db, wh.ID, "", 10)
		require.Len(t, ds, 2)
		for _, d := range ds {
			require.Equal(t, assess.DeliveryFailed, d.Status)
			require.Equal(t, 2, d.Attempts, "WEBHOOK_MAX_RETRIES=1: two attempts")
			require.Equal(t, "The connection was refused.", d.LastError, "in words, not the Go error")
		}
	})
	t.Run("channel.webhook.disabled is recorded once", func(t *testing.T) {
		var disabled int
		require.NoError(t, db.PgxPool().QueryRow(ctx, "SELECT count(*) FROM events WHERE type = $1 AND data->>'id' = $2",
			assess.EventWebhookDisabled, wh.ID).Scan(&disabled))
		require.Equal(t, 1, disabled)
	})
	t.Run("switched off, it gets nothing more", func(t *testing.T) {
		createUser(t, db)
		ds := webhookDeliveries(t, db, wh.ID, "", 10)
		require.Len(t, ds, 2)
	})
}

// TestKilledWorkerDeliveryIsRetriedAfterRestart kills a worker process (SIGKILL) while
// the receiver holds its request. A new worker process rescues the job and delivers it,
// with the same webhook-id.
func TestKilledWorkerDeliveryIsRetriedAfterRestart(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	environ := env(dsn, "WEBHOOK_TIMEOUT=5000")
	db := storeFor(t, environ)
	held, release := make(chan string, 1), make(chan struct{})
	var mu sync.Mutex
	var ids []string
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		mu.Lock()
		ids = append(ids, r.Header.Get("webhook-id"))
		first := len(ids) == 1
		mu.Unlock()
		if first {
			held <- r.Header.Get("webhook-id")
			select { // held until the worker dies (the connection closes)
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(func() { close(release) })
	wh, _ := createWebhook(t, db, url)

	first := startChild(t, environ)
	createUser(t, db)
	var firstID string
	select {
	case firstID = <-held:
	case <-time.After(20 * time.Second):
		t.Fatal("the first attempt never reached the receiver")
	}
	killedAt := time.Now()
	require.NoError(t, first.Process.Kill()) // SIGKILL: no chance to record anything
	_ = first.Wait()

	second := startChild(t, environ)
	d := waitDelivery(t, db, wh.ID, 50*time.Second)
	t.Logf("delivered %s after the kill", time.Since(killedAt).Round(time.Second))
	require.Equal(t, assess.DeliverySucceeded, d.Status)
	mu.Lock()
	require.Equal(t, []string{firstID, firstID}, ids, "the retried request carries the same webhook-id")
	mu.Unlock()
	require.Equal(t, d.ID, firstID)
	require.Equal(t, 2, d.Attempts, "the attempt cut by the kill is in the log too")
	require.NoError(t, second.Process.Signal(syscall.SIGTERM))
	require.NoError(t, second.Wait(), "graceful stop")
}

// startChild runs the worker as a separate process (this test binary in child mode),
// with River's rescue delay shortened, and waits until it has started.
func startChild(t *testing.T, environ []string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), environ...), envChild+"=1", envRescueAfter+"=3s", "LOG_LEVEL=info")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	started := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		once := sync.Once{}
		for sc.Scan() {
			if strings.Contains(sc.Text(), childReadyToken) {
				once.Do(func() { close(started) })
			}
		}
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the worker process did not start")
	}
	return cmd
}

// TestTwoWorkersDeliverEachEventOnce runs two workers against one database: every event
// reaches every destination exactly once.
func TestTwoWorkersDeliverEachEventOnce(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	environ := env(dsn)
	db := storeFor(t, environ)
	a, b := &receiver{delay: 30 * time.Millisecond}, &receiver{delay: 30 * time.Millisecond}
	whA, _ := createWebhook(t, db, serve(t, a))
	whB, _ := createWebhook(t, db, serve(t, b))
	for _, name := range []string{"worker-a", "worker-b"} { // as two hosts would be
		startWorker(t, options{Environ: environ, Stdout: io.Discard, Tune: func(c *workers.Config) { c.Name = name }})
	}
	const events = 30
	for range events {
		createUser(t, db)
	}
	require.Eventually(t, func() bool {
		return len(a.requests()) >= events && len(b.requests()) >= events
	}, 30*time.Second, 50*time.Millisecond)
	time.Sleep(500 * time.Millisecond) // a duplicate would show up now
	for _, r := range []struct {
		name string
		rec  *receiver
	}{{"A", a}, {"B", b}} {
		t.Run("receiver "+r.name+" gets every event once", func(t *testing.T) {
			seen := map[string]int{}
			eventIDs := map[string]bool{}
			for _, req := range r.rec.requests() {
				seen[req.header.Get("webhook-id")]++
				var env assess.Event
				require.NoError(t, json.Unmarshal(req.body, &env))
				eventIDs[env.ID] = true
			}
			require.Len(t, seen, events, "one delivery per event")
			for id, n := range seen {
				require.Equal(t, 1, n, "delivery %s sent once", id)
			}
			require.Len(t, eventIDs, events)
		})
	}
	t.Run("every delivery is recorded as succeeded", func(t *testing.T) {
		for _, wh := range []string{whA.ID, whB.ID} {
			require.Len(t, webhookDeliveries(t, db, wh, assess.DeliverySucceeded, 100), events)
		}
	})
	var workersUsed int
	require.NoError(t, db.PgxPool().QueryRow(context.Background(),
		"SELECT count(DISTINCT attempted_by[1]) FROM river_job WHERE kind = 'delivery.webhook'").Scan(&workersUsed))
	t.Logf("%d events × 2 destinations delivered by %d workers", events, workersUsed)
}

// TestWorkerRefusesInternalAddressesWithoutAllowList: destinations saved while internal
// networks were allowed (the server's setting) are refused by a worker without
// OUTBOUND_ALLOW_NETWORKS, and nothing reaches them.
func TestWorkerRefusesInternalAddressesWithoutAllowList(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	db := storeFor(t, env(dsn, "OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32,::1/128,10.0.0.0/8,169.254.0.0/16"))
	rec := &receiver{}
	port := strings.TrimPrefix(serve(t, rec), "http://127.0.0.1:")
	targets := map[string]string{
		"https://169.254.169.254/latest/meta-data/": "link-local",
		"https://10.0.0.1/hook":                     "private network",
		"http://10.0.0.1/hook":                      "plain http",
		"https://localhost:" + port + "/hook":       "loopback",
		"http://localhost:" + port + "/hook":        "plain http",
		"http://127.0.0.1:" + port + "/hook":        "plain http",
	}
	hooks := map[string]string{}
	for url := range targets {
		wh, _ := createWebhook(t, db, url)
		hooks[wh.ID] = url
	}
	environ := []string{}
	for _, kv := range env(dsn, "WEBHOOK_MAX_RETRIES=0") {
		if !strings.HasPrefix(kv, "OUTBOUND_ALLOW_NETWORKS=") {
			environ = append(environ, kv)
		}
	}
	startWorker(t, options{Environ: environ, Stdout: io.Discard})
	createUser(t, db)
	// Each destination waits for its own final delivery; the waits only read, so they run
	// in parallel. The group returns when all of them have.
	t.Run("each internal destination is refused", func(t *testing.T) {
		for id, url := range hooks {
			t.Run(targets[url]+" "+strings.Replace(url, port, "PORT", 1), func(t *testing.T) {
				t.Parallel()
				d := waitDelivery(t, db, id, 20*time.Second)
				require.Equal(t, assess.DeliveryFailed, d.Status, url)
				require.Contains(t, d.LastError, "refused", url)
				require.Contains(t, d.LastError, targets[url], url)
				require.Contains(t, d.LastError, "OUTBOUND_ALLOW_NETWORKS", url)
				require.NotEmpty(t, d.AttemptLog, url)
				require.Zero(t, d.AttemptLog[0].HTTPStatus)
			})
		}
	})
	t.Run("nothing reached the loopback receiver", func(t *testing.T) {
		require.Empty(t, rec.requests(), "nothing reached the loopback receiver")
	})
}

// fastServices are the store's services on db with a cheap password hasher (tests only).
func fastServices(db *postgres.DB) *services.Services {
	cfg := services.DefaultConfig()
	cfg.Identity.Hasher = secret.NewHasher(secret.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1}, 2)
	return services.NewWith(db, cfg)
}
