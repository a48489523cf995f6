package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/assay-dev/assay/jobs"
	"github.com/assay-dev/assay/pkg/assess"
)

// NewDelivery is a delivery row to insert.
type NewDelivery struct {
	ID, EventID, EventType, Channel string
	WebhookID, ChatID               string
	Recipient, Subject, Template    string
	// Params are the values of a direct e-mail's template (they may carry a token); they
	// are stored sealed under the row's id. Event e-mails render from the event instead.
	Params    map[string]string
	DedupeKey string
}

func webhookDelivery(se StoredEvent, webhookID string) NewDelivery {
	return NewDelivery{EventID: se.ID, EventType: se.Type, Channel: assess.ChannelWebhook, WebhookID: webhookID,
		DedupeKey: "webhook:" + webhookID}
}

func chatDelivery(se StoredEvent, chatID, platform string) NewDelivery {
	return NewDelivery{EventID: se.ID, EventType: se.Type, Channel: platform, ChatID: chatID, DedupeKey: "chat:" + chatID}
}

// DirectEmail is an e-mail no event causes (invite, password reset, test); its event type
// is email.<template>.
func DirectEmail(to, subject, template string, params map[string]string) NewDelivery {
	return NewDelivery{EventType: assess.DirectEmailType(template), Channel: assess.ChannelEmail, Recipient: to, Subject: subject,
		Template: template, Params: params, DedupeKey: emailDedupeKey(to)}
}

func emailDedupeKey(addr string) string { return "email:" + strings.ToLower(strings.TrimSpace(addr)) }

// Queued is a delivery row just inserted, awaiting its job.
type Queued struct {
	ID, Channel string
	MaxAttempts int
}

// deliveryBatch holds the rows of one insert as the arrays unnest takes.
type deliveryBatch struct {
	id, ev, typ, ch, wh, chat, to, subj, tmpl, params, key []string
	attempts                                               []int
}

func (b *deliveryBatch) add(d NewDelivery, sealedParams string, attempts int) {
	b.id, b.ev, b.typ, b.ch = append(b.id, d.ID), append(b.ev, d.EventID), append(b.typ, d.EventType), append(b.ch, d.Channel)
	b.wh, b.chat, b.to = append(b.wh, d.WebhookID), append(b.chat, d.ChatID), append(b.to, d.Recipient)
	b.subj, b.tmpl, b.params = append(b.subj, d.Subject), append(b.tmpl, d.Template), append(b.params, sealedParams)
	b.key, b.attempts = append(b.key, d.DedupeKey), append(b.attempts, attempts)
}

// QueueDeliveries inserts delivery rows and one River job for each row actually inserted:
// a row whose event already has a delivery with the same dedupe key is dropped, here and
// by the unique index. It returns the inserted ids.
func (db *DB) QueueDeliveries(ctx context.Context, tx pgx.Tx, ds []NewDelivery) ([]string, error) {
	if len(ds) == 0 {
		return nil, nil
	}
	now := db.Now()
	var b deliveryBatch
	seen := map[string]bool{}
	for _, d := range ds {
		k := d.EventID + "\x00" + d.DedupeKey
		if d.EventID != "" && seen[k] {
			continue
		}
		seen[k] = true
		if d.ID == "" {
			d.ID = assess.NewID(assess.PrefixDelivery, now)
		}
		params, err := db.sealParams(ctx, d.ID, d.Params)
		if err != nil {
			return nil, err
		}
		b.add(d, params, db.MaxAttempts(d.Channel))
	}
	rows, err := tx.Query(ctx, `INSERT INTO deliveries (id, event_id, event_type, channel, webhook_id, chat_id, recipient, subject,
			template, params, dedupe_key, max_attempts, created_at, updated_at)
		SELECT id, nullif(ev, ''), typ, ch, nullif(wh, ''), nullif(chat, ''), rcpt, subj, tmpl, nullif(params, ''), key, attempts, $13, $13
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
			$10::text[], $11::text[], $12::int[]) AS x(id, ev, typ, ch, wh, chat, rcpt, subj, tmpl, params, key, attempts)
		ON CONFLICT (event_id, dedupe_key) DO NOTHING
		RETURNING id, channel, max_attempts`,
		b.id, b.ev, b.typ, b.ch, b.wh, b.chat, b.to, b.subj, b.tmpl, b.params, b.key, b.attempts, now)
	if err != nil {
		return nil, fmt.Errorf("insert deliveries: %w", err)
	}
	inserted, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Queued])
	if err != nil {
		return nil, fmt.Errorf("insert deliveries: %w", err)
	}
	ids := make([]string, len(inserted))
	for i, q := range inserted {
		ids[i] = q.ID
	}
	return ids, db.InsertJobs(ctx, tx, inserted)
}

// sealParams seals the template values of a direct e-mail; "" when there are none.
func (db *DB) sealParams(ctx context.Context, id string, params map[string]string) (string, error) {
	if params == nil {
		return "", nil
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return "", err
	}
	return db.Keys.Seal(ctx, EmailParamsField.AAD(id), raw)
}

// InsertJobs inserts one River job per delivery on tx, with the delivery's attempt
// budget as the job's MaxAttempts.
func (db *DB) InsertJobs(ctx context.Context, tx pgx.Tx, qs []Queued) error {
	if len(qs) == 0 {
		return nil
	}
	params := make([]river.InsertManyParams, 0, len(qs))
	for _, q := range qs {
		params = append(params, river.InsertManyParams{Args: deliveryJob(q.Channel, q.ID),
			InsertOpts: &river.InsertOpts{MaxAttempts: max(q.MaxAttempts, 1)}})
	}
	if _, err := db.jobs.InsertManyTx(ctx, tx, params); err != nil {
		return fmt.Errorf("insert delivery jobs: %w", err)
	}
	return nil
}

// deliveryJob is the River job that makes the attempts of a delivery on channel.
func deliveryJob(channel, id string) river.JobArgs {
	switch channel {
	case assess.ChannelWebhook:
		return jobs.DeliverWebhookArgs{DeliveryID: id}
	case assess.ChannelEmail:
		return jobs.DeliverEmailArgs{DeliveryID: id}
	}
	return jobs.DeliverChatArgs{DeliveryID: id}
}
