package postgres_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/secret"
)

// TestEmailSettingsMerge: the environment wins field by field and cannot be stored over;
// stored fields apply elsewhere; the password is sealed, never shown, and opened only for
// the worker.
func TestEmailSettingsMerge(t *testing.T) {
	t.Parallel()
	cfg := allOn()
	cfg.SMTP = assess.SMTPOverrides{Host: ptr("smtp.env.example")}
	f := newEventsFixture(t, cfg)

	s, err := f.svc.Email.EmailSettings(f.ctx)
	require.NoError(t, err)
	require.Equal(t, "smtp.env.example", s.Host)
	require.Equal(t, 587, s.Port)
	require.True(t, s.TLSRejectUnauthorized)
	require.Equal(t, "environment", s.Sources["host"])
	require.Equal(t, "default", s.Sources["port"])
	require.Zero(t, s.Version)
	st, err := f.svc.Email.ChannelStatus(f.ctx)
	require.NoError(t, err)
	require.False(t, st.Email, "not enabled yet")

	_, err = f.svc.Email.UpdateEmailSettings(f.ctx, assess.EmailSettingsUpdate{Host: ptr("smtp.db.example"), Port: ptr(2525)}, f.actor())
	requireCode(t, err, assess.ECodeBusinessRule, "set_by_environment")
	_, err = f.svc.Email.UpdateEmailSettings(f.ctx, assess.EmailSettingsUpdate{Version: 3, Port: ptr(2525)}, f.actor())
	requireCode(t, err, assess.ECodeVersionConflict, "")
	s, err = f.svc.Email.UpdateEmailSettings(f.ctx, assess.EmailSettingsUpdate{Enabled: ptr(true), Port: ptr(2525), Username: ptr("mailer"),
		Password: ptr("smtp secret"), From: ptr("Assay <assay@example.com>")}, f.actor())
	require.NoError(t, err)
	require.Equal(t, int64(1), s.Version)
	require.Equal(t, 2525, s.Port)
	require.True(t, s.PasswordSet)
	require.Equal(t, "stored", s.Sources["port"])
	require.Equal(t, "environment", s.Sources["host"])
	st, err = f.svc.Email.ChannelStatus(f.ctx)
	require.NoError(t, err)
	require.True(t, st.Email)

	var raw string
	require.NoError(t, f.pool.QueryRow(f.ctx, "SELECT password FROM smtp_settings").Scan(&raw))
	require.True(t, secret.IsEncrypted(raw))
	eff, err := f.svc.DeliveryStore.EffectiveSMTP(f.ctx)
	require.NoError(t, err)
	require.Equal(t, assess.SMTPConfig{Enabled: true, Host: "smtp.env.example", Port: 2525, Username: "mailer", Password: "smtp secret",
		From: "Assay <assay@example.com>", TLSRejectUnauthorized: true}, eff)

	s, err = f.svc.Email.UpdateEmailSettings(f.ctx, assess.EmailSettingsUpdate{Version: 1, Password: ptr("")}, f.actor())
	require.NoError(t, err)
	require.False(t, s.PasswordSet)
	require.Equal(t, int64(2), s.Version)
	_, err = f.svc.Email.UpdateEmailSettings(f.ctx, assess.EmailSettingsUpdate{Version: 2, From: ptr("not an address")}, f.actor())
	requireCode(t, err, assess.ECodeValidation, "invalid")
	require.Equal(t, 2, auditCount(t, f.pool, "email.settings_updated"))

	// A test e-mail goes to the actor's own address unless told otherwise.
	d, err := f.svc.Email.SendTestEmail(f.ctx, "", f.actor())
	require.NoError(t, err)
	require.Equal(t, "admin@example.com", d.Recipient)
	require.Equal(t, "email.test", d.EventType)
	task, err := f.svc.DeliveryStore.LoadDelivery(f.ctx, d.ID)
	require.NoError(t, err)
	require.Equal(t, assess.EmailTemplateTest, task.Email.Template)
	require.Equal(t, "test", task.Email.Params["version"])
	_, err = f.svc.Email.UpdateEmailSettings(f.ctx, assess.EmailSettingsUpdate{Version: 2, Enabled: ptr(false)}, f.actor())
	require.NoError(t, err)
	_, err = f.svc.Email.SendTestEmail(f.ctx, "x@example.com", f.actor())
	requireCode(t, err, assess.ECodeBusinessRule, "email_disabled")
	task, err = f.svc.DeliveryStore.LoadDelivery(f.ctx, d.ID)
	require.NoError(t, err)
	require.Contains(t, task.Skip, "E-mail is switched off")
}

