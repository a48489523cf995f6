package main

import (
	"archive/zip"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/cyclonedx"
	"github.com/assay-dev/assay/pkg/jsf"
)

// raw sends a request as c and returns the status, the Content-Type and the body's bytes.
func (c *apiClient) raw(t testing.TB, method, path string, body io.Reader, contentType string) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, c.ts.url+path, body)
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
	}
	for name, values := range c.header {
		req.Header[name] = values
	}
	res, err := c.http.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, res.Header.Get("Content-Type"), data
}

// browserSigner is what the browser does for a digital signature: an Ed25519 key of the
// user's own signs the frozen statement's declarations as its only signer.
func browserSigner(t testing.TB, frozen []byte) map[string]any {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	s, err := jsf.NewSigner(key, "Ed25519")
	require.NoError(t, err)
	obj, err := attest.SignStatement(frozen, s)
	require.NoError(t, err)
	raw, err := jsf.Marshal(obj)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(raw, &out))
	return out
}

func signaturePNG(t testing.TB) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 12))
	for x := range 40 {
		img.Set(x, 6, color.Black)
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// TestAttestationsAPI: an assessor attests a complete assessment; the administrator adds
// two slots; an assessee signs digitally with a key of their own, the assessor
// electronically with a drawn image; the administrator seals; the export verifies with
// the public key set a receiver downloads without signing in; the outsider sees nothing;
// rescission reaches the public list.
func TestAttestationsAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	w := newClaimWorld(t, ts)
	ann, annC := ts.newUserNamed(t, "ann", assess.RoleAssessor)
	signing := ts.newRole(t, string(assess.PermSignaturesSign)) // the built-in assessee role signs nothing
	bea, beaC := ts.newUserNamed(t, "bea", assess.RoleAssessee, signing.Name)
	_, ozC := ts.newUserNamed(t, "ozzy", assess.RoleAssessor)
	aid, ars := w.assessment("Payments review", []string{ann.ID}, []string{bea.ID})
	ev := w.evidence("Pentest report", ann.ID, ars[0])
	var upload bytes.Buffer
	mw := multipart.NewWriter(&upload)
	part, err := mw.CreateFormFile("file", "pentest.txt")
	require.NoError(t, err)
	_, _ = part.Write([]byte("Pentest of the payments API: no findings of high severity.\n"))
	require.NoError(t, mw.Close())
	status, _, out := annC.raw(t, http.MethodPost, "/api/v1/evidence/"+ev+"/attachments", &upload, mw.FormDataContentType())
	require.Equal(t, http.StatusCreated, status, string(out))
	annC.post(t, "/api/v1/assessments/"+aid+"/claims", map[string]any{"name": "Encrypted", "targetEntityId": w.entityID,
		"predicate": "All stored data is encrypted.", "evidenceIds": []string{ev}, "requirementIds": ars[:2]}, http.StatusCreated)
	for i, r := range []string{"yes", "partial", "not_applicable"} {
		ts.sqlExec(t, `UPDATE assessment_requirements SET result = $2, rationale = $3 WHERE id = $1`, ars[i], r, fifteenWords)
	}

	annC.fails(t, http.MethodPost, "/api/v1/attestations", map[string]any{"assessmentId": aid}, http.StatusConflict, "conflict")
	w.setState(aid, "complete")
	at := annC.post(t, "/api/v1/attestations", map[string]any{"assessmentId": aid, "summary": "Payments at ASVS L1"}, http.StatusCreated)
	id := at["id"].(string)
	require.True(t, strings.HasPrefix(id, "at_"))
	require.Equal(t, "draft", at["state"])
	require.InDelta(t, 75.0, at["score"], 0.001)

	step(t, "another user's attestation is 404 to an outsider", func(t *testing.T) {
		for _, path := range []string{"/api/v1/attestations/" + id, "/api/v1/attestations/" + id + "/requirements"} {
			ozC.fails(t, http.MethodGet, path, nil, http.StatusNotFound, "not_found")
		}
		ozC.fails(t, http.MethodPatch, "/api/v1/attestations/"+id, map[string]any{"version": 1, "summary": "x"}, http.StatusNotFound, "not_found")
		ozC.fails(t, http.MethodPost, "/api/v1/attestations/"+id+"/verify", nil, http.StatusNotFound, "not_found")
		require.Empty(t, items(t, ozC.get(t, "/api/v1/attestations", http.StatusOK)))
	})

	step(t, "hostile input is a clear 4xx", func(t *testing.T) {
		annC.fails(t, http.MethodPost, "/api/v1/attestations", map[string]any{"assessmentId": "as_\u0000"}, http.StatusBadRequest, "validation_failed")
		annC.fails(t, http.MethodPost, "/api/v1/attestations/"+id+"/requirements/bulk", map[string]any{"version": 1,
			"items": []map[string]any{{"id": ars[0], "scoreOverride": 7}}}, http.StatusBadRequest, "validation_failed")
	})

	admin.post(t, "/api/v1/attestations/"+id+"/signatories", map[string]any{"title": "Product owner", "userId": bea.ID}, http.StatusCreated)
	slots := admin.post(t, "/api/v1/attestations/"+id+"/signatories", map[string]any{"title": "Lead assessor", "organization": "Acme Assurance"}, http.StatusCreated)
	sigs := slots["signatories"].([]any)
	pinned, open := sigs[0].(map[string]any)["id"].(string), sigs[1].(map[string]any)["id"].(string)

	status, ctype, frozen := beaC.raw(t, http.MethodPost, "/api/v1/attestations/"+id+"/freeze", nil, "")
	require.Equal(t, http.StatusOK, status, string(frozen))
	require.Equal(t, "application/vnd.cyclonedx+json; version=1.7", ctype)
	require.NoError(t, cyclonedx.ValidateBytes(frozen, "1.7"))

	beaC.post(t, "/api/v1/attestations/"+id+"/signatories/"+pinned+"/sign",
		map[string]any{"kind": "digital", "digital": map[string]any{"signer": browserSigner(t, frozen)}}, http.StatusOK)
	annC.fails(t, http.MethodPost, "/api/v1/attestations/"+id+"/signatories/"+pinned+"/sign",
		map[string]any{"kind": "electronic", "electronic": map[string]any{"name": "Ann"}}, http.StatusConflict, "conflict")
	admin.fails(t, http.MethodPost, "/api/v1/attestations/"+id+"/seal", nil, http.StatusConflict, "conflict")
	annC.post(t, "/api/v1/attestations/"+id+"/signatories/"+open+"/sign",
		map[string]any{"kind": "electronic", "electronic": map[string]any{"name": "Ann Assessor", "image": signaturePNG(t)}}, http.StatusOK)
	sealed := admin.post(t, "/api/v1/attestations/"+id+"/seal", nil, http.StatusOK)
	require.Equal(t, "sealed", sealed["state"])

	step(t, "what asks someone to act is worded for them alone, not for the whole team", func(t *testing.T) {
		// personal reports, per event type of the attestation, whether c's user was notified
		// in the words for the user it concerns ("you") or at all.
		personal := func(c *apiClient) map[string]bool {
			out := map[string]bool{}
			for _, n := range items(t, c.get(t, "/api/v1/notifications?limit=100", http.StatusOK)) {
				if n["link"] != "/attestations/"+id {
					continue
				}
				params, _ := n["params"].(map[string]any)
				out[n["type"].(string)] = out[n["type"].(string)] || params["you"] == "true"
			}
			return out
		}
		bea, ann := personal(beaC), personal(annC)
		require.True(t, bea[string(assess.EventAffirmationAssigned)], "the signatory pinned is asked: %v", bea)
		require.False(t, ann[string(assess.EventAffirmationAssigned)], "a teammate is not told they were asked to sign: %v", ann)
		// The last signature (ann's, the creator's) made it ready to seal: the actor is not
		// notified, and the team is not told it is theirs to seal.
		require.False(t, bea[string(assess.EventAffirmationSealReady)], "a teammate is not told it is theirs to seal: %v", bea)
		require.False(t, ann[string(assess.EventAffirmationFrozen)], "an open slot asks nobody in particular: %v", ann)
	})

	status, _, doc := annC.raw(t, http.MethodGet, "/api/v1/attestations/"+id+"/export", nil, "")
	require.Equal(t, http.StatusOK, status)

	step(t, "the 1.6 export is valid and says it is unsigned", func(t *testing.T) {
		status, ctype, old := annC.raw(t, http.MethodGet, "/api/v1/attestations/"+id+"/export?specVersion=1.6", nil, "")
		require.Equal(t, http.StatusOK, status, string(old))
		require.Equal(t, "application/vnd.cyclonedx+json; version=1.6", ctype)
		require.NoError(t, cyclonedx.ValidateBytes(old, "1.6"))
		require.Contains(t, string(old), cyclonedx.PropertyUnsigned)
		require.NotContains(t, string(old), `"signature"`)
	})
	anon := ts.browser(t)
	status, ctype, jwks := anon.raw(t, http.MethodGet, "/api/v1/platform-keys/jwks.json", nil, "")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "application/jwk-set+json", ctype)
	keys, err := attest.ParseJWKS(jwks)
	require.NoError(t, err)
	report := attest.Verify(doc, attest.Options{PlatformKeys: keys})
	require.True(t, report.OK, "%+v", report)

	verified := annC.post(t, "/api/v1/attestations/"+id+"/verify", nil, http.StatusOK)
	require.Equal(t, true, verified["ok"])

	step(t, "the evidence bundle binds the file by its hash", func(t *testing.T) {
		status, ctype, zip := annC.raw(t, http.MethodGet, "/api/v1/attestations/"+id+"/bundle", nil, "")
		require.Equal(t, http.StatusOK, status, string(zip))
		require.Equal(t, "application/zip", ctype)
		r, err := attest.VerifyBundle(bytes.NewReader(zip), int64(len(zip)), attest.Options{PlatformKeys: keys})
		require.NoError(t, err)
		require.True(t, r.OK, "%+v", r)
		require.Len(t, r.Files, 1)
	})

	step(t, "an uploaded copy with one claim byte changed fails, naming the claim", func(t *testing.T) {
		tampered := bytes.Replace(doc, []byte("All stored data is encrypted."), []byte("All stored data is encrypted!"), 1)
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		part, err := mw.CreateFormFile("file", "attestation.cdx.json")
		require.NoError(t, err)
		_, _ = part.Write(tampered)
		require.NoError(t, mw.Close())
		status, _, out := ozC.raw(t, http.MethodPost, "/api/v1/attestations/verify", &body, mw.FormDataContentType())
		require.Equal(t, http.StatusOK, status, string(out))
		var r attest.Report
		require.NoError(t, json.Unmarshal(out, &r))
		require.False(t, r.OK)
		var broken []string
		for _, c := range r.Checks {
			if c.Status == attest.StatusInvalid {
				broken = append(broken, c.Object)
			}
		}
		require.Contains(t, strings.Join(broken, ","), "claim cl_")
	})

	step(t, "the sealed work is locked", func(t *testing.T) {
		annC.fails(t, http.MethodPatch, "/api/v1/attestations/"+id, map[string]any{"version": sealed["version"], "summary": "x"},
			http.StatusConflict, "conflict")
		got := annC.get(t, "/api/v1/evidence/"+ev, http.StatusOK)
		require.Equal(t, "affirmation_sealed", got["locked"])
	})

	step(t, "rotation keeps the document valid; rescission is public", func(t *testing.T) {
		admin.post(t, "/api/v1/admin/platform-keys/rotate", nil, http.StatusCreated)
		require.Len(t, items(t, admin.get(t, "/api/v1/admin/platform-keys", http.StatusOK)), 2)
		annC.fails(t, http.MethodPost, "/api/v1/admin/platform-keys/rotate", nil, http.StatusForbidden, "permission_denied")
		require.Equal(t, true, annC.post(t, "/api/v1/attestations/"+id+"/verify", nil, http.StatusOK)["ok"])
		admin.post(t, "/api/v1/attestations/"+id+"/rescind", map[string]any{"reason": "Wrong scope."}, http.StatusOK)
		status, _, list := anon.raw(t, http.MethodGet, "/api/v1/rescissions", nil, "")
		require.Equal(t, http.StatusOK, status)
		_, _, jwks := anon.raw(t, http.MethodGet, "/api/v1/platform-keys/jwks.json", nil, "")
		keys, err := attest.ParseJWKS(jwks)
		require.NoError(t, err)
		r, err := attest.ReadRescissions(list, keys)
		require.NoError(t, err)
		require.NotNil(t, r.Find(report.SerialNumber))
		after := annC.post(t, "/api/v1/attestations/"+id+"/verify", nil, http.StatusOK)
		require.Equal(t, false, after["ok"])
		require.NotNil(t, after["rescinded"])
	})
}

