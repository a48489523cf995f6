package postgres

import (
	"context"
	"slices"
	"strings"
	"time"

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
// "May receive" means holding the type's permission, or being the event's subject user or
// one of its audience (assess.NewEvent.Audience: the team of an assessment, notified like
// the subject). An event about an assessment or evidence reaches in addition only users
// who may see that record (object-level access), whichever way they would get it.
// The actor of the change is never a user recipient (in-app or e-mail); addresses listed
// in a global rule are e-mailed whoever they belong to. E-mail goes out only while e-mail
// is switched on, and only to users with an address. Duplicates collapse: one notification
// per user and event, one delivery per event and destination or address (lower-cased).
// Switched-off channels and inactive destinations get no rows; the event is recorded
// anyway. channel.test is never fanned out: a test delivers to its destination only.
func (db *DB) fanOut(ctx context.Context, tx *Tx, se StoredEvent, typ assess.EventType, before ...statement) error {
	keys := filterKeys(se.Type)
	f, err := db.fanOutReads(ctx, tx, se, typ, keys, before)
	if err != nil {
		return err
	}
	for _, u := range f.users {
		if u.InApp {
			tx.After.UnreadChanged = append(tx.After.UnreadChanged, u.ID)
		}
	}
	mails, err := db.emailDeliveries(ctx, tx, se, f.users, f.emails)
	if err != nil {
		return err
	}
	_, err = db.QueueDeliveries(ctx, tx, append(f.destinations, mails...))
	return err
}

// statement is one SQL statement with its arguments, to be sent in a batch.
type statement struct {
	sql  string
	args []any
}

// fanOutResult is what the pipelined part of a fan-out found.
type fanOutResult struct {
	users        []userRecipient
	emails       []string // named by matching global rules
	destinations []NewDelivery
}

// fanOutReads sends the statements before (the change's audit row, the events row), the
// recipients (whose in-app notifications the same statement inserts), the addresses of the
// matching rules and the matching destinations in one round trip: none of them depends on the
// result of another, and a failing one aborts the transaction and the rest with it.
// The destinations found are locked FOR KEY SHARE until the change commits: a webhook or
// chat destination deleted meanwhile would otherwise make the insert of its delivery fail
// its foreign key, and the change (a create, a load of demo data) answer 404. With the lock
// the deletion waits for the change, then cascades to the new deliveries; a destination
// deleted before the lock is skipped. Updates (FOR NO KEY UPDATE) do not wait.
func (db *DB) fanOutReads(ctx context.Context, tx pgx.Tx, se StoredEvent, typ assess.EventType, keys []string, before []statement) (fanOutResult, error) {
	var b pgx.Batch
	for _, s := range before {
		b.Queue(s.sql, s.args...)
	}
	b.Queue(genericPlanOn)
	b.Queue(recipientsSQL, recipientsArgs(se, typ, keys)...)
	b.Queue(genericPlanOff)
	b.Queue(ruleEmailsSQL, keys)
	webhooks := db.Delivery.WebhooksEnabled
	if webhooks {
		b.Queue(`SELECT id FROM webhooks WHERE active AND (event_types && $1::text[] OR id = ANY (`+ruleWebhooksSQL+`))
			ORDER BY id FOR KEY SHARE`, keys)
	}
	platforms := db.chatPlatformsOn()
	if len(platforms) > 0 {
		b.Queue(`SELECT id, platform FROM chat_destinations
			WHERE active AND platform = ANY ($2) AND (event_types && $1::text[] OR id = ANY (`+ruleChatsSQL+`)) ORDER BY id
			FOR KEY SHARE`, keys, platforms)
	}
	br := tx.SendBatch(ctx, &b)
	f, err := readFanOut(br, se, len(before), webhooks, len(platforms) > 0)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return f, err
}

// readFanOut reads the results of fanOutReads' batch, in the order it queued them.
func readFanOut(br pgx.BatchResults, se StoredEvent, before int, webhooks, chats bool) (fanOutResult, error) {
	var f fanOutResult
	for range before + 1 { // the statements before, then genericPlanOn
		if _, err := br.Exec(); err != nil {
			return f, err
		}
	}
	rows, _ := br.Query()
	users, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (userRecipient, error) {
		var u userRecipient
		return u, r.Scan(&u.ID, &u.Email, &u.InApp, &u.Mail)
	})
	if err != nil {
		return f, err
	}
	f.users = users
	if _, err := br.Exec(); err != nil { // genericPlanOff
		return f, err
	}
	if err := br.QueryRow().Scan(&f.emails); err != nil {
		return f, err
	}
	if webhooks {
		rows, _ := br.Query()
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return f, err
		}
		for _, id := range ids {
			f.destinations = append(f.destinations, webhookDelivery(se, id))
		}
	}
	if chats {
		rows, _ := br.Query()
		found, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct{ ID, Platform string }])
		if err != nil {
			return f, err
		}
		for _, c := range found {
			f.destinations = append(f.destinations, chatDelivery(se, c.ID, c.Platform))
		}
	}
	return f, nil
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

