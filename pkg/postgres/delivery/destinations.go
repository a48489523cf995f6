package delivery

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// destinationKind is what webhooks and chat destinations share: the failure count,
// automatic switch-off, re-enabling and the test delivery.
type destinationKind struct {
	table    string        // webhooks or chat_destinations
	target   string        // webhook or chat: the audit target type
	logKind  string        // the delivery log (assess.DeliveryKind*)
	disabled assess.Change // the automatic switch-off
	tested   assess.Change // a test delivery
	link     func(id string) string
	// event reads the destination as the content of an event about it.
	event func(ctx context.Context, q postgres.Querier, id string) (assess.NewEvent, error)
}

func webhookDestinations(db *postgres.DB) destinationKind {
	return destinationKind{table: "webhooks", target: "webhook", logKind: assess.DeliveryKindWebhook,
		disabled: assess.ChangeWebhookDisabled, tested: assess.ChangeWebhookTested, link: postgres.WebhookLink,
		event: func(ctx context.Context, q postgres.Querier, id string) (assess.NewEvent, error) {
			w, err := findWebhook(ctx, db, q, id)
			return postgres.WebhookEvent(w), err
		}}
}

func chatDestinations() destinationKind {
	return destinationKind{table: "chat_destinations", target: "chat", logKind: assess.DeliveryKindChat,
		disabled: assess.ChangeChatDisabled, tested: assess.ChangeChatTested, link: postgres.ChatLink,
		event: func(ctx context.Context, q postgres.Querier, id string) (assess.NewEvent, error) {
			c, err := findChat(ctx, q, id)
			return postgres.ChatEvent(c), err
		}}
}

// countOutcome resets a destination's consecutive failures after a success, or counts a
// final failure and, at DELIVERY_DISABLE_AFTER_FAILURES, switches the destination off
// and records channel.*.disabled as the system.
func countOutcome(ctx context.Context, db *postgres.DB, tx *postgres.Tx, k destinationKind, id string, succeeded bool) error {
	if succeeded {
		_, err := tx.Exec(ctx, "UPDATE "+k.table+" SET consecutive_failures = 0 WHERE id = $1 AND consecutive_failures <> 0", id)
		return err
	}
	var failures int
	var active bool
	err := tx.QueryRow(ctx, "UPDATE "+k.table+" SET consecutive_failures = consecutive_failures + 1 WHERE id = $1 RETURNING consecutive_failures, active", id).
		Scan(&failures, &active)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	limit := db.Delivery.DisableAfterFailures
	if err != nil || limit <= 0 || failures < limit || !active {
		return err
	}
	if _, err := tx.Exec(ctx, "UPDATE "+k.table+" SET active = false, disabled_at = $2 WHERE id = $1", id, tx.Now); err != nil {
		return err
	}
	if err := tx.BumpVersion(ctx, k.table, id); err != nil {
		return err
	}
	ev, err := k.event(ctx, tx, id)
	if err != nil {
		return err
	}
	return tx.As(assess.SystemActor).Record(ctx, k.disabled, postgres.Target{Type: k.target, ID: id},
		map[string]any{"consecutiveFailures": failures}, ev)
}

// reenableSQL is the SET clause of an update that sets active: switching a destination
// on (again) forgets its failures.
func reenableSQL(active *bool) string {
	if active == nil || !*active {
		return ""
	}
	return ", consecutive_failures = 0, disabled_at = NULL"
}

// testDelivery records a channel.test event and queues its delivery to one destination
// only, whatever its active flag and filter say. name names the destination.
func testDelivery(ctx context.Context, db *postgres.DB, tx *postgres.Tx, k destinationKind, d postgres.NewDelivery, name string) (assess.Delivery, error) {
	destID := d.WebhookID + d.ChatID
	se, err := db.RecordEvent(ctx, tx, tx.Actor, assess.NewEvent{Type: assess.EventChannelTest,
		Data: assess.ChannelTestMessage{DestinationID: destID, Channel: d.Channel,
			Message: "This is a test message from Assay " + db.Delivery.Version + "."},
		Summary: name, Link: k.link(destID)})
	if err != nil {
		return assess.Delivery{}, err
	}
	d.EventID, d.EventType = se.ID, se.Type
	ids, err := db.QueueDeliveries(ctx, tx, []postgres.NewDelivery{d})
	if err != nil {
		return assess.Delivery{}, err
	}
	if err := tx.Record(ctx, k.tested, postgres.Target{Type: k.target, ID: destID},
		map[string]any{"delivery": ids[0], "event": se.ID}, assess.NewEvent{}); err != nil {
		return assess.Delivery{}, err
	}
	return findDelivery(ctx, tx, k.logKind, destID, ids[0], false)
}

// outbound is the policy for webhook URLs: OUTBOUND_ALLOW_NETWORKS.
func outbound(db *postgres.DB) assess.OutboundPolicy {
	return assess.OutboundPolicy{AllowNetworks: db.Delivery.AllowNetworks}
}

// chatOutbound is the policy for a chat URL on platform. A URL off the platform's pattern
// is accepted when its host resolves only inside OUTBOUND_ALLOW_NETWORKS (test
// receivers); the name is resolved here, before any transaction, so no row lock waits on
// the network.
func chatOutbound(ctx context.Context, db *postgres.DB, platform, rawURL string) assess.OutboundPolicy {
	p := outbound(db)
	if host, ok := assess.ChatHostToResolve(platform, rawURL); ok && resolvesInside(ctx, host, p.AllowNetworks) {
		p.AllowListedHosts = []string{host}
	}
	return p
}

// resolvesInside reports whether host resolves to at least one address, and only to
// addresses inside allow.
func resolvesInside(ctx context.Context, host string, allow []netip.Prefix) bool {
	if len(allow) == 0 {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	addrs, _ := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	for _, a := range addrs {
		if !assess.InNetworks(a, allow) {
			return false
		}
	}
	return len(addrs) > 0
}
