package httpapi

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// creator is a creating endpoint that counts its runs. Each run answers 201 with a new
// id, so a replay is told apart from a second run by its body. Set fail to make the
// next runs answer that status instead, and delay to make them slow.
type creator struct {
	runs atomic.Int64
	fail atomic.Int64 // status to answer instead of 201; 0 for none; -1 to panic
	// cookie makes the runs set a cookie, as sign-in does.
	cookie atomic.Bool
	delay  time.Duration
}

func (c *creator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := c.runs.Add(1)
	body, _ := io.ReadAll(r.Body)
	time.Sleep(c.delay)
	switch f := c.fail.Load(); {
	case f == -1:
		panic("creator failed")
	case f > 0:
		writeEnvelope(w, &Error{status: int(f), Code: "some_error", Message: "Failed."})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Location", fmt.Sprintf("%s/th_%d", r.URL.Path, n))
	w.Header().Set("X-Not-Replayed", "1")
	if c.cookie.Load() {
		http.SetCookie(w, &http.Cookie{Name: SessionCookieName, Value: "sess"})
	}
	w.WriteHeader(http.StatusCreated)
	_, _ = fmt.Fprintf(w, `{"id":"th_%d","received":%q}`, n, body)
}

// testIdempotencySecret is the replicas' shared secret in these tests.
var testIdempotencySecret = []byte("a session key of at least thirty-two characters")

// idempotentStack is one replica's platform middleware around Idempotency and c.
func idempotentStack(pool *pgxpool.Pool, now func() time.Time, c *creator) http.Handler {
	store := postgres.NewIdempotencyStore(pool, now)
	return requestID(clientInfo(0)(observe(discard, nil)(Idempotency(store, testIdempotencySecret, 1024, discard)(c))))
}

type response struct {
	status int
	header http.Header
	body   string
}

func post(t *testing.T, h http.Handler, path, body string, hdr ...string) response {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.RemoteAddr = "192.0.2.1:40000"
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return response{status: rec.Code, header: rec.Result().Header, body: rec.Body.String()}
}

func TestIdempotencyReplaysStoredOutcome(t *testing.T) {
	t.Parallel()
	c := &creator{}
	h := idempotentStack(pgtest.NewPool(t), nil, c)
	var first response
	if !t.Run("the first request runs", func(t *testing.T) {
		first = post(t, h, "/api/v1/things", `{"name":"a"}`, "Idempotency-Key", "k-1", "X-Api-Key", "ak_1")
		require.Equal(t, http.StatusCreated, first.status)
		require.Empty(t, first.header.Get(HeaderIdempotentReplayed))
	}) {
		t.FailNow()
	}
	t.Run("a retry gets the stored outcome without running again", func(t *testing.T) {
		again := post(t, h, "/api/v1/things", `{"name":"a"}`, "Idempotency-Key", "k-1", "X-Api-Key", "ak_1")
		require.Equal(t, http.StatusCreated, again.status)
		require.Equal(t, first.body, again.body)
		require.Equal(t, `{"id":"th_1","received":"{\"name\":\"a\"}"}`, again.body, "the handler saw the whole body")
		require.Equal(t, "/api/v1/things/th_1", again.header.Get("Location"))
		require.Equal(t, first.header.Get("Content-Type"), again.header.Get("Content-Type"))
		require.Equal(t, "true", again.header.Get(HeaderIdempotentReplayed))
		require.Empty(t, again.header.Get("X-Not-Replayed"), "only Content-Type and Location are replayed")
		require.NotEqual(t, first.header.Get(HeaderRequestID), again.header.Get(HeaderRequestID))
		require.Equal(t, int64(1), c.runs.Load())
	})

	// Without the header, or with another method, nothing is remembered.
	t.Run("without the header nothing is remembered", func(t *testing.T) {
		post(t, h, "/api/v1/things", `{"name":"a"}`, "X-Api-Key", "ak_1")
		require.Equal(t, int64(2), c.runs.Load())
	})
	t.Run("with another method nothing is remembered", func(t *testing.T) {
		for range 2 {
			send(t, h, http.MethodGet, "/api/v1/things", "192.0.2.1", "Idempotency-Key", "k-1", "X-Api-Key", "ak_1")
		}
		require.Equal(t, int64(4), c.runs.Load())
	})
}

func TestIdempotencyKeyReusedWithOtherBody(t *testing.T) {
	t.Parallel()
	c := &creator{}
	h := idempotentStack(pgtest.NewPool(t), nil, c)
	require.Equal(t, http.StatusCreated, post(t, h, "/api/v1/things", `{"name":"a"}`, "Idempotency-Key", "k-1").status)
	res := post(t, h, "/api/v1/things", `{"name":"b"}`, "Idempotency-Key", "k-1")
	require.Equal(t, http.StatusUnprocessableEntity, res.status, res.body)
	require.Contains(t, res.body, `"error":"business_rule_violation"`)
	require.Contains(t, res.body, `"code":"idempotency_key_reused"`)
	require.Equal(t, int64(1), c.runs.Load())
}

// TestIdempotencyKeepsNoPlainHashOfTheBody: a body can hold a password (a server-side
// signature's), so the stored fingerprint is an HMAC under a key derived from the server's
// secret, not a SHA-256 anyone who reads the table could guess bodies against; every replica
// with the same secret recognises a retry.
func TestIdempotencyKeepsNoPlainHashOfTheBody(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	c := &creator{}
	body := `{"digital":{"password":"correct horse battery staple"}}`
	require.Equal(t, http.StatusCreated, post(t, idempotentStack(pool, nil, c), "/api/v1/things", body, "Idempotency-Key", "k-1").status)
	var stored []byte
	require.NoError(t, pool.QueryRow(context.Background(), "SELECT request_hash FROM idempotency_keys WHERE key = 'k-1'").Scan(&stored))
	plain := sha256.Sum256([]byte(body))
	require.NotEqual(t, plain[:], stored, "not the body's plain SHA-256")
	mac := hmac.New(sha256.New, requestHashKey(testIdempotencySecret))
	mac.Write([]byte(body))
	require.Equal(t, mac.Sum(nil), stored)

	again := post(t, idempotentStack(pool, nil, c), "/api/v1/things", body, "Idempotency-Key", "k-1")
	require.Equal(t, "true", again.header.Get(HeaderIdempotentReplayed), "another replica with the same secret replays")
	require.Equal(t, int64(1), c.runs.Load())

	// Without a secret (the stored session key unreadable) the server still starts and
	// replays, comparing bodies by their SHA-256.
	bare := requestID(clientInfo(0)(observe(discard, nil)(Idempotency(postgres.NewIdempotencyStore(pool, nil), nil, 1024, discard)(c))))
	require.Equal(t, http.StatusCreated, post(t, bare, "/api/v1/things", body, "Idempotency-Key", "k-2").status)
	require.Equal(t, "true", post(t, bare, "/api/v1/things", body, "Idempotency-Key", "k-2").header.Get(HeaderIdempotentReplayed))
}

// TestIdempotencyConcurrentRequestsRunOnce sends one key from two replicas at once while
// the handler is slow: it runs once, one record exists, the others are told to wait (409)
// or, if they arrive after the first finished, get the replay.
func TestIdempotencyConcurrentRequestsRunOnce(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	c := &creator{delay: 300 * time.Millisecond}
	replicas := []http.Handler{
		idempotentStack(replicaPool(t, dsn), nil, c),
		idempotentStack(replicaPool(t, dsn), nil, c),
	}
	const n = 6
	replies := make([]response, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			replies[i] = post(t, replicas[i%2], "/api/v1/things", `{"name":"a"}`, "Idempotency-Key", "same")
		})
	}
	wg.Wait()
	require.Equal(t, int64(1), c.runs.Load())
	created, conflicts := 0, 0
	for _, r := range replies {
		switch {
		case r.status == http.StatusCreated && r.header.Get(HeaderIdempotentReplayed) == "":
			created++
		case r.status == http.StatusConflict:
			conflicts++
			require.Contains(t, r.body, `"error":"conflict"`)
			require.Contains(t, r.body, "in progress")
		default:
			require.Equal(t, http.StatusCreated, r.status, r.body)
			require.Equal(t, `{"id":"th_1","received":"{\"name\":\"a\"}"}`, r.body)
		}
	}
	require.Equal(t, 1, created)
	require.Positive(t, conflicts)
	var rows int
	require.NoError(t, replicaPool(t, dsn).QueryRow(context.Background(), "SELECT count(*) FROM idempotency_keys").Scan(&rows))
	require.Equal(t, 1, rows)
}