// TestSealedAttestationsExport: the ZIP of an assessment's or a project's sealed
// attestations holds each stored document; an assessment the caller may not see is 404.
func TestSealedAttestationsExport(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	w := newClaimWorld(t, ts)
	_, ozC := ts.newUserNamed(t, "ozzy", assess.RoleAssessor)
	aid, ars := w.assessment("Payments review", nil, nil)
	for _, ar := range ars {
		ts.sqlExec(t, `UPDATE assessment_requirements SET result = 'yes', rationale = $2 WHERE id = $1`, ar, fifteenWords)
	}
	w.setState(aid, "complete")
	at := admin.post(t, "/api/v1/attestations", map[string]any{"assessmentId": aid}, http.StatusCreated)
	id := at["id"].(string)
	slots := admin.post(t, "/api/v1/attestations/"+id+"/signatories", map[string]any{"title": "Lead"}, http.StatusCreated)
	slot := slots["signatories"].([]any)[0].(map[string]any)["id"].(string)
	admin.post(t, "/api/v1/attestations/"+id+"/signatories/"+slot+"/sign", map[string]any{"kind": "electronic",
		"electronic": map[string]any{"name": "Admin"}}, http.StatusOK)
	admin.post(t, "/api/v1/attestations/"+id+"/seal", nil, http.StatusOK)
	_, _, stored := admin.raw(t, http.MethodGet, "/api/v1/attestations/"+id+"/export", nil, "")

	status, ctype, data := admin.raw(t, http.MethodGet, "/api/v1/assessments/"+aid+"/attestations/export", nil, "")
	require.Equal(t, http.StatusOK, status, string(data))
	require.Equal(t, "application/zip", ctype)
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	require.Len(t, z.File, 1)
	f, err := z.File[0].Open()
	require.NoError(t, err)
	inside, err := io.ReadAll(f)
	require.NoError(t, err)
	require.Equal(t, stored, inside, "the stored bytes, unchanged")
	ozC.fails(t, http.MethodGet, "/api/v1/assessments/"+aid+"/attestations/export", nil, http.StatusNotFound, "not_found")
}

