package assess

import (
	"context"
	"slices"
	"strings"
)

// UserFilter selects users for the admin list.
type UserFilter struct {
	Q      string `query:"q" maxLength:"100" doc:"Matches username, e-mail or display name (case-insensitive substring)"`
	Active string `query:"active" enum:"true,false," doc:"Only active (true) or inactive (false) users"`
	Role   string `query:"role" maxLength:"64" doc:"Only users holding this role"`
	Cursor string `query:"cursor" maxLength:"300" doc:"nextCursor of the previous page"`
	Limit  int    `query:"limit" minimum:"1" maximum:"200" default:"50"`
}

// NewUser is an account an administrator creates.
type NewUser struct {
	NewAccount
	Roles []string `json:"roles" minItems:"0" maxItems:"32" doc:"Role names to assign; defaults to assessee"`
}

// UserUpdate changes an account. Omitted fields stay as they are.
type UserUpdate struct {
	Version     int64     `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Email       *string   `json:"email,omitempty" format:"email" maxLength:"254"`
	DisplayName *string   `json:"displayName,omitempty" maxLength:"128"`
	Active      *bool     `json:"active,omitempty"`
	Roles       *[]string `json:"roles,omitempty" maxItems:"32"`
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

// RoleUpdate changes a custom role.
type RoleUpdate struct {
	Version     int64     `json:"version" minimum:"1"`
	Description *string   `json:"description,omitempty" maxLength:"500"`
	Permissions *[]string `json:"permissions,omitempty" maxItems:"200"`
}

// ValidatePermissions checks that every key is in the catalogue and returns the sorted,
// de-duplicated set.
func ValidatePermissions(keys []string) ([]string, error) {
	var details []Detail
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		k = strings.TrimSpace(k)
		if !KnownPermission(k) {
			details = append(details, Detail{Field: "permissions", Code: "unknown_permission", Message: "Unknown permission " + k + "."})
			continue
		}
		out = append(out, k)
	}
	if len(details) > 0 {
		return nil, &Error{Code: ECodeValidation, Message: "The role lists unknown permissions.", Details: details}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// AdminService manages users and roles.
type AdminService interface {
	FindUsers(ctx context.Context, f UserFilter) ([]User, string, error)
	FindUser(ctx context.Context, id string) (User, error)
	CreateUser(ctx context.Context, u NewUser, actor Actor) (User, error)
	UpdateUser(ctx context.Context, id string, upd UserUpdate, actor Actor) (User, error)
	ResetPassword(ctx context.Context, id, password string, actor Actor) error
	FindRoles(ctx context.Context) ([]Role, error)
	CreateRole(ctx context.Context, r NewRole, actor Actor) (Role, error)
	UpdateRole(ctx context.Context, id string, upd RoleUpdate, actor Actor) (Role, error)
	DeleteRole(ctx context.Context, id string, actor Actor) error
}

// ProfileUpdate is what users may change about themselves.
type ProfileUpdate struct {
	Version     int64   `json:"version" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
	Email       *string `json:"email,omitempty" format:"email" maxLength:"254"`
	DisplayName *string `json:"displayName,omitempty" minLength:"1" maxLength:"128"`
}
