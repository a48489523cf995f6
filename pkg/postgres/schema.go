package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/assay-dev/assay/migrations"
)

// ErrSchemaOutdated is returned by CheckSchema when the database lacks migrations this
// program needs.
var ErrSchemaOutdated = errors.New("database schema is older than this program")

// SchemaStatus describes how far the database schema is from the program's migrations.
type SchemaStatus struct {
	Current int      // highest applied application migration (0 when none)
	Latest  int      // highest migration this program embeds
	Pending []string // application migrations not yet applied
	River   []string // River migrations not yet applied
}

// ReadSchemaStatus compares the database with the embedded migrations without changing it.
func ReadSchemaStatus(ctx context.Context, pool *pgxpool.Pool) (SchemaStatus, error) {
	var st SchemaStatus
	all, err := LoadMigrations(migrations.FS)
	if err != nil {
		return st, err
	}
	if len(all) > 0 {
		st.Latest = all[len(all)-1].Version
	}
	applied := map[int]bool{}
	versions, err := appliedSchemaVersions(ctx, pool)
	if err != nil {
		return st, err
	}
	for _, v := range versions {
		applied[v] = true
		st.Current = max(st.Current, v)
	}
	for _, m := range all {
		if !applied[m.Version] {
			st.Pending = append(st.Pending, m.Name)
		}
	}
	migrator, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return st, err
	}
	res, err := migrator.Validate(ctx, nil)
	if err != nil {
		return st, fmt.Errorf("validate river schema: %w", err)
	}
	st.River = res.Messages
	return st, nil
}

// CheckSchema returns an error wrapping ErrSchemaOutdated, telling the operator to run the
// migration, when any migration this program needs is missing.
func CheckSchema(ctx context.Context, pool *pgxpool.Pool) error {
	st, err := ReadSchemaStatus(ctx, pool)
	if err != nil {
		return err
	}
	if len(st.Pending) == 0 && len(st.River) == 0 {
		return nil
	}
	return fmt.Errorf("%w: schema version %d, this program needs %d (pending: %v %v); run `assay-ctl migrate` (or start assay-server with MIGRATE_ON_START=true) first",
		ErrSchemaOutdated, st.Current, st.Latest, st.Pending, st.River)
}

// appliedSchemaVersions lists applied application migrations; none when the database has
// never been migrated.
func appliedSchemaVersions(ctx context.Context, pool *pgxpool.Pool) ([]int, error) {
	rows, err := pool.Query(ctx, "SELECT version FROM schema_migrations")
	if err == nil {
		var versions []int
		versions, err = pgx.CollectRows(rows, pgx.RowTo[int])
		if err == nil {
			return versions, nil
		}
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P01" { // undefined_table: never migrated
		return nil, nil
	}
	return nil, fmt.Errorf("read schema version: %w", err)
}
