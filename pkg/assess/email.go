package assess

import (
	"context"
	"net/mail"
	"strings"
)

// The e-mail channel: SMTP settings, stored by administrators and overridden field by field
// by the environment, and direct e-mails.

// ChannelStatus tells which channels deliver on this installation.
type ChannelStatus struct {
	InApp      bool `json:"inApp"`
	Email      bool `json:"email" doc:"SMTP_ENABLED (or the stored setting) and a host are set"`
	Webhook    bool `json:"webhook" doc:"WEBHOOK_ENABLED"`
	Slack      bool `json:"slack"`
	Teams      bool `json:"teams"`
	Mattermost bool `json:"mattermost"`
}

// SMTPConfig is the effective mail-server configuration, password included; only the
// e-mail worker sees it.
type SMTPConfig struct {
	Enabled               bool
	Host                  string
	Port                  int
	Secure                bool // implicit TLS; otherwise STARTTLS when offered
	Username              string
	Password              string
	From                  string
	TLSRejectUnauthorized bool
}

// SMTPOverrides are the SMTP_* variables the environment sets; nil fields are unset, and
// there the stored settings apply.
type SMTPOverrides struct {
	Enabled               *bool
	Host                  *string
	Port                  *int
	Secure                *bool
	Username              *string
	Password              *string
	From                  *string
	TLSRejectUnauthorized *bool
}

// EmailSettings is the SMTP configuration as administrators see it; the password is
// never shown. Sources says where each field's value comes from.
type EmailSettings struct {
	Enabled               bool              `json:"enabled"`
	Host                  string            `json:"host"`
	Port                  int               `json:"port"`
	Secure                bool              `json:"secure" doc:"Implicit TLS (usually port 465); otherwise STARTTLS"`
	Username              string            `json:"username"`
	PasswordSet           bool              `json:"passwordSet"`
	From                  string            `json:"from"`
	TLSRejectUnauthorized bool              `json:"tlsRejectUnauthorized"`
	Sources               map[string]string `json:"sources" doc:"Field name → environment, stored or default; the environment wins"`
	Version               int64             `json:"version"`
}

// EmailSettingsUpdate stores SMTP settings; fields the environment sets cannot be stored
// (422). An empty password clears the stored one.
type EmailSettingsUpdate struct {
	Version               int64   `json:"version" minimum:"0" doc:"0 when nothing is stored yet"`
	Enabled               *bool   `json:"enabled,omitempty"`
	Host                  *string `json:"host,omitempty" maxLength:"253"`
	Port                  *int    `json:"port,omitempty" minimum:"1" maximum:"65535"`
	Secure                *bool   `json:"secure,omitempty"`
	Username              *string `json:"username,omitempty" maxLength:"254"`
	Password              *string `json:"password,omitempty" maxLength:"1024" doc:"Write-only"`
	From                  *string `json:"from,omitempty" maxLength:"320"`
	TLSRejectUnauthorized *bool   `json:"tlsRejectUnauthorized,omitempty"`
}

// Where an SMTP setting comes from (EmailSettings.Sources).
const (
	SMTPFromEnvironment = "environment"
	SMTPFromStored      = "stored"
	SMTPFromDefault     = "default"
)

// DefaultSMTP is the configuration while no settings are stored.
var DefaultSMTP = SMTPConfig{Port: 587, TLSRejectUnauthorized: true}

// Effective returns the SMTP configuration in force and where each field comes from (keyed
// by the JSON names of EmailSettings): the environment's value where it sets one, else
// the stored value when settings are stored (exists), else the default, which a missing
// row holds. The stored password is sealed and not part of stored: passwordStored says
// whether there is one. The result carries only the environment's password.
func (o SMTPOverrides) Effective(stored SMTPConfig, exists, passwordStored bool) (SMTPConfig, map[string]string) {
	var c SMTPConfig
	sources := map[string]string{}
	c.Enabled, sources["enabled"] = pickSMTP(o.Enabled, stored.Enabled, exists)
	c.Host, sources["host"] = pickSMTP(o.Host, stored.Host, exists)
	c.Port, sources["port"] = pickSMTP(o.Port, stored.Port, exists)
	c.Secure, sources["secure"] = pickSMTP(o.Secure, stored.Secure, exists)
	c.Username, sources["username"] = pickSMTP(o.Username, stored.Username, exists)
	c.From, sources["from"] = pickSMTP(o.From, stored.From, exists)
	c.TLSRejectUnauthorized, sources["tlsRejectUnauthorized"] = pickSMTP(o.TLSRejectUnauthorized, stored.TLSRejectUnauthorized, exists)
	c.Password, sources["password"] = pickSMTP(o.Password, "", passwordStored)
	return c, sources
}

