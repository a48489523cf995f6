package assess

import "context"

// Actor is who performs an action, as recorded in the audit log.
type Actor struct {
	ID        string // user id, or "cli:<os user>", or "system"
	IP        string
	RequestID string
}

type actorKey struct{}

// WithActor returns a context carrying the actor.
func WithActor(ctx context.Context, a Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom returns the actor of ctx; the zero Actor when there is none.
func ActorFrom(ctx context.Context) Actor {
	a, _ := ctx.Value(actorKey{}).(Actor)
	return a
}

// SystemActor is the actor of actions the service takes by itself.
var SystemActor = Actor{ID: "system"}

// AuditEntry is one row of the audit log.
type AuditEntry struct {
	Actor      Actor
	Action     string
	TargetType string
	TargetID   string
	Details    map[string]any
}

// Audit actions written by the encryption layer.
const (
	AuditKeyUnavailable  = "encryption.key_unavailable"
	AuditKEKCreated      = "encryption.kek_created"
	AuditKEKRotated      = "encryption.kek_rotated"
	AuditMasterRekeyed   = "encryption.master_rekeyed"
	AuditSecretsMigrated = "encryption.secrets_migrated"
)
