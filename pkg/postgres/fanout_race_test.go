package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// TestDestinationDeletedDuringAChange: a webhook deleted between the moment a change finds
// it for its event and the insert of the delivery neither fails the change (the delivery's
// foreign key would answer it 404) nor survives it: the deletion waits for the change to
// commit, then cascades to the delivery. A trigger holds the delivery insert on an advisory
// lock so the deletion lands exactly in that moment.
func TestDestinationDeletedDuringAChange(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	w := f.webhook("doomed", "*")
	_, err := f.pool.Exec(f.ctx, `CREATE FUNCTION test_hold_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN PERFORM pg_advisory_xact_lock_shared(4242); RETURN NEW; END $$;
		CREATE TRIGGER test_hold_delivery BEFORE INSERT ON deliveries FOR EACH ROW EXECUTE FUNCTION test_hold_delivery()`)
	require.NoError(t, err)
	holder, err := f.pool.Acquire(f.ctx)
	require.NoError(t, err)
	defer holder.Release()
	_, err = holder.Exec(f.ctx, "SELECT pg_advisory_lock(4242)")
	require.NoError(t, err)

	created := make(chan error, 1)
	go func() {
		_, err := f.svc.Users.CreateUser(context.Background(), assess.NewUser{NewAccount: assess.NewAccount{
			Username: "newcomer", Email: "newcomer@example.com", DisplayName: "Newcomer", Password: "a long enough password"},
			Roles: []string{assess.RoleAssessee}}, f.actor())
		created <- err
	}()
	require.Eventually(t, func() bool { // the change waits at the insert of its delivery
		return f.count(`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`) > 0
	}, 10*time.Second, 10*time.Millisecond)

	deleted := make(chan error, 1)
	go func() {
		deleted <- f.svc.Webhooks.DeleteWebhook(context.Background(), w.ID, f.actor())
	}()
	select {
	case err := <-deleted:
		t.Fatalf("the webhook was deleted while a change was delivering to it (%v)", err)
	case <-time.After(300 * time.Millisecond): // the deletion waits for the change
	}
	_, err = holder.Exec(f.ctx, "SELECT pg_advisory_unlock(4242)")
	require.NoError(t, err)
	require.NoError(t, <-created, "the change succeeds")
	require.NoError(t, <-deleted, "then the deletion")
	require.Zero(t, f.count("SELECT count(*) FROM deliveries WHERE webhook_id = $1", w.ID), "its deliveries went with it")
}
