package assess

import (
	"context"
	"net/mail"
	"slices"
	"strconv"
	"strings"
)

// UserFilter selects users for the admin list.
type UserFilter struct {
	Q      string `query:"q" maxLength:"100" doc:"Matches username, e-mail or display name (case-insensitive substring)"`
	Active string `query:"active" enum:"true,false," doc:"Only active (true) or inactive (false) users"`
	Role   string `query:"role" maxLength:"64" doc:"Only users holding this role"`
	Sort   string `query:"sort" enum:"username,-createdAt," doc:"username (default) or -createdAt (newest first)"`
	PageRequest
}

// NewUser is an account an administrator creates.
type NewUser struct {
	NewAccount
	Roles []string `json:"roles,omitempty" required:"false" maxItems:"32" doc:"Role names to assign; assessee when absent or empty"`
}

// Validate checks the account and completes the role set: assessee when none is given,
// sorted and without duplicates.
func (u *NewUser) Validate(passwordMinLength int) error {
	if len(u.Roles) == 0 {
		u.Roles = []string{RoleAssessee}
	}
	u.Roles = sortedSet(u.Roles)
	return u.NewAccount.Validate(passwordMinLength)
}

// sortedSet returns the trimmed values sorted and without duplicates.
func sortedSet(values []string) []string {
	out := make([]string, 0, len(values))
	for _, v := range values {
		out = append(out, strings.TrimSpace(v))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// UserUpdate changes an account. Omitted fields stay as they are.
type UserUpdate struct {
	Version     int64     `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Email       *string   `json:"email,omitempty" format:"email" maxLength:"254"`
	DisplayName *string   `json:"displayName,omitempty" minLength:"1" maxLength:"128" doc:"Cannot be blank"`
	Active      *bool     `json:"active,omitempty"`
	Roles       *[]string `json:"roles,omitempty" maxItems:"32"`
}

// Validate normalises the update: trimmed e-mail and display name, a valid address, a
// sorted role set.
func (u *UserUpdate) Validate() error {
	if u.Email != nil {
		e := strings.TrimSpace(*u.Email)
		u.Email = &e
		if addr, err := mail.ParseAddress(e); err != nil || addr.Address != e {
			return &Error{Code: ECodeValidation, Message: "The e-mail address is not valid.",
				Details: []Detail{{Field: "email", Code: "invalid", Message: "A valid e-mail address is required."}}}
		}
	}
	if u.DisplayName != nil {
		d := strings.TrimSpace(*u.DisplayName)
		u.DisplayName = &d
		if d == "" {
			return &Error{Code: ECodeValidation, Message: "The display name cannot be blank.", Details: []Detail{blankDisplayName}}
		}
	}
	if u.Roles != nil {
		r := sortedSet(*u.Roles)
		u.Roles = &r
	}
	return nil
}

// Role is a named set of permissions.
type Role struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Builtin     bool     `json:"builtin" doc:"Built-in roles cannot be changed or deleted"`
	Permissions []string `json:"permissions"`
	Version     int64    `json:"version"`
}

// NewRole is a custom role to create.
type NewRole struct {
	Name        string   `json:"name" pattern:"^[a-z][a-z0-9_]{1,62}$" doc:"Lower-case letters, digits and underscores"`
	Description string   `json:"description,omitempty" maxLength:"500"`
	Permissions []string `json:"permissions" maxItems:"200"`
}

// Validate checks the role's permissions and returns them sorted, without duplicates.
func (r *NewRole) Validate() error {
	r.Description = strings.TrimSpace(r.Description)
	perms, err := ValidatePermissions(r.Permissions)
	r.Permissions = perms
	return err
}

// RoleUpdate changes a custom role.
type RoleUpdate struct {
	Version     int64     `json:"version" minimum:"1"`
	Description *string   `json:"description,omitempty" maxLength:"500"`
	Permissions *[]string `json:"permissions,omitempty" maxItems:"200"`
}

// Validate checks the permissions, if given, and trims the description.
func (u *RoleUpdate) Validate() error {
	if u.Description != nil {
		d := strings.TrimSpace(*u.Description)
		u.Description = &d
	}
	if u.Permissions == nil {
		return nil
	}
	perms, err := ValidatePermissions(*u.Permissions)
	u.Permissions = &perms
	return err
}

// ValidatePermissions checks that every key is in the catalogue and returns the sorted,
// de-duplicated set.
func ValidatePermissions(keys []string) ([]string, error) {
	var details []Detail
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		k = strings.TrimSpace(k)
		switch {
		case !KnownPermission(Perm(k)):
			details = append(details, Detail{Field: "permissions", Code: "unknown_permission",
				Message: "Unknown permission " + quoteShort(k, 64) + "."})
			continue
		case !Grantable(Perm(k)):
			details = append(details, Detail{Field: "permissions", Code: "not_available",
				Message: "The permission " + quoteShort(k, 64) + " belongs to a feature that is not available yet."})
			continue
		}
		out = append(out, k)
	}
	if len(details) > 0 {
		return nil, &Error{Code: ECodeValidation, Message: "The role lists permissions it cannot grant.", Details: details}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// UserService manages accounts on behalf of administrators.
type UserService interface {
	// FindUsers returns one page of users matching f.
	FindUsers(ctx context.Context, f UserFilter) (Page[User], error)
	// FindUser returns one user; not_found for an unknown id.
	FindUser(ctx context.Context, id string) (User, error)
	// CreateUser creates an account whatever REGISTRATION_MODE says.
	CreateUser(ctx context.Context, u NewUser, actor Actor) (User, error)
	// UpdateUser changes an account under optimistic concurrency.
	UpdateUser(ctx context.Context, id string, upd UserUpdate, actor Actor) (User, error)
	// ResetPassword sets a password, clears a lockout and ends the user's sessions.
	ResetPassword(ctx context.Context, id, password string, actor Actor) error
}

// RoleService manages roles.
type RoleService interface {
	// FindRoles lists every role, built-in ones first.
	FindRoles(ctx context.Context) ([]Role, error)
	// CreateRole creates a custom role.
	CreateRole(ctx context.Context, r NewRole, actor Actor) (Role, error)
	// UpdateRole changes a custom role under optimistic concurrency.
	UpdateRole(ctx context.Context, id string, upd RoleUpdate, actor Actor) (Role, error)
	// DeleteRole deletes a custom role no user holds.
	DeleteRole(ctx context.Context, id string, actor Actor) error
}

// ProfileUpdate is what users may change about themselves.
type ProfileUpdate struct {
	Version     int64   `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Email       *string `json:"email,omitempty" format:"email" maxLength:"254"`
	DisplayName *string `json:"displayName,omitempty" minLength:"1" maxLength:"128"`
}

// quoteShort quotes s for a message, cut to at most n characters (an unknown value is
// echoed so the caller can find it, not so a huge one comes back whole).
func quoteShort(s string, n int) string {
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return strconv.Quote(s)
}

// PeopleFilter selects active users for the pickers of assessment work (team members,
// reviewers): a name prefix and, optionally, a permission they must hold.
type PeopleFilter struct {
	Q          string `query:"q" maxLength:"100" doc:"Matches the start of the username or of any word of the display name (case-insensitive)"`
	Permission string `query:"permission" enum:"assessments.view,assessments.edit,evidence.review," doc:"Only users holding this permission: assessments.view (assessees), assessments.edit (assessors), evidence.review (reviewers)"`
	Limit      int    `query:"limit" minimum:"1" maximum:"50" default:"20"`
}

// PeopleList is the answer of the people directory.
type PeopleList struct {
	Items []UserRef `json:"items"`
}

// PeopleService is the directory of active users that anyone doing assessment work may
// search: names only, never e-mail addresses, roles or account state.
type PeopleService interface {
	// FindPeople lists active users matching f, by username.
	FindPeople(ctx context.Context, f PeopleFilter) (PeopleList, error)
}
