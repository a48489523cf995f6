package postgres

// TRANSITION ONLY: the helpers below predate the transaction kit (tx.go), the list
// mechanism (list.go) and the error mapping (dberr.go). Each file moves off them; this
// file is deleted when none uses them any more.

import (
	"context"
	"encoding/base64"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/assay-dev/assay/pkg/assess"
)

func mapUniqueViolation(err error, what string) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return &assess.Error{Code: assess.ECodeAlreadyExists, Message: "Another record already uses this " + what + "."}
	}
	return err
}

const idCursorStart = "~"

func decodeIDCursor(cursor, prefix string) (string, error) {
	if cursor == "" {
		return idCursorStart, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || !assess.ValidID(prefix, string(raw)) {
		return "", errBadCursor
	}
	return string(raw), nil
}

func pageLimit(limit int) int {
	if limit <= 0 {
		return 50
	}
	return min(limit, 200)
}

func pageByID[T any](items []T, limit int, id func(T) string) ([]T, string) {
	if len(items) <= limit {
		return items, ""
	}
	items = items[:limit]
	return items, base64.RawURLEncoding.EncodeToString([]byte(id(items[limit-1])))
}

// inTx runs fn in a transaction. Driver errors leave as domain errors (dbError), as from
// db.change: a delivery inserted for a destination deleted meanwhile is 404, not 500.
func (db *DB) inTx(ctx context.Context, fn func(pgx.Tx) error) error {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return dbError(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if err := fn(tx); err != nil {
		return dbError(err)
	}
	return dbError(tx.Commit(ctx))
}

func (db *DB) emitUser(ctx context.Context, tx pgx.Tx, actor assess.Actor, typ assess.EventName, id string) error {
	u, err := findUser(ctx, tx, id)
	if err != nil {
		return err
	}
	ev := userEvent(u)
	ev.Type = typ
	_, err = db.emit(ctx, tx, actor, ev)
	return err
}

func withType(typ assess.EventName, ev assess.NewEvent) assess.NewEvent {
	ev.Type = typ
	return ev
}