// TestSigningKeysOnTheProfile: a public key is added, listed and removed; a private key is
// refused; another user's key is 404; the same key twice is 409.
func TestSigningKeysOnTheProfile(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	_, annC := ts.newUserNamed(t, "ann", assess.RoleAssessor)
	_, ozC := ts.newUserNamed(t, "ozzy", assess.RoleAssessor)
	_, bea := ts.newUserNamed(t, "bea", assess.RoleAssessee)
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	jwk, err := jsf.NewJWK(pub)
	require.NoError(t, err)
	body := map[string]any{"label": "Laptop", "algorithm": "Ed25519", "publicKey": jwk}
	k := annC.post(t, "/api/v1/me/signing-keys", body, http.StatusCreated)
	require.Equal(t, jsf.Thumbprint(jwk), k["keyId"])
	annC.fails(t, http.MethodPost, "/api/v1/me/signing-keys", body, http.StatusConflict, "already_exists")
	withPrivate := map[string]any{"label": "Oops", "algorithm": "Ed25519", "publicKey": map[string]any{"kty": "OKP", "crv": "Ed25519",
		"x": jwk.X, "d": base64.RawURLEncoding.EncodeToString(priv.Seed())}}
	annC.fails(t, http.MethodPost, "/api/v1/me/signing-keys", withPrivate, http.StatusBadRequest, "validation_failed")
	annC.fails(t, http.MethodPost, "/api/v1/me/signing-keys", map[string]any{"label": "Bad", "algorithm": "ES256",
		"publicKey": map[string]any{"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA"}}, http.StatusUnprocessableEntity, "business_rule_violation")
	require.Len(t, items(t, annC.get(t, "/api/v1/me/signing-keys", http.StatusOK)), 1)
	require.Empty(t, items(t, ozC.get(t, "/api/v1/me/signing-keys", http.StatusOK)))
	ozC.fails(t, http.MethodDelete, "/api/v1/me/signing-keys/"+k["id"].(string), nil, http.StatusNotFound, "not_found")
	bea.fails(t, http.MethodGet, "/api/v1/me/signing-keys", nil, http.StatusForbidden, "permission_denied")
	annC.delete(t, "/api/v1/me/signing-keys/"+k["id"].(string), http.StatusNoContent)
	require.Empty(t, items(t, annC.get(t, "/api/v1/me/signing-keys", http.StatusOK)))
}

