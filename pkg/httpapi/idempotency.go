package httpapi

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// Headers of the idempotency protocol.
const (
	// HeaderIdempotencyKey carries the client's key on a creating POST.
	HeaderIdempotencyKey = "Idempotency-Key"
	// HeaderIdempotentReplayed marks a response replayed from a stored outcome.
	HeaderIdempotentReplayed = "Idempotent-Replayed"
	maxIdempotencyKeyLen     = 255
	// storeTimeout bounds storing or releasing an outcome after the handler finished; it
	// runs on a context detached from the client, which may have gone away meanwhile.
	storeTimeout = 5 * time.Second
)

// replayedHeaders are the response headers stored with an outcome and replayed with it.
var replayedHeaders = []string{"Content-Type", "Location"}

// Idempotency returns the middleware that makes POST requests carrying an Idempotency-Key
// safe to retry. The key is scoped to the caller (credentialKey) and to the method and
// path. The first request with a key runs and its outcome is stored; a retry with the same
// body gets the stored status, Content-Type, Location and body back with
// Idempotent-Replayed: true, without running the handler. The same key with another body
// is 422 business_rule_violation (details code idempotency_key_reused); a retry while the
// first request still runs is 409 conflict. Server errors (5xx), panics and refusals that
// happen before the endpoint runs (401, 403, 429) are not stored, so a retry runs again;
// nor are responses that set a cookie (sign-in), since a session must never be kept at
// rest nor a replay pretend to sign somebody in.
// Bodies are read into memory to be hashed, so requests with a key are capped at maxBody
// bytes (413 above; 1 MiB when not positive). Requests without the header, and other
// methods, pass untouched.
//
// The body is kept only as its HMAC-SHA-256 under a key derived from secret (the server's
// session key, the same on every replica; requestHashKey): a body can hold a password (a
// server-side signature's), and a plain SHA-256 of it, stored in the database, could be
// guessed against as fast as SHA-256 runs by anyone who reads the table. Without a secret
// (the stored session key cannot be read: the service starts without sign-in) bodies are
// compared by their SHA-256, which every replica computes alike.
func Idempotency(store assess.IdempotencyStore, secret []byte, maxBody int64, log *slog.Logger) func(http.Handler) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	if maxBody <= 0 {
		maxBody = 1 << 20
	}
	m := &idempotency{store: store, maxBody: maxBody, log: log}
	if len(secret) > 0 {
		m.hashKey = requestHashKey(secret)
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			keys := r.Header.Values(HeaderIdempotencyKey)
			if r.Method != http.MethodPost || len(keys) == 0 {
				next.ServeHTTP(w, r)
				return
			}
			if isMultipart(r) { // uploads are streamed, never buffered to be hashed: see upload.go
				writeError(w, r, m.log, &assess.Error{Code: assess.ECodeValidation,
					Message: "Uploads do not take an Idempotency-Key: uploading the same file to the same record again yields the same attachment.",
					Details: []assess.Detail{{Field: HeaderIdempotencyKey, Code: "not_supported", Message: "not supported on uploads"}}})
				return
			}
			m.serve(w, r, next, keys)
		})
	}
}

type idempotency struct {
	store   assess.IdempotencyStore
	hashKey []byte
	maxBody int64
	log     *slog.Logger
}

// requestHashKey derives the key of the request hashes from the server's secret, so the
// secret itself is never used for anything but its own purpose.
func requestHashKey(secret []byte) []byte {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("assay idempotency request hash v1"))
	return mac.Sum(nil)
}

// requestHash is the stored fingerprint of a request body.
func (m *idempotency) requestHash(body []byte) []byte {
	if m.hashKey == nil {
		sum := sha256.Sum256(body)
		return sum[:]
	}
	mac := hmac.New(sha256.New, m.hashKey)
	mac.Write(body)
	return mac.Sum(nil)
}

func (m *idempotency) serve(w http.ResponseWriter, r *http.Request, next http.Handler, keys []string) {
	if len(keys) != 1 || !validIdempotencyKey(keys[0]) {
		writeError(w, r, m.log, &assess.Error{Code: assess.ECodeValidation,
			Message: "The Idempotency-Key header must be a single value of 1 to 255 visible ASCII characters.",
			Details: []assess.Detail{{Field: HeaderIdempotencyKey, Code: "invalid", Message: "must be 1 to 255 visible ASCII characters"}}})
		return
	}
	body, err := m.readBody(r)
	if err != nil {
		writeError(w, r, m.log, err)
		return
	}
	sum := m.requestHash(body)
	k := idemKey{scope: credentialKey(r), endpoint: r.Method + " " + r.URL.Path, key: keys[0]}
	rec, started, err := m.store.Begin(r.Context(), k.scope, k.endpoint, k.key, sum)
	if err != nil {
		m.log.ErrorContext(r.Context(), "idempotency store unavailable", slog.String("error", err.Error()))
		writeError(w, r, m.log, assess.Errorf(assess.ECodeUnavailable,
			"The request could not be checked against its Idempotency-Key; try again shortly."))
		return
	}
	if started {
		m.runOnce(w, r, next, k)
		return
	}
	switch {
	case !hmac.Equal(rec.RequestHash, sum):
		writeError(w, r, m.log, &assess.Error{Code: assess.ECodeBusinessRule,
			Message: "This Idempotency-Key was already used for a request with a different body; use a new key for a new request.",
			Details: []assess.Detail{{Field: HeaderIdempotencyKey, Code: "idempotency_key_reused", Message: "the key was used with a different request body"}}})
	case !rec.Completed:
		w.Header().Set("Retry-After", "1")
		writeError(w, r, m.log, assess.Errorf(assess.ECodeConflict,
			"A request with this Idempotency-Key is in progress; retry once it has finished."))
	default:
		replay(w, rec)
	}
}

