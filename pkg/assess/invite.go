package assess

import (
	"context"
	"strings"
	"time"
)

// Invite statuses, derived from the invite's timestamps.
const (
	InviteUnused   = "unused"
	InviteConsumed = "consumed"
	InviteRevoked  = "revoked"
	InviteExpired  = "expired"
)

// Invite is an invitation to register with a given role.
type Invite struct {
	ID           string     `json:"id"`
	Email        string     `json:"email,omitempty" doc:"When set, only this address may redeem it"`
	IntendedRole string     `json:"intendedRole"`
	Status       string     `json:"status" enum:"unused,consumed,revoked,expired"`
	CreatedBy    string     `json:"createdBy"`
	CreatedAt    time.Time  `json:"createdAt"`
	ExpiresAt    time.Time  `json:"expiresAt"`
	ConsumedAt   *time.Time `json:"consumedAt,omitempty"`
	RevokedAt    *time.Time `json:"revokedAt,omitempty"`
}

// NewInvite is a request to invite someone.
type NewInvite struct {
	Email          string `json:"email,omitempty" maxLength:"254" doc:"Optional; restricts redemption to this address"`
	IntendedRole   string `json:"intendedRole" minLength:"1" maxLength:"64" doc:"A role name from GET /api/v1/roles"`
	ExpiresInHours int    `json:"expiresInHours,omitempty" minimum:"1" maximum:"8760" default:"168"`
	SendEmail      bool   `json:"sendEmail,omitempty" doc:"E-mail the invitation link to email; needs e-mail switched on (422 email_disabled otherwise)"`
}

// Registration is a self-service sign-up.
type Registration struct {
	NewAccount
	InviteToken string `json:"inviteToken,omitempty" maxLength:"200" doc:"Required when REGISTRATION_MODE is invite_only"`
}

// Registration modes (REGISTRATION_MODE).
const (
	RegistrationDisabled   = "disabled"
	RegistrationInviteOnly = "invite_only"
	RegistrationOpen       = "open"
)

// ECodeRegistrationClosed refuses registration in disabled mode, or without an invite in
// invite_only mode.
const ECodeRegistrationClosed = "registration_closed"

// InviteStatus derives the status of an invite at time now.
func InviteStatus(consumed, revoked *time.Time, expires, now time.Time) string {
	switch {
	case consumed != nil:
		return InviteConsumed
	case revoked != nil:
		return InviteRevoked
	case !expires.After(now):
		return InviteExpired
	}
	return InviteUnused
}

// NormalizeEmail trims an optional address.
func NormalizeEmail(s string) string { return strings.TrimSpace(s) }

// InviteService manages invites and self-service registration.
type InviteService interface {
	CreateInvite(ctx context.Context, in NewInvite, actor Actor) (Invite, string, error)
	FindInvites(ctx context.Context, cursor string, limit int) ([]Invite, string, error)
	RevokeInvite(ctx context.Context, id string, actor Actor) error
	// Register applies the registration mode; it returns nil both when an account was
	// created and when the username or e-mail was taken, so callers cannot tell them apart.
	Register(ctx context.Context, mode string, r Registration, actor Actor) error
}
