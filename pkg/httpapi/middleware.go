package httpapi

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/logging"
)

// HeaderRequestID is the header that carries the request id both ways.
const HeaderRequestID = "X-Request-Id"

// requestID takes a sane client-supplied id or generates one, and puts it on the response
// and into the context so every log line of the request carries it.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := takeRequestID(w, r)
		next.ServeHTTP(w, r.WithContext(logging.WithRequestID(r.Context(), id)))
	})
}

// takeRequestID returns the request's id (the client's when sane, else a new one) and
// sets it on the response.
func takeRequestID(w http.ResponseWriter, r *http.Request) string {
	id := r.Header.Get(HeaderRequestID)
	if !validRequestID(id) {
		id = newRequestID()
	}
	w.Header()[HeaderRequestID] = []string{id}
	return id
}

// requestContext is requestID and clientInfo in one step, with one copy of the request:
// the id and the client go into the context together.
func requestContext(hops int) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id := takeRequestID(w, r)
			ctx := context.WithValue(logging.WithRequestID(r.Context(), id), clientKey{}, clientOf(r, hops))
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// validRequestID bounds length and charset so a client cannot inject log noise.
func validRequestID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':'
		if !ok {
			return false
		}
	}
	return true
}

// newRequestID returns 128 random bits in hexadecimal. A request id names a request in
// logs and is no secret, so the runtime's fast generator (ChaCha8, seeded at random per
// thread) serves, without a system call per request.
func newRequestID() string {
	var b [32]byte
	const digits = "0123456789abcdef"
	for half, v := range [2]uint64{rand.Uint64(), rand.Uint64()} {
		for i := range 16 {
			b[half*16+i] = digits[v>>(60-4*i)&0xf]
		}
	}
	return string(b[:])
}

// Client describes who is calling, as far as the trusted proxies tell.
type Client struct {
	IP     string // client address after TRUST_PROXY_HOPS
	Scheme string // "http" or "https"
	Host   string
}

type clientKey struct{}

// ClientFrom returns the client information of the request context.
func ClientFrom(ctx context.Context) Client {
	c, _ := ctx.Value(clientKey{}).(Client)
	return c
}

// clientInfo resolves the client IP and scheme, trusting exactly hops proxies: the address
// the last trusted proxy saw is hops entries from the right of X-Forwarded-For. Headers
// from untrusted clients are ignored, so nobody can spoof an address by sending them.
func clientInfo(hops int) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey{}, clientOf(r, hops))))
		})
	}
}

// clientOf resolves the client of r, trusting hops proxies (see clientInfo).
func clientOf(r *http.Request, hops int) Client {
	c := Client{IP: remoteIP(r.RemoteAddr), Scheme: "http", Host: r.Host}
	if r.TLS != nil {
		c.Scheme = "https"
	}
	if hops > 0 {
		if xff := splitList(r.Header.Values("X-Forwarded-For")); len(xff) > 0 {
			c.IP = xff[max(len(xff)-hops, 0)]
		}
		if p := splitList(r.Header.Values("X-Forwarded-Proto")); len(p) > 0 {
			if s := strings.ToLower(p[max(len(p)-hops, 0)]); s == "http" || s == "https" {
				c.Scheme = s
			}
		}
		if h := splitList(r.Header.Values("X-Forwarded-Host")); len(h) > 0 {
			c.Host = h[max(len(h)-hops, 0)]
		}
	}
	return c
}

