package notify

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strings"
	"sync"
	texttemplate "text/template"
	"time"

	"github.com/assay-dev/assay/pkg/assess"
)

// Template parameters (assess.EmailMessage.Params) the e-mail templates read. Only the
// token is required (invite and password_reset); the rest make the text friendlier.
const (
	ParamToken       = "token"       // invite, password_reset: the secret of the link
	ParamInviter     = "inviter"     // invite: display name of who invited
	ParamRole        = "role"        // invite: the role the new account gets
	ParamExpiresAt   = "expiresAt"   // invite, password_reset: RFC 3339 end of validity
	ParamDisplayName = "displayName" // password_reset: the user's display name
	ParamUsername    = "username"    // password_reset: the account's user name
	ParamActor       = "actor"       // test: who sent the test
	ParamVersion     = "version"     // test: the service version
)

// templateFuncs are the functions both template sets offer.
var templateFuncs = map[string]any{
	// date shows an RFC 3339 time as "2006-01-02 15:04 UTC"; other text stays as it is.
	"date": func(s string) string {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return s
		}
		return t.UTC().Format("2006-01-02 15:04 UTC")
	},
}

//go:embed templates
var templateFS embed.FS

// Email is a rendered message.
type Email struct {
	// ID is the delivery id; it goes into an X-Assay-Delivery header so mailboxes can
	// tell a retried message from a new one.
	ID      string
	To      string
	Subject string
	Text    string
	HTML    string
}

// emailData is what the templates see.
type emailData struct {
	Product   string
	AppURL    string
	Subject   string
	Link      string // absolute URL of the call to action
	Title     string
	Summary   string
	Actor     string
	EventType string
	When      string
	Params    map[string]string
}

type emailTemplates struct {
	text *texttemplate.Template
	html *htmltemplate.Template
}

var parsedTemplates = sync.OnceValues(func() (map[string]emailTemplates, error) {
	out := map[string]emailTemplates{}
	for _, name := range []string{assess.EmailTemplateEvent, assess.EmailTemplateInvite, assess.EmailTemplatePasswordReset, assess.EmailTemplateTest} {
		text, err := texttemplate.New(name).Option("missingkey=zero").Funcs(templateFuncs).ParseFS(templateFS, "templates/layout.txt", "templates/"+name+".txt")
		if err != nil {
			return nil, err
		}
		html, err := htmltemplate.New(name).Option("missingkey=zero").Funcs(templateFuncs).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, err
		}
		out[name] = emailTemplates{text: text, html: html}
	}
	return out, nil
})

// RenderEmail renders the e-mail of a delivery task (task.Email must be set); appURL is
// APP_URL. The subject is the one the delivery recorded when it has one, so the log and
// the mailbox agree.
func RenderEmail(task assess.DeliveryTask, appURL string) (Email, error) {
	msg := task.Email
	if msg == nil {
		return Email{}, errors.New("the delivery carries no e-mail")
	}
	tpl, err := parsedTemplates()
	if err != nil {
		return Email{}, fmt.Errorf("e-mail templates: %w", err)
	}
	t, ok := tpl[msg.Template]
	if !ok {
		return Email{}, fmt.Errorf("unknown e-mail template %q", msg.Template)
	}
	d := emailData{Product: ProductName, AppURL: strings.TrimRight(appURL, "/"), Params: msg.Params}
	if d.Params == nil {
		d.Params = map[string]string{}
	}
	switch msg.Template {
	case assess.EmailTemplateEvent:
		m := NewMessage(task, appURL)
		d.Link, d.Title, d.Summary, d.Actor, d.EventType = m.URL, m.Title, m.Summary, m.Actor, m.EventType
		if !m.Time.IsZero() {
			d.When = m.Time.UTC().Format("2006-01-02 15:04 UTC")
		}
	case assess.EmailTemplateInvite, assess.EmailTemplatePasswordReset:
		token := d.Params[ParamToken]
		if token == "" {
			return Email{}, fmt.Errorf("the %s e-mail has no token", msg.Template)
		}
		d.Link = InviteLink(appURL, token)
		if msg.Template == assess.EmailTemplatePasswordReset {
			d.Link = PasswordResetLink(appURL, token)
		}
	default:
		d.Link = AppLink(appURL, "")
	}
	subject, err := execText(t.text, "subject", d)
	if err != nil {
		return Email{}, err
	}
	d.Subject = oneLine(firstNonEmpty(task.Delivery.Subject, subject))
	text, err := execText(t.text, "text", d)
	if err != nil {
		return Email{}, err
	}
	var html bytes.Buffer
	if err := t.html.ExecuteTemplate(&html, "html", d); err != nil {
		return Email{}, fmt.Errorf("render %s e-mail: %w", msg.Template, err)
	}
	return Email{ID: task.Delivery.ID, To: firstNonEmpty(msg.To, task.Delivery.Recipient), Subject: d.Subject, Text: text, HTML: html.String()}, nil
}

// EmailSubject renders only the subject of a template, for a store that records it when
// it queues the e-mail. Event e-mails need the task (title and summary), so they take it.
func EmailSubject(task assess.DeliveryTask) (string, error) {
	task.Delivery.Subject = ""
	e, err := RenderEmail(task, "")
	if err != nil {
		return "", err
	}
	return e.Subject, nil
}

// InviteLink is the registration link of an invitation token.
func InviteLink(appURL, token string) string {
	return AppLink(appURL, "/register?invite="+url.QueryEscape(token))
}

// PasswordResetLink is the link of a password-reset token.
func PasswordResetLink(appURL, token string) string {
	return AppLink(appURL, "/reset-password?token="+url.QueryEscape(token))
}

func execText(t *texttemplate.Template, name string, d emailData) (string, error) {
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, name, d); err != nil {
		return "", fmt.Errorf("render e-mail %s: %w", name, err)
	}
	return b.String(), nil
}

// oneLine keeps a header value on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
