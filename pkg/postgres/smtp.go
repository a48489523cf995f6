package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// Where an SMTP setting comes from (EmailSettings.Sources).
const (
	sourceEnvironment = "environment"
	sourceStored      = "stored"
	sourceDefault     = "default"
)

const smtpSettingsID = "smtp"

// storedSMTP is the smtp_settings row; the password stays sealed.
type storedSMTP struct {
	exists         bool
	cfg            assess.SMTPConfig
	sealedPassword string
	version        int64
}

// readStoredSMTP reads the stored settings; a missing row gives the defaults.
func readStoredSMTP(ctx context.Context, q querier, lock bool) (storedSMTP, error) {
	s := storedSMTP{cfg: assess.SMTPConfig{Port: 587, TLSRejectUnauthorized: true}}
	sql := `SELECT enabled, host, port, secure, username, password, sender, tls_reject_unauthorized, version
		FROM smtp_settings WHERE id = $1`
	if lock {
		sql += " FOR UPDATE"
	}
	c := &s.cfg
	err := q.QueryRow(ctx, sql, smtpSettingsID).Scan(&c.Enabled, &c.Host, &c.Port, &c.Secure, &c.Username,
		&s.sealedPassword, &c.From, &c.TLSRejectUnauthorized, &s.version)
	if errors.Is(err, pgx.ErrNoRows) {
		return s, nil
	}
	s.exists = err == nil
	return s, err
}

// smtpMerge is the effective configuration (password still sealed) and the source of
// each field, keyed by the JSON names of EmailSettings.
type smtpMerge struct {
	cfg            assess.SMTPConfig
	sealedPassword string // "" when the environment sets the password or none is stored
	sources        map[string]string
}

// pick chooses the environment's value when it sets one, else the stored value when a
// row exists, else the default.
func pick[T any](env *T, stored T, exists bool) (T, string) {
	switch {
	case env != nil:
		return *env, sourceEnvironment
	case exists:
		return stored, sourceStored
	}
	return stored, sourceDefault // a missing row holds the defaults
}

// mergeSMTP applies the environment's overrides to the stored settings.
func mergeSMTP(env assess.SMTPOverrides, s storedSMTP) smtpMerge {
	m := smtpMerge{sources: map[string]string{}}
	c, st := &m.cfg, s.cfg
	set := func(field string, src string) { m.sources[field] = src }
	var src string
	c.Enabled, src = pick(env.Enabled, st.Enabled, s.exists)
	set("enabled", src)
	c.Host, src = pick(env.Host, st.Host, s.exists)
	set("host", src)
	c.Port, src = pick(env.Port, st.Port, s.exists)
	set("port", src)
	c.Secure, src = pick(env.Secure, st.Secure, s.exists)
	set("secure", src)
	c.Username, src = pick(env.Username, st.Username, s.exists)
	set("username", src)
	c.From, src = pick(env.From, st.From, s.exists)
	set("from", src)
	c.TLSRejectUnauthorized, src = pick(env.TLSRejectUnauthorized, st.TLSRejectUnauthorized, s.exists)
	set("tlsRejectUnauthorized", src)
	c.Password, src = pick(env.Password, "", s.sealedPassword != "")
	set("password", src)
	if env.Password == nil {
		m.sealedPassword = s.sealedPassword
	}
	return m
}

// effectiveSMTP reads and merges the SMTP settings; the password stays sealed.
func (db *DB) effectiveSMTP(ctx context.Context, q querier) (smtpMerge, storedSMTP, error) {
	s, err := readStoredSMTP(ctx, q, false)
	if err != nil {
		return smtpMerge{}, s, err
	}
	return mergeSMTP(db.delivery.SMTP, s), s, nil
}

// emailOn reports whether e-mail delivers: enabled, with a host.
func (db *DB) emailOn(ctx context.Context, q querier) (bool, error) {
	m, _, err := db.effectiveSMTP(ctx, q)
	return m.cfg.Enabled && m.cfg.Host != "", err
}

// EffectiveSMTP implements assess.DeliveryStore: the environment's values where it sets
// them, else the stored ones, with the password opened.
func (db *DB) EffectiveSMTP(ctx context.Context) (assess.SMTPConfig, error) {
	m, _, err := db.effectiveSMTP(ctx, db.pool)
	if err != nil || m.sealedPassword == "" {
		return m.cfg, err
	}
	plain, err := db.keys.Open(ctx, smtpPasswordField.AAD(smtpSettingsID), m.sealedPassword)
	m.cfg.Password = string(plain)
	return m.cfg, err
}

// EmailSettings implements assess.EmailService.
func (db *DB) EmailSettings(ctx context.Context) (assess.EmailSettings, error) {
	m, s, err := db.effectiveSMTP(ctx, db.pool)
	if err != nil {
		return assess.EmailSettings{}, err
	}
	return emailSettings(m, s), nil
}

func emailSettings(m smtpMerge, s storedSMTP) assess.EmailSettings {
	c := m.cfg
	return assess.EmailSettings{Enabled: c.Enabled, Host: c.Host, Port: c.Port, Secure: c.Secure, Username: c.Username,
		PasswordSet: c.Password != "" || m.sealedPassword != "", From: c.From, TLSRejectUnauthorized: c.TLSRejectUnauthorized,
		Sources: m.sources, Version: s.version}
}
