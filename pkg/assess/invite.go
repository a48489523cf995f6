package assess

import (
	"context"
	"strings"
	"time"
)

// InviteState is where an invite is in its lifecycle. It is derived from the invite's
// timestamps (see InviteStatus), so expiry needs no write.
type InviteState string

// Invite states.
const (
	InviteUnused   InviteState = "unused"
	InviteConsumed InviteState = "consumed"
	InviteRevoked  InviteState = "revoked"
	InviteExpired  InviteState = "expired"
)

// InviteLifecycle is the invite state machine: an unused invite is consumed by a
// registration, revoked by an administrator, or expires; every other state is final.
var InviteLifecycle = NewStateMachine("invite", []Transition[InviteState]{
	{InviteUnused, []InviteState{InviteConsumed, InviteRevoked, InviteExpired}},
	{InviteConsumed, nil},
	{InviteRevoked, nil},
	{InviteExpired, nil},
})

// Invite is an invitation to register with a given role.
type Invite struct {
	ID           string      `json:"id"`
	Email        string      `json:"email,omitempty" doc:"When set, only this address may redeem it"`
	IntendedRole string      `json:"intendedRole"`
	Status       InviteState `json:"status" enum:"unused,consumed,revoked,expired"`
	CreatedBy    string      `json:"createdBy"`
	CreatedAt    time.Time   `json:"createdAt"`
	ExpiresAt    time.Time   `json:"expiresAt"`
	ConsumedAt   *time.Time  `json:"consumedAt,omitempty"`
	RevokedAt    *time.Time  `json:"revokedAt,omitempty"`
}

// InviteFilter selects invites for the admin list, newest first.
type InviteFilter struct {
	PageRequest
}

// DefaultInviteHours is how long an invite is valid when the request does not say.
const DefaultInviteHours = 168

// NewInvite is a request to invite someone.
type NewInvite struct {
	Email          string `json:"email,omitempty" maxLength:"254" doc:"Optional; restricts redemption to this address"`
	IntendedRole   string `json:"intendedRole" minLength:"1" maxLength:"64" doc:"A role name from GET /api/v1/roles"`
	ExpiresInHours int    `json:"expiresInHours,omitempty" minimum:"1" maximum:"8760" default:"168"`
	SendEmail      bool   `json:"sendEmail,omitempty" doc:"E-mail the invitation link to email; needs e-mail switched on (422 email_disabled otherwise)"`
}

// Validate normalises the invite (trimmed address and role, the default lifetime) and
// checks it: a well-formed address when one is given, a role name, a lifetime of at most a
// year. An invite to be e-mailed needs an address (422 email_required). Whether the role
// exists is the store's check.
func (in *NewInvite) Validate() error {
	in.Email = strings.TrimSpace(in.Email)
	in.IntendedRole = strings.TrimSpace(in.IntendedRole)
	if in.ExpiresInHours == 0 {
		in.ExpiresInHours = DefaultInviteHours
	}
	var details []Detail
	if in.Email != "" && !plainEmailAddress(in.Email) {
		details = append(details, Detail{Field: "email", Code: "invalid", Message: "A valid e-mail address is required."})
	}
	if in.IntendedRole == "" {
		details = append(details, Detail{Field: "intendedRole", Code: "required", Message: "Name the role the invitee gets."})
	}
	if in.ExpiresInHours < 1 || in.ExpiresInHours > 8760 {
		details = append(details, Detail{Field: "expiresInHours", Code: "out_of_range", Message: "Between 1 and 8760 hours."})
	}
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The invite is invalid.", Details: details}
	}
	if in.SendEmail && in.Email == "" {
		msg := "An invitation can be e-mailed only to an address; enter one."
		return &Error{Code: ECodeBusinessRule, Message: msg, Details: []Detail{{Field: "email", Code: "email_required", Message: msg}}}
	}
	return nil
}

// Registration is a self-service sign-up.
type Registration struct {
	NewAccount
	InviteToken string `json:"inviteToken,omitempty" maxLength:"200" doc:"Required when REGISTRATION_MODE is invite_only"`
}

// Validate trims the invite token and checks the account against the rules and the
// password policy.
func (r *Registration) Validate(passwordMinLength int) error {
	r.InviteToken = strings.TrimSpace(r.InviteToken)
	return r.NewAccount.Validate(passwordMinLength)
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

// InviteStatus derives the state of an invite at time now.
func InviteStatus(consumed, revoked *time.Time, expires, now time.Time) InviteState {
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

// InviteService manages invites and self-service registration.
type InviteService interface {
	// CreateInvite creates an invite and returns it with its token, shown only once.
	CreateInvite(ctx context.Context, in NewInvite, actor Actor) (Invite, string, error)
	// FindInvites returns one page of invites, newest first, with their derived status.
	FindInvites(ctx context.Context, f InviteFilter) (Page[Invite], error)
	// RevokeInvite ends an unused invite; revoking a revoked one again changes nothing.
	RevokeInvite(ctx context.Context, id string, actor Actor) error
	// Register applies the registration mode; it returns nil both when an account was
	// created and when the username or e-mail was taken, so callers cannot tell them apart.
	Register(ctx context.Context, mode string, r Registration, actor Actor) error
}