func remoteIP(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

func splitList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			if p := strings.TrimSpace(part); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// contentSecurityPolicy fits the SPA and the docs page: everything from our own origin,
// inline styles only (Element Plus and Swagger UI set style attributes), no framing of
// our pages. blob: images and frames let the evidence page preview an attachment it read
// with the session (an image, or a PDF in a frame of its own); scripts stay 'self' only.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; frame-src blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; " +
	"base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// securityHeaderNames and securityHeaderValues are the headers every answer carries.
var (
	securityHeaderNames = [...]string{"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options",
		"Referrer-Policy", "Cross-Origin-Opener-Policy", "Permissions-Policy"}
	securityHeaderValues = [...]string{contentSecurityPolicy, "nosniff", "DENY",
		"no-referrer", "same-origin", "camera=(), microphone=(), geolocation=()"}
)

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		// One allocation holds every value; each header gets a slice of it whose capacity
		// is its length, so adding to one header copies instead of overwriting the next.
		vals := securityHeaderValues
		for i, name := range securityHeaderNames {
			h[name] = vals[i : i+1 : i+1]
		}
		if ClientFrom(r.Context()).Scheme == "https" {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}

// cors allows credentialed cross-origin calls from the configured origins only.
func cors(origins []string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			origin := r.Header.Get("Origin")
			if origin == "" || !slices.Contains(origins, origin) {
				next.ServeHTTP(w, r)
				return
			}
			h := w.Header()
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Allow-Credentials", "true")
			h.Set("Access-Control-Expose-Headers", "X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Idempotent-Replayed, ETag")
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE")
				h.Set("Access-Control-Allow-Headers", "Content-Type, Authorization, X-Api-Key, X-Request-Id, Idempotency-Key, If-Match, If-None-Match")
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// statusRecorder remembers the status and size of a response, and adds the charset to
// JSON responses so every JSON body says application/json; charset=utf-8.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
		if s.Header().Get("Content-Type") == "application/json" {
			s.Header().Set("Content-Type", contentTypeJSON)
		}
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.WriteHeader(http.StatusOK)
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer (deadlines, flushing).
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// RequestObserver receives one observation per finished request (for metrics).
type RequestObserver interface {
	ObserveHTTP(route, method string, status int, elapsed time.Duration)
}

// observe logs every request and reports it to the observer, and turns panics into the
// internal_error envelope with the stack logged under the request id.
func observe(log *slog.Logger, obs RequestObserver) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			rec := &statusRecorder{ResponseWriter: w}
			defer func() {
				if p := recover(); p != nil {
					if p == http.ErrAbortHandler {
						panic(p)
					}
					log.ErrorContext(r.Context(), "panic serving request",
						slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
					if rec.status == 0 {
						writeEnvelope(rec, &Error{status: http.StatusInternalServerError, Code: assess.ECodeInternal,
							Message:   "An internal error occurred; quote the request id when reporting it.",
							RequestID: logging.RequestID(r.Context())})
					}
				}
				finish(log, obs, r, rec, time.Since(start))
			}()
			next.ServeHTTP(rec, r)
		})
	}
}

func finish(log *slog.Logger, obs RequestObserver, r *http.Request, rec *statusRecorder, elapsed time.Duration) {
	level := slog.LevelInfo
	if r.URL.Path == "/api/health" || r.URL.Path == "/metrics" {
		level = slog.LevelDebug
	}
	logged := log.Enabled(r.Context(), level)
	if obs == nil && !logged { // nothing to report: no route pattern to render either
		return
	}
	status := rec.status
	if status == 0 {
		status = http.StatusOK
	}
	route := "unmatched" // the route pattern when one matched, even if its handler answered 404
	if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
		route = rc.RoutePattern()
	}
	if obs != nil {
		obs.ObserveHTTP(route, r.Method, status, elapsed)
	}
	if !logged {
		return
	}
	log.LogAttrs(r.Context(), level, "request",
		slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("route", route),
		slog.Int("status", status), slog.Int64("bytes", rec.bytes),
		slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000),
		slog.String("client_ip", ClientFrom(r.Context()).IP))
}

