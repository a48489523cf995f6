package notify

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"html"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/notify/notifytest"
)

const appURL = "https://assay.example.com"

func emailTask(template, to string, params map[string]string) assess.DeliveryTask {
	task := assess.DeliveryTask{
		Delivery: assess.Delivery{ID: "dl_" + template, Channel: assess.ChannelEmail, EventType: "email." + template, Recipient: to},
		Email:    &assess.EmailMessage{To: to, Template: template, Params: params},
	}
	if template == assess.EmailTemplateEvent {
		task.Delivery.EventType = string(assess.EventUserLocked)
		task.Envelope = []byte(`{"id":"evt_9","type":"user.locked","timestamp":"2026-05-01T12:00:00Z","actor":{"id":"system","displayName":"System"},"data":{}}`)
		task.Title, task.Summary, task.Link, task.ActorName = "Account locked", `<script>alert("x")</script> & bob`, "/admin/users?id=u_2&tab=security", "System"
	}
	return task
}

func TestRenderEmailEscapesHTMLAndBuildsLinks(t *testing.T) {
	t.Parallel()
	e, err := RenderEmail(emailTask(assess.EmailTemplateEvent, "ops@example.com", nil), appURL+"/")
	require.NoError(t, err)
	require.Equal(t, `[Assay] Account locked: <script>alert("x")</script> & bob`, e.Subject)
	require.Contains(t, e.Text, `Account locked: <script>alert("x")</script> & bob`)
	require.Contains(t, e.Text, "Open in Assay: https://assay.example.com/admin/users?id=u_2&tab=security")
	require.NotContains(t, e.HTML, "<script>")
	require.Contains(t, e.HTML, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; bob")
	require.Contains(t, hrefs(e.HTML), "https://assay.example.com/admin/users?id=u_2&tab=security")
	require.Contains(t, e.HTML, "This message was sent by Assay")
	require.Equal(t, "ops@example.com", e.To)
	require.Equal(t, "dl_event", e.ID)

	_, err = RenderEmail(emailTask(assess.EmailTemplateInvite, "a@example.com", nil), appURL)
	require.ErrorContains(t, err, "no token")
	_, err = RenderEmail(emailTask("newsletter", "a@example.com", nil), appURL)
	require.ErrorContains(t, err, "unknown e-mail template")

	// A subject the store recorded wins, so the log and the mailbox agree.
	task := emailTask(assess.EmailTemplateTest, "a@example.com", nil)
	task.Delivery.Subject = "Recorded subject"
	e, err = RenderEmail(task, appURL)
	require.NoError(t, err)
	require.Equal(t, "Recorded subject", e.Subject)
	subject, err := EmailSubject(task)
	require.NoError(t, err)
	require.Equal(t, "Assay test message", subject)
}

var hrefPattern = regexp.MustCompile(`href="([^"]*)"`)

// hrefs returns the link targets of an HTML body, unescaped.
func hrefs(body string) []string {
	var out []string
	for _, m := range hrefPattern.FindAllStringSubmatch(body, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

// TestEmailsArriveInMailpit renders and sends every template through a real SMTP server
// and reads them back through its API.
func TestEmailsArriveInMailpit(t *testing.T) {
	t.Parallel()
	mp := notifytest.StartMailpit(t)
	smtpCfg := assess.SMTPConfig{Enabled: true, Host: mp.SMTPHost, Port: mp.SMTPPort, From: "Assay <assay@example.com>", TLSRejectUnauthorized: true}
	sender := SMTPSender{Timeout: 5 * time.Second}
	tests := []struct {
		template, to string
		params       map[string]string
		subject      string
		link         string
		text         []string
	}{
		{assess.EmailTemplateEvent, "ops@example.com", nil,
			`[Assay] Account locked: <script>alert("x")</script> & bob`,
			"https://assay.example.com/admin/users?id=u_2&tab=security", []string{"Event: user.locked", "By:    System"}},
		{assess.EmailTemplateInvite, "new@example.com", map[string]string{ParamToken: "tok+en/1=", ParamInviter: "Ada", ParamExpiresAt: "2026-05-08T12:00:00Z", ParamRole: "auditor"},
			"You are invited to Assay",
			"https://assay.example.com/register?invite=tok%2Ben%2F1%3D", []string{"Ada has invited you", "expires on 2026-05-08 12:00 UTC", "role auditor"}},
		{assess.EmailTemplatePasswordReset, "bob@example.com", map[string]string{ParamToken: "reset_TOKEN-1", ParamUsername: "bob", ParamDisplayName: "Bob B.", ParamExpiresAt: "2026-05-01T13:00:00Z"},
			"Reset your Assay password",
			"https://assay.example.com/reset-password?token=reset_TOKEN-1", []string{"Hello Bob B.,", `account "bob"`, "expires on 2026-05-01 13:00 UTC"}},
		{assess.EmailTemplateTest, "admin@example.com", map[string]string{ParamActor: "Ada", ParamVersion: "1.4.0"},
			"Assay test message",
			"https://assay.example.com/", []string{"sent by Ada", "(version 1.4.0)"}},
	}
	for _, tt := range tests {
		e, err := RenderEmail(emailTask(tt.template, tt.to, tt.params), appURL)
		require.NoError(t, err)
		require.NoError(t, sender.Send(context.Background(), smtpCfg, e), tt.template)
	}

	msgs := mp.WaitForMessages(t, len(tests), 10*time.Second)
	require.Len(t, msgs, len(tests))
	for i, tt := range tests {
		m := msgs[i]
		require.Len(t, m.To, 1)
		require.Equal(t, tt.to, m.To[0].Address, tt.template)
		require.Equal(t, "assay@example.com", m.From.Address)
		require.Equal(t, "Assay", m.From.Name)
		require.Equal(t, tt.subject, m.Subject)
		require.Contains(t, m.Text, tt.link, "text body of %s", tt.template)
		for _, s := range tt.text {
			require.Contains(t, m.Text, s)
		}
		require.Contains(t, m.Text, "This message was sent by Assay at https://assay.example.com.")
		require.Contains(t, hrefs(m.HTML), tt.link, "HTML body of %s", tt.template)
		require.Contains(t, m.HTML, "This message was sent by Assay")
		require.Equal(t, []string{"dl_" + tt.template}, m.Headers["X-Assay-Delivery"])
	}
	require.NotContains(t, msgs[0].HTML, "<script>")
}

func TestSMTPAuthenticates(t *testing.T) {
	t.Parallel()
	mp := notifytest.StartMailpit(t)
	cfg := assess.SMTPConfig{Host: mp.SMTPHost, Port: mp.SMTPPort, From: "assay@example.com", Username: "assay", Password: "s3cret", TLSRejectUnauthorized: true}
	e, err := RenderEmail(emailTask(assess.EmailTemplateTest, "a@example.com", nil), appURL)
	require.NoError(t, err)
	require.NoError(t, SMTPSender{Timeout: 5 * time.Second}.Send(context.Background(), cfg, e))
	require.Len(t, mp.WaitForMessages(t, 1, 5*time.Second), 1)
}

// TestSMTPTLS runs mailpit with a self-signed certificate: STARTTLS (required by the
// server) and implicit TLS, each refused while the certificate is verified and accepted
// with SMTP_TLS_REJECT_UNAUTHORIZED=false.
func TestSMTPTLS(t *testing.T) {
	t.Parallel()
	cert, key := selfSignedCert(t)
	e, err := RenderEmail(emailTask(assess.EmailTemplateTest, "a@example.com", nil), appURL)
	require.NoError(t, err)
	sender := SMTPSender{Timeout: 3 * time.Second}

	t.Run("STARTTLS", func(t *testing.T) {
		t.Parallel()
		mp := notifytest.StartMailpit(t, "--smtp-tls-cert", cert, "--smtp-tls-key", key, "--smtp-require-starttls")
		cfg := assess.SMTPConfig{Host: mp.SMTPHost, Port: mp.SMTPPort, From: "assay@example.com", Username: "u", Password: "p", TLSRejectUnauthorized: true}
		err := sender.Send(context.Background(), cfg, e)
		require.ErrorContains(t, err, "certificate")
		cfg.TLSRejectUnauthorized = false
		require.NoError(t, sender.Send(context.Background(), cfg, e))
		require.Len(t, mp.WaitForMessages(t, 1, 5*time.Second), 1)
	})
	t.Run("implicit TLS", func(t *testing.T) {
		t.Parallel()
		mp := notifytest.StartMailpit(t, "--smtp-tls-cert", cert, "--smtp-tls-key", key, "--smtp-require-tls")
		cfg := assess.SMTPConfig{Host: mp.SMTPHost, Port: mp.SMTPPort, From: "assay@example.com", Secure: true, TLSRejectUnauthorized: true}
		require.ErrorContains(t, sender.Send(context.Background(), cfg, e), "certificate")
		cfg.TLSRejectUnauthorized = false
		require.NoError(t, sender.Send(context.Background(), cfg, e))
		require.Len(t, mp.WaitForMessages(t, 1, 5*time.Second), 1)
	})
}

func TestSMTPFailsOnAnUnreachableServer(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	e, err := RenderEmail(emailTask(assess.EmailTemplateTest, "a@example.com", nil), appURL)
	require.NoError(t, err)
	err = SMTPSender{Timeout: 2 * time.Second}.Send(context.Background(), assess.SMTPConfig{Host: "127.0.0.1", Port: port, From: "a@example.com"}, e)
	require.Error(t, err)
	err = SMTPSender{}.Send(context.Background(), assess.SMTPConfig{From: "a@example.com"}, e)
	require.ErrorContains(t, err, "no SMTP host")
}

// selfSignedCert writes a certificate for 127.0.0.1 and its key to PEM files.
func selfSignedCert(t *testing.T) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mailpit test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	keyDER, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	require.NoError(t, os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600))
	return certFile, keyFile
}
