// Package identity is the store's identity area: users, roles, sign-in and sessions,
// API keys, invites, self-service registration and password resets. It builds on the kit
// (package postgres) and never imports another area.
package identity

import "github.com/assay-dev/assay/pkg/postgres"

// UserService implements assess.UserService.
type UserService struct{ db *postgres.DB }

// NewUserService returns the service on db.
func NewUserService(db *postgres.DB) *UserService { return &UserService{db} }

// RoleService implements assess.RoleService.
type RoleService struct{ db *postgres.DB }

// NewRoleService returns the service on db.
func NewRoleService(db *postgres.DB) *RoleService { return &RoleService{db} }

// IdentityService implements assess.IdentityService: first administrator, sign-in,
// sessions and one's own password.
type IdentityService struct{ db *postgres.DB }

// NewIdentityService returns the service on db.
func NewIdentityService(db *postgres.DB) *IdentityService { return &IdentityService{db} }

// APIKeyService implements assess.APIKeyService.
type APIKeyService struct{ db *postgres.DB }

// NewAPIKeyService returns the service on db.
func NewAPIKeyService(db *postgres.DB) *APIKeyService { return &APIKeyService{db} }

// InviteService implements assess.InviteService: invites and self-service registration.
type InviteService struct{ db *postgres.DB }

// NewInviteService returns the service on db.
func NewInviteService(db *postgres.DB) *InviteService { return &InviteService{db} }

// PasswordResetService implements assess.PasswordResetService.
type PasswordResetService struct{ db *postgres.DB }

// NewPasswordResetService returns the service on db.
func NewPasswordResetService(db *postgres.DB) *PasswordResetService { return &PasswordResetService{db} }
