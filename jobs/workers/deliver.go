package workers

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/assay-dev/assay/jobs"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/metrics"
	"github.com/assay-dev/assay/pkg/notify"
)

// Retry policy of deliveries: the n-th retry waits base·4^(n−1), ±20 %, at most 12 h.
const (
	retryFactor   = 4
	retryJitter   = 0.2
	retryCap      = 12 * time.Hour
	timeoutMargin = 5 * time.Second // River's job timeout beyond the channel's own
	recordTimeout = 10 * time.Second
)

// Observer receives job and delivery measurements; *metrics.JobMetrics implements it.
type Observer interface {
	ObserveJob(kind, outcome string, elapsed time.Duration)
	ObserveDeliveryAttempt(channel, outcome string, elapsed time.Duration)
	ObserveDelivery(channel, outcome string)
}

// deliverer is what the three delivery workers share: the store, the senders, the
// channel switches and the retry policy.
type deliverer struct {
	store           assess.DeliveryStore
	webhooks, chats *notify.HTTPClient
	smtp            notify.SMTPSender
	appURL          string
	retryBase       time.Duration
	webhooksOn      bool
	chatOn          map[string]bool
	obs             Observer
	log             *slog.Logger
	webhookTimeout  time.Duration
	chatTimeout     time.Duration
	smtpTimeout     time.Duration
}

func newDeliverer(cfg Config) *deliverer {
	ua := notify.UserAgent(cfg.Version)
	return &deliverer{
		store:    cfg.Deliveries,
		webhooks: notify.NewHTTPClient(notify.HTTPConfig{Timeout: cfg.WebhookTimeout, AllowNetworks: cfg.OutboundAllowNetworks, UserAgent: ua}),
		chats:    notify.NewHTTPClient(notify.HTTPConfig{Timeout: cfg.ChatTimeout, AllowNetworks: cfg.OutboundAllowNetworks, UserAgent: ua}),
		smtp:     notify.SMTPSender{Timeout: cfg.SMTPTimeout},
		appURL:   cfg.AppURL, retryBase: cfg.DeliveryRetryBase,
		webhooksOn: cfg.WebhooksEnabled,
		chatOn: map[string]bool{
			assess.ChannelSlack: cfg.SlackEnabled, assess.ChannelTeams: cfg.TeamsEnabled, assess.ChannelMattermost: cfg.MattermostEnabled,
		},
		obs: cfg.Metrics, log: cfg.Logger,
		webhookTimeout: cfg.WebhookTimeout, chatTimeout: cfg.ChatTimeout, smtpTimeout: cfg.SMTPTimeout,
	}
}

// attempt is the result of one send.
type attempt struct {
	ok         bool
	httpStatus int
	response   string
	err        string
	// permanent failures (an unknown template, a malformed secret) end the delivery at
	// once: retrying cannot help.
	permanent bool
}

func fromResponse(r notify.Response) attempt {
	return attempt{ok: r.Succeeded(), httpStatus: r.Status, response: r.Body, err: r.Error()}
}

type sendFunc func(ctx context.Context, task assess.DeliveryTask) attempt

// recordCutAttempts logs the attempts a crashed worker could not record: River counts
// every attempt it started (row.Attempt, this one included), the log only those that
// reported. The receiver may have got the interrupted one; the log says so, and the next
// attempt carries the same webhook-id, so receivers de-duplicate.
func (d *deliverer) recordCutAttempts(ctx context.Context, row *rivertype.JobRow, task assess.DeliveryTask) error {
	missing := row.Attempt - 1 - task.Delivery.Attempts
	if missing <= 0 || final(task.Delivery.Status) {
		return nil
	}
	for range missing { // when it started is lost with the worker: logged as found
		out := assess.DeliveryOutcome{StartedAt: time.Now(), NextAttemptAt: time.Now(),
			Error: "interrupted: the worker stopped during the attempt (found when the job was rescued)"}
		if err := d.store.RecordDeliveryAttempt(ctx, task.Delivery.ID, out); err != nil {
			return fmt.Errorf("record interrupted attempt of delivery %s: %w", task.Delivery.ID, err)
		}
	}
	return nil
}