// TestSignatureImageOnTheProfile: a signature image kept on the profile is re-encoded as
// PNG, served back, used by an electronic signature that asks for it, and removed.
func TestSignatureImageOnTheProfile(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	_, annC := ts.newUserNamed(t, "ann", assess.RoleAssessor)
	// None kept is an answer, not an error: 204 (a 404 showed in every browser console).
	status, _, none := annC.raw(t, http.MethodGet, "/api/v1/me/signature-image", nil, "")
	require.Equal(t, http.StatusNoContent, status)
	require.Empty(t, none)
	annC.fails(t, http.MethodPut, "/api/v1/me/signature-image", map[string]any{"image": base64.StdEncoding.EncodeToString([]byte("GIF89a nope"))},
		http.StatusBadRequest, "validation_failed")
	annC.expect(t, http.StatusNoContent, http.MethodPut, "/api/v1/me/signature-image", map[string]any{"image": signaturePNG(t)})
	status, ctype, kept := annC.raw(t, http.MethodGet, "/api/v1/me/signature-image", nil, "")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "image/png", ctype)
	_, err := png.Decode(bytes.NewReader(kept))
	require.NoError(t, err)
	annC.delete(t, "/api/v1/me/signature-image", http.StatusNoContent)
	annC.fails(t, http.MethodDelete, "/api/v1/me/signature-image", nil, http.StatusNotFound, "not_found")
	status, _, _ = annC.raw(t, http.MethodGet, "/api/v1/me/signature-image", nil, "")
	require.Equal(t, http.StatusNoContent, status, "none kept again")
}

