package assess

import (
	"context"
	"time"
)

// Retention of the rows behind rate limits and idempotency keys.
const (
	// IdempotencyKeyLifetime is how long the outcome of a request sent with an
	// Idempotency-Key is kept; an older key is treated as never used.
	IdempotencyKeyLifetime = 24 * time.Hour
	// IdempotencyInProgressTimeout is how long a key may stay "in progress". A request
	// still unfinished after it died with its process (crash, kill, lost connection to the
	// database); a retry with the same key then takes the key over instead of being told
	// for a day that the first attempt is still running.
	IdempotencyInProgressTimeout = 5 * time.Minute
	// RateLimitWindowRetention is how long finished rate-limit windows are kept before the
	// periodic purge removes them. It must exceed the longest window (the auth limiter's
	// 15 minutes).
	RateLimitWindowRetention = time.Hour
)

// RateDecision is the outcome of counting one request against a budget.
type RateDecision struct {
	Count     int       // requests counted in the current window, this one included
	Limit     int       // the budget of the window
	Remaining int       // requests left in the window (never negative)
	Reset     time.Time // when the current window ends and the budget is restored
	Allowed   bool      // false once Count exceeds Limit
}

// RateLimiter counts requests per key in fixed windows. Implementations share the counts
// between all processes of an installation, so a client cannot multiply its budget by
// reaching several replicas.
type RateLimiter interface {
	// Hit counts one request for key in the window of the given size that contains the
	// current time, and says whether it stays within limit.
	Hit(ctx context.Context, key string, limit int, window time.Duration) (RateDecision, error)
}

// IdempotencyRecord is what is stored under an Idempotency-Key: the hash of the request
// that used it first and, once that request finished, its response.
type IdempotencyRecord struct {
	RequestHash []byte
	Status      int
	Headers     map[string]string
	Body        []byte
	Completed   bool // false while the first request is still running
}

// IdempotencyStore keeps request outcomes by (scope, endpoint, key), where scope names the
// caller. Keys older than IdempotencyKeyLifetime are treated as absent.
type IdempotencyStore interface {
	// Begin claims the key for a request with the given body hash. started is true when
	// this call claimed it (the caller must then Complete or Abandon it); otherwise the
	// record of the earlier request is returned.
	Begin(ctx context.Context, scope, endpoint, key string, requestHash []byte) (rec IdempotencyRecord, started bool, err error)
	// Complete stores the response of the request that claimed the key.
	Complete(ctx context.Context, scope, endpoint, key string, status int, headers map[string]string, body []byte) error
	// Abandon releases a claimed key whose request failed, so a retry may run again.
	Abandon(ctx context.Context, scope, endpoint, key string) error
}

// LimitsMaintenance purges the expired rows of rate limits and idempotency keys, for the
// periodic maintenance job.
type LimitsMaintenance interface {
	// PurgeRateLimitWindows deletes counters of windows that started before olderThan.
	PurgeRateLimitWindows(ctx context.Context, olderThan time.Time) (int64, error)
	// PurgeIdempotencyKeys deletes keys created before olderThan.
	PurgeIdempotencyKeys(ctx context.Context, olderThan time.Time) (int64, error)
	// RecordMaintenanceRun stores one run of a periodic job.
	RecordMaintenanceRun(ctx context.Context, run MaintenanceRun) error
}
