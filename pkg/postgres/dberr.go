package postgres

import (
	"context"
	"errors"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/assay-dev/assay/pkg/assess"
)

// This file is the one place where driver errors become domain errors.

// uniqueFields names, per unique constraint or index, the request field that must be
// unique and says what is taken in the words of the thing it is about.
var uniqueFields = map[string]struct{ field, message string }{
	"users_username_key":             {"username", "Another user already has this username."},
	"users_email_key":                {"email", "Another user already has this e-mail address."},
	"roles_name_key":                 {"name", "A role of this name already exists."},
	"invites_token_hash_key":         {"token", "This invite token is already in use."},
	"password_resets_token_hash_key": {"token", "This reset token is already in use."},
	"entity_relationships_key":       {"targetId", "The entity already has a relationship of this type to that entity."},
	"compliance_policies_key":        {"standardId", "A policy of this standard already applies to the entity."},
	// standards (slice "standards")
	"standards_identifier_version_key": {"standardVersion", "A standard with this identifier and version already exists."},
	"requirements_identifier_key":      {"identifier", "The standard already has a requirement with this identifier."},
	"levels_identifier_key":            {"identifier", "The standard already has a level with this identifier."},
	"tags_name_key":                    {"name", "A tag of this name already exists."},
	// evidence (slice "evidence")
	"assessment_requirement_evidence_pkey": {"assessmentRequirementId", "This evidence is already linked to this requirement."},
}

// DBError maps what the driver reports to what the caller should see; domain errors and
// nil pass through:
//   - unique violation → 409 already_exists naming the field;
//   - foreign key: a delete or update of a row others still refer to → 409 in_use,
//     an insert naming a missing row → 404 not_found;
//   - check violation → 422 business_rule_violation;
//   - the database unreachable, shutting down or over its connection limit → 503;
//   - a statement cancelled (DB_STATEMENT_TIMEOUT, or our own deadline) → 503, as a request
//     past REQUEST_TIMEOUT is;
//   - serialization failure or deadlock (after DB.change's retries) → 503.
func DBError(err error) error {
	if err == nil {
		return nil
	}
	var de *assess.Error
	if errors.As(err, &de) {
		return err
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == "23505":
			f, ok := uniqueFields[pgErr.ConstraintName]
			if !ok {
				f.message = "Another record already uses this value."
			}
			return &assess.Error{Code: assess.ECodeAlreadyExists, Message: f.message,
				Details: []assess.Detail{{Field: f.field, Code: "taken", Message: f.message}}}
		case pgErr.Code == "23503" && strings.HasPrefix(pgErr.Message, "update or delete"):
			return &assess.Error{Code: assess.ECodeConflict, Message: "Other records still refer to this one.",
				Details: []assess.Detail{{Code: "in_use", Message: "Other records still refer to this one."}}}
		case pgErr.Code == "23503":
			return &assess.Error{Code: assess.ECodeNotFound, Message: "A record this one refers to does not exist."}
		case pgErr.Code == "23514":
			return &assess.Error{Code: assess.ECodeBusinessRule, Message: "The values break a rule of the record.",
				Details: []assess.Detail{{Code: "check_failed", Message: pgErr.ConstraintName}}}
		case retryable(err):
			return errBusy
		case pgErr.Code == "57014":
			return errTooLong
		case unavailableClass(pgErr.Code):
			return errDatabaseUnavailable
		}
		return err
	}
	if connectionLost(err) {
		return errDatabaseUnavailable
	}
	return err
}

var (
	errBusy = &assess.Error{Code: assess.ECodeUnavailable,
		Message: "The database is too busy to complete the change; try again in a moment."}
	errPoolExhausted = &assess.Error{Code: assess.ECodeUnavailable,
		Message: "Every database connection is busy; try again in a moment."}
	errDatabaseUnavailable = &assess.Error{Code: assess.ECodeUnavailable,
		Message: "The database is not available at the moment; try again shortly."}
	errTooLong = &assess.Error{Code: assess.ECodeUnavailable,
		Message: "The request took longer than the database allows; try again in a moment, or ask for less at once."}
)

// retryable reports a serialization failure or a deadlock: running the change again may
// succeed.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}

// unavailableClass reports SQLSTATEs that describe the server's condition rather than the
// request: connection exceptions (08), insufficient resources (53), operator
// intervention such as an administrator shutdown (57; a cancelled statement, 57014, is
// errTooLong).
func unavailableClass(code string) bool {
	switch code[:2] {
	case "08", "53":
		return true
	case "57":
		return code != "57014"
	}
	return false
}

// connectionLost reports a failure to reach the database at all.
func connectionLost(err error) bool {
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) || errors.As(err, &netErr) || pgconn.SafeToRetry(err) ||
		errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled)
}
