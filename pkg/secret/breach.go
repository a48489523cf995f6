package secret

import (
	"bufio"
	"context"
	"crypto/sha1" //nolint:gosec // the range protocol is defined on SHA-1; nothing is protected by it
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// BreachChecker asks a breached-password range service (the k-anonymity protocol of
// Have I Been Pwned) whether a password appeared in a breach. Only the first five hex
// characters of the password's SHA-1 leave the process.
type BreachChecker struct {
	BaseURL string        // e.g. https://api.pwnedpasswords.com
	Timeout time.Duration // on timeout or any failure the check passes (fails open)
	Client  *http.Client
	Logger  *slog.Logger
}

// Breached reports whether password is known to be breached. Failures of the service
// return false: a slow or unreachable service must not stop people choosing passwords.
func (b *BreachChecker) Breached(ctx context.Context, password string) bool {
	sum := sha1.Sum([]byte(password)) //nolint:gosec // see import
	full := strings.ToUpper(hex.EncodeToString(sum[:]))
	prefix, suffix := full[:5], full[5:]
	ctx, cancel := context.WithTimeout(ctx, b.Timeout)
	defer cancel()
	found, err := b.lookup(ctx, prefix, suffix)
	if err != nil {
		if b.Logger != nil {
			b.Logger.WarnContext(ctx, "breached-password check unavailable; password accepted", slog.String("error", err.Error()))
		}
		return false
	}
	return found
}

func (b *BreachChecker) lookup(ctx context.Context, prefix, suffix string) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(b.BaseURL, "/")+"/range/"+prefix, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Add-Padding", "true") // padded answers hide how many suffixes match
	client := b.Client
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		return false, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return false, fmt.Errorf("range service answered %s", res.Status)
	}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		hash, count, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if ok && strings.EqualFold(hash, suffix) && count != "0" {
			return true, nil
		}
	}
	return false, sc.Err()
}