// limitBody caps every request body; huma operations apply the same cap themselves and
// answer 413 in the envelope.
func limitBody(n, uploadLimit int64, idle time.Duration, uploads *uploadMatcher) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			limit := n
			upload := uploads.match(r)
			if upload { // the file limit, enforced again per file while streaming
				limit = uploadLimit + uploadOverhead
				r = r.WithContext(context.WithValue(r.Context(), uploadLimitKey{}, uploadLimit))
			}
			if r.ContentLength > limit {
				e := errBodyTooLarge(limit)
				if upload {
					e = errFileTooLarge(uploadLimit)
				}
				e.RequestID = logging.RequestID(r.Context())
				writeEnvelope(w, e)
				return
			}
			if r.Body != nil && r.Body != http.NoBody { // no body (most GETs): nothing to cap
				r.Body = http.MaxBytesReader(w, r.Body, limit)
				if upload && idle > 0 {
					r.Body = &idleReader{ReadCloser: r.Body, rc: http.NewResponseController(w), idle: idle}
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// idleReader cuts off an upload whose client sends nothing for idle: each read may wait
// that long for the next bytes. An upload has no overall deadline (its length depends on
// the client's link), so this is what frees the connection from a client that stopped.
type idleReader struct {
	io.ReadCloser
	rc   *http.ResponseController
	idle time.Duration
}

func (r *idleReader) Read(p []byte) (int, error) {
	_ = r.rc.SetReadDeadline(time.Now().Add(r.idle)) // unsupported (tests' recorders): no deadline
	return r.ReadCloser.Read(p)
}

// getHead lets a HEAD request reach the GET route of its path when the router has no HEAD
// route for it (net/http sends no body for HEAD). Ours rather than chi's middleware.GetHead:
// importing chi's middleware package links net/http/pprof, whose init registers profiling
// handlers on http.DefaultServeMux (never served here) and so keeps the heap profiler
// sampling allocations in a program that cannot read its profile (docs/performance.md,
// "Memory at start").
func getHead(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rc := chi.RouteContext(r.Context()); r.Method == http.MethodHead && rc != nil {
			path := rc.RoutePath
			if path == "" { // at the top router: the request's own path, as chi routes it
				path = cmp.Or(r.URL.RawPath, r.URL.Path)
			}
			if !rc.Routes.Match(chi.NewRouteContext(), http.MethodHead, path) {
				rc.RouteMethod, rc.RoutePath = http.MethodGet, path
			}
		}
		next.ServeHTTP(w, r)
	})
}

// uploadMatcher tells the declared upload operations from the rest: only they get the
// upload size cap and are exempt from the request deadline, whatever Content-Type another
// request claims.
type uploadMatcher []struct {
	method string
	path   *regexp.Regexp
}

// add declares an upload operation: method and path as the route table writes them.
func (m *uploadMatcher) add(method, path string) {
	pattern := "^" + pathParam.ReplaceAllString(regexp.QuoteMeta(path), "[^/]+") + "$"
	*m = append(*m, struct {
		method string
		path   *regexp.Regexp
	}{method, regexp.MustCompile(pattern)})
}

// pathParam is a {param} of a route's path, as regexp.QuoteMeta leaves it.
var pathParam = regexp.MustCompile(`\\\{[^}]+\\\}`)

func (m *uploadMatcher) match(r *http.Request) bool {
	if !isMultipart(r) {
		return false
	}
	for _, u := range *m {
		if u.method == r.Method && u.path.MatchString(r.URL.Path) {
			return true
		}
	}
	return false
}

// streamMatcher tells the declared streaming downloads (the CSV exports of the lists): like
// uploads, their length depends on the client's link and the rows there are, so the request
// deadline does not bound them; each of their queries is bounded instead (csvPage).
type streamMatcher struct{ uploadMatcher }

func (m *streamMatcher) match(r *http.Request) bool {
	for _, u := range m.uploadMatcher {
		if u.method == r.Method && u.path.MatchString(r.URL.Path) {
			return true
		}
	}
	return false
}

// deadline bounds every API request by d, so a database that stops answering turns into
// 503 service_unavailable within the bound instead of a hanging request. Declared upload
// operations are exempt: their length depends on the client's link, and their size (and
// idle time, idleReader) is bounded instead; so are declared streaming downloads.
func deadline(d time.Duration, uploads *uploadMatcher, streams *streamMatcher) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if d <= 0 {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !isAPIPath(r.URL.Path) || uploads.match(r) || streams.match(r) {
				next.ServeHTTP(w, r)
				return
			}
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}
