// Package notifytest gives tests a real SMTP server: mailpit (built from the pinned tools
// module tools/mailpit), started on free loopback ports and read through its REST API.
package notifytest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/assay-dev/assay/pkg/tooltest"
)

// EnvBin names the mailpit binary to use instead of <repo>/bin/mailpit.
const EnvBin = "MAILPIT_BIN"

// Mailpit is a running mailpit server.
type Mailpit struct {
	// SMTPHost and SMTPPort are where it accepts mail (no TLS; any credentials).
	SMTPHost string
	SMTPPort int
	// APIURL is the base of its web server, such as http://127.0.0.1:41234.
	APIURL string
}

// Address is a mailbox as mailpit reports it.
type Address struct {
	Name    string `json:"Name"`
	Address string `json:"Address"`
}

// MessageSummary is an entry of the message list.
type MessageSummary struct {
	ID      string    `json:"ID"`
	From    Address   `json:"From"`
	To      []Address `json:"To"`
	Subject string    `json:"Subject"`
}

// Message is one stored message with both bodies.
type Message struct {
	ID      string              `json:"ID"`
	From    Address             `json:"From"`
	To      []Address           `json:"To"`
	Subject string              `json:"Subject"`
	Text    string              `json:"Text"`
	HTML    string              `json:"HTML"`
	Date    time.Time           `json:"Date"`
	Headers map[string][]string `json:"-"`
}

// StartMailpit starts mailpit for the test and stops it at cleanup; args are further
// flags, such as --smtp-tls-cert (with --smtp-require-starttls or --smtp-require-tls,
// plain-text authentication is no longer allowed). It fails the test when the binary can neither be found
// nor built.
func StartMailpit(t testing.TB, args ...string) *Mailpit {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatalf("mailpit: %v", err)
	}
	var lastErr error
	for range 3 { // free ports can be taken between the probe and mailpit's bind
		m, err := start(t, bin, args)
		if err == nil {
			return m
		}
		lastErr = err
	}
	t.Fatalf("mailpit: %v", lastErr)
	return nil
}

func start(t testing.TB, bin string, extra []string) (*Mailpit, error) {
	httpPort, smtpPort := tooltest.FreePort(), tooltest.FreePort()
	if httpPort == 0 || smtpPort == 0 || httpPort == smtpPort {
		return nil, fmt.Errorf("no free loopback port")
	}
	dir := t.TempDir()
	args := []string{
		"--listen", "127.0.0.1:" + strconv.Itoa(httpPort),
		"--smtp", "127.0.0.1:" + strconv.Itoa(smtpPort),
		"--smtp-auth-accept-any", "--disable-version-check",
		"--smtp-disable-rdns", "--database", filepath.Join(dir, "mailpit.db"),
	}
	// mailpit refuses plain-text authentication together with required TLS.
	if !slices.ContainsFunc(extra, func(a string) bool { return strings.HasPrefix(a, "--smtp-require-") }) {
		args = append(args, "--smtp-auth-allow-insecure")
	}
	args = append(args, extra...)
	cmd := exec.Command(bin, args...)
	m := &Mailpit{SMTPHost: "127.0.0.1", SMTPPort: smtpPort, APIURL: "http://127.0.0.1:" + strconv.Itoa(httpPort)}
	p, err := tooltest.Start("mailpit", cmd, m.ready)
	if err != nil {
		return nil, err
	}
	t.Cleanup(p.Stop)
	return m, nil
}

func (m *Mailpit) ready() bool {
	resp, err := http.Get(m.APIURL + "/api/v1/info")
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return false
	}
	c, err := net.DialTimeout("tcp", net.JoinHostPort(m.SMTPHost, strconv.Itoa(m.SMTPPort)), time.Second)
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

// Messages lists the stored messages, newest first.
func (m *Mailpit) Messages(t testing.TB) []MessageSummary {
	t.Helper()
	var page struct {
		Messages []MessageSummary `json:"messages"`
	}
	m.get(t, "/api/v1/messages?limit=500", &page)
	return page.Messages
}

// Message returns one message with its text and HTML bodies.
func (m *Mailpit) Message(t testing.TB, id string) Message {
	t.Helper()
	var msg Message
	m.get(t, "/api/v1/message/"+url.PathEscape(id), &msg)
	var headers map[string][]string
	m.get(t, "/api/v1/message/"+url.PathEscape(id)+"/headers", &headers)
	msg.Headers = headers
	return msg
}

// WaitForMessages waits until at least n messages are stored and returns them (full),
// oldest first.
func (m *Mailpit) WaitForMessages(t testing.TB, n int, timeout time.Duration) []Message {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		list := m.Messages(t)
		if len(list) >= n {
			out := make([]Message, 0, len(list))
			for i := len(list) - 1; i >= 0; i-- {
				out = append(out, m.Message(t, list[i].ID))
			}
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("mailpit: %d messages after %s, want %d", len(list), timeout, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (m *Mailpit) get(t testing.TB, path string, v any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.APIURL+path, nil)
	if err != nil {
		t.Fatalf("mailpit: %v", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("mailpit GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("mailpit GET %s: %d %s", path, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("mailpit GET %s: %v", path, err)
	}
}

// Binary returns the path of the mailpit binary: $MAILPIT_BIN, or <repo>/bin/mailpit,
// which it builds from tools/mailpit when missing.
func Binary() (string, error) {
	return tooltest.Binary(EnvBin, "mailpit", "github.com/axllent/mailpit")
}
