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

// TestLegacyTransactionsMapDriverErrors: a change made with the legacy transaction helper
// that refers to a row deleted meanwhile (a test delivery for a destination deleted by a
// concurrent request) is not_found, as from the transaction kit, not an internal error.
func TestLegacyTransactionsMapDriverErrors(t *testing.T) {
	t.Parallel()
	db := postgres.New(openPool(t, pgtest.NewDatabase(t)), nil)
	err := db.InTxForTest(context.Background(), func(tx pgx.Tx) error {
		_, err := tx.Exec(context.Background(), `INSERT INTO user_roles (user_id, role_id) VALUES ('u_gone', 'r_gone')`)
		return err
	})
	require.Equal(t, assess.ECodeNotFound, assess.ErrorCode(err), "%v", err)
}
