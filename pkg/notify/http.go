package notify

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/assay-dev/assay/pkg/assess"
)

// ResponseExcerptBytes is how much of a response body the delivery log keeps.
const ResponseExcerptBytes = 1024

// UserAgent is the User-Agent of webhook and chat deliveries.
func UserAgent(version string) string {
	return "Assay-Webhooks/" + version + " (+https://github.com/assay-dev/assay)"
}

// HTTPConfig configures the outbound HTTP client of webhook and chat deliveries.
type HTTPConfig struct {
	// Timeout bounds one request: connecting, sending and reading the response
	// (WEBHOOK_TIMEOUT or CHAT_TIMEOUT). Default 10 s.
	Timeout time.Duration
	// AllowNetworks are the internal networks deliveries may reach anyway
	// (OUTBOUND_ALLOW_NETWORKS). Plain http is accepted only towards them.
	AllowNetworks []netip.Prefix
	// UserAgent is sent with every request (see UserAgent).
	UserAgent string
	// Resolver looks up host names, for the plain-http check and for dialling (default
	// net.DefaultResolver).
	Resolver *net.Resolver
	// Now is the clock of the webhook-timestamp header (default time.Now).
	Now func() time.Time
	// Logger receives what must not reach a caller, such as the internal address a
	// document URL resolved to (default: discarded).
	Logger *slog.Logger
}

// HTTPClient posts JSON to webhook and chat endpoints. It never follows redirects, never
// uses a proxy from the environment (that would bypass the guard), and checks every
// address it dials against the SSRF rule.
type HTTPClient struct {
	cfg    HTTPConfig
	secure *http.Client // https: public addresses and allow-listed ones
	plain  *http.Client // http: allow-listed addresses only
}

// NewHTTPClient returns a client configured by cfg.
func NewHTTPClient(cfg HTTPConfig) *HTTPClient {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &HTTPClient{
		cfg:    cfg,
		secure: guardedClient(cfg, false),
		plain:  guardedClient(cfg, true),
	}
}

func guardedClient(cfg HTTPConfig, strict bool) *http.Client {
	dialer := &net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second, Resolver: cfg.Resolver,
		Control: dialControl(cfg.AllowNetworks, strict)}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   cfg.Timeout,
		ResponseHeaderTimeout: cfg.Timeout,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   10,
		IdleConnTimeout:       90 * time.Second,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a 3xx is an answer, and not a success
		},
	}
}

// Response is the outcome of one POST.
type Response struct {
	// Status is the HTTP status code; 0 when no response arrived.
	Status int
	// Body is the first ResponseExcerptBytes of the response body, as valid UTF-8.
	Body string
	// Err is why no response arrived (refused by the guard, network error, timeout).
	// Its text never contains the URL, which for chat destinations is a credential.
	Err error
}

// Succeeded reports whether a 2xx response arrived.
func (r Response) Succeeded() bool {
	return r.Err == nil && r.Status >= 200 && r.Status < 300
}

// Error describes a failed response for the delivery log, or "" on success.
func (r Response) Error() string {
	switch {
	case r.Err != nil:
		return r.Err.Error()
	case r.Succeeded():
		return ""
	default:
		return fmt.Sprintf("HTTP %d %s", r.Status, http.StatusText(r.Status))
	}
}

// PostJSON posts body to rawURL with the extra header.
func (c *HTTPClient) PostJSON(ctx context.Context, rawURL string, body []byte, header http.Header) Response {
	u, err := CheckURL(rawURL)
	if err != nil {
		return Response{Err: err}
	}
	client := c.secure
	if u.Scheme == "http" {
		if err := c.checkPlainHTTP(ctx, u.Hostname()); err != nil {
			return Response{Err: err}
		}
		client = c.plain
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return Response{Err: errors.New("cannot build the request")}
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	resp, err := client.Do(req)
	if err != nil {
		return Response{Err: c.describe(ctx, err)}
	}
	defer resp.Body.Close()
	excerpt, _ := io.ReadAll(io.LimitReader(resp.Body, ResponseExcerptBytes))
	// Drain a little more so the connection can be reused; give up on huge bodies.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return Response{Status: resp.StatusCode, Body: validUTF8(excerpt)}
}

// describe turns a client error into text without the URL.
func (c *HTTPClient) describe(ctx context.Context, err error) error {
	var refused *RefusedError
	if errors.As(err, &refused) {
		return refused
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || isTimeout(err) {
		return fmt.Errorf("timeout after %s", c.cfg.Timeout)
	}
	if errors.Is(err, context.Canceled) {
		return errors.New("interrupted")
	}
	// The Go error names the resolver's or the proxy's internal address ("lookup x on
	// 10.0.0.53:53: no such host"): the delivery log, which administrators read, says what
	// happened in words, and the log of the process keeps the detail.
	if l := c.cfg.Logger; l != nil {
		l.WarnContext(ctx, "outbound request failed", slog.String("error", err.Error()))
	}
	reason := failureReason(err)
	return errors.New(strings.ToUpper(reason[:1]) + reason[1:])
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// checkPlainHTTP enforces the plain-http rule: the host must resolve to allow-listed
// addresses, and to no public address (which http would reach unauthenticated). Internal
// addresses outside the list are tolerated here because the dialer refuses them anyway:
// "localhost" may resolve to ::1 as well as to an allow-listed 127.0.0.1.
func (c *HTTPClient) checkPlainHTTP(ctx context.Context, host string) error {
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		addrs, err = c.cfg.Resolver.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return &lookupError{host: host, err: err}
		}
	}
	listed := false
	for _, a := range addrs {
		switch {
		case assess.InNetworks(a, c.cfg.AllowNetworks):
			listed = true
		case assess.OutboundAddressAllowed(a, nil):
			return fmt.Errorf("plain http to %s (%s) refused: use https, or list the network in OUTBOUND_ALLOW_NETWORKS", host, a.Unmap())
		}
	}
	if !listed {
		return fmt.Errorf("plain http to %s refused: only allowed to networks in OUTBOUND_ALLOW_NETWORKS", host)
	}
	return nil
}

// lookupError is a host name that could not be resolved, said in words (the Go error
// names the internal name server) and keeping the cause for errors.As.
type lookupError struct {
	host string
	err  error
}

func (e *lookupError) Error() string { return "cannot resolve " + e.host + ": " + failureReason(e.err) }
func (e *lookupError) Unwrap() error { return e.err }

// CheckURL parses a destination URL: http or https, a host, no user information.
func CheckURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.New("the destination URL cannot be parsed")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, errors.New("the destination URL must use https (or http to allow-listed networks)")
	}
	if u.Hostname() == "" {
		return nil, errors.New("the destination URL has no host")
	}
	if u.User != nil {
		return nil, errors.New("the destination URL must not contain a user name or password")
	}
	return u, nil
}

func validUTF8(b []byte) string {
	s := string(b)
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
