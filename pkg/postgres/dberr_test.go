package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
)

// TestChangesMapDriverErrors: a change that breaks a constraint answers the domain's
// error, not an internal one: a row referring to one deleted meanwhile (a test delivery
// for a destination a concurrent request deleted) is not_found; a duplicate is
// already_exists naming the field.
func TestChangesMapDriverErrors(t *testing.T) {
	t.Parallel()
	db := postgres.New(openPool(t, pgtest.NewDatabase(t)), nil)
	err := db.ChangeForTest(context.Background(), func(tx pgx.Tx) error {
		_, err := tx.Exec(context.Background(), `INSERT INTO user_roles (user_id, role_id) VALUES ('u_gone', 'r_gone')`)
		return err
	})
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "%v", err)

	err = db.ChangeForTest(context.Background(), func(tx pgx.Tx) error {
		_, err := tx.Exec(context.Background(), `INSERT INTO roles (id, name, description) VALUES ('ro_1', 'twin', ''), ('ro_2', 'twin', '')`)
		return err
	})
	require.Equal(t, assess.ECodeAlreadyExists, assess.ErrorCode(err), "%v", err)
	var e *assess.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, "name", e.Details[0].Field)
	require.Equal(t, "A role of this name already exists.", e.Message, "said of the thing it is about, not 'another record'")
}

// TestStatementTimeoutIsUnavailable: a statement the server cancels at DB_STATEMENT_TIMEOUT
// (57014) answers 503 service_unavailable — as a request past REQUEST_TIMEOUT does — with a
// message that says so, not an internal error; a duplicate of a 100,000-requirement standard
// under load reached it (500 before).
func TestStatementTimeoutIsUnavailable(t *testing.T) {
	t.Parallel()
	db := postgres.New(openPool(t, pgtest.NewDatabase(t)), nil)
	err := db.ChangeForTest(context.Background(), func(tx pgx.Tx) error {
		if _, err := tx.Exec(context.Background(), `SET LOCAL statement_timeout = 50`); err != nil {
			return err
		}
		_, err := tx.Exec(context.Background(), `SELECT pg_sleep(5)`)
		return err
	})
	require.Equal(t, assess.ECodeUnavailable, assess.ErrorCode(err), "%v", err)
	require.Contains(t, err.Error(), "took longer than the database allows")
}