// work makes one attempt of delivery id for the River job row. A failure that is not the
// last returns an error, so River retries after NextRetry; the last failure also returns
// one, and River discards the job. Both are recorded first.
func (d *deliverer) work(ctx context.Context, row *rivertype.JobRow, id string, send sendFunc) error {
	task, err := d.store.LoadDelivery(ctx, id)
	if err != nil {
		if assess.ErrorCode(err) == assess.ECodeNotFound {
			// Deleted with its destination: there is nothing left to deliver.
			return river.JobCancel(fmt.Errorf("delivery %s: %w", id, err))
		}
		return fmt.Errorf("load delivery %s: %w", id, err)
	}
	if err := d.recordCutAttempts(ctx, row, task); err != nil {
		return err
	}
	channel := task.Delivery.Channel
	if task.Skip == "" {
		task.Skip = d.switchedOff(channel)
	}
	if task.Skip != "" {
		if final(task.Delivery.Status) {
			return nil // a duplicate job of a finished delivery
		}
		if err := d.store.SkipDelivery(ctx, id, task.Skip); err != nil {
			return fmt.Errorf("skip delivery %s: %w", id, err)
		}
		d.obs.ObserveDelivery(channel, metrics.DeliverySkipped)
		d.log.InfoContext(ctx, "delivery skipped", slog.String("delivery_id", id), slog.String("channel", channel), slog.String("reason", task.Skip))
		return nil
	}

	started := time.Now()
	res := send(ctx, task)
	elapsed := time.Since(started)
	interrupted := !res.ok && errors.Is(ctx.Err(), context.Canceled)
	out := assess.DeliveryOutcome{
		StartedAt: started, Duration: elapsed, Succeeded: res.ok, HTTPStatus: res.httpStatus,
		Error: res.err, Response: res.response,
		Final: res.ok || res.permanent || (!interrupted && row.Attempt >= row.MaxAttempts),
	}
	if interrupted {
		out.Error = "interrupted: the worker stopped during the attempt"
	}
	if !out.Final {
		out.NextAttemptAt = time.Now().Add(d.retryDelay(row))
		if interrupted {
			out.NextAttemptAt = time.Now().Add(d.retryBase)
		}
	}
	// Record even when the job's context is gone (shutdown), on a short leash of its own.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if err := d.store.RecordDeliveryAttempt(rctx, id, out); err != nil {
		return fmt.Errorf("record attempt of delivery %s: %w", id, err)
	}
	outcome := metrics.DeliveryFailed
	if res.ok {
		outcome = metrics.DeliverySucceeded
	}
	d.obs.ObserveDeliveryAttempt(channel, outcome, elapsed)
	if out.Final {
		d.obs.ObserveDelivery(channel, outcome)
	}
	attrs := []any{slog.String("delivery_id", id), slog.String("channel", channel), slog.Int("attempt", row.Attempt),
		slog.Int("max_attempts", row.MaxAttempts), slog.Duration("duration", elapsed)}
	switch {
	case res.ok:
		d.log.DebugContext(ctx, "delivered", attrs...)
		return nil
	case interrupted:
		// Snoozing keeps the attempt budget: the receiver is not to blame.
		d.log.WarnContext(ctx, "delivery interrupted; it will be retried", attrs...)
		return river.JobSnooze(d.retryBase)
	case res.permanent:
		d.log.WarnContext(ctx, "delivery failed permanently", append(attrs, slog.String("error", res.err))...)
		return river.JobCancel(fmt.Errorf("delivery %s: %s", id, res.err))
	case out.Final:
		d.log.WarnContext(ctx, "delivery failed after its last attempt", append(attrs, slog.String("error", res.err))...)
	}
	return fmt.Errorf("delivery %s attempt %d/%d failed: %s", id, row.Attempt, row.MaxAttempts, res.err)
}

func final(status string) bool {
	return status == assess.DeliverySucceeded || status == assess.DeliveryFailed || status == assess.DeliverySkipped
}

// switchedOff says why a channel does not deliver on this worker, or "".
func (d *deliverer) switchedOff(channel string) string {
	switch channel {
	case assess.ChannelWebhook:
		if !d.webhooksOn {
			return "channel switched off (WEBHOOK_ENABLED=false)"
		}
	case assess.ChannelSlack, assess.ChannelTeams, assess.ChannelMattermost:
		if !d.chatOn[channel] {
			return "channel switched off (" + channel + " disabled)"
		}
	}
	return ""
}

// retryDelay is base·4^(attempt−1) with ±20 % jitter, capped at 12 h. The jitter is
// derived from the job id and attempt, so the delay River schedules and the one the
// delivery log shows agree, while deliveries failing together still spread out.
func (d *deliverer) retryDelay(row *rivertype.JobRow) time.Duration {
	return RetryDelay(d.retryBase, row.Attempt, jitterOf(row.ID, row.Attempt))
}

// RetryDelay is the wait before the retry that follows failed attempt n (1 for the first
// attempt): base·4^(n−1)·(1+jitter), at most 12 h. jitter lies in [−0.2, 0.2].
func RetryDelay(base time.Duration, n int, jitter float64) time.Duration {
	if base <= 0 {
		base = 30 * time.Second
	}
	delay := float64(base)
	for i := 1; i < n && delay < float64(retryCap); i++ {
		delay *= retryFactor
	}
	delay *= 1 + max(-retryJitter, min(retryJitter, jitter))
	return min(time.Duration(delay), retryCap)
}

