package postgres

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// errNothingStored is LockVersion's answer while no SMTP settings are stored.
var errNothingStored = errors.New("no smtp settings stored")

// lockSMTP locks the stored settings at the caller's version: 0 while nothing is stored.
func lockSMTP(ctx context.Context, tx *Tx, version int64) error {
	err := tx.LockVersion(ctx, "smtp_settings", smtpSettingsID, version, errNothingStored)
	switch {
	case errors.Is(err, errNothingStored) && version != 0:
		return versionConflict(0)
	case errors.Is(err, errNothingStored):
		return nil
	}
	return err
}

// UpdateEmailSettings implements assess.EmailService with optimistic concurrency
// (version 0 while nothing is stored). An empty password clears the stored one.
func (s *EmailService) UpdateEmailSettings(ctx context.Context, upd assess.EmailSettingsUpdate, actor assess.Actor) (assess.EmailSettings, error) {
	var settings assess.EmailSettings
	err := s.change(ctx, actor, func(tx *Tx) error {
		if err := upd.Validate(s.delivery.SMTP); err != nil {
			return err
		}
		if err := lockSMTP(ctx, tx, upd.Version); err != nil {
			return err
		}
		stored, err := readStoredSMTP(ctx, tx)
		if err != nil {
			return err
		}
		password := stored.sealedPassword
		if upd.Password != nil && *upd.Password == "" {
			password = ""
		} else if upd.Password != nil {
			if password, err = s.keys.Seal(ctx, smtpPasswordField.AAD(smtpSettingsID), []byte(*upd.Password)); err != nil {
				return err
			}
		}
		if err := storeSMTP(ctx, tx, stored, upd.Apply(stored.cfg), password); err != nil {
			return err
		}
		if err := tx.Record(ctx, assess.ChangeEmailSettingsUpdated, Target{Type: "config", ID: smtpSettingsID}, smtpAudit(upd),
			assess.NewEvent{}); err != nil {
			return err
		}
		settings, err = s.emailSettings(ctx, tx)
		return err
	})
	return settings, err
}

// storeSMTP writes the settings row; a row another request inserted meanwhile is a
// version conflict.
func storeSMTP(ctx context.Context, tx *Tx, s storedSMTP, c assess.SMTPConfig, password string) error {
	args := []any{smtpSettingsID, c.Enabled, c.Host, c.Port, c.Secure, c.Username, password, c.From, c.TLSRejectUnauthorized, tx.Now}
	if s.exists {
		if _, err := tx.Exec(ctx, `UPDATE smtp_settings SET enabled = $2, host = $3, port = $4, secure = $5, username = $6, password = $7,
			sender = $8, tls_reject_unauthorized = $9, updated_at = $10 WHERE id = $1`, args...); err != nil {
			return err
		}
		return tx.BumpVersion(ctx, "smtp_settings", smtpSettingsID)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO smtp_settings (id, enabled, host, port, secure, username, password, sender,
		tls_reject_unauthorized, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`, args...)
	if err == nil && tag.RowsAffected() == 0 {
		return versionConflict(1)
	}
	return err
}

// smtpAudit describes a settings change without the password.
func smtpAudit(upd assess.EmailSettingsUpdate) map[string]any {
	m := map[string]any{}
	putSet(m, "enabled", upd.Enabled)
	putSet(m, "host", upd.Host)
	putSet(m, "port", upd.Port)
	putSet(m, "secure", upd.Secure)
	putSet(m, "username", upd.Username)
	putSet(m, "from", upd.From)
	putSet(m, "tlsRejectUnauthorized", upd.TLSRejectUnauthorized)
	if upd.Password != nil {
		m["password"] = "changed"
		if *upd.Password == "" {
			m["password"] = "cleared"
		}
	}
	return m
}

// putSet records a field of a partial update when the request sets it.
func putSet[T any](m map[string]any, field string, v *T) {
	if v != nil {
		m[field] = *v
	}
}

// SendTestEmail implements assess.EmailService: a test message to to, or to the actor's
// own address when to is empty.
func (s *EmailService) SendTestEmail(ctx context.Context, to string, actor assess.Actor) (assess.Delivery, error) {
	var d assess.Delivery
	err := s.change(ctx, actor, func(tx *Tx) error {
		addr, err := testRecipient(ctx, tx, strings.TrimSpace(to))
		if err != nil {
			return err
		}
		if on, err := s.emailOn(ctx, tx); err != nil || !on {
			return cmpErr(err, errEmailDisabled)
		}
		name, err := actorName(ctx, tx, tx.Actor.ID)
		if err != nil {
			return err
		}
		ids, err := s.queueDeliveries(ctx, tx, []newDelivery{directEmail(addr, "Test message from Assay", assess.EmailTemplateTest,
			map[string]string{"actor": name, "version": s.delivery.Version})})
		if err != nil {
			return err
		}
		if err := tx.Record(ctx, assess.ChangeEmailTestSent, Target{Type: "delivery", ID: ids[0]}, map[string]any{"to": addr},
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
func testRecipient(ctx context.Context, tx *Tx, to string) (string, error) {
	if to == "" {
		err := tx.QueryRow(ctx, "SELECT email FROM users WHERE id = $1", tx.Actor.ID).Scan(&to)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return "", err
		}
	}
	return to, assess.ValidateEmailAddress("to", to)
}

var _ assess.EmailService = (*EmailService)(nil)
