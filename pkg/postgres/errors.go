package postgres

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/assay-dev/assay/pkg/assess"
)

// mapUniqueViolation turns a unique-constraint violation into a domain conflict naming
// what must be unique; other errors pass through. It is the one place driver errors
// become domain errors.
func mapUniqueViolation(err error, what string) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return &assess.Error{Code: assess.ECodeAlreadyExists, Message: "Another record already uses this " + what + "."}
	}
	return err
}
