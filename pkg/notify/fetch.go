package notify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"

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

// fetchFailed is the 422 of a download that did not succeed.
func fetchFailed(field, why string) error {
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: "The document could not be downloaded: " + why,
		Details: []assess.Detail{{Field: field, Code: "fetch_failed", Message: why}}}
}

// FetchDocument implements assess.DocumentFetcher.
func (f *Fetcher) FetchDocument(ctx context.Context, field, rawURL string, limit int64) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, f.c.cfg.Timeout)
	defer cancel()
	for hop := 0; ; hop++ {
		u, err := f.policy.CheckURL(field, rawURL)
		if err != nil {
			return nil, err
		}
		client := f.c.secure
		if u.Scheme == "http" {
			if err := f.c.checkPlainHTTP(ctx, u.Hostname()); err != nil {
				return nil, fetchFailed(field, "plain http is refused for this host: use https.")
			}
			client = f.c.plain
		}
		body, next, err := f.get(ctx, client, field, u, limit)
		if err != nil || next == "" {
			return body, err
		}
		if hop == maxFetchRedirects {
			return nil, fetchFailed(field, "too many redirects.")
		}
		rawURL = next
	}
}

// get downloads u once: the body, or the next URL of a redirect.
func (f *Fetcher) get(ctx context.Context, client *http.Client, field string, u *url.URL, limit int64) ([]byte, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", fetchFailed(field, "the request cannot be built.")
	}
	req.Header.Set("User-Agent", f.c.cfg.UserAgent)
	req.Header.Set("Accept", "application/vnd.cyclonedx+json, application/feed+json, application/json;q=0.9, */*;q=0.1")
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", f.failed(ctx, field, u, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.Header.Get("Location") != "":
		next, err := u.Parse(resp.Header.Get("Location"))
		if err != nil {
			return nil, "", fetchFailed(field, "the redirect target cannot be parsed.")
		}
		return nil, next.String(), nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return nil, "", fetchFailed(field, fmt.Sprintf("the server answered HTTP %d %s.", resp.StatusCode, http.StatusText(resp.StatusCode)))
	case resp.ContentLength > limit:
		return nil, "", tooLarge(field, limit)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, "", fetchFailed(field, fmt.Sprintf("timeout after %s.", f.c.cfg.Timeout))
		}
		return nil, "", fetchFailed(field, "the download broke off.")
	}
	if int64(len(body)) > limit {
		return nil, "", tooLarge(field, limit)
	}
	return body, "", nil
}

// failed is the 422 of a request that got no answer. A refusal of the SSRF guard says
// only that the address is not allowed: the caller of an import by URL must not learn the
// internal address a host name resolved to; the log gets it (issue 26 item 14).
func (f *Fetcher) failed(ctx context.Context, field string, u *url.URL, err error) error {
	var refused *RefusedError
	if errors.As(err, &refused) {
		if l := f.c.cfg.Logger; l != nil {
			l.WarnContext(ctx, "document download refused", slog.String("host", u.Hostname()),
				slog.String("address", refused.Addr.String()), slog.String("reason", refused.Reason))
		}
		return fetchFailed(field, "the address is not allowed.")
	}
	why := f.c.describe(ctx, err)
	var dns *net.DNSError
	if errors.As(why, &dns) {
		return fetchFailed(field, "the host name "+strconv.Quote(u.Hostname())+" cannot be resolved.")
	}
	return fetchFailed(field, why.Error()+".")
}

func tooLarge(field string, limit int64) error {
	msg := fmt.Sprintf("The document is larger than %d bytes (STANDARDS_IMPORT_MAX_BYTES).", limit)
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: msg,
		Details: []assess.Detail{{Field: field, Code: "too_large", Message: msg}}}
}
