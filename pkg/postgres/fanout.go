package postgres

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// fanOut turns one recorded event into in-app notifications and deliveries, in the
// transaction of the change (docs/integrations.md, "Who is notified"):
//
//	Recipient                                    Condition                                     In-app        E-mail
//	Active holders of the type's permission      type NotifyHolders                            yes           when EmailDefault
//	The subject user (if active)                 type NotifySubject                            yes           when EmailDefault
//	Owner of a personal rule                     rule enabled, filter matches, owner may       rule inApp    rule email
//	                                             receive the type
//	Active members of a global rule's roles      rule enabled, filter matches, member may      rule inApp    rule email
//	                                             receive the type
//	A global rule's e-mail addresses             rule enabled, filter matches                  –             yes
//
//	Destination                                  Condition                                              Delivery
//	Webhook                                      active, WEBHOOK_ENABLED, its filter matches or a       one per event
//	                                             matching enabled global rule names it
//	Chat destination                             active, its platform switched on, its filter matches   one per event
//	                                             or a matching enabled global rule names it
//
// "May receive" means holding the type's permission, or being the event's subject user.
// The actor of the change is never a user recipient (in-app or e-mail); addresses listed
// in a global rule are e-mailed whoever they belong to. E-mail goes out only while e-mail
// is switched on, and only to users with an address. Duplicates collapse: one notification
// per user and event, one delivery per event and destination or address (lower-cased).
// Switched-off channels and inactive destinations get no rows; the event is recorded
// anyway. channel.test is never fanned out: a test delivers to its destination only.
func (db *DB) fanOut(ctx context.Context, tx pgx.Tx, se storedEvent, typ assess.EventType) error {
	keys := filterKeys(se.Type)
	users, err := userRecipients(ctx, tx, se, typ, keys)
	if err != nil {
		return err
	}
	targets, err := ruleTargets(ctx, tx, keys)
	if err != nil {
		return err
	}
	if err := db.notifyInApp(ctx, tx, se, typ, users); err != nil {
		return err
	}
	ds, err := db.destinationDeliveries(ctx, tx, se, keys, targets)
	if err != nil {
		return err
	}
	mails, err := db.emailDeliveries(ctx, tx, se, typ, users, targets.emails)
	if err != nil {
		return err
	}
	_, err = db.queueDeliveries(ctx, tx, append(ds, mails...))
	return err
}

// filterKeys are the subscription-filter entries that select typ; a filter matches when
// it shares one with them (the SQL counterpart of assess.EventFilterMatches).
func filterKeys(typ string) []string {
	category, _, _ := strings.Cut(typ, ".")
	return []string{"*", category + ".*", typ}
}

// userRecipient is one user and the channels they get an event on.
type userRecipient struct {
	ID, Email   string
	InApp, Mail bool
}

// userRecipients finds the users of the default audience and of the matching rules who
// may receive the event, except the actor, with the union of their channels.
func userRecipients(ctx context.Context, tx pgx.Tx, se storedEvent, typ assess.EventType, keys []string) ([]userRecipient, error) {
	rows, err := tx.Query(ctx, `WITH eligible AS (
			SELECT u.id, u.email, EXISTS (SELECT 1 FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
				WHERE ur.user_id = u.id AND rp.permission = $1) AS holds
			FROM users u WHERE u.active AND u.id <> $2
		), wanted AS (
			SELECT e.id, true AS in_app, $5::boolean AS email FROM eligible e
				WHERE ($3::boolean AND e.holds) OR ($4::boolean AND e.id = $6)
			UNION ALL
			SELECT r.owner_id, r.in_app, r.email FROM notification_rules r
				WHERE r.scope = 'personal' AND r.enabled AND r.event_types && $7::text[]
			UNION ALL
			SELECT ur.user_id, r.in_app, r.email FROM notification_rules r
				JOIN roles ro ON ro.name = ANY (r.roles) JOIN user_roles ur ON ur.role_id = ro.id
				WHERE r.scope = 'global' AND r.enabled AND r.event_types && $7::text[] AND (r.in_app OR r.email)
		)
		SELECT e.id, e.email, bool_or(w.in_app), bool_or(w.email)
		FROM wanted w JOIN eligible e ON e.id = w.id
		WHERE e.holds OR e.id = $6
		GROUP BY e.id, e.email ORDER BY e.id`,
		typ.Permission, se.ActorID, typ.NotifyHolders, typ.NotifySubject, typ.EmailDefault, se.SubjectUserID, keys)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (userRecipient, error) {
		var u userRecipient
		return u, r.Scan(&u.ID, &u.Email, &u.InApp, &u.Mail)
	})
}

// targets are what the matching global rules name besides roles.
type targets struct {
	emails, webhookIDs, chatIDs []string
}

