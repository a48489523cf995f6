package postgres

import (
	"context"
	"errors"

	"github.com/assay-dev/assay/pkg/assess"
)

// errRollBack makes EmitForTest roll its transaction back.
var errRollBack = errors.New("roll back")

// EmitForTest emits ev in a transaction of its own, committed when commit is true and
// rolled back otherwise.
func (db *DB) EmitForTest(ctx context.Context, actor assess.Actor, ev assess.NewEvent, commit bool) (string, error) {
	var id string
	err := db.change(ctx, actor, func(tx *Tx) error {
		var err error
		if id, err = db.emit(ctx, tx, actor, ev); err != nil || commit {
			return err
		}
		return errRollBack
	})
	if errors.Is(err, errRollBack) {
		err = nil
	}
	return id, err
}