// pickSMTP chooses the environment's value when it sets one, else the stored value.
func pickSMTP[T any](env *T, stored T, exists bool) (T, string) {
	switch {
	case env != nil:
		return *env, SMTPFromEnvironment
	case exists:
		return stored, SMTPFromStored
	}
	return stored, SMTPFromDefault
}

// Validate refuses to store a setting the environment sets (it would never apply, and the
// environment is the operator's decision), then checks and normalises the values: host
// and sender trimmed, a port in range, a sender that is an address.
func (u *EmailSettingsUpdate) Validate(env SMTPOverrides) error {
	if err := u.refuseEnvironmentFields(env); err != nil {
		return err
	}
	if u.Host != nil {
		h := strings.TrimSpace(*u.Host)
		u.Host = &h
	}
	if u.Port != nil && (*u.Port < 1 || *u.Port > 65535) {
		return invalidField("port", "invalid", "The port must be between 1 and 65535.")
	}
	if u.From != nil {
		f := strings.TrimSpace(*u.From)
		u.From = &f
		if _, err := mail.ParseAddress(f); f != "" && err != nil {
			return invalidField("from", "invalid", "The sender must be an e-mail address, such as Assay <assay@example.com>.")
		}
	}
	return nil
}

func (u EmailSettingsUpdate) refuseEnvironmentFields(env SMTPOverrides) error {
	pairs := []struct {
		field    string
		env, upd bool
	}{
		{"enabled", env.Enabled != nil, u.Enabled != nil}, {"host", env.Host != nil, u.Host != nil},
		{"port", env.Port != nil, u.Port != nil}, {"secure", env.Secure != nil, u.Secure != nil},
		{"username", env.Username != nil, u.Username != nil}, {"password", env.Password != nil, u.Password != nil},
		{"from", env.From != nil, u.From != nil},
		{"tlsRejectUnauthorized", env.TLSRejectUnauthorized != nil, u.TLSRejectUnauthorized != nil},
	}
	var details []Detail
	for _, p := range pairs {
		if p.env && p.upd {
			details = append(details, Detail{Field: p.field, Code: "set_by_environment",
				Message: "The environment sets this value; change it there."})
		}
	}
	if len(details) == 0 {
		return nil
	}
	return &Error{Code: ECodeBusinessRule, Message: "Settings the environment sets cannot be stored.", Details: details}
}

// Apply returns the stored settings c with the fields the update sets, except the
// password, which is stored sealed.
func (u EmailSettingsUpdate) Apply(c SMTPConfig) SMTPConfig {
	assignIfSet(&c.Enabled, u.Enabled)
	assignIfSet(&c.Host, u.Host)
	assignIfSet(&c.Port, u.Port)
	assignIfSet(&c.Secure, u.Secure)
	assignIfSet(&c.Username, u.Username)
	assignIfSet(&c.From, u.From)
	assignIfSet(&c.TLSRejectUnauthorized, u.TLSRejectUnauthorized)
	return c
}

// assignIfSet copies *v into *dst when v is set.
func assignIfSet[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// ValidateEmailAddress checks that addr is a bare e-mail address (no display name).
func ValidateEmailAddress(field, addr string) error {
	if a, err := mail.ParseAddress(addr); err != nil || a.Address != addr {
		return invalidField(field, "invalid", "A valid e-mail address is required.")
	}
	return nil
}

// DirectEmailType is the delivery event type of an e-mail no event causes (an invite, a
// password reset, a test): email.<template>.
func DirectEmailType(template string) string {
	return "email." + template
}

// EmailService manages the SMTP settings and test messages.
type EmailService interface {
	// EmailSettings returns the effective settings and where each comes from.
	EmailSettings(ctx context.Context) (EmailSettings, error)
	// UpdateEmailSettings stores settings under optimistic concurrency (version 0 while
	// nothing is stored).
	UpdateEmailSettings(ctx context.Context, upd EmailSettingsUpdate, actor Actor) (EmailSettings, error)
	// SendTestEmail queues a test message to to; e-mail switched off is a 422.
	SendTestEmail(ctx context.Context, to string, actor Actor) (Delivery, error)
	// ChannelStatus tells which channels deliver on this installation.
	ChannelStatus(ctx context.Context) (ChannelStatus, error)
}
