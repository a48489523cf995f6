package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// StoredEvent is an events row as fan-out and the delivery workers need it.
type StoredEvent struct {
	ID            string
	Type          string
	OccurredAt    time.Time
	ActorID       string
	ActorName     string
	SubjectUserID string
	Summary       string
	Link          string
	// Title is the event in words for everyone (Text.Title): what chat posts and event
	// e-mails are headed with.
	Title string
	Data  json.RawMessage
	// Text is the event in words (assess.DescribeEvent), for the fan-out's notifications
	// and e-mail subjects; not stored beyond Title.
	Text assess.EventText
	// Not stored: who else the event concerns and which record's visibility bounds its
	// user recipients (assess.NewEvent), used by the fan-out in the same transaction.
	Audience     []string
	AssessmentID string
	EvidenceID   string
}

// emit records an event without an audit row of its own in the transaction of the change
// that caused it and fans it out there (see fanOut): in-app notifications, delivery rows
// and their River jobs exist exactly when the change commits.
func (db *DB) emit(ctx context.Context, tx *Tx, actor assess.Actor, ev assess.NewEvent) (string, error) {
	e, err := db.emission(ctx, tx, actor, ev, nil)
	if err != nil {
		return "", err
	}
	return e.event.ID, db.record(ctx, tx, nil, []emission{e})
}

// emission is one statement recording a change: its audit row alone, or its event (with
// the audit row, or without) recorded and fanned out (fanOutSQL).
type emission struct {
	statement
	event *StoredEvent // nil: an audit row only
}

// emission makes the statement recording event ev of actor, with the change's audit row
// when audit is not nil.
func (db *DB) emission(ctx context.Context, q Querier, actor assess.Actor, ev assess.NewEvent, audit *statement) (emission, error) {
	typ, ok := assess.LookupEventType(ev.Type)
	if !ok {
		return emission{}, fmt.Errorf("emit: event type %q is not in the catalogue", ev.Type)
	}
	se, _, err := db.newEvent(ctx, q, actor, ev)
	if err != nil {
		return emission{}, err
	}
	return emission{statement: db.fanOutStatement(se, typ, audit), event: &se}, nil
}

// record sends the statements before (the change's own writes, each checked) and then the
// emissions in one round trip, and fans out each event recorded. A failing statement
// aborts the transaction and the rest with it. Unless the change runs on generic plans
// already (ChangeGeneric), the emissions run on them (genericPlanOn … genericPlanOff).
func (db *DB) record(ctx context.Context, tx *Tx, before []Statement, ems []emission) error {
	var b pgx.Batch
	for _, s := range before {
		b.Queue(s.SQL, s.Args...)
	}
	switchPlans := !tx.generic && slices.ContainsFunc(ems, func(e emission) bool { return e.event != nil })
	if switchPlans {
		b.Queue(genericPlanOn)
	}
	for _, e := range ems {
		b.Queue(e.sql, e.args...)
	}
	if switchPlans {
		b.Queue(genericPlanOff)
	}
	br := tx.SendBatch(ctx, &b)
	found, err := readRecord(br, before, ems, switchPlans)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	for i, e := range ems {
		if e.event == nil {
			continue
		}
		if err := db.fanOut(ctx, tx, *e.event, found[i]); err != nil {
			return fmt.Errorf("emit %s: %w", e.event.Type, err)
		}
	}
	return nil
}

// readRecord reads the results of record's batch in the order it queued them: what each
// event's statement found, by the emission's index.
func readRecord(br pgx.BatchResults, before []Statement, ems []emission, switchPlans bool) ([]fanOutResult, error) {
	for _, s := range before {
		tag, err := br.Exec()
		if err == nil && s.Check != nil {
			err = s.Check(tag)
		}
		if err != nil {
			return nil, err
		}
	}
	if switchPlans {
		if _, err := br.Exec(); err != nil {
			return nil, err
		}
	}
	found := make([]fanOutResult, len(ems))
	for i, e := range ems {
		var err error
		if e.event == nil {
			if _, err = br.Exec(); err != nil {
				err = fmt.Errorf("write audit row: %w", err)
			}
		} else if found[i], err = scanFanOut(br.QueryRow(), *e.event); err != nil {
			err = fmt.Errorf("emit %s: %w", e.event.Type, err)
		}
		if err != nil {
			return nil, err
		}
	}
	if switchPlans {
		if _, err := br.Exec(); err != nil {
			return nil, err
		}
	}
	return found, nil
}

// RecordEvent inserts the events row only; tests of a destination deliver it themselves.
func (db *DB) RecordEvent(ctx context.Context, tx pgx.Tx, actor assess.Actor, ev assess.NewEvent) (StoredEvent, error) {
	se, insert, err := db.newEvent(ctx, tx, actor, ev)
	if err != nil {
		return StoredEvent{}, err
	}
	if _, err := tx.Exec(ctx, insert.sql, insert.args...); err != nil {
		return StoredEvent{}, fmt.Errorf("emit %s: %w", ev.Type, err)
	}
	return se, nil
}

