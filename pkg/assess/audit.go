package assess

import (
	"context"
	"strings"
	"time"
)

// Actor is the caller of a store method: who acts (as recorded in the audit log), from
// where, and, for a signed-in user, with which permissions. Stores turn Can into SQL
// filters for object-level rules ("the assessments one takes part in unless
// assessments.view_all").
type Actor struct {
	ID        string // user id, or "cli:<os user>", or "system"
	IP        string
	RequestID string
	// Principal is the authenticated user behind a request; nil for the service itself,
	// the command line and anonymous requests.
	Principal *Principal
}

// Can reports whether the actor holds a permission. The service itself and the command
// line (operators with access to the database) may do anything; anonymous callers nothing
// beyond public operations.
func (a Actor) Can(p Perm) bool {
	switch {
	case a.Principal != nil:
		return a.Principal.Can(p)
	case a.ID == SystemActor.ID || strings.HasPrefix(a.ID, "cli:"):
		return true
	}
	return p == PermPublic
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
	Action     AuditAction
	TargetType string
	TargetID   string
	// ScopeID is the assessment a change under an assessment belongs to (its timeline).
	ScopeID string
	Details map[string]any
}

// Audit actions written by the encryption layer.
const (
	AuditKeyUnavailable  AuditAction = "encryption.key_unavailable"
	AuditKEKCreated      AuditAction = "encryption.kek_created"
	AuditKEKRotated      AuditAction = "encryption.kek_rotated"
	AuditMasterRekeyed   AuditAction = "encryption.master_rekeyed"
	AuditSecretsMigrated AuditAction = "encryption.secrets_migrated"
)

// AuditRecord is one audit row as the API shows it.
type AuditRecord struct {
	ID         string         `json:"id" doc:"Opaque, time-ordered"`
	OccurredAt time.Time      `json:"occurredAt"`
	Actor      string         `json:"actor" doc:"User id, 'cli:<os user>', 'system' or 'anonymous'"`
	ActorName  string         `json:"actorName" doc:"Who acted, for people: the user's display name (or username), 'System', 'Command line' or 'Anonymous'; the id itself when the user no longer exists"`
	Action     string         `json:"action"`
	TargetType string         `json:"targetType,omitempty"`
	TargetID   string         `json:"targetId,omitempty"`
	TargetName string         `json:"targetName,omitempty" doc:"What the row is about, for people: a user target's current display name (or username); for other targets the name recorded with the row (a requirement by its identifier), else the record's current name; absent when neither is known"`
	TargetLink string         `json:"targetLink,omitempty" doc:"Path of the target's page in the web UI; absent when it has none or no longer exists"`
	Details    map[string]any `json:"details"`
	RequestID  string         `json:"requestId,omitempty"`
	IP         string         `json:"ip,omitempty"`
}

// AuditFilter selects audit rows; empty fields do not filter.
type AuditFilter struct {
	Action     string    `query:"action" maxLength:"100" doc:"Exact action, or a prefix ending in '.', e.g. 'auth.'"`
	Actor      string    `query:"actor" maxLength:"100" doc:"Who acted: a user id or username (case-insensitive), 'system', 'cli:<os user>' or 'anonymous'"`
	TargetType string    `query:"targetType" maxLength:"100"`
	TargetID   string    `query:"targetId" maxLength:"200"`
	From       time.Time `query:"from" doc:"Only rows at or after this time (RFC 3339)"`
	To         time.Time `query:"to" doc:"Only rows before this time (RFC 3339)"`
	PageRequest
}

// AuditService reads the audit log.
type AuditService interface {
	// FindAudit returns one page of rows matching f, newest first.
	FindAudit(ctx context.Context, f AuditFilter) (Page[AuditRecord], error)
}