// TestPasswordReset: the link is single use, expires, and a new request ends the older
// one; unknown accounts get the same answer and no e-mail.
func TestPasswordReset(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	bob := f.user("bob")
	anon := assess.Actor{IP: "192.0.2.1"}
	token := func() string {
		t.Helper()
		var id string
		require.NoError(t, f.pool.QueryRow(f.ctx, `SELECT id FROM deliveries WHERE event_type = 'email.password_reset' ORDER BY id DESC LIMIT 1`).Scan(&id))
		task, err := f.svc.DeliveryStore.LoadDelivery(f.ctx, id)
		require.NoError(t, err)
		require.Equal(t, "bob@example.com", task.Email.To)
		return task.Email.Params["token"]
	}
	require.NoError(t, f.svc.PasswordReset.RequestPasswordReset(f.ctx, "nobody", anon))
	require.Zero(t, f.count("SELECT count(*) FROM deliveries WHERE event_type = 'email.password_reset'"))

	require.NoError(t, f.svc.PasswordReset.RequestPasswordReset(f.ctx, "BOB", anon))
	first := token()
	require.NoError(t, f.svc.PasswordReset.RequestPasswordReset(f.ctx, "bob@example.com", anon))
	second := token()
	requireCode(t, f.svc.PasswordReset.ConfirmPasswordReset(f.ctx, first, "a brand new password", anon), assess.ECodeBusinessRule, "invalid_token")
	requireCode(t, f.svc.PasswordReset.ConfirmPasswordReset(f.ctx, second, "short", anon), assess.ECodeValidation, "too_short")
	require.NoError(t, f.svc.PasswordReset.ConfirmPasswordReset(f.ctx, second, "a brand new password", anon))
	requireCode(t, f.svc.PasswordReset.ConfirmPasswordReset(f.ctx, second, "another new password", anon), assess.ECodeBusinessRule, "invalid_token")
	u, err := f.svc.Identity.Authenticate(f.ctx, "bob", "a brand new password", anon)
	require.NoError(t, err)
	require.Equal(t, bob.ID, u.ID)

	require.NoError(t, f.svc.PasswordReset.RequestPasswordReset(f.ctx, "bob", anon))
	third := token()
	f.clock.Add(time.Hour + time.Second)
	requireCode(t, f.svc.PasswordReset.ConfirmPasswordReset(f.ctx, third, "yet another password", anon), assess.ECodeBusinessRule, "invalid_token")

	f.db.ConfigureDeliveries(allOff())
	sent := f.count("SELECT count(*) FROM deliveries WHERE event_type = 'email.password_reset'")
	require.NoError(t, f.svc.PasswordReset.RequestPasswordReset(f.ctx, "bob", anon), "the same answer while e-mail is off")
	require.Equal(t, sent, f.count("SELECT count(*) FROM deliveries WHERE event_type = 'email.password_reset'"))
}

// TestEncryptionStatusCountsDeliverySecrets: the new secret columns are in the registry.
func TestEncryptionStatusCountsDeliverySecrets(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t, allOn())
	f.webhook("hook", "*")
	f.slack("chat", "*")
	_, err := f.svc.Email.UpdateEmailSettings(f.ctx, assess.EmailSettingsUpdate{Password: ptr("pw")}, f.actor())
	require.NoError(t, err)
	_, err = f.svc.Email.SendTestEmail(f.ctx, "", f.actor())
	require.NoError(t, err)
	_, err = f.pool.Exec(f.ctx, "UPDATE webhooks SET url = 'https://plain.example.com/'") // as before encrypt-secrets
	require.NoError(t, err)

	st, err := f.svc.Encryption.EncryptionStatus(f.ctx)
	require.NoError(t, err)
	counts := map[string]assess.EncryptedFieldCount{}
	for _, c := range st.Fields {
		counts[c.Kind] = c
	}
	require.Equal(t, assess.EncryptedFieldCount{Kind: "webhook_url", Plaintext: 1}, counts["webhook_url"])
	require.Equal(t, assess.EncryptedFieldCount{Kind: "webhook_secret", Encrypted: 1}, counts["webhook_secret"])
	require.Equal(t, assess.EncryptedFieldCount{Kind: "chat_url", Encrypted: 1}, counts["chat_url"])
	require.Equal(t, assess.EncryptedFieldCount{Kind: "email_params", Encrypted: 1}, counts["email_params"])
	require.Equal(t, assess.EncryptedFieldCount{Kind: "smtp_password", Encrypted: 1}, counts["smtp_password"])

	res, err := f.svc.Encryption.EncryptSecrets(f.ctx, f.actor())
	require.NoError(t, err)
	require.Equal(t, int64(1), res.Encrypted)
	rot, err := f.svc.Encryption.RotateEncryptionKey(f.ctx, f.actor())
	require.NoError(t, err)
	require.Positive(t, rot.Rewrapped)
	w, err := f.svc.Webhooks.FindWebhooks(f.ctx, assess.WebhookFilter{PageRequest: assess.PageRequest{Limit: 1}})
	require.NoError(t, err)
	require.Equal(t, "https://plain.example.com/", w.Items[0].URL, "readable after encrypt-secrets and rotation")
	eff, err := f.svc.DeliveryStore.EffectiveSMTP(f.ctx)
	require.NoError(t, err)
	require.Equal(t, "pw", eff.Password)
}
