// Package identity is the store's identity area: users, roles, sign-in and sessions,
// API keys, invites, self-service registration and password resets. It builds on the kit
// (package postgres) and never imports another area.
package identity

import (
	"time"

	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/secret"
)

// Config is what the identity services need besides the database: the account policies
// and the password hasher.
type Config struct {
	PasswordMinLength int           // PASSWORD_MIN_LENGTH
	MaxFailedLogins   int           // LOGIN_MAX_FAILED_ATTEMPTS; 0 disables lockout
	LockoutDuration   time.Duration // LOGIN_LOCKOUT_DURATION_MINUTES
	// Breaches checks new passwords against a breached-password range service; nil
	// disables the check (PASSWORD_HIBP_CHECK_ENABLED).
	Breaches *secret.BreachChecker
	// Hasher hashes and verifies passwords (argon2id).
	Hasher *secret.Hasher
}

// DefaultConfig is the configuration of an installation that sets nothing: passwords of
// 12 characters or more, a 15-minute lockout after 5 failed sign-ins, argon2id with the
// default parameters and no breach check.
func DefaultConfig() *Config {
	return &Config{PasswordMinLength: 12, MaxFailedLogins: 5, LockoutDuration: 15 * time.Minute,
		Hasher: secret.NewHasher(secret.DefaultArgon2, 0)}
}

// UserService implements assess.UserService.
type UserService struct {
	db  *postgres.DB
	cfg *Config
}

// NewUserService returns the service on db with the account policies and hasher of cfg.
func NewUserService(db *postgres.DB, cfg *Config) *UserService { return &UserService{db, cfg} }

// RoleService implements assess.RoleService.
type RoleService struct{ db *postgres.DB }

// NewRoleService returns the service on db.
func NewRoleService(db *postgres.DB) *RoleService { return &RoleService{db} }

// IdentityService implements assess.IdentityService: first administrator, sign-in,
// sessions and one's own password.
type IdentityService struct {
	db  *postgres.DB
	cfg *Config
}

// NewIdentityService returns the service on db with the account policies and hasher of cfg.
func NewIdentityService(db *postgres.DB, cfg *Config) *IdentityService {
	return &IdentityService{db, cfg}
}

// APIKeyService implements assess.APIKeyService.
type APIKeyService struct{ db *postgres.DB }

// NewAPIKeyService returns the service on db.
func NewAPIKeyService(db *postgres.DB) *APIKeyService { return &APIKeyService{db} }

// InviteService implements assess.InviteService: invites and self-service registration.
type InviteService struct {
	db  *postgres.DB
	cfg *Config
}

// NewInviteService returns the service on db with the account policies and hasher of cfg.
func NewInviteService(db *postgres.DB, cfg *Config) *InviteService { return &InviteService{db, cfg} }

// PasswordResetService implements assess.PasswordResetService.
type PasswordResetService struct {
	db  *postgres.DB
	cfg *Config
}

// NewPasswordResetService returns the service on db with the account policies and hasher of cfg.
func NewPasswordResetService(db *postgres.DB, cfg *Config) *PasswordResetService {
	return &PasswordResetService{db, cfg}
}
