package httpapi

import (
	"context"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// Budgets and windows of the two limiters. The auth budget is fixed by the contract.
const (
	apiRateWindow  = time.Minute
	authRateLimit  = 10
	authRateWindow = 15 * time.Minute
	authPathPrefix = "/api/v1/auth/"
	// limiterTimeout bounds the counting query: a slow database must not slow every
	// request down by more than this before the limiter gives up and lets it through.
	limiterTimeout = time.Second
	// failOpenLogEvery throttles the warning logged while the limiter fails open, so a
	// database outage does not add one log line per request.
	failOpenLogEvery = 10 * time.Second
)

// RateLimit returns the middleware enforcing the per-credential budget of perMinute
// requests in fixed one-minute windows. Every response it lets through carries
// X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (seconds until the window
// ends); a request over budget gets 429 rate_limited with Retry-After. When the limiter
// cannot count (database unreachable or slow), the request is let through without the
// headers and a warning is logged: availability matters more than strictness here.
func RateLimit(l assess.RateLimiter, perMinute int, log *slog.Logger) func(http.Handler) http.Handler {
	if perMinute <= 0 {
		panic("httpapi: RateLimit needs a positive budget")
	}
	if log == nil {
		log = slog.Default()
	}
	fo := &failOpen{log: log, limiter: "api"}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			d, err := hit(r.Context(), l, credentialKey(r), perMinute, apiRateWindow)
			if err != nil {
				fo.warn(r.Context(), err)
				next.ServeHTTP(w, r)
				return
			}
			reset := secondsUntil(d.Reset, apiRateWindow)
			setRateHeaders(w.Header(), d.Limit, d.Remaining, reset)
			if !d.Allowed {
				tooManyRequests(w, r, log, reset, "Rate limit exceeded: this credential may send %d requests per minute; retry in %d seconds.", d.Limit, max(reset, 1))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// The rate-limit headers under their canonical names (as http.Header.Set would store them).
var (
	headerRateLimit     = http.CanonicalHeaderKey("X-RateLimit-Limit")
	headerRateRemaining = http.CanonicalHeaderKey("X-RateLimit-Remaining")
	headerRateReset     = http.CanonicalHeaderKey("X-RateLimit-Reset")
)

// setRateHeaders sets X-RateLimit-Limit, -Remaining and -Reset: what three h.Set calls do,
// with the three values in one allocation (each header gets a slice of it whose capacity
// is its length, so adding to one copies instead of overwriting the next).
func setRateHeaders(h http.Header, limit, remaining, reset int) {
	vals := [...]string{strconv.Itoa(limit), strconv.Itoa(remaining), strconv.Itoa(reset)}
	h[headerRateLimit] = vals[0:1:1]
	h[headerRateRemaining] = vals[1:2:2]
	h[headerRateReset] = vals[2:3:3]
}

// AuthRateLimit returns the middleware bounding credential attempts: at most 10 per
// client IP in fixed 15-minute windows, whatever the credential. Credential attempts are
// sign-in, registration (with or without an invite), and asking for or confirming a
// password reset; a signed-in user editing their profile, changing their password or
// signing out is not one. Other requests pass untouched. It fails open like RateLimit.
func AuthRateLimit(l assess.RateLimiter, log *slog.Logger) func(http.Handler) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	fo := &failOpen{log: log, limiter: "auth"}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !isAuthAttempt(r) {
				next.ServeHTTP(w, r)
				return
			}
			d, err := hit(r.Context(), l, "auth:"+ClientFrom(r.Context()).IP, authRateLimit, authRateWindow)
			if err != nil {
				fo.warn(r.Context(), err)
				next.ServeHTTP(w, r)
				return
			}
			if !d.Allowed {
				reset := secondsUntil(d.Reset, authRateWindow)
				tooManyRequests(w, r, log, reset, "Too many sign-in attempts from this address: at most %d per %d minutes; retry in %d seconds.",
					authRateLimit, int(authRateWindow/time.Minute), max(reset, 1))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// credentialAttempts are the operations the auth limiter counts.
var credentialAttempts = map[string]bool{
	authPathPrefix + "login":                  true,
	authPathPrefix + "register":               true,
	authPathPrefix + "password-reset":         true,
	authPathPrefix + "password-reset/confirm": true,
}

// isAuthAttempt tells the requests the auth limiter counts: credential attempts.
func isAuthAttempt(r *http.Request) bool {
	return r.Method == http.MethodPost && credentialAttempts[strings.TrimSuffix(r.URL.Path, "/")]
}

// boundedLimiter is a limiter that applies the timeout itself, only when it has to wait for
// the database (the batched limiter counts most hits in memory).
type boundedLimiter interface {
	HitWithin(ctx context.Context, key string, limit int, window, timeout time.Duration) (assess.RateDecision, error)
}

func hit(ctx context.Context, l assess.RateLimiter, key string, limit int, window time.Duration) (assess.RateDecision, error) {
	if b, ok := l.(boundedLimiter); ok {
		return b.HitWithin(ctx, key, limit, window, limiterTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, limiterTimeout)
	defer cancel()
	return l.Hit(ctx, key, limit, window)
}

// secondsUntil returns the whole seconds until reset, rounded up and kept within one
// window so a clock skew between replica and database cannot advertise nonsense.
func secondsUntil(reset time.Time, window time.Duration) int {
	s := int(math.Ceil(time.Until(reset).Seconds()))
	return min(max(s, 0), int(window/time.Second))
}

func tooManyRequests(w http.ResponseWriter, r *http.Request, log *slog.Logger, reset int, format string, args ...any) {
	w.Header().Set("Retry-After", strconv.Itoa(max(reset, 1)))
	writeError(w, r, log, assess.Errorf(assess.ECodeRateLimited, format, args...))
}

// failOpen logs that a limiter let requests through unchecked, at most once per
// failOpenLogEvery.
type failOpen struct {
	log     *slog.Logger
	limiter string
	last    atomic.Int64 // unix nanoseconds of the last warning
}

func (f *failOpen) warn(ctx context.Context, err error) {
	now := time.Now().UnixNano()
	last := f.last.Load()
	if now-last < int64(failOpenLogEvery) || !f.last.CompareAndSwap(last, now) {
		return
	}
	f.log.WarnContext(ctx, "rate limiter unavailable, letting requests through unchecked",
		slog.String("limiter", f.limiter), slog.String("error", err.Error()))
}
