package attest_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/jsf"
)

// TestRevokedKeyIsJudgedByTime: a signatory's key revoked after the signature (or at the
// same second) leaves it valid; revoked before, the signature is invalid, naming the
// revocation; a revocation published in the signed rescission list counts the same, and
// the other signatures of the document are not affected.
func TestRevokedKeyIsJudgedByTime(t *testing.T) {
	t.Parallel()
	platform, user := platformSigner(t), userSigner(t)
	doc := sealed(t, platform, platform, user)
	keys := []jsf.JWK{platform.PublicKey()}
	for _, tc := range []struct {
		name      string
		revokedAt time.Time
		ok        bool
	}{
		{"revoked a second after the signature", signedAt.Add(time.Second), true},
		{"revoked at the signature's time", signedAt, true},
		{"revoked a second before the signature", signedAt.Add(-time.Second), false},
		{"revoked a day before", signedAt.AddDate(0, 0, -1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			revoked := []attest.KeyRevocation{{KeyID: user.Thumbprint(), RevokedAt: tc.revokedAt}}
			r := attest.Verify(doc, attest.Options{PlatformKeys: keys, RevokedKeys: revoked})
			require.Equal(t, tc.ok, r.OK, "%+v", r)
			list, err := attest.SignRescissions(attest.RescissionList{Issuer: "assay", Updated: signedAt, RevokedKeys: revoked}, platform)
			require.NoError(t, err)
			published, err := attest.ReadRescissions(list, keys)
			require.NoError(t, err)
			offline := attest.Verify(doc, attest.Options{PlatformKeys: keys, Rescissions: published})
			require.Equal(t, tc.ok, offline.OK, "the published list counts the same: %+v", offline)
			for _, c := range r.Checks {
				if c.Signer == "platform" || tc.ok {
					require.Equal(t, attest.StatusValid, c.Status, c.Object)
					continue
				}
				require.Equal(t, attest.StatusInvalid, c.Status)
				require.Contains(t, c.Reason, "revoked at "+tc.revokedAt.Format(time.RFC3339))
			}
		})
	}
	other := attest.Verify(doc, attest.Options{PlatformKeys: keys,
		RevokedKeys: []attest.KeyRevocation{{KeyID: userSigner(t).Thumbprint(), RevokedAt: signedAt.AddDate(-1, 0, 0)}}})
	require.True(t, other.OK, "another key's revocation changes nothing")
}
