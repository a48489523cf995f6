package notify

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/require"
)

// newWebhookSecret returns a secret in the format the store issues: "whsec_" and 32
// random bytes in base64.
func newWebhookSecret() string {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return "whsec_" + base64.StdEncoding.EncodeToString(key)
}

// TestWebhookSignatureVerifiesWithTheStandardLibrary checks our signatures against the
// published Standard Webhooks verifier in a real receiver, not against our own code.
func TestWebhookSignatureVerifiesWithTheStandardLibrary(t *testing.T) {
	t.Parallel()
	secret := newWebhookSecret()
	require.True(t, strings.HasPrefix(secret, "whsec_"))
	verifier, err := standardwebhooks.NewWebhook(secret)
	require.NoError(t, err)

	type received struct {
		header http.Header
		body   []byte
		err    error
	}
	got := make(chan received, 1)
	srv, _ := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		err := verifier.Verify(body, r.Header)
		got <- received{header: r.Header.Clone(), body: body, err: err}
		if err != nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})

	client := NewHTTPClient(HTTPConfig{Timeout: 2 * time.Second, AllowNetworks: loopbackOnly, UserAgent: UserAgent("1.2.3")})
	body := []byte(`{"id":"evt_1","type":"user.created","timestamp":"2026-05-01T12:00:00Z","actor":{"id":"system","displayName":"System"},"data":{"username":"ä<b>"}}`)
	before := time.Now().Unix()
	res := client.PostWebhook(context.Background(), srv.URL+"/hook", secret, "dl_0001", body)
	require.NoError(t, res.Err)
	require.Equal(t, http.StatusNoContent, res.Status)

	r := <-got
	require.NoError(t, r.err, "the published verifier accepts the signature")
	require.Equal(t, body, r.body)
	require.Equal(t, "dl_0001", r.header.Get("webhook-id"))
	ts, err := strconv.ParseInt(r.header.Get("webhook-timestamp"), 10, 64)
	require.NoError(t, err)
	require.InDelta(t, before, ts, 2)
	require.True(t, strings.HasPrefix(r.header.Get("webhook-signature"), "v1,"))
	require.Equal(t, "application/json", r.header.Get("Content-Type"))
	require.Equal(t, "Assay-Webhooks/1.2.3 (+https://github.com/assay-dev/assay)", r.header.Get("User-Agent"))

	// A different secret, or a changed body, does not verify.
	other, err := standardwebhooks.NewWebhook(newWebhookSecret())
	require.NoError(t, err)
	require.Error(t, other.Verify(r.body, r.header))
	require.Error(t, verifier.Verify(append(r.body, ' '), r.header))
}

func TestSignWebhookMatchesTheSpecificationExample(t *testing.T) {
	t.Parallel()
	// The example of the Standard Webhooks specification.
	secret := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	body := []byte(`{"test": 2432232314}`)
	sig, err := SignWebhook(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), body)
	require.NoError(t, err)
	require.Equal(t, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", sig)

	_, err = SignWebhook("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "x", time.Now(), body)
	require.ErrorContains(t, err, "whsec_")
	_, err = SignWebhook("whsec_!!!", "x", time.Now(), body)
	require.Error(t, err)
}
