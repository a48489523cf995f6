package assess

import "context"

// SetupService answers whether the first-run setup has been completed, i.e. whether any
// user exists. While it has not, the API answers setup_required.
type SetupService interface {
	SetupComplete(ctx context.Context) (bool, error)
}

// HealthChecker checks one component (database, storage). A nil error means healthy.
type HealthChecker interface {
	CheckHealth(ctx context.Context) error
}

// HealthCheckFunc adapts a function to HealthChecker.
type HealthCheckFunc func(ctx context.Context) error

// CheckHealth calls f.
func (f HealthCheckFunc) CheckHealth(ctx context.Context) error { return f(ctx) }
