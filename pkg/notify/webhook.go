package notify

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// WebhookSecretPrefix starts every webhook signing secret (Standard Webhooks).
const WebhookSecretPrefix = "whsec_"

// Standard Webhooks headers.
const (
	HeaderWebhookID        = "webhook-id"
	HeaderWebhookTimestamp = "webhook-timestamp"
	HeaderWebhookSignature = "webhook-signature"
)

// SignWebhook returns the webhook-signature value of a message, "v1," and the base64
// HMAC-SHA256 of id + "." + unix seconds + "." + body under the key the secret carries.
func SignWebhook(secret, id string, ts time.Time, body []byte) (string, error) {
	b64, ok := strings.CutPrefix(secret, WebhookSecretPrefix)
	if !ok {
		return "", errors.New("the webhook secret does not start with " + WebhookSecretPrefix)
	}
	key, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(key) == 0 {
		return "", errors.New("the webhook secret is not valid base64")
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	mac.Write([]byte{'.'})
	mac.Write([]byte(strconv.FormatInt(ts.Unix(), 10)))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// PostWebhook posts an event envelope to a webhook destination, signed with secret. id is
// the delivery id, the same on every attempt and redelivery, so receivers can deduplicate.
func (c *HTTPClient) PostWebhook(ctx context.Context, rawURL, secret, id string, body []byte) Response {
	ts := c.cfg.Now()
	sig, err := SignWebhook(secret, id, ts, body)
	if err != nil {
		return Response{Err: err}
	}
	h := http.Header{}
	h.Set(HeaderWebhookID, id)
	h.Set(HeaderWebhookTimestamp, strconv.FormatInt(ts.Unix(), 10))
	h.Set(HeaderWebhookSignature, sig)
	return c.PostJSON(ctx, rawURL, body, h)
}