// newEvent makes the events row of ev and the statement inserting it.
func (db *DB) newEvent(ctx context.Context, q Querier, actor assess.Actor, ev assess.NewEvent) (StoredEvent, statement, error) {
	data, err := json.Marshal(ev.Data)
	if err != nil {
		return StoredEvent{}, statement{}, fmt.Errorf("emit %s: data: %w", ev.Type, err)
	}
	name, err := actorNameOf(ctx, q, actor)
	if err != nil {
		return StoredEvent{}, statement{}, err
	}
	now := db.Now().UTC()
	text := assess.DescribeEvent(ev.Type, ev.Data, name, ev.Summary)
	se := StoredEvent{ID: assess.NewID(assess.PrefixEvent, now), Type: string(ev.Type), OccurredAt: now, ActorID: ActorID(actor),
		ActorName: name, SubjectUserID: ev.SubjectUserID, Summary: ev.Summary, Link: ev.Link, Title: text.Title, Data: data,
		Text: text, Audience: ev.Audience, AssessmentID: ev.AssessmentID, EvidenceID: ev.EvidenceID}
	var subject *string
	if se.SubjectUserID != "" {
		subject = &se.SubjectUserID
	}
	return se, statement{sql: `INSERT INTO events (id, type, occurred_at, actor_id, actor_name, subject_user_id, summary, link, title, data)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		args: []any{se.ID, se.Type, se.OccurredAt, se.ActorID, se.ActorName, subject, se.Summary, se.Link, se.Title, se.Data}}, nil
}

// ActorID is the id recorded for an actor; requests without a user are anonymous.
func ActorID(a assess.Actor) string {
	if a.ID == "" {
		return "anonymous"
	}
	return a.ID
}

// ActorOrAnonymous names requests without a user as anonymous, as db.Audit does.
func ActorOrAnonymous(a assess.Actor) assess.Actor {
	a.ID = ActorID(a)
	return a
}

// actorNameOf is actorName without a query when the request's principal is the actor.
func actorNameOf(ctx context.Context, q Querier, a assess.Actor) (string, error) {
	if p := a.Principal; p != nil && p.User.ID == a.ID && a.ID != "" {
		if p.User.DisplayName != "" {
			return p.User.DisplayName, nil
		}
		return p.User.Username, nil
	}
	return ActorName(ctx, q, a.ID)
}

// ActorName is the display name shown for who caused an event.
func ActorName(ctx context.Context, q Querier, id string) (string, error) {
	switch {
	case id == assess.SystemActor.ID:
		return "System", nil
	case strings.HasPrefix(id, "cli:"):
		return "Command line", nil
	case id == "" || id == "anonymous":
		return "Anonymous", nil
	}
	var name string
	err := q.QueryRow(ctx, "SELECT coalesce(nullif(display_name, ''), username) FROM users WHERE id = $1", id).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		return id, nil
	}
	return name, err
}

// Envelope is the event as every channel delivers it (assess.Event).
func (e StoredEvent) Envelope() ([]byte, error) {
	return json.Marshal(assess.Event{ID: e.ID, Type: e.Type, Timestamp: e.OccurredAt.UTC(),
		Actor: assess.EventActor{ID: e.ActorID, DisplayName: e.ActorName}, Data: e.Data})
}

// LoadEvent reads an events row.
func LoadEvent(ctx context.Context, q Querier, id string) (StoredEvent, error) {
	var e StoredEvent
	var subject *string
	err := q.QueryRow(ctx, `SELECT id, type, occurred_at, actor_id, actor_name, subject_user_id, summary, link, title, data
		FROM events WHERE id = $1`, id).Scan(&e.ID, &e.Type, &e.OccurredAt, &e.ActorID, &e.ActorName, &subject, &e.Summary, &e.Link, &e.Title, &e.Data)
	if subject != nil {
		e.SubjectUserID = *subject
	}
	return e, err
}

// The content of events about each kind of record (the type comes from the change):
// data, the user concerned, a summary and a link.
func UserEvent(u assess.User) assess.NewEvent {
	return assess.NewEvent{Data: u, SubjectUserID: u.ID, Summary: u.Username, Link: "/admin/users?id=" + u.ID}
}

func APIKeyEvent(k assess.APIKey) assess.NewEvent {
	return assess.NewEvent{Data: k, SubjectUserID: k.UserID, Summary: k.Name, Link: "/profile"}
}

func InviteEvent(inv assess.Invite) assess.NewEvent {
	summary := inv.Email
	if summary == "" {
		summary = "invite"
	}
	ev := assess.NewEvent{Data: inv, Summary: summary, Link: "/admin/invites"}
	if strings.HasPrefix(inv.CreatedBy, assess.PrefixUser) { // not for invites made on the command line
		ev.SubjectUserID = inv.CreatedBy
	}
	return ev
}

func RoleEvent(r assess.Role) assess.NewEvent {
	return assess.NewEvent{Data: r, Summary: r.Name, Link: "/admin/roles"}
}

func WebhookEvent(w assess.Webhook) assess.NewEvent {
	w.URL = assess.RedactedURL(w.URL) // events never carry a URL's query (it may hold a token)
	return assess.NewEvent{Data: w, Summary: w.Name, Link: WebhookLink(w.ID)}
}

func ChatEvent(c assess.ChatDestination) assess.NewEvent {
	return assess.NewEvent{Data: c, Summary: c.Name, Link: ChatLink(c.ID)}
}

// WebhookLink and chatLink are the SPA paths of destinations.
func WebhookLink(id string) string { return "/admin/webhooks?id=" + id }

func ChatLink(id string) string { return "/admin/chat?id=" + id }