type idemKey struct{ scope, endpoint, key string }

// validIdempotencyKey accepts 1 to 255 visible ASCII characters (no spaces or controls).
func validIdempotencyKey(k string) bool {
	if len(k) == 0 || len(k) > maxIdempotencyKeyLen {
		return false
	}
	for i := range len(k) {
		if k[i] < 0x21 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// readBody reads the whole body (at most maxBody bytes) and puts it back for the handler.
func (m *idempotency) readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, m.maxBody+1))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) || int64(len(body)) > m.maxBody {
		return nil, errBodyTooLarge(m.maxBody)
	}
	if err != nil {
		return nil, assess.Errorf(assess.ECodeValidation, "The request body could not be read.")
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, nil
}

// runOnce runs the handler for the request that claimed the key and stores its outcome,
// or releases the key when the outcome must not be stored or the handler panicked.
// HeaderOneTimeSecret marks a response that contains a secret shown only this once (a
// new API key, an invite token). Such responses are never stored for replay.
const HeaderOneTimeSecret = "X-One-Time-Secret"

func (m *idempotency) runOnce(w http.ResponseWriter, r *http.Request, next http.Handler, k idemKey) {
	stored := false
	defer func() {
		if stored {
			return
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), storeTimeout)
		defer cancel()
		if err := m.store.Abandon(ctx, k.scope, k.endpoint, k.key); err != nil {
			m.log.ErrorContext(ctx, "idempotency key not released; retries get 409 until it expires",
				slog.String("error", err.Error()))
		}
	}()
	cw := &captureWriter{ResponseWriter: w}
	next.ServeHTTP(cw, r)
	cw.snapshot()
	if !storableStatus(cw.status) || cw.setsCookie {
		return
	}
	status, headers, body := cw.status, cw.headers, cw.body.Bytes()
	if cw.Header().Get(HeaderOneTimeSecret) != "" {
		// A secret is shown once and never stored: only the fact of success is kept.
		status, headers, body = http.StatusConflict, map[string]string{HeaderOneTimeSecret: "withheld"}, nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), storeTimeout)
	defer cancel()
	if err := m.store.Complete(ctx, k.scope, k.endpoint, k.key, status, headers, body); err != nil {
		m.log.ErrorContext(ctx, "idempotency outcome not stored; a retry will run again", slog.String("error", err.Error()))
		return
	}
	stored = true
}

// storableStatus tells the outcomes a retry must see again. Server errors may succeed on
// a retry; 401, 403 and 429 are refusals before the endpoint ran, which change once the
// caller signs in, is granted a role or waits.
func storableStatus(status int) bool {
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests:
		return false
	}
	return status < http.StatusInternalServerError
}

func replay(w http.ResponseWriter, rec assess.IdempotencyRecord) {
	h := w.Header()
	if rec.Headers[HeaderOneTimeSecret] != "" {
		h.Set(HeaderIdempotentReplayed, "true")
		writeEnvelope(w, &Error{status: http.StatusConflict, Code: assess.ECodeConflict, RequestID: h.Get(HeaderRequestID),
			Message: "A request with this Idempotency-Key already succeeded. Its response held a secret, which is shown only once and so is not repeated.",
			Details: []assess.Detail{{Code: "secret_not_replayed", Message: "List the resources to find the one created."}}})
		return
	}
	for _, name := range replayedHeaders {
		if v, ok := rec.Headers[name]; ok {
			h.Set(name, v)
		}
	}
	h.Set(HeaderIdempotentReplayed, "true")
	w.WriteHeader(rec.Status)
	_, _ = w.Write(rec.Body)
}

// captureWriter passes the response through and keeps a copy of its status, replayed
// headers and body.
type captureWriter struct {
	http.ResponseWriter
	status     int
	headers    map[string]string
	setsCookie bool
	body       bytes.Buffer
}

func (c *captureWriter) WriteHeader(code int) {
	if c.status == 0 && code >= 200 {
		c.status = code
		c.ResponseWriter.WriteHeader(code)
		c.snapshot() // after the inner writers' header adjustments (charset), before more writes
		return
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *captureWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.WriteHeader(http.StatusOK)
	}
	c.body.Write(b)
	return c.ResponseWriter.Write(b)
}

// snapshot records the replayed headers once; a handler that wrote nothing answered 200.
func (c *captureWriter) snapshot() {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	if c.headers != nil {
		return
	}
	c.headers = map[string]string{}
	c.setsCookie = len(c.Header().Values("Set-Cookie")) > 0
	for _, name := range replayedHeaders {
		if v := c.Header().Get(name); v != "" {
			c.headers[name] = v
		}
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (c *captureWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
