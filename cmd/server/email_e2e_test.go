package main

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/notify/notifytest"
)

// mailServer starts mailpit and a server with in-process workers that sends through it,
// with links built from appURL.
func mailServer(t *testing.T, appURL string, env ...string) (*testServer, *notifytest.Mailpit) {
	t.Helper()
	mp := notifytest.StartMailpit(t)
	ts := startServer(t, append([]string{
		"RUN_WORKERS=true", "SMTP_ENABLED=true", "SMTP_HOST=" + mp.SMTPHost, fmt.Sprintf("SMTP_PORT=%d", mp.SMTPPort),
		"SMTP_FROM=Assay <assay@example.com>", "APP_URL=" + appURL, "DELIVERY_RETRY_BASE_MS=200",
	}, env...)...)
	return ts, mp
}

// linkIn returns the only link to prefix in body, failing when there is none.
func linkIn(t *testing.T, body, prefix string) *url.URL {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(prefix) + `[^\s"<>]+`).FindString(body)
	require.NotEmpty(t, m, "no link to %s in:\n%s", prefix, body)
	u, err := url.Parse(strings.ReplaceAll(m, "&amp;", "&"))
	require.NoError(t, err)
	return u
}

// TestPasswordResetByEmail follows the e-mailed link: the message reaches the account's
// address with a subject, a text and an HTML body carrying the same working link, and
// the token in it sets a new password exactly once.
func TestPasswordResetByEmail(t *testing.T) {
	t.Parallel()
	const appURL = "https://assay.example.com"
	ts, mp := mailServer(t, appURL)
	ts.newUserNamed(t, "carol")
	anon := ts.browser(t)

	var token string
	step(t, "a reset request e-mails the same link in text and HTML to the account's address", func(t *testing.T) {
		anon.post(t, "/api/v1/auth/password-reset", `{"login":"carol"}`, 202)
		msgs := mp.WaitForMessages(t, 1, 20*time.Second)
		msg := msgs[0]
		require.Len(t, msg.To, 1)
		require.Equal(t, "carol@example.com", msg.To[0].Address)
		require.NotEmpty(t, msg.Subject)
		textLink := linkIn(t, msg.Text, appURL+"/reset-password?token=")
		htmlLink := linkIn(t, msg.HTML, appURL+"/reset-password?token=")
		require.Equal(t, textLink.String(), htmlLink.String(), "both bodies carry the same link")
		token = textLink.Query().Get("token")
	})
	confirm := fmt.Sprintf(`{"token":%q,"password":"a brand new passphrase"}`, token)
	step(t, "the link sets a new password", func(t *testing.T) {
		anon.post(t, "/api/v1/auth/password-reset/confirm", confirm, 204)
		anon.post(t, "/api/v1/auth/login", `{"username":"carol","password":"a brand new passphrase"}`, 200)
	})
	t.Run("the link works once", func(t *testing.T) {
		res, body := ts.browser(t).do(t, "POST", "/api/v1/auth/password-reset/confirm", confirm)
		require.Equal(t, 422, res.StatusCode, "the link works once: %v", body)
	})

	t.Run("an unknown login answers the same and sends nothing", func(t *testing.T) {
		anon.post(t, "/api/v1/auth/password-reset", `{"login":"nobody"}`, 202)
		time.Sleep(500 * time.Millisecond)
		require.Len(t, mp.Messages(t), 1)
	})
}

// TestInviteByEmail sends an invite link by e-mail and registers with it.
func TestInviteByEmail(t *testing.T) {
	t.Parallel()
	const appURL = "https://assay.example.com"
	ts, mp := mailServer(t, appURL, "REGISTRATION_MODE=invite_only")
	admin := ts.admin(t)

	var link *url.URL
	step(t, "the invite is e-mailed with the same register link in text and HTML", func(t *testing.T) {
		admin.post(t, "/api/v1/admin/invites", `{"email":"dave@example.com","intendedRole":"assessor","sendEmail":true}`, 201)
		msg := mp.WaitForMessages(t, 1, 20*time.Second)[0]
		require.Equal(t, "dave@example.com", msg.To[0].Address)
		link = linkIn(t, msg.Text, appURL+"/register?invite=")
		require.Equal(t, link.String(), linkIn(t, msg.HTML, appURL+"/register?invite=").String())
	})
	t.Run("the e-mailed invite registers the account", func(t *testing.T) {
		reg := fmt.Sprintf(`{"username":"dave","email":"dave@example.com","displayName":"Dave","password":"long enough password","inviteToken":%q}`,
			link.Query().Get("invite"))
		ts.browser(t).post(t, "/api/v1/auth/register", reg, 202)
		res, body := ts.browser(t).do(t, "POST", "/api/v1/auth/login", `{"username":"dave","password":"long enough password"}`)
		require.Equal(t, 200, res.StatusCode, "the e-mailed invite registered the account: %v", body)
	})
}

// TestEmailTestSendAndLog sends the administrator a test message and finds it succeeded in
// the e-mail delivery log.
func TestEmailTestSendAndLog(t *testing.T) {
	t.Parallel()
	ts, mp := mailServer(t, "https://assay.example.com")
	admin := ts.admin(t)
	var id string
	step(t, "the test message reaches the administrator with text and HTML", func(t *testing.T) {
		body := admin.post(t, "/api/v1/admin/email/test", `{}`, 202)
		id = body["id"].(string)
		msg := mp.WaitForMessages(t, 1, 20*time.Second)[0]
		require.Equal(t, "admin@example.com", msg.To[0].Address)
		require.NotEmpty(t, msg.Text)
		require.NotEmpty(t, msg.HTML)
	})
	t.Run("the delivery log shows it succeeded", func(t *testing.T) {
		require.Eventually(t, func() bool {
			_, d := admin.do(t, "GET", "/api/v1/admin/email/deliveries/"+id, nil)
			return d["status"] == "succeeded"
		}, 10*time.Second, 100*time.Millisecond)
	})
}