// jitterOf maps a job id and attempt to a stable value in [−0.2, 0.2].
func jitterOf(id int64, n int) float64 {
	h := fnv.New64a()
	_, _ = fmt.Fprintf(h, "%d/%d", id, n)
	return (float64(h.Sum64()%10001)/10000*2 - 1) * retryJitter
}

func (d *deliverer) sendWebhook(ctx context.Context, task assess.DeliveryTask) attempt {
	if task.Secret == "" || task.URL == "" {
		return attempt{err: "the webhook has no URL or secret", permanent: true}
	}
	return fromResponse(d.webhooks.PostWebhook(ctx, task.URL, task.Secret, task.Delivery.ID, task.Envelope))
}

func (d *deliverer) sendChat(ctx context.Context, task assess.DeliveryTask) attempt {
	body, err := notify.ChatPayload(task.Delivery.Channel, notify.NewMessage(task, d.appURL))
	if err != nil {
		return attempt{err: err.Error(), permanent: true}
	}
	return fromResponse(d.chats.PostJSON(ctx, task.URL, body, nil))
}

func (d *deliverer) sendEmail(ctx context.Context, task assess.DeliveryTask) attempt {
	e, err := notify.RenderEmail(task, d.appURL)
	if err != nil {
		return attempt{err: err.Error(), permanent: true}
	}
	cfg, err := d.store.EffectiveSMTP(ctx)
	if err != nil {
		return attempt{err: "SMTP settings: " + err.Error()}
	}
	if err := d.smtp.Send(ctx, cfg, e); err != nil {
		return attempt{err: err.Error()}
	}
	return attempt{ok: true}
}

// DeliverWebhookWorker POSTs signed event envelopes to webhook destinations.
type DeliverWebhookWorker struct {
	river.WorkerDefaults[jobs.DeliverWebhookArgs]
	d *deliverer
}

// Work implements river.Worker.
func (w *DeliverWebhookWorker) Work(ctx context.Context, job *river.Job[jobs.DeliverWebhookArgs]) error {
	return w.d.work(ctx, job.JobRow, job.Args.DeliveryID, w.d.sendWebhook)
}

// NextRetry implements river.Worker: the delivery backoff instead of River's default.
func (w *DeliverWebhookWorker) NextRetry(job *river.Job[jobs.DeliverWebhookArgs]) time.Time {
	return time.Now().Add(w.d.retryDelay(job.JobRow))
}

// Timeout implements river.Worker: WEBHOOK_TIMEOUT plus a margin to record the attempt.
func (w *DeliverWebhookWorker) Timeout(*river.Job[jobs.DeliverWebhookArgs]) time.Duration {
	return w.d.webhookTimeout + timeoutMargin
}

// DeliverChatWorker posts event messages to Slack, Teams and Mattermost.
type DeliverChatWorker struct {
	river.WorkerDefaults[jobs.DeliverChatArgs]
	d *deliverer
}

// Work implements river.Worker.
func (w *DeliverChatWorker) Work(ctx context.Context, job *river.Job[jobs.DeliverChatArgs]) error {
	return w.d.work(ctx, job.JobRow, job.Args.DeliveryID, w.d.sendChat)
}

// NextRetry implements river.Worker.
func (w *DeliverChatWorker) NextRetry(job *river.Job[jobs.DeliverChatArgs]) time.Time {
	return time.Now().Add(w.d.retryDelay(job.JobRow))
}

// Timeout implements river.Worker: CHAT_TIMEOUT plus a margin.
func (w *DeliverChatWorker) Timeout(*river.Job[jobs.DeliverChatArgs]) time.Duration {
	return w.d.chatTimeout + timeoutMargin
}

// DeliverEmailWorker renders and sends e-mails.
type DeliverEmailWorker struct {
	river.WorkerDefaults[jobs.DeliverEmailArgs]
	d *deliverer
}

// Work implements river.Worker.
func (w *DeliverEmailWorker) Work(ctx context.Context, job *river.Job[jobs.DeliverEmailArgs]) error {
	return w.d.work(ctx, job.JobRow, job.Args.DeliveryID, w.d.sendEmail)
}

// NextRetry implements river.Worker.
func (w *DeliverEmailWorker) NextRetry(job *river.Job[jobs.DeliverEmailArgs]) time.Time {
	return time.Now().Add(w.d.retryDelay(job.JobRow))
}

// Timeout implements river.Worker: SMTP_TIMEOUT plus a margin.
func (w *DeliverEmailWorker) Timeout(*river.Job[jobs.DeliverEmailArgs]) time.Duration {
	return w.d.smtpTimeout + timeoutMargin
}
