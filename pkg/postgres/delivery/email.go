package delivery

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/postgres"
)

// errNothingStored is LockVersion's answer while no SMTP settings are stored.
var errNothingStored = errors.New("no smtp settings stored")

// lockSMTP locks the stored settings at the caller's version: 0 while nothing is stored.
func lockSMTP(ctx context.Context, tx *postgres.Tx, version int64) error {
	err := tx.LockVersion(ctx, "smtp_settings", postgres.SmtpSettingsID, version, errNothingStored)
	switch {
	case errors.Is(err, errNothingStored) && version != 0:
		return postgres.VersionConflict(0)
	case errors.Is(err, errNothingStored):
		return nil
	}
	return err
}

// UpdateEmailSettings implements assess.EmailService with optimistic concurrency
// (version 0 while nothing is stored). An empty password clears the stored one.
func (s *EmailService) UpdateEmailSettings(ctx context.Context, upd assess.EmailSettingsUpdate, actor assess.Actor) (assess.EmailSettings, error) {
	var settings assess.EmailSettings
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		if err := upd.Validate(s.db.Delivery.SMTP); err != nil {
			return err
		}
		if err := lockSMTP(ctx, tx, upd.Version); err != nil {
			return err
		}
		stored, err := postgres.ReadStoredSMTP(ctx, tx)
		if err != nil {
			return err
		}
		password := stored.SealedPassword
		if upd.Password != nil && *upd.Password == "" {
			password = ""
		} else if upd.Password != nil {
			if password, err = s.db.Keys.Seal(ctx, postgres.SmtpPasswordField.AAD(postgres.SmtpSettingsID), []byte(*upd.Password)); err != nil {
				return err
			}
		}
		if err := storeSMTP(ctx, tx, stored, upd.Apply(stored.Cfg), password); err != nil {
			return err
		}
		if err := tx.Record(ctx, assess.ChangeEmailSettingsUpdated, postgres.Target{Type: "config", ID: postgres.SmtpSettingsID}, smtpAudit(upd),
			assess.NewEvent{}); err != nil {
			return err
		}
		settings, err = s.db.EmailSettings(ctx, tx)
		return err
	})
	return settings, err
}

// storeSMTP writes the settings row; a row another request inserted meanwhile is a
// version conflict.
func storeSMTP(ctx context.Context, tx *postgres.Tx, s postgres.StoredSMTP, c assess.SMTPConfig, password string) error {
	args := []any{postgres.SmtpSettingsID, c.Enabled, c.Host, c.Port, c.Secure, c.Username, password, c.From, c.TLSRejectUnauthorized, tx.Now}
	if s.Exists {
		if _, err := tx.Exec(ctx, `UPDATE smtp_settings SET enabled = $2, host = $3, port = $4, secure = $5, username = $6, password = $7,
			sender = $8, tls_reject_unauthorized = $9, updated_at = $10 WHERE id = $1`, args...); err != nil {
			return err
		}
		return tx.BumpVersion(ctx, "smtp_settings", postgres.SmtpSettingsID)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO smtp_settings (id, enabled, host, port, secure, username, password, sender,
		tls_reject_unauthorized, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`, args...)
	if err == nil && tag.RowsAffected() == 0 {
		return postgres.VersionConflict(1)
	}
	return err
}

// smtpAudit describes a settings change without the password.
func smtpAudit(upd assess.EmailSettingsUpdate) map[string]any {
	m := map[string]any{}
	postgres.PutSet(m, "enabled", upd.Enabled)
	postgres.PutSet(m, "host", upd.Host)
	postgres.PutSet(m, "port", upd.Port)
	postgres.PutSet(m, "secure", upd.Secure)
	postgres.PutSet(m, "username", upd.Username)
	postgres.PutSet(m, "from", upd.From)
	postgres.PutSet(m, "tlsRejectUnauthorized", upd.TLSRejectUnauthorized)
	if upd.Password != nil {
		m["password"] = "changed"
		if *upd.Password == "" {
			m["password"] = "cleared"
		}
	}
	return m
}

// SendTestEmail implements assess.EmailService: a test message to to, or to the actor's
// own address when to is empty.
func (s *EmailService) SendTestEmail(ctx context.Context, to string, actor assess.Actor) (assess.Delivery, error) {
	var d assess.Delivery
	err := s.db.Change(ctx, actor, func(tx *postgres.Tx) error {
		addr, err := testRecipient(ctx, tx, strings.TrimSpace(to))
		if err != nil {
			return err
		}
		if on, err := s.db.EmailOn(ctx, tx); err != nil || !on {
			return postgres.CmpErr(err, postgres.ErrEmailDisabled)
		}
		name, err := postgres.ActorName(ctx, tx, tx.Actor.ID)
		if err != nil {
			return err
		}
		ids, err := s.db.QueueDeliveries(ctx, tx, []postgres.NewDelivery{postgres.DirectEmail(addr, "Test message from Assay", assess.EmailTemplateTest,
			map[string]string{"actor": name, "version": s.db.Delivery.Version})})
		if err != nil {
			return err
		}
		if err := tx.Record(ctx, assess.ChangeEmailTestSent, postgres.Target{Type: "delivery", ID: ids[0]}, map[string]any{"to": addr},
			assess.NewEvent{}); err != nil {
			return err
		}
		d, err = findDelivery(ctx, tx, assess.DeliveryKindEmail, "", ids[0], false)
		return err
	})
	return d, err
}

// testRecipient is to, or the actor's own address when to is empty; it must be an
// address.
func testRecipient(ctx context.Context, tx *postgres.Tx, to string) (string, error) {
	if to == "" {
		err := tx.QueryRow(ctx, "SELECT email FROM users WHERE id = $1", tx.Actor.ID).Scan(&to)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return "", err
		}
	}
	return to, assess.ValidateEmailAddress("to", to)
}

var _ assess.EmailService = (*EmailService)(nil)

// ChannelStatus implements assess.EmailService: which channels deliver now.
func (s *EmailService) ChannelStatus(ctx context.Context) (assess.ChannelStatus, error) {
	on, err := s.db.EmailOn(ctx, s.db.Pool)
	if err != nil {
		return assess.ChannelStatus{}, err
	}
	return assess.ChannelStatus{InApp: true, Email: on, Webhook: s.db.Delivery.WebhooksEnabled,
		Slack: s.db.Delivery.SlackEnabled, Teams: s.db.Delivery.TeamsEnabled, Mattermost: s.db.Delivery.MattermostEnabled}, nil
}