func ruleTargets(ctx context.Context, tx pgx.Tx, keys []string) (targets, error) {
	var t targets
	err := tx.QueryRow(ctx, `SELECT
			coalesce(array_agg(DISTINCT x.e) FILTER (WHERE x.e IS NOT NULL), '{}'),
			coalesce((SELECT array_agg(DISTINCT w) FROM notification_rules r, unnest(r.webhook_ids) w
				WHERE r.scope = 'global' AND r.enabled AND r.event_types && $1::text[]), '{}'),
			coalesce((SELECT array_agg(DISTINCT c) FROM notification_rules r, unnest(r.chat_ids) c
				WHERE r.scope = 'global' AND r.enabled AND r.event_types && $1::text[]), '{}')
		FROM (SELECT unnest(r.emails) AS e FROM notification_rules r
			WHERE r.scope = 'global' AND r.enabled AND r.event_types && $1::text[]) x`, keys).
		Scan(&t.emails, &t.webhookIDs, &t.chatIDs)
	return t, err
}

// notifyInApp inserts one notification per user who gets the event in-app.
func (db *DB) notifyInApp(ctx context.Context, tx pgx.Tx, se storedEvent, typ assess.EventType, users []userRecipient) error {
	var ids, userIDs []string
	for _, u := range users {
		if u.InApp {
			ids, userIDs = append(ids, assess.NewID(assess.PrefixNotification, se.OccurredAt)), append(userIDs, u.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	params := map[string]string{"actor": se.ActorName, "summary": se.Summary}
	_, err := tx.Exec(ctx, `INSERT INTO notifications (id, user_id, event_id, type, title, message, link, params, created_at)
		SELECT x.id, x.user_id, $3::text, $4::text, $5::text, $6::text, $7::text, $8::jsonb, $9::timestamptz FROM unnest($1::text[], $2::text[]) AS x(id, user_id)
		ON CONFLICT (event_id, user_id) DO NOTHING`,
		ids, userIDs, se.ID, se.Type, typ.Title, notificationMessage(se), se.Link, params, se.OccurredAt)
	return err
}

// notificationMessage is the English line under a notification's title.
func notificationMessage(se storedEvent) string {
	if se.Summary == "" {
		return "By " + se.ActorName + "."
	}
	return se.Summary + " (by " + se.ActorName + ")"
}

// destinationDeliveries lists the webhook and chat deliveries of an event.
func (db *DB) destinationDeliveries(ctx context.Context, tx pgx.Tx, se storedEvent, keys []string, t targets) ([]newDelivery, error) {
	var ds []newDelivery
	if db.delivery.WebhooksEnabled {
		rows, err := tx.Query(ctx, `SELECT id FROM webhooks WHERE active AND (event_types && $1::text[] OR id = ANY ($2))
			ORDER BY id`, keys, t.webhookIDs)
		if err != nil {
			return nil, err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			ds = append(ds, webhookDelivery(se, id))
		}
	}
	platforms := db.chatPlatformsOn()
	if len(platforms) == 0 {
		return ds, nil
	}
	rows, err := tx.Query(ctx, `SELECT id, platform FROM chat_destinations
		WHERE active AND platform = ANY ($3) AND (event_types && $1::text[] OR id = ANY ($2)) ORDER BY id`, keys, t.chatIDs, platforms)
	if err != nil {
		return nil, err
	}
	chats, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct{ ID, Platform string }])
	for _, c := range chats {
		ds = append(ds, chatDelivery(se, c.ID, c.Platform))
	}
	return ds, err
}

// emailDeliveries lists the event e-mails: to users who get the event by e-mail and to
// the addresses of matching global rules, once per address, while e-mail is on.
func (db *DB) emailDeliveries(ctx context.Context, tx pgx.Tx, se storedEvent, typ assess.EventType, users []userRecipient, addresses []string) ([]newDelivery, error) {
	var to []string
	for _, u := range users {
		if u.Mail && u.Email != "" {
			to = append(to, u.Email)
		}
	}
	to = append(to, addresses...)
	if len(to) == 0 {
		return nil, nil
	}
	if on, err := db.emailOn(ctx, tx); err != nil || !on {
		return nil, err
	}
	subject := typ.Title
	if se.Summary != "" {
		subject += ": " + se.Summary
	}
	ds := make([]newDelivery, 0, len(to))
	for _, addr := range to {
		ds = append(ds, newDelivery{EventID: se.ID, EventType: se.Type, Channel: assess.ChannelEmail, Recipient: addr,
			Subject: subject, Template: assess.EmailTemplateEvent, DedupeKey: emailDedupeKey(addr)})
	}
	return ds, nil
}