// TestIdempotencyFailuresAreNotStored: a 5xx, a panic or a refusal before the endpoint
// ran leaves the key free, so the retry runs the handler again.
func TestIdempotencyFailuresAreNotStored(t *testing.T) {
	t.Parallel()
	for _, fail := range []int64{http.StatusInternalServerError, http.StatusServiceUnavailable, -1, http.StatusUnauthorized, http.StatusForbidden} {
		t.Run(fmt.Sprint(fail), func(t *testing.T) {
			t.Parallel()
			c := &creator{}
			h := idempotentStack(pgtest.NewPool(t), nil, c)
			c.fail.Store(fail)
			res := post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", "k")
			require.NotEqual(t, http.StatusCreated, res.status)
			c.fail.Store(0)
			res = post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", "k")
			require.Equal(t, http.StatusCreated, res.status, res.body)
			require.Empty(t, res.header.Get(HeaderIdempotentReplayed))
			require.Equal(t, int64(2), c.runs.Load())
			// The success is stored.
			require.Equal(t, "true", post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", "k").header.Get(HeaderIdempotentReplayed))
			require.Equal(t, int64(2), c.runs.Load())
		})
	}
}

// TestIdempotencyClientErrorsAreStored: a 4xx outcome of the endpoint itself is the
// answer to that request, and a retry gets it again.
func TestIdempotencyClientErrorsAreStored(t *testing.T) {
	t.Parallel()
	c := &creator{}
	h := idempotentStack(pgtest.NewPool(t), nil, c)
	c.fail.Store(http.StatusConflict)
	first := post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", "k")
	require.Equal(t, http.StatusConflict, first.status)
	c.fail.Store(0)
	again := post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", "k")
	require.Equal(t, http.StatusConflict, again.status)
	require.Equal(t, first.body, again.body)
	require.Equal(t, "true", again.header.Get(HeaderIdempotentReplayed))
	require.Equal(t, int64(1), c.runs.Load())
}

func TestIdempotencyKeyScopedPerCredentialAndEndpoint(t *testing.T) {
	t.Parallel()
	c := &creator{}
	h := idempotentStack(pgtest.NewPool(t), nil, c)
	require.Equal(t, `{"id":"th_1","received":"{}"}`, post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", "k", "Authorization", "Bearer ak_a").body)
	require.Equal(t, `{"id":"th_2","received":"{}"}`, post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", "k", "Authorization", "Bearer ak_b").body)
	require.Equal(t, `{"id":"th_3","received":"{}"}`, post(t, h, "/api/v1/others", `{}`, "Idempotency-Key", "k", "Authorization", "Bearer ak_a").body)
	require.Equal(t, `{"id":"th_4","received":"{}"}`, post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", "k").body, "anonymous: scoped to the address")
	require.Equal(t, `{"id":"th_2","received":"{}"}`, post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", "k", "Authorization", "Bearer ak_b").body)
	require.Equal(t, int64(4), c.runs.Load())
}

func TestIdempotencyInvalidKey(t *testing.T) {
	t.Parallel()
	c := &creator{}
	h := idempotentStack(pgtest.NewPool(t), nil, c)
	for _, key := range []struct{ name, key string }{
		{"empty", ""},
		{"too long", strings.Repeat("k", 256)},
		{"with a space", "with space"},
		{"with a tab", "tab\tkey"},
		{"not ASCII", "ключ"},
	} {
		t.Run("a key "+key.name+" is refused", func(t *testing.T) {
			res := post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", key.key)
			require.Equal(t, http.StatusBadRequest, res.status, "key %q", key.key)
			require.Contains(t, res.body, `"error":"validation_failed"`)
			require.Contains(t, res.body, `"field":"Idempotency-Key"`)
		})
	}
	t.Run("a refused key runs nothing", func(t *testing.T) {
		require.Zero(t, c.runs.Load())
	})
	t.Run("the longest key is accepted", func(t *testing.T) {
		require.Equal(t, http.StatusCreated, post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", strings.Repeat("~", 255)).status)
	})
}

func TestIdempotencyBodyTooLarge(t *testing.T) {
	t.Parallel()
	c := &creator{}
	h := idempotentStack(pgtest.NewPool(t), nil, c)
	res := post(t, h, "/api/v1/things", strings.Repeat("x", 1025), "Idempotency-Key", "k")
	require.Equal(t, http.StatusRequestEntityTooLarge, res.status)
	require.Contains(t, res.body, `"error":"payload_too_large"`)
	require.Zero(t, c.runs.Load())
}

func TestIdempotencyExpiredKeyRunsAgain(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	clock := newTestClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	c := &creator{}
	h := idempotentStack(pool, clock.Now, c)
	require.Equal(t, http.StatusCreated, post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", "k").status)
	clock.Advance(24*time.Hour - time.Second)
	require.Equal(t, "true", post(t, h, "/api/v1/things", `{}`, "Idempotency-Key", "k").header.Get(HeaderIdempotentReplayed))
	clock.Advance(2 * time.Second)
	// After 24 hours the key is free again, even for another body.
	res := post(t, h, "/api/v1/things", `{"other":true}`, "Idempotency-Key", "k")
	require.Equal(t, http.StatusCreated, res.status)
	require.Empty(t, res.header.Get(HeaderIdempotentReplayed))
	require.Equal(t, int64(2), c.runs.Load())
	var rows int
	require.NoError(t, pool.QueryRow(context.Background(), "SELECT count(*) FROM idempotency_keys").Scan(&rows))
	require.Equal(t, 1, rows)
}

// TestIdempotencyResponsesSettingCookiesAreNotStored: a sign-in is never replayed (the
// replay could not set the cookie, and the session must not be kept at rest).
func TestIdempotencyResponsesSettingCookiesAreNotStored(t *testing.T) {
	t.Parallel()
	c := &creator{}
	c.cookie.Store(true)
	h := idempotentStack(pgtest.NewPool(t), nil, c)
	for range 2 {
		res := post(t, h, "/api/v1/auth/login", `{"username":"a"}`, "Idempotency-Key", "k")
		require.Equal(t, http.StatusCreated, res.status)
		require.NotEmpty(t, res.header.Get("Set-Cookie"))
	}
	require.Equal(t, int64(2), c.runs.Load())
}

// TestIdempotencyRefusesUploads: an upload is streamed, never buffered to be hashed, so
// an Idempotency-Key on one is refused rather than silently ignored; without the header
// the upload passes through untouched.
func TestIdempotencyRefusesUploads(t *testing.T) {
	t.Parallel()
	c := &creator{}
	h := idempotentStack(pgtest.NewPool(t), nil, c)
	form := "multipart/form-data; boundary=b"
	res := post(t, h, "/api/v1/things/t1/files", "--b--\r\n", "Content-Type", form, HeaderIdempotencyKey, "k1")
	require.Equal(t, http.StatusBadRequest, res.status, res.body)
	require.Contains(t, res.body, `"not_supported"`)
	require.Zero(t, c.runs.Load())
	res = post(t, h, "/api/v1/things/t1/files", "--b--\r\n", "Content-Type", form)
	require.Equal(t, http.StatusCreated, res.status, res.body)
}
