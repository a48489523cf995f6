package postgres

import (
	"context"
	"errors"
	"net/mail"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// refuseEnvironmentFields refuses to store a setting the environment sets: it would
// never apply, and the environment is the operator's decision.
func refuseEnvironmentFields(env assess.SMTPOverrides, upd assess.EmailSettingsUpdate) error {
	pairs := []struct {
		field    string
		env, upd bool
	}{
		{"enabled", env.Enabled != nil, upd.Enabled != nil}, {"host", env.Host != nil, upd.Host != nil},
		{"port", env.Port != nil, upd.Port != nil}, {"secure", env.Secure != nil, upd.Secure != nil},
		{"username", env.Username != nil, upd.Username != nil}, {"password", env.Password != nil, upd.Password != nil},
		{"from", env.From != nil, upd.From != nil},
		{"tlsRejectUnauthorized", env.TLSRejectUnauthorized != nil, upd.TLSRejectUnauthorized != nil},
	}
	var details []assess.Detail
	for _, p := range pairs {
		if p.env && p.upd {
			details = append(details, assess.Detail{Field: p.field, Code: "set_by_environment",
				Message: "The environment sets this value; change it there."})
		}
	}
	if len(details) == 0 {
		return nil
	}
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: "Settings the environment sets cannot be stored.", Details: details}
}

func checkSMTPUpdate(upd *assess.EmailSettingsUpdate) error {
	if upd.Host != nil {
		h := strings.TrimSpace(*upd.Host)
		upd.Host = &h
	}
	if upd.Port != nil && (*upd.Port < 1 || *upd.Port > 65535) {
		return ruleInvalid("port", "invalid", "The port must be between 1 and 65535.")
	}
	if upd.From != nil {
		f := strings.TrimSpace(*upd.From)
		upd.From = &f
		if _, err := mail.ParseAddress(f); f != "" && err != nil {
			return ruleInvalid("from", "invalid", "The sender must be an e-mail address, such as Assay <assay@example.com>.")
		}
	}
	return nil
}

// applySMTPUpdate returns the stored settings with upd applied.
func applySMTPUpdate(c assess.SMTPConfig, upd assess.EmailSettingsUpdate) assess.SMTPConfig {
	set := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	setS := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&c.Enabled, upd.Enabled)
	set(&c.Secure, upd.Secure)
	set(&c.TLSRejectUnauthorized, upd.TLSRejectUnauthorized)
	setS(&c.Host, upd.Host)
	setS(&c.Username, upd.Username)
	setS(&c.From, upd.From)
	if upd.Port != nil {
		c.Port = *upd.Port
	}
	return c
}

// UpdateEmailSettings implements assess.EmailService with optimistic concurrency
// (version 0 while nothing is stored). An empty password clears the stored one.
func (db *DB) UpdateEmailSettings(ctx context.Context, upd assess.EmailSettingsUpdate, actor assess.Actor) (assess.EmailSettings, error) {
	if err := refuseEnvironmentFields(db.delivery.SMTP, upd); err != nil {
		return assess.EmailSettings{}, err
	}
	if err := checkSMTPUpdate(&upd); err != nil {
		return assess.EmailSettings{}, err
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		s, err := readStoredSMTP(ctx, tx, true)
		if err != nil {
			return err
		}
		if s.version != upd.Version {
			return versionConflict(s.version)
		}
		password := s.sealedPassword
		if upd.Password != nil && *upd.Password == "" {
			password = ""
		} else if upd.Password != nil {
			if password, err = db.keys.Seal(ctx, smtpPasswordField.AAD(smtpSettingsID), []byte(*upd.Password)); err != nil {
				return err
			}
		}
		if err := db.storeSMTP(ctx, tx, s, applySMTPUpdate(s.cfg, upd), password); err != nil {
			return err
		}
		return writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "email.settings_updated", TargetType: "config",
			TargetID: "smtp", Details: smtpAudit(upd)})
	})
	if err != nil {
		return assess.EmailSettings{}, err
	}
	return db.EmailSettings(ctx)
}

// storeSMTP writes the settings row; a row another request inserted meanwhile is a
// version conflict.
func (db *DB) storeSMTP(ctx context.Context, tx pgx.Tx, s storedSMTP, c assess.SMTPConfig, password string) error {
	args := []any{smtpSettingsID, c.Enabled, c.Host, c.Port, c.Secure, c.Username, password, c.From, c.TLSRejectUnauthorized, db.now()}
	if s.exists {
		_, err := tx.Exec(ctx, `UPDATE smtp_settings SET enabled = $2, host = $3, port = $4, secure = $5, username = $6, password = $7,
			sender = $8, tls_reject_unauthorized = $9, version = version + 1, updated_at = $10 WHERE id = $1`, args...)
		return err
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
func (db *DB) SendTestEmail(ctx context.Context, to string, actor assess.Actor) (assess.Delivery, error) {
	var d assess.Delivery
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		addr, err := testRecipient(ctx, tx, strings.TrimSpace(to), actor)
		if err != nil {
			return err
		}
		if on, err := db.emailOn(ctx, tx); err != nil || !on {
			return cmpErr(err, errEmailDisabled)
		}
		name, err := actorName(ctx, tx, actor.ID)
		if err != nil {
			return err
		}
		ids, err := db.queueDeliveries(ctx, tx, []newDelivery{directEmail(addr, "Test message from Assay", assess.EmailTemplateTest,
			map[string]string{"actor": name, "version": db.delivery.Version})})
		if err != nil {
			return err
		}
		if err := writeAudit(ctx, tx, assess.AuditEntry{Actor: actor, Action: "email.test_sent", TargetType: "delivery", TargetID: ids[0],
			Details: map[string]any{"to": addr}}); err != nil {
			return err
		}
		d, err = findDelivery(ctx, tx, assess.DeliveryKindEmail, "", ids[0], false)
		return err
	})
	return d, err
}

func testRecipient(ctx context.Context, tx pgx.Tx, to string, actor assess.Actor) (string, error) {
	if to == "" {
		err := tx.QueryRow(ctx, "SELECT email FROM users WHERE id = $1", actor.ID).Scan(&to)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return "", err
		}
	}
	if a, err := mail.ParseAddress(to); err != nil || a.Address != to {
		return "", ruleInvalid("to", "invalid", "A valid e-mail address is required.")
	}
	return to, nil
}

var _ assess.EmailService = (*DB)(nil)
