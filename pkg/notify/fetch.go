package notify

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"syscall"

	"github.com/assay-dev/assay/pkg/assess"
)

// maxFetchRedirects bounds the redirects a document download follows.
const maxFetchRedirects = 5

// Fetcher downloads documents (the standards feed, CycloneDX documents by URL) with the
// webhook client's guard: every dialled address is checked after name resolution, plain
// http only reaches OUTBOUND_ALLOW_NETWORKS, no proxy from the environment. Redirects are
// followed (up to five), each hop checked like the first. It implements
// assess.DocumentFetcher.
type Fetcher struct {
	c      *HTTPClient
	policy assess.OutboundPolicy
}

// NewFetcher returns a fetcher configured like the delivery client (cfg.Timeout bounds
// one download; cfg.AllowNetworks is OUTBOUND_ALLOW_NETWORKS).
func NewFetcher(cfg HTTPConfig) *Fetcher {
	return &Fetcher{c: NewHTTPClient(cfg), policy: assess.OutboundPolicy{AllowNetworks: cfg.AllowNetworks}}
}

// fetchFailed is the 422 of a download of host that did not succeed, for reason (in
// words: see assess.FetchError).
func fetchFailed(field, host, reason string) error {
	return &assess.FetchError{Field: field, Host: host, Reason: reason}
}

// FetchDocument implements assess.DocumentFetcher. Every failure names the host of rawURL
// (the one the caller knows, also when a redirect led elsewhere) and says why in words.
func (f *Fetcher) FetchDocument(ctx context.Context, field, rawURL string, limit int64) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, f.c.cfg.Timeout)
	defer cancel()
	host := ""
	for hop := 0; ; hop++ {
		u, err := f.policy.CheckURL(field, rawURL)
		if err != nil {
			return nil, err
		}
		if hop == 0 {
			host = u.Hostname()
		}
		client := f.c.secure
		if u.Scheme == "http" {
			if err := f.c.checkPlainHTTP(ctx, u.Hostname()); err != nil {
				return nil, fetchFailed(field, host, f.plainHTTPReason(ctx, u, err))
			}
			client = f.c.plain
		}
		body, next, err := f.get(ctx, client, field, host, u, limit)
		if err != nil || next == "" {
			return body, err
		}
		if hop == maxFetchRedirects {
			return nil, fetchFailed(field, host, fmt.Sprintf("it redirected more than %d times.", maxFetchRedirects))
		}
		rawURL = next
	}
}

// get downloads u once: the body, or the next URL of a redirect. host is the host the
// caller asked for, which failures name.
func (f *Fetcher) get(ctx context.Context, client *http.Client, field, host string, u *url.URL, limit int64) ([]byte, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", fetchFailed(field, host, "the request cannot be built from the URL.")
	}
	req.Header.Set("User-Agent", f.c.cfg.UserAgent)
	req.Header.Set("Accept", "application/vnd.cyclonedx+json, application/feed+json, application/json;q=0.9, */*;q=0.1")
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", fetchFailed(field, host, f.noAnswer(ctx, u, err))
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.Header.Get("Location") != "":
		next, err := u.Parse(resp.Header.Get("Location"))
		if err != nil {
			return nil, "", fetchFailed(field, host, "it redirected to an address that is not a URL.")
		}
		return nil, next.String(), nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return nil, "", fetchFailed(field, host, fmt.Sprintf("it answered HTTP %d %s.", resp.StatusCode, http.StatusText(resp.StatusCode)))
	case resp.ContentLength > limit:
		return nil, "", tooLarge(field, limit)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) || isTimeout(err) {
			return nil, "", fetchFailed(field, host, "it did not send the whole document in time.")
		}
		f.logFailure(ctx, "document download broke off", u, err)
		return nil, "", fetchFailed(field, host, "the download broke off.")
	}
	if int64(len(body)) > limit {
		return nil, "", tooLarge(field, limit)
	}
	return body, "", nil
}

// noAnswer says in words why a request got no answer; the Go error goes to the log only.
// A refusal of the SSRF guard says only that the address is not allowed: the caller of an
// import by URL must not learn the internal address a host name resolved to (issue 26 item
// 14); the log gets it.
func (f *Fetcher) noAnswer(ctx context.Context, u *url.URL, err error) string {
	var refused *RefusedError
	if errors.As(err, &refused) {
		if l := f.c.cfg.Logger; l != nil {
			l.WarnContext(ctx, "document download refused", slog.String("host", u.Hostname()),
				slog.String("address", refused.Addr.String()), slog.String("reason", refused.Reason))
		}
		return "the address is not allowed."
	}
	f.logFailure(ctx, "document download failed", u, err)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "it did not answer in time."
	}
	return failureReason(err)
}

// plainHTTPReason says why plain http to u is refused, or why its name could not be
// checked.
func (f *Fetcher) plainHTTPReason(ctx context.Context, u *url.URL, err error) string {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		f.logFailure(ctx, "document download failed", u, err)
		return failureReason(err)
	}
	return "plain http is accepted only for networks in OUTBOUND_ALLOW_NETWORKS; use https."
}

// failureReason turns the error of a request that got no answer into words, lower case and
// ending in a period, for the people reading the answer: never the Go error text.
func failureReason(err error) string {
	var (
		dns       *net.DNSError
		authority x509.UnknownAuthorityError
		hostname  x509.HostnameError
		invalid   x509.CertificateInvalidError
		record    tls.RecordHeaderError
	)
	switch {
	case errors.As(err, &dns) && dns.IsNotFound:
		return "the name does not resolve."
	case errors.As(err, &dns) && dns.IsTimeout:
		return "the name server did not answer in time."
	case errors.As(err, &dns):
		return "the name could not be looked up."
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return "it did not answer in time."
	case errors.Is(err, context.Canceled):
		return "the request was cancelled."
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the connection was refused."
	case errors.Is(err, syscall.ENETUNREACH):
		return "the network is unreachable."
	case errors.Is(err, syscall.EHOSTUNREACH):
		return "the host is unreachable."
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection was closed before an answer came."
	case errors.As(err, &authority):
		return "its TLS certificate is not signed by a trusted authority."
	case errors.As(err, &hostname):
		return "its TLS certificate is for another name."
	case errors.As(err, &invalid):
		return "its TLS certificate is not valid (expired, not yet valid or not for a server)."
	case errors.As(err, &record):
		return "it does not answer with TLS (https)."
	default:
		return "the connection failed."
	}
}

// logFailure records the Go error of a failed download, which the caller is not shown.
func (f *Fetcher) logFailure(ctx context.Context, msg string, u *url.URL, err error) {
	if l := f.c.cfg.Logger; l != nil {
		l.WarnContext(ctx, msg, slog.String("host", u.Hostname()), slog.String("error", err.Error()))
	}
}

func tooLarge(field string, limit int64) error {
	msg := fmt.Sprintf("The document is larger than %d bytes (STANDARDS_IMPORT_MAX_BYTES).", limit)
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: msg,
		Details: []assess.Detail{{Field: field, Code: "too_large", Message: msg}}}
}
