package attest_test

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/cyclonedx"
	"github.com/assay-dev/assay/pkg/jsf"
)

var signedAt = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

// platformSigner is an Ed25519 platform key named by its thumbprint, with the key embedded.
func platformSigner(t testing.TB) *jsf.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	jwk, err := jsf.NewJWK(priv.Public())
	require.NoError(t, err)
	s, err := jsf.NewSigner(priv, "Ed25519", jsf.WithKeyID(jsf.Thumbprint(jwk)), jsf.WithPublicKey())
	require.NoError(t, err)
	return s
}

// content is a small attestation: two requirements (yes, not applicable), a claim citing a
// piece of evidence with one file, a counter-claim, two slots.
func content() assess.AttestationContent {
	one, half := 1.0, 0.5
	at := assess.Attestation{ID: "at_01jdq7w0000000000000000001", AssessmentID: "as_1", EntityID: "en_shop", EntityName: "Web shop",
		Summary: "The web shop meets ASVS level 1.", Statement: "We affirm that the claims are accurate.",
		Assessors:   []assess.Assessor{{ID: "ao_acme", Name: "Acme Assurance", URL: "https://acme.example", ThirdParty: true}},
		Signatories: []assess.Signatory{{ID: "sg_1", Title: "CISO", Organization: "Shop Ltd", User: &assess.UserRef{ID: "u_1", DisplayName: "Jane Doe"}}, {ID: "sg_2", Title: "Assessor", Organization: "Acme Assurance"}}}
	return assess.AttestationContent{
		Attestation: at, EntityType: assess.EntityTypeProduct,
		Requirements: []assess.AttestationRequirement{
			{ID: "ar_1", Result: "yes", Rationale: "TLS everywhere.", Score: &one, Confidence: &half, ConfidenceRationale: "Sampled.", ClaimIDs: []string{"cl_1"}, CounterClaimIDs: []string{"cl_2"}},
			{ID: "ar_2", Result: "not_applicable", Rationale: "No uploads."},
		},
		RequirementRefs: map[string]string{"ar_1": "rq_1", "ar_2": "rq_2"},
		Claims: []assess.Claim{
			{ID: "cl_1", Target: "", TargetEntityID: "en_shop", Predicate: "Traffic is encrypted.", Reasoning: "The scan shows it.",
				Evidence: []assess.ClaimEvidence{{ID: "ev_1"}}, MitigationStrategies: []assess.ClaimEvidence{{ID: "ev_1"}}},
			{ID: "cl_2", Target: "The legacy admin console", Predicate: "Serves plain HTTP.", IsCounterClaim: true},
		},
		Evidence: []assess.AttestationEvidence{{ID: "ev_1", Name: "TLS scan", Description: "Weekly scan", ValidUntil: "2027-06-30",
			CreatedAt: signedAt, AuthorName: "Bob", AuthorEmail: "bob@example.com",
			Files: []assess.AttestationFile{{ID: "af_1", Filename: "scan.txt", SHA256: strings.Repeat("ab", 32), Size: 10}}}},
		Standards: []assess.StandardContent{{Standard: assess.Standard{ID: "st_1", Name: "ASVS", StandardVersion: "5.0.0"},
			Requirements: []assess.Requirement{{ID: "rq_1", Identifier: "V1.1", Name: "TLS"}, {ID: "rq_2", Identifier: "V1.2", Name: "Uploads"}}}},
		AppURL: "https://assay.example",
	}
}

// clientSigner makes what a signatory's own tool makes (SignStatement).
func clientSigner(t testing.TB, frozen []byte, s *jsf.Signer) *jsf.Object {
	t.Helper()
	obj, err := attest.SignStatement(frozen, s)
	if err != nil { // a statement not yet frozen: sign it as it is, to test that the service refuses it
		doc, perr := jsf.ParseObject(frozen)
		require.NoError(t, perr)
		decl, lerr := jsf.LookupObject(doc, "/declarations")
		require.NoError(t, lerr)
		require.NoError(t, jsf.AddSignerObject(decl, "signature", s))
		sig, _ := decl.Get("signature")
		list, _ := sig.(*jsf.Object).Get("signers")
		return list.([]any)[0].(*jsf.Object)
	}
	return obj
}

func userSigner(t testing.TB) *jsf.Signer {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	s, err := jsf.NewSigner(key, "ES256")
	require.NoError(t, err)
	return s
}

// sealed runs the whole profile: build, freeze (platform), one digital and one electronic
// signatory, seal (sealer).
func sealed(t testing.TB, freezer, sealer *jsf.Signer, user *jsf.Signer) []byte {
	t.Helper()
	statement, err := cyclonedx.BuildAttestation(cyclonedx.AttestationSpec, content(), "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79", signedAt, "test")
	require.NoError(t, err)
	frozen, err := attest.Freeze(statement, freezer)
	require.NoError(t, err)
	signed, _, err := attest.AddDigitalSignature(frozen, clientSigner(t, frozen, user),
		attest.Signatory{SlotURN: cyclonedx.SignatoryURN("sg_1"), Name: "Jane Doe", Role: "CISO", Organization: "Shop Ltd", SignedAt: signedAt})
	require.NoError(t, err)
	signed, err = attest.AddElectronicSignature(signed, attest.Signatory{SlotURN: cyclonedx.SignatoryURN("sg_2"), Name: "Alan Assessor",
		Role: "Assessor", Organization: "Acme Assurance", SignedAt: signedAt}, []byte("\x89PNG fake"))
	require.NoError(t, err)
	out, err := attest.Seal(signed, sealer)
	require.NoError(t, err)
	require.NoError(t, cyclonedx.ValidateBytes(out, cyclonedx.AttestationSpec), "the sealed document keeps to the schema")
	return out
}

