package notify

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	mail "github.com/wneessen/go-mail"

	"github.com/assay-dev/assay/pkg/assess"
)

// SMTPSender sends rendered e-mails through a mail server.
type SMTPSender struct {
	// Timeout bounds one SMTP conversation (SMTP_TIMEOUT). Default 10 s.
	Timeout time.Duration
}

// Send delivers e through the server cfg describes. cfg.Secure selects implicit TLS;
// otherwise STARTTLS is used whenever the server offers it. The server's certificate is
// verified unless cfg.TLSRejectUnauthorized is false. With a user name it authenticates,
// preferring SCRAM; PLAIN and LOGIN are only used over TLS or to localhost, so a password
// never crosses the network in clear.
func (s SMTPSender) Send(ctx context.Context, cfg assess.SMTPConfig, e Email) error {
	if cfg.Host == "" {
		return errors.New("no SMTP host is configured")
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	msg := mail.NewMsg()
	if err := msg.From(cfg.From); err != nil {
		return fmt.Errorf("sender address %q: %w", cfg.From, err)
	}
	if err := msg.To(e.To); err != nil {
		return fmt.Errorf("recipient address: %w", err)
	}
	msg.Subject(e.Subject)
	msg.SetDate()
	msg.SetMessageID()
	if e.ID != "" {
		msg.SetGenHeader("X-Assay-Delivery", e.ID)
	}
	msg.SetBodyString(mail.TypeTextPlain, e.Text)
	if e.HTML != "" {
		msg.AddAlternativeString(mail.TypeTextHTML, e.HTML)
	}

	opts := []mail.Option{
		mail.WithTimeout(timeout),
		mail.WithTLSConfig(&tls.Config{
			ServerName:         cfg.Host,
			MinVersion:         tls.VersionTLS12,
			InsecureSkipVerify: !cfg.TLSRejectUnauthorized, //nolint:gosec // SMTP_TLS_REJECT_UNAUTHORIZED=false, the operator's choice
		}),
	}
	if cfg.Port > 0 {
		opts = append(opts, mail.WithPort(cfg.Port))
	}
	if cfg.Secure {
		opts = append(opts, mail.WithSSL())
	} else {
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	}
	if cfg.Username != "" {
		opts = append(opts,
			mail.WithOpportunisticSMTPAuth(mail.SMTPAuthSCRAMSHA256, mail.SMTPAuthSCRAMSHA1, mail.SMTPAuthPlain, mail.SMTPAuthLogin, mail.SMTPAuthCramMD5),
			mail.WithUsername(cfg.Username), mail.WithPassword(cfg.Password))
	}
	client, err := mail.NewClient(cfg.Host, opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("smtp: timeout after %s: %w", timeout, err)
		}
		return fmt.Errorf("smtp: %w", err)
	}
	return nil
}