// recipientsSQL finds the users of the default audience and of the matching rules who
// may receive the event, except the actor, with the union of their channels (starting from
// the candidates — the permission's holders, the subject, the audience, the rules' users —
// so its cost follows the audience, not the number of users), and inserts
// the in-app notification of each who gets the event in-app (one per user and event).
// A notification's id is the event time's part of an identifier ($8, from
// notificationIDPrefix) and 64 random bits in hexadecimal, whose digits are Crockford
// digits too: a valid, time-ordered identifier made in the statement that knows how many
// are needed.
// Whether a rule's user may receive the event is decided on the rule's row, and the users
// are looked up candidate by candidate (the lateral subquery, kept apart by OFFSET 0); the
// object-level visibility of an assessment or evidence event ($17, $18) is tested for the
// candidates only, MATERIALIZED first. With the statistics of a database in use, the
// generic plan otherwise scanned every user, hashing all of user_roles for the permission
// test and evaluating the visibility per user: 1.6 s per evidence event at 1,000 users
// (test TestFanOutCostIgnoresUsersWhoAreNotCandidates).
// The holders are read role by role through user_roles' role index (the lateral
// subquery, kept apart by OFFSET 0): the generic plan would otherwise hash all of
// user_roles for the one or two roles that hold a permission (docs/performance.md).
const recipientsSQL = `WITH wanted AS (
			SELECT h.user_id AS id, true AS in_app, $5::boolean AS email, true AS may
				FROM role_permissions rp, LATERAL (SELECT ur.user_id FROM user_roles ur WHERE ur.role_id = rp.role_id OFFSET 0) h
				WHERE $3::boolean AND rp.permission = $1
			UNION ALL
			SELECT $6::text, true, $5::boolean, true WHERE $4::boolean
			UNION ALL
			SELECT a, true, $5::boolean, true FROM unnest($16::text[]) a WHERE $4::boolean
			UNION ALL
			SELECT r.owner_id, r.in_app, r.email,
					r.owner_id = $6 OR r.owner_id = ANY ($16::text[]) OR user_has_permission(r.owner_id, $1)
				FROM notification_rules r
				WHERE r.scope = 'personal' AND r.enabled AND r.event_types && $7::text[]
			UNION ALL
			SELECT ur.user_id, r.in_app, r.email,
					ur.user_id = $6 OR ur.user_id = ANY ($16::text[]) OR user_has_permission(ur.user_id, $1)
				FROM notification_rules r JOIN roles ro ON ro.name = ANY (r.roles) JOIN user_roles ur ON ur.role_id = ro.id
				WHERE r.scope = 'global' AND r.enabled AND r.event_types && $7::text[] AND (r.in_app OR r.email)
		), candidates AS MATERIALIZED (
			SELECT u.id, u.email, w.in_app, w.mail
			FROM (SELECT id, bool_or(in_app) AS in_app, bool_or(email) AS mail FROM wanted GROUP BY id HAVING bool_or(may)) w,
				LATERAL (SELECT u.id, u.email FROM users u WHERE u.id = w.id AND u.active AND u.id <> $2 OFFSET 0) u
		), recipients AS (
			SELECT c.id, c.email, c.in_app, c.mail FROM candidates c
			WHERE ($17::text = '' OR assessment_visible(c.id, $17::text))
				AND ($18::text = '' OR evidence_visible(c.id, $18::text))
		), notified AS (
			INSERT INTO notifications (id, user_id, event_id, type, title, message, link, params, created_at)
			SELECT $8::text || left(replace(gen_random_uuid()::text, '-', ''), 16), r.id, $9::text, $10::text,
				CASE WHEN r.you THEN $19::text ELSE $11::text END, CASE WHEN r.you THEN $20::text ELSE $12::text END, $13::text,
				$14::jsonb || CASE WHEN r.you THEN '{"you": "true"}'::jsonb ELSE '{}'::jsonb END, $15::timestamptz
			FROM (SELECT r.id, r.in_app, r.id = $6 OR r.id = ANY ($16::text[]) AS you FROM recipients r) r WHERE r.in_app
			ON CONFLICT (event_id, user_id) DO NOTHING
		)
		SELECT id, email, in_app, mail FROM recipients ORDER BY id`

