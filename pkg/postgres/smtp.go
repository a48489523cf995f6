package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/assay-dev/assay/pkg/assess"
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
func readStoredSMTP(ctx context.Context, q querier) (storedSMTP, error) {
	s := storedSMTP{cfg: assess.DefaultSMTP}
	c := &s.cfg
	err := q.QueryRow(ctx, `SELECT enabled, host, port, secure, username, password, sender, tls_reject_unauthorized, version
		FROM smtp_settings WHERE id = $1`, smtpSettingsID).Scan(&c.Enabled, &c.Host, &c.Port, &c.Secure, &c.Username,
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

// mergeSMTP applies the environment's overrides to the stored settings.
func mergeSMTP(env assess.SMTPOverrides, s storedSMTP) smtpMerge {
	m := smtpMerge{}
	m.cfg, m.sources = env.Effective(s.cfg, s.exists, s.sealedPassword != "")
	if env.Password == nil {
		m.sealedPassword = s.sealedPassword
	}
	return m
}

// effectiveSMTP reads and merges the SMTP settings; the password stays sealed.
func (db *DB) effectiveSMTP(ctx context.Context, q querier) (smtpMerge, storedSMTP, error) {
	s, err := readStoredSMTP(ctx, q)
	if err != nil {
		return smtpMerge{}, s, dbError(err)
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
func (s *DeliveryStore) EffectiveSMTP(ctx context.Context) (assess.SMTPConfig, error) {
	m, _, err := s.effectiveSMTP(ctx, s.pool)
	if err != nil || m.sealedPassword == "" {
		return m.cfg, err
	}
	plain, err := s.keys.Open(ctx, smtpPasswordField.AAD(smtpSettingsID), m.sealedPassword)
	m.cfg.Password = string(plain)
	return m.cfg, err
}

// EmailSettings implements assess.EmailService.
func (s *EmailService) EmailSettings(ctx context.Context) (assess.EmailSettings, error) {
	return s.emailSettings(ctx, s.pool)
}

// emailSettings reads the settings as administrators see them, also inside a transaction.
func (db *DB) emailSettings(ctx context.Context, q querier) (assess.EmailSettings, error) {
	m, s, err := db.effectiveSMTP(ctx, q)
	if err != nil {
		return assess.EmailSettings{}, err
	}
	c := m.cfg
	return assess.EmailSettings{Enabled: c.Enabled, Host: c.Host, Port: c.Port, Secure: c.Secure, Username: c.Username,
		PasswordSet: c.Password != "" || m.sealedPassword != "", From: c.From, TLSRejectUnauthorized: c.TLSRejectUnauthorized,
		Sources: m.sources, Version: s.version}, nil
}
