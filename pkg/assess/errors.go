// Package assess is the domain of the service: its types, the errors every layer speaks,
// and the interfaces the adapters implement. It imports only the standard library.
package assess

import (
	"errors"
	"fmt"
)

// Error codes are stable, machine-readable and safe for clients to switch on.
const (
	ECodeValidation       = "validation_failed"
	ECodeUnauthenticated  = "unauthenticated"
	ECodePermissionDenied = "permission_denied"
	ECodeNotFound         = "not_found"
	ECodeMethodNotAllowed = "method_not_allowed"
	ECodeConflict         = "conflict"
	ECodeAlreadyExists    = "already_exists"
	ECodeVersionConflict  = "version_conflict"
	ECodeInvalidState     = "invalid_state_transition"
	ECodePayloadTooLarge  = "payload_too_large"
	ECodeUnsupportedMedia = "unsupported_media_type"
	ECodeBusinessRule     = "business_rule_violation"
	ECodeRateLimited      = "rate_limited"
	ECodeSetupRequired    = "setup_required"
	ECodeUnavailable      = "service_unavailable"
	ECodeInternal         = "internal_error"
	// ECodeKeyUnavailable: a record is encrypted under a key the configured master key
	// cannot open (lost or wrong MASTER_ENCRYPTION_KEY, or encryption not configured).
	ECodeKeyUnavailable = "encryption_key_unavailable"
	// ECodeIntegrity: stored data failed its integrity check (tampered or corrupt).
	ECodeIntegrity = "integrity_error"
	// ECodeExportInvalid: a document the service wrote breaks the CycloneDX schema. It is
	// a bug of the service, recorded in the audit log; the document is never served.
	ECodeExportInvalid = "export_invalid"
	// ECodeRangeNotSatisfiable: a download's Range lies outside the file.
	ECodeRangeNotSatisfiable = "range_not_satisfiable"
)

// Detail is one item of an error's details: which field, which rule, what went wrong.
type Detail struct {
	Field   string `json:"field,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

// Error is a failure the client is meant to see. Any other error reaching the HTTP layer
// is reported as internal_error and its text is only logged.
type Error struct {
	Code    string
	Message string
	Details []Detail
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Errorf returns an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err when it wraps an *Error, and internal_error otherwise.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ECodeInternal
}

// ErrorMessage returns the client-visible message of err; internal errors get a generic one
// so nothing about the server's inner workings leaks.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "An internal error occurred."
}