func TestSealedDocumentVerifies(t *testing.T) {
	t.Parallel()
	platform := platformSigner(t)
	doc := sealed(t, platform, platform, userSigner(t))
	r := attest.Verify(doc, attest.Options{PlatformKeys: []jsf.JWK{platform.PublicKey()}})
	require.True(t, r.OK, "%+v", r)
	require.Equal(t, "at_01jdq7w0000000000000000001", r.AttestationID)
	require.Equal(t, "2027-06-30", r.ValidUntil)
	objects := []string{}
	for _, c := range r.Checks {
		objects = append(objects, c.Object)
	}
	require.ElementsMatch(t, []string{"the document (platform seal)", "attestation 1", "claim cl_1", "claim cl_2", "evidence ev_1",
		"signatory urn:assay:signatory:sg_1 (Jane Doe)"}, objects)

	untrusted := attest.Verify(doc, attest.Options{})
	require.False(t, untrusted.OK)
	for _, c := range untrusted.Checks {
		require.Equal(t, attest.StatusUntrusted, c.Status, c.Object)
	}
}

// TestRotationKeepsOldSealsValid: frozen under one platform key and sealed under the next
// (a rotation between), the document verifies with the key set holding both.
func TestRotationKeepsOldSealsValid(t *testing.T) {
	t.Parallel()
	old, current := platformSigner(t), platformSigner(t)
	doc := sealed(t, old, current, userSigner(t))
	require.True(t, attest.Verify(doc, attest.Options{PlatformKeys: []jsf.JWK{current.PublicKey(), old.PublicKey()}}).OK)
	r := attest.Verify(doc, attest.Options{PlatformKeys: []jsf.JWK{current.PublicKey()}})
	require.False(t, r.OK, "the per-object signatures of the retired key need it in the set")
}

func TestDigitalSignatureMustVerify(t *testing.T) {
	t.Parallel()
	platform := platformSigner(t)
	statement, err := cyclonedx.BuildAttestation(cyclonedx.AttestationSpec, content(), "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79", signedAt, "test")
	require.NoError(t, err)
	frozen, err := attest.Freeze(statement, platform)
	require.NoError(t, err)
	who := attest.Signatory{SlotURN: cyclonedx.SignatoryURN("sg_1"), Name: "Jane", SignedAt: signedAt}

	signer := clientSigner(t, frozen, userSigner(t))
	bad := signer.Clone()
	v, _ := bad.Get("value")
	// Another first character: the signature is random, and one in 64 began with "A" already
	// (the full CI run of 2026-11-29 met one, and the unchanged value verified).
	first := "A"
	if strings.HasPrefix(v.(string), first) {
		first = "B"
	}
	bad.Set("value", first+v.(string)[1:])
	require.NotEqual(t, v, first+v.(string)[1:])
	_, _, err = attest.AddDigitalSignature(frozen, bad, who)
	require.Error(t, err, "a changed value")

	other := clientSigner(t, statement, userSigner(t)) // made over the statement before the freeze
	_, _, err = attest.AddDigitalSignature(frozen, other, who)
	require.Error(t, err, "a signature over other content")

	signed, jwk, err := attest.AddDigitalSignature(frozen, signer, who)
	require.NoError(t, err)
	require.Equal(t, "EC", jwk.Kty)
	_, _, err = attest.AddDigitalSignature(signed, signer, who)
	require.ErrorIs(t, err, attest.ErrProfile, "the same key twice")

	second := clientSigner(t, signed, userSigner(t))
	twice, _, err := attest.AddDigitalSignature(signed, second, attest.Signatory{SlotURN: cyclonedx.SignatoryURN("sg_2"), Name: "Alan", SignedAt: signedAt})
	require.NoError(t, err, "a second signer signs as if alone; the first stays valid")
	out, err := attest.Seal(twice, platform)
	require.NoError(t, err)
	require.True(t, attest.Verify(out, attest.Options{PlatformKeys: []jsf.JWK{platform.PublicKey()}}).OK)
}

// TestEverySlotSignedOnce: a sealed document whose affirmation names a slot nobody signed,
// or a slot signed twice, or a record naming no slot, departs from the profile.
func TestEverySlotSignedOnce(t *testing.T) {
	t.Parallel()
	platform := platformSigner(t)
	trust := attest.Options{PlatformKeys: []jsf.JWK{platform.PublicKey()}}
	statement, err := cyclonedx.BuildAttestation(cyclonedx.AttestationSpec, content(), "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79", signedAt, "test")
	require.NoError(t, err)
	frozen, err := attest.Freeze(statement, platform)
	require.NoError(t, err)
	sign := func(doc []byte, slot string) []byte {
		out, err := attest.AddElectronicSignature(doc, attest.Signatory{SlotURN: cyclonedx.SignatoryURN(slot), Name: "Someone", SignedAt: signedAt}, nil)
		require.NoError(t, err)
		return out
	}
	for name, c := range map[string]struct {
		slots []string
		want  string
	}{
		"one slot unsigned":  {[]string{"sg_1"}, "sg_2 is not signed"},
		"a slot twice":       {[]string{"sg_1", "sg_2", "sg_2"}, "sg_2 is signed more than once"},
		"a slot of no one's": {[]string{"sg_1", "sg_2", "sg_9"}, "which is no signatory slot"},
	} {
		doc := frozen
		for _, s := range c.slots {
			doc = sign(doc, s)
		}
		sealed, err := attest.Seal(doc, platform)
		require.NoError(t, err)
		r := attest.Verify(sealed, trust)
		require.False(t, r.OK, name)
		require.Contains(t, strings.Join(r.Problems, "\n"), c.want, name)
	}
}
