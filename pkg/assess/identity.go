package assess

import (
	"context"
	"net/mail"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// User is an account as the API shows it.
type User struct {
	ID          string     `json:"id" example:"u_01hx8n6q7k3m2v9c4t5r6s7p8a"`
	Username    string     `json:"username"`
	Email       string     `json:"email"`
	DisplayName string     `json:"displayName"`
	Active      bool       `json:"active"`
	Roles       []string   `json:"roles" doc:"Names of the roles the user holds"`
	Version     int64      `json:"version" doc:"Optimistic-concurrency version; send it back on update"`
	CreatedAt   time.Time  `json:"createdAt"`
	LastLoginAt *time.Time `json:"lastLoginAt,omitempty"`
}

// Principal is the authenticated caller of a request.
type Principal struct {
	User        User
	Permissions []string // sorted, de-duplicated union of the user's roles
	SessionID   string   // set for session (cookie) credentials
	APIKeyID    string   // set for API-key credentials
}

// Can reports whether the principal holds a permission key. Public operations need no
// key, and every signed-in caller may use authenticated ones.
func (p *Principal) Can(key Perm) bool {
	if key == PermPublic || key == PermAuthenticated {
		return true
	}
	_, found := slices.BinarySearch(p.Permissions, string(key))
	return found
}

type principalKey struct{}

// WithPrincipal returns a context carrying the authenticated caller.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the authenticated caller, or nil.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// NewAccount is what the setup wizard, registration and administrators submit to create
// an account.
type NewAccount struct {
	Username    string `json:"username" minLength:"3" maxLength:"64" doc:"Letters, digits, dot, dash and underscore"`
	Email       string `json:"email" format:"email" maxLength:"254"`
	DisplayName string `json:"displayName" minLength:"1" maxLength:"128" doc:"The name shown for the account; required, as in the web application"`
	Password    string `json:"password" minLength:"1" maxLength:"128"`
}

var usernamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$`)

// Validate checks the account against the rules and the password policy.
func (a *NewAccount) Validate(passwordMinLength int) error {
	a.Username = strings.TrimSpace(a.Username)
	a.Email = strings.TrimSpace(a.Email)
	a.DisplayName = strings.TrimSpace(a.DisplayName)
	var details []Detail
	if !usernamePattern.MatchString(a.Username) {
		details = append(details, Detail{Field: "username", Code: "invalid",
			Message: "3–64 characters: letters, digits, dot, dash and underscore, starting with a letter or digit."})
	}
	if !plainEmailAddress(a.Email) {
		details = append(details, Detail{Field: "email", Code: "invalid", Message: "A valid e-mail address is required."})
	}
	if a.DisplayName == "" {
		details = append(details, blankDisplayName)
	}
	if d := PasswordProblem(a.Password, passwordMinLength); d != nil {
		details = append(details, *d)
	}
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The account is invalid.", Details: details}
	}
	return nil
}

// blankDisplayName refuses a display name that is empty or only spaces: every account
// has one, as the web application requires.
var blankDisplayName = Detail{Field: "displayName", Code: "required", Message: "The display name cannot be blank."}

// PasswordProblem checks a new password against the policy; nil when it is acceptable.
func PasswordProblem(password string, minLength int) *Detail {
	n := utf8.RuneCountInString(password)
	switch {
	case n < minLength:
		return &Detail{Field: "password", Code: "too_short", Message: "The password must be at least " + strconv.Itoa(minLength) + " characters long."}
	case n > 128:
		return &Detail{Field: "password", Code: "too_long", Message: "The password must be at most 128 characters long."}
	}
	return nil
}

// PasswordChange is a signed-in user's change of their own password.
type PasswordChange struct {
	CurrentPassword string `json:"currentPassword" minLength:"1" maxLength:"1024"`
	NewPassword     string `json:"newPassword" minLength:"1" maxLength:"1024"`
}

// Validate checks the new password against the policy (the current one is checked by the
// store, against the stored hash).
func (c PasswordChange) Validate(passwordMinLength int) error {
	if d := PasswordProblem(c.NewPassword, passwordMinLength); d != nil {
		return &Error{Code: ECodeValidation, Message: "The new password is not acceptable.", Details: []Detail{*d}}
	}
	return nil
}

// Validate normalises a profile change: trimmed e-mail and display name, a valid address,
// a display name that is not blank.
func (u *ProfileUpdate) Validate() error {
	var details []Detail
	if u.Email != nil {
		e := strings.TrimSpace(*u.Email)
		u.Email = &e
		if !plainEmailAddress(e) {
			details = append(details, Detail{Field: "email", Code: "invalid", Message: "A valid e-mail address is required."})
		}
	}
	if u.DisplayName != nil {
		d := strings.TrimSpace(*u.DisplayName)
		u.DisplayName = &d
		if d == "" {
			details = append(details, blankDisplayName)
		}
	}
	if len(details) > 0 {
		return &Error{Code: ECodeValidation, Message: "The profile change is invalid.", Details: details}
	}
	return nil
}

// UserUpdate is the profile change as an account update: e-mail and display name only.
func (u ProfileUpdate) UserUpdate() UserUpdate {
	return UserUpdate{Version: u.Version, Email: u.Email, DisplayName: u.DisplayName}
}

// plainEmailAddress reports whether s is a bare e-mail address (no display name, no
// angle brackets), as accounts and invites store them.
func plainEmailAddress(s string) bool {
	addr, err := mail.ParseAddress(s)
	return err == nil && addr.Address == s
}

// Session is a signed-in browser session.
type Session struct {
	ID        string
	UserID    string
	ExpiresAt time.Time
}

// ErrBadCredentials is the one answer to every failed sign-in (unknown user, wrong
// password, locked, inactive), so responses reveal nothing about accounts.
var ErrBadCredentials = &Error{Code: ECodeUnauthenticated, Message: "The username or password is incorrect, or the account cannot sign in."}

// IdentityService manages accounts, sign-in and sessions.
type IdentityService interface {
	// CreateFirstAdmin creates the first administrator; conflict once any user exists.
	CreateFirstAdmin(ctx context.Context, a NewAccount, actor Actor) (User, error)
	// Authenticate checks a password sign-in, applying the lockout policy.
	Authenticate(ctx context.Context, login, password string, actor Actor) (User, error)
	// CreateSession starts a session for the user.
	CreateSession(ctx context.Context, userID string, lifetime time.Duration, actor Actor) (Session, error)
	// SessionPrincipal resolves a live session to its user and current permissions.
	SessionPrincipal(ctx context.Context, sessionID string) (*Principal, error)
	// RevokeSession ends a session at once.
	RevokeSession(ctx context.Context, sessionID string, actor Actor) error
	// ChangePassword changes the caller's password and ends their other sessions.
	ChangePassword(ctx context.Context, p *Principal, c PasswordChange, actor Actor) error
	// UpdateProfile changes the caller's e-mail address and display name under optimistic
	// concurrency.
	UpdateProfile(ctx context.Context, userID string, upd ProfileUpdate, actor Actor) (User, error)
	// Audit records a security event that changes nothing (a refused permission).
	Audit(ctx context.Context, e AuditEntry) error
}
