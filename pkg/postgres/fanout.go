package postgres

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// An event becomes in-app notifications and deliveries in the transaction of the change
// (docs/integrations.md, "Who is notified"): fanOutSQL records it, inserts the
// notifications and finds the rest, in the statement of the change's audit row; fanOut
// then queues the e-mails and deliveries it found.
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
//
// fanOut follows up what fanOutSQL found for event se: the users whose unread count
// changed, the e-mails and the deliveries with their jobs.
func (db *DB) fanOut(ctx context.Context, tx *Tx, se StoredEvent, f fanOutResult) error {
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

// fanOutResult is what an event's statement (fanOutSQL) found.
type fanOutResult struct {
	users        []userRecipient
	emails       []string // named by matching global rules
	destinations []NewDelivery
}

// fanOutStatement is the one statement that records event se of type typ and fans it out
// (fanOutSQL), with the change's audit row when audit is not nil.
func (db *DB) fanOutStatement(se StoredEvent, typ assess.EventType, audit *statement) statement {
	var subject *string
	if se.SubjectUserID != "" {
		subject = &se.SubjectUserID
	}
	args := append(recipientsArgs(se, typ, filterKeys(se.Type)), se.ActorName, subject, se.Summary, se.Title, se.Data,
		db.Delivery.WebhooksEnabled, db.chatPlatformsOn())
	if audit == nil {
		return statement{sql: fanOutSQL, args: args}
	}
	return statement{sql: auditedFanOutSQL, args: append(args, audit.args...)}
}

// scanFanOut reads the one row of fanOutSQL.
func scanFanOut(row pgx.Row, se StoredEvent) (fanOutResult, error) {
	var f fanOutResult
	var ids, emails, hooks, chats, platforms []string
	var inApp, mail []bool
	if err := row.Scan(&ids, &emails, &inApp, &mail, &f.emails, &hooks, &chats, &platforms); err != nil {
		return f, err
	}
	f.users = make([]userRecipient, len(ids))
	for i, id := range ids {
		f.users[i] = userRecipient{ID: id, Email: emails[i], InApp: inApp[i], Mail: mail[i]}
	}
	for _, id := range hooks {
		f.destinations = append(f.destinations, webhookDelivery(se, id))
	}
	for i, id := range chats {
		f.destinations = append(f.destinations, chatDelivery(se, id, platforms[i]))
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
const recipientsCTEs = `wanted AS (
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
		)`

// recipientsSQL is the recipients of an event (recipientsCTEs) alone, for a plan to be
// examined (ExplainRecipientsForTest).
const recipientsSQL = `WITH ` + recipientsCTEs + `
		SELECT id, email, in_app, mail FROM recipients ORDER BY id`

// fanOutSQL records an event and fans it out in one statement, on the arguments of
// recipientsSQL ($1–$20) and $21–$27: the events row (its id, type, time, actor and link are
// recipientsSQL's), the in-app notifications of its recipients (recipientsCTEs; their
// foreign key to the events row is checked at the end of the statement, when the row is
// there), and one row of what the change's Go side follows up: the recipients with their
// channels (ordered by id), the addresses of the matching global rules, and the matching
// webhooks ($26: switched on) and chat destinations (on a platform of $27), locked FOR KEY
// SHARE until the change commits — a destination deleted meanwhile would otherwise make
// the insert of its delivery fail its foreign key, and the change (a create, a load of demo
// data) answer 404. With the lock the deletion waits for the change, then cascades to the
// new deliveries; a destination deleted before the lock is skipped. Updates (FOR NO KEY
// UPDATE) do not wait. One statement instead of seven in a batch (audit row, events row,
// the plan switch, recipients, the switch back, addresses, webhooks) costs PostgreSQL one
// execution instead of seven (docs/performance.md, "Creates and the write ceiling").
const fanOutSQL = `WITH ` + fanOutEventCTE + `, ` + fanOutTail

// auditedFanOutSQL is fanOutSQL that also appends the change's audit row ($28–$35, the
// arguments of auditStatement): a change and its announcement are one statement.
const auditedFanOutSQL = `WITH audit AS (
			INSERT INTO audit_log (actor, action, target_type, target_id, details, request_id, ip, scope_id)
			VALUES ($28::text, $29::text, $30::text, $31::text, $32::jsonb, $33::text, $34::text, $35::text)
		), ` + fanOutEventCTE + `, ` + fanOutTail

const (
	fanOutEventCTE = `ev AS (
			INSERT INTO events (id, type, occurred_at, actor_id, actor_name, subject_user_id, summary, link, title, data)
			VALUES ($9::text, $10::text, $15::timestamptz, $2::text, $21::text, $22::text, $23::text, $13::text, $24::text, $25::jsonb)
		)`
	fanOutTail = recipientsCTEs + `, hooks AS (
			SELECT id FROM webhooks WHERE $26::boolean AND active AND (event_types && $7::text[] OR id = ANY (` + ruleWebhooksSQL + `))
			ORDER BY id FOR KEY SHARE
		), chats AS (
			SELECT id, platform FROM chat_destinations WHERE active AND platform = ANY ($27::text[])
				AND (event_types && $7::text[] OR id = ANY (` + ruleChatsSQL + `))
			ORDER BY id FOR KEY SHARE
		)
		SELECT coalesce(array_agg(r.id ORDER BY r.id), '{}'), coalesce(array_agg(r.email ORDER BY r.id), '{}'),
			coalesce(array_agg(r.in_app ORDER BY r.id), '{}'), coalesce(array_agg(r.mail ORDER BY r.id), '{}'),
			(` + ruleEmailsSQL + `),
			ARRAY(SELECT id FROM hooks ORDER BY id), ARRAY(SELECT id FROM chats ORDER BY id), ARRAY(SELECT platform FROM chats ORDER BY id)
		FROM recipients r`
)

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

// The destinations and addresses named by the enabled global rules matching the keys ($7, as in recipientsSQL).
const (
	ruleWebhooksSQL = `SELECT w FROM notification_rules r, unnest(r.webhook_ids) w
				WHERE r.scope = 'global' AND r.enabled AND r.event_types && $7::text[]`
	ruleChatsSQL = `SELECT c FROM notification_rules r, unnest(r.chat_ids) c
				WHERE r.scope = 'global' AND r.enabled AND r.event_types && $7::text[]`
	ruleEmailsSQL = `SELECT coalesce(array_agg(DISTINCT x.e) FILTER (WHERE x.e IS NOT NULL), '{}')
		FROM (SELECT unnest(r.emails) AS e FROM notification_rules r
			WHERE r.scope = 'global' AND r.enabled AND r.event_types && $7::text[]) x`
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