// recipientsArgs are the arguments of recipientsSQL for event se of type typ. A
// notification says the event in words (assess.DescribeEvent): the words for the user it
// concerns — its subject or one of its audience, marked "you" in the params the UI
// translates from — and for everyone else.
func recipientsArgs(se StoredEvent, typ assess.EventType, keys []string) []any {
	params := map[string]string{"actor": se.ActorName, "summary": se.Summary}
	for k, v := range se.Text.Params {
		params[k] = v
	}
	return []any{typ.Permission, se.ActorID, typ.NotifyHolders, typ.NotifySubject, typ.EmailDefault, se.SubjectUserID, keys,
		notificationIDPrefix(se.OccurredAt), se.ID, se.Type, se.Text.Title, se.Text.Message, se.Link, params, se.OccurredAt,
		audience(se.Audience), se.AssessmentID, se.EvidenceID, se.Text.YouTitle, se.Text.YouMessage}
}

// concerns reports whether the event is about user id: its subject or one of its audience.
func (e StoredEvent) concerns(id string) bool {
	return id != "" && (id == e.SubjectUserID || slices.Contains(e.Audience, id))
}

// audience is the users an event concerns besides its subject, never nil (a text[] argument).
func audience(ids []string) []string {
	if ids == nil {
		return []string{}
	}
	return ids
}

// notificationIDPrefix is the prefix and time part of the notifications of an event at t:
// the first ten digits of an identifier, which hold its 48 bits of milliseconds.
func notificationIDPrefix(t time.Time) string {
	return assess.NewID(assess.PrefixNotification, t)[:len(assess.PrefixNotification)+10]
}

// The destinations and addresses named by the enabled global rules matching the keys ($1).
const (
	ruleWebhooksSQL = `SELECT w FROM notification_rules r, unnest(r.webhook_ids) w
				WHERE r.scope = 'global' AND r.enabled AND r.event_types && $1::text[]`
	ruleChatsSQL = `SELECT c FROM notification_rules r, unnest(r.chat_ids) c
				WHERE r.scope = 'global' AND r.enabled AND r.event_types && $1::text[]`
	ruleEmailsSQL = `SELECT coalesce(array_agg(DISTINCT x.e) FILTER (WHERE x.e IS NOT NULL), '{}')
		FROM (SELECT unnest(r.emails) AS e FROM notification_rules r
			WHERE r.scope = 'global' AND r.enabled AND r.event_types && $1::text[]) x`
)

// emailDeliveries lists the event e-mails: to users who get the event by e-mail and to
// the addresses of matching global rules, once per address, while e-mail is on.
func (db *DB) emailDeliveries(ctx context.Context, tx pgx.Tx, se StoredEvent, users []userRecipient, addresses []string) ([]NewDelivery, error) {
	type mail struct {
		to  string
		you bool
	}
	var to []mail
	for _, u := range users {
		if u.Mail && u.Email != "" {
			to = append(to, mail{u.Email, se.concerns(u.ID)})
		}
	}
	for _, addr := range addresses {
		to = append(to, mail{addr, false})
	}
	if len(to) == 0 {
		return nil, nil
	}
	if on, err := db.EmailOn(ctx, tx); err != nil || !on {
		return nil, err
	}
	// The subject says the event as the in-app notification does, to the user it concerns
	// in their words ("Evidence submitted for your review: SBOM").
	subject := func(title string) string {
		if se.Summary == "" {
			return title
		}
		return title + ": " + se.Summary
	}
	ds := make([]NewDelivery, 0, len(to))
	for _, m := range to {
		title := se.Text.Title
		if m.you {
			title = se.Text.YouTitle
		}
		ds = append(ds, NewDelivery{EventID: se.ID, EventType: se.Type, Channel: assess.ChannelEmail, Recipient: m.to,
			Subject: subject(title), Template: assess.EmailTemplateEvent, DedupeKey: emailDedupeKey(m.to)})
	}
	return ds, nil
}