// TestHeldSigningKeysAPI: with encryption at rest, a user generates a key held by the
// service (the answer and the list carry the public key only) and signs a slot with it
// by giving the password again; a wrong password, another user's key or a key id with a
// NUL byte signs nothing; the sealed document verifies; after the revocation the key
// signs nothing more and the document stays valid. Without a master key generation is
// 409 with the reason.
func TestHeldSigningKeysAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "MASTER_ENCRYPTION_KEY="+strings.Repeat("4", 64))
	admin := ts.admin(t)
	w := newClaimWorld(t, ts)
	ann, annC := ts.newUserNamed(t, "ann", assess.RoleAssessor)
	_, ozC := ts.newUserNamed(t, "ozzy", assess.RoleAssessor)
	aid, ars := w.assessment("Payments review", []string{ann.ID}, nil)
	for _, ar := range ars {
		ts.sqlExec(t, `UPDATE assessment_requirements SET result = 'yes', rationale = $2 WHERE id = $1`, ar, fifteenWords)
	}
	w.setState(aid, "complete")
	newSlot := func() (string, string) {
		at := annC.post(t, "/api/v1/attestations", map[string]any{"assessmentId": aid}, http.StatusCreated)
		id := at["id"].(string)
		slots := admin.post(t, "/api/v1/attestations/"+id+"/signatories", map[string]any{"title": "Lead", "userId": ann.ID}, http.StatusCreated)
		return id, slots["signatories"].([]any)[0].(map[string]any)["id"].(string)
	}
	sign := func(id, slot string) string { return "/api/v1/attestations/" + id + "/signatories/" + slot + "/sign" }
	body := func(keyID, password string) map[string]any {
		return map[string]any{"kind": "digital", "digital": map[string]any{"heldKeyId": keyID, "password": password}}
	}

	require.Equal(t, true, annC.get(t, "/api/v1/me/signing-keys", http.StatusOK)["heldKeysAvailable"], "the list says that a key can be held")
	k := annC.post(t, "/api/v1/me/signing-keys/generate", map[string]any{"label": "Office key", "algorithm": "Ed25519"}, http.StatusCreated)
	keyID := k["id"].(string)
	require.Equal(t, true, k["held"])
	require.Nil(t, k["revokedAt"])
	require.NotContains(t, k["publicKey"], "d", "the public key only")
	listed := items(t, annC.get(t, "/api/v1/me/signing-keys", http.StatusOK))
	require.Len(t, listed, 1)
	require.Equal(t, true, listed[0]["held"])
	annC.fails(t, http.MethodPost, "/api/v1/me/signing-keys/generate", map[string]any{"label": "Bad\u0000", "algorithm": "Ed25519"},
		http.StatusBadRequest, "validation_failed")
	annC.fails(t, http.MethodPost, "/api/v1/me/signing-keys/generate", map[string]any{"label": "RSA", "algorithm": "RS256"},
		http.StatusBadRequest, "validation_failed")

	id, slot := newSlot()
	path := sign(id, slot)
	annC.fails(t, http.MethodPost, path, body(keyID, "not my password"), http.StatusBadRequest, "validation_failed")
	annC.fails(t, http.MethodPost, path, body(keyID, ""), http.StatusBadRequest, "validation_failed")
	annC.fails(t, http.MethodPost, path, body("uk_\u0000", fixturePassword), http.StatusBadRequest, "validation_failed")
	ozKey := ozC.post(t, "/api/v1/me/signing-keys/generate", map[string]any{"label": "Ozzy's", "algorithm": "ES256"}, http.StatusCreated)
	annC.fails(t, http.MethodPost, path, body(ozKey["id"].(string), fixturePassword), http.StatusNotFound, "not_found")
	annC.fails(t, http.MethodPost, path, map[string]any{"kind": "digital", "digital": map[string]any{"heldKeyId": keyID,
		"password": fixturePassword, "signer": map[string]any{"algorithm": "Ed25519"}}}, http.StatusBadRequest, "validation_failed")
	ozC.fails(t, http.MethodPost, "/api/v1/me/signing-keys/"+keyID+"/revoke", nil, http.StatusNotFound, "not_found")
	require.Equal(t, "draft", annC.get(t, "/api/v1/attestations/"+id, http.StatusOK)["state"], "nothing signed yet")
	signed := annC.post(t, path, body(keyID, fixturePassword), http.StatusOK)
	require.Equal(t, k["keyId"], signed["signatories"].([]any)[0].(map[string]any)["keyId"])
	admin.post(t, "/api/v1/attestations/"+id+"/seal", nil, http.StatusOK)
	require.Equal(t, true, annC.post(t, "/api/v1/attestations/"+id+"/verify", nil, http.StatusOK)["ok"])

	annC.fails(t, http.MethodDelete, "/api/v1/me/signing-keys/"+keyID, nil, http.StatusConflict, "conflict")
	revoked := annC.post(t, "/api/v1/me/signing-keys/"+keyID+"/revoke", nil, http.StatusOK)
	require.NotNil(t, revoked["revokedAt"])
	annC.fails(t, http.MethodPost, "/api/v1/me/signing-keys/"+keyID+"/revoke", nil, http.StatusConflict, "conflict")
	id2, slot2 := newSlot()
	annC.fails(t, http.MethodPost, sign(id2, slot2), body(keyID, fixturePassword), http.StatusConflict, "conflict")
	require.Equal(t, true, annC.post(t, "/api/v1/attestations/"+id+"/verify", nil, http.StatusOK)["ok"],
		"signed before the revocation: still valid")
	_, _, list := ts.browser(t).raw(t, http.MethodGet, "/api/v1/rescissions", nil, "")
	require.Contains(t, string(list), k["keyId"].(string), "the revocation is published")

	plain := startServer(t)
	_, c := plain.newUserNamed(t, "ann", assess.RoleAssessor)
	require.Equal(t, false, c.get(t, "/api/v1/me/signing-keys", http.StatusOK)["heldKeysAvailable"], "a client offers no generation that would fail")
	c.fails(t, http.MethodPost, "/api/v1/me/signing-keys/generate", map[string]any{"label": "Office", "algorithm": "ES256"},
		http.StatusConflict, "conflict")
}
