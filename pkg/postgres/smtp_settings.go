package postgres

import (
	"context"
	"errors"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/jackc/pgx/v5"
)

// StoredSMTP is the smtp_settings row; the password stays sealed.
type StoredSMTP struct {
	Exists         bool
	Cfg            assess.SMTPConfig
	SealedPassword string
	version        int64
}

// ReadStoredSMTP reads the stored settings; a missing row gives the defaults.
func ReadStoredSMTP(ctx context.Context, q Querier) (StoredSMTP, error) {
	s := StoredSMTP{Cfg: assess.DefaultSMTP}
	c := &s.Cfg
	err := q.QueryRow(ctx, `SELECT enabled, host, port, secure, username, password, sender, tls_reject_unauthorized, version
		FROM smtp_settings WHERE id = $1`, SmtpSettingsID).Scan(&c.Enabled, &c.Host, &c.Port, &c.Secure, &c.Username,
		&s.SealedPassword, &c.From, &c.TLSRejectUnauthorized, &s.version)
	if errors.Is(err, pgx.ErrNoRows) {
		return s, nil
	}
	s.Exists = err == nil
	return s, err
}

// SMTPMerge is the effective configuration (password still sealed) and the source of
// each field, keyed by the JSON names of EmailSettings.
type SMTPMerge struct {
	Cfg            assess.SMTPConfig
	SealedPassword string // "" when the environment sets the password or none is stored
	sources        map[string]string
}

// mergeSMTP applies the environment's overrides to the stored settings.
func mergeSMTP(env assess.SMTPOverrides, s StoredSMTP) SMTPMerge {
	m := SMTPMerge{}
	m.Cfg, m.sources = env.Effective(s.Cfg, s.Exists, s.SealedPassword != "")
	if env.Password == nil {
		m.SealedPassword = s.SealedPassword
	}
	return m
}

// EffectiveSMTP reads and merges the SMTP settings; the password stays sealed.
func (db *DB) EffectiveSMTP(ctx context.Context, q Querier) (SMTPMerge, StoredSMTP, error) {
	s, err := ReadStoredSMTP(ctx, q)
	if err != nil {
		return SMTPMerge{}, s, DBError(err)
	}
	return mergeSMTP(db.Delivery.SMTP, s), s, nil
}

// EmailOn reports whether e-mail delivers: enabled, with a host.
func (db *DB) EmailOn(ctx context.Context, q Querier) (bool, error) {
	m, _, err := db.EffectiveSMTP(ctx, q)
	return m.Cfg.Enabled && m.Cfg.Host != "", err
}

// EmailSettings reads the settings as administrators see them, also inside a transaction.
func (db *DB) EmailSettings(ctx context.Context, q Querier) (assess.EmailSettings, error) {
	m, s, err := db.EffectiveSMTP(ctx, q)
	if err != nil {
		return assess.EmailSettings{}, err
	}
	c := m.Cfg
	return assess.EmailSettings{Enabled: c.Enabled, Host: c.Host, Port: c.Port, Secure: c.Secure, Username: c.Username,
		PasswordSet: c.Password != "" || m.SealedPassword != "", From: c.From, TLSRejectUnauthorized: c.TLSRejectUnauthorized,
		Sources: m.sources, Version: s.version}, nil
}

const SmtpSettingsID = "smtp"
