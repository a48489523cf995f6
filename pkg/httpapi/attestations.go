package httpapi

import (
	"archive/zip"
	"bytes"
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/attest"
	"github.com/assay-dev/assay/pkg/cyclonedx"
)

// Attestations, their affirmation and signatures, verification, and the platform's public
// keys (docs/attestations.md).

var (
	tagAttestations = []string{"Attestations"}
	tagAssessors    = []string{"Assessors"}
	tagPlatformKeys = []string{"Platform keys"}
)

// cdxMediaType is the media type of the attestation documents.
const cdxMediaType = cyclonedx.MediaType + "; version=" + cyclonedx.AttestationSpec

var docAttestationList = huma.Operation{OperationID: "listAttestations", Summary: "List attestations", Tags: tagAttestations,
	Description: "Newest first, cursor-paginated; only attestations of assessments the caller may see. Filter by assessment and state."}

func (s *Server) handleAttestationList(ctx context.Context, in *assess.AttestationFilter) (*body[assess.Page[assess.Attestation]], error) {
	page, err := s.dep.Attestations.FindAttestations(ctx, *in, requestActor(ctx))
	return reply(page), err
}

var docAttestationCreate = huma.Operation{OperationID: "createAttestation", Summary: "Attest a complete assessment", Tags: tagAttestations,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Starts a draft attestation of a complete assessment (409 not_complete otherwise). Its map is derived: each " +
		"requirement's conformance score from its result (yes 1, partial 0.5, no 0; not applicable has a rationale and no " +
		"score), the rationale from the result, claims and counter-claims from the claims about the requirement, mitigation " +
		"strategies from the claims' mitigation evidence. Every claim of the assessment goes in unless claimIds chooses."}

func (s *Server) handleAttestationCreate(ctx context.Context, in *body[assess.NewAttestation]) (*body[assess.Attestation], error) {
	t, err := s.dep.Attestations.CreateAttestation(ctx, in.Body, requestActor(ctx))
	return reply(t), err
}

var docAttestationGet = huma.Operation{OperationID: "getAttestation", Summary: "Get an attestation", Tags: tagAttestations,
	Errors: []int{http.StatusNotFound}}

func (s *Server) handleAttestationGet(ctx context.Context, in *idInput) (*body[assess.Attestation], error) {
	t, err := s.dep.Attestations.FindAttestation(ctx, in.ID, requestActor(ctx))
	return reply(t), err
}

var docAttestationUpdate = huma.Operation{OperationID: "updateAttestation", Summary: "Update a draft attestation", Tags: tagAttestations,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Summary, statement, assessors and the claims that go in; absent fields stay. Once signing has begun the " +
		"statement is frozen: 409 frozen."}

func (s *Server) handleAttestationUpdate(ctx context.Context, in *idBody[assess.AttestationUpdate]) (*body[assess.Attestation], error) {
	t, err := s.dep.Attestations.UpdateAttestation(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(t), err
}

// versionedIDInput is an {id} with the ?version= last read, for deletes.
type versionedIDInput struct {
	ID      string `path:"id" maxLength:"64"`
	Version int64  `query:"version" required:"true" minimum:"1" doc:"The version last read; a stale one is refused with 409 version_conflict"`
}

var docAttestationDelete = huma.Operation{OperationID: "deleteAttestation", Summary: "Delete a draft attestation", Tags: tagAttestations,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Drafts only (409 frozen once signing has begun)."}

func (s *Server) handleAttestationDelete(ctx context.Context, in *versionedIDInput) (*struct{}, error) {
	return nil, s.dep.Attestations.DeleteAttestation(ctx, in.ID, in.Version, requestActor(ctx))
}

var docAttestationMap = huma.Operation{OperationID: "listAttestationRequirements", Summary: "The map of an attestation", Tags: tagAttestations,
	Errors:      []int{http.StatusNotFound},
	Description: "Every requirement of the assessment with its result, derived score, the assessor's override and confidence, and the chosen claims and counter-claims about it."}

func (s *Server) handleAttestationMap(ctx context.Context, in *idInput) (*body[assess.AttestationRequirementList], error) {
	m, err := s.dep.Attestations.FindAttestationRequirements(ctx, in.ID, requestActor(ctx))
	return reply(m), err
}

var docAttestationMapChange = huma.Operation{OperationID: "changeAttestationRequirements", Summary: "Override scores and set confidence",
	Tags: tagAttestations, Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Sets the assessor's score override (0–1, null: the derived score) and confidence (0–1 with a rationale) of " +
		"requirements of a draft; returns the whole map. The attestation's version is checked and bumped."}

func (s *Server) handleAttestationMapChange(ctx context.Context, in *idBody[assess.AttestationRequirementChanges]) (*body[assess.AttestationRequirementList], error) {
	m, err := s.dep.Attestations.ChangeAttestationRequirements(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(m), err
}

var docSignatoryAdd = huma.Operation{OperationID: "addSignatory", Summary: "Add a signatory slot", Tags: tagAttestations,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "A slot of the affirmation: a title (the role signed in), an organisation (default: the assessed entity's " +
		"name), optionally pinned to an active user who can see the assessment (notified). Drafts only."}

func (s *Server) handleSignatoryAdd(ctx context.Context, in *idBody[assess.NewSignatory]) (*body[assess.Attestation], error) {
	t, err := s.dep.Attestations.AddSignatory(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(t), err
}

// slotInput names an attestation and one of its signatory slots.
type slotInput struct {
	ID     string `path:"id" maxLength:"64"`
	SlotID string `path:"slotId" maxLength:"64"`
}

var docSignatoryRemove = huma.Operation{OperationID: "removeSignatory", Summary: "Remove a signatory slot", Tags: tagAttestations,
	Errors: []int{http.StatusNotFound, http.StatusConflict}, Description: "Drafts only."}

func (s *Server) handleSignatoryRemove(ctx context.Context, in *slotInput) (*body[assess.Attestation], error) {
	t, err := s.dep.Attestations.RemoveSignatory(ctx, in.ID, in.SlotID, requestActor(ctx))
	return reply(t), err
}

var docAttestationFreeze = huma.Operation{OperationID: "freezeAttestation", Summary: "Freeze the statement for signing",
	Tags: tagAttestations, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Responses: fileResponse(cdxMediaType, "The frozen statement (then, once sealed, the sealed document), byte for byte as stored.",
		&huma.Schema{Type: huma.TypeObject}),
	Description: "Fixes the statement (serial number, time, the platform's signatures of each attestation, claim and evidence " +
		"object) and returns it: a digital signatory signs its declarations with a key of their own (docs/attestations.md). " +
		"Idempotent: later calls return the stored document. Needs at least one slot (409 no_slots)."}

func (s *Server) handleAttestationFreeze(ctx context.Context, in *idInput) (*fileOutput, error) {
	d, err := s.dep.Attestations.FreezeAttestation(ctx, in.ID, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return documentOutput(d), nil
}

// signInput signs one slot.
type signInput struct {
	ID     string `path:"id" maxLength:"64"`
	SlotID string `path:"slotId" maxLength:"64"`
	Body   assess.SignRequest
}

var docAttestationSign = huma.Operation{OperationID: "signAttestation", Summary: "Sign a slot", Tags: tagAttestations,
	Errors: []int{http.StatusNotFound, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Electronic: the name (role and organisation default to the slot's) and optionally an image of a drawn " +
		"signature (PNG, JPEG or WebP, re-encoded as PNG). Digital: the JSF signer object {algorithm, publicKey, value} made " +
		"over the frozen statement's declarations; the service verifies it before accepting it (422 bad_signature) and keeps " +
		"the public key on the signer's profile. Or, instead of the signer, heldKeyId (a key the service holds for the " +
		"caller) and the caller's password: the service makes the same signer object itself (400 incorrect for a wrong " +
		"password, counted as a failed sign-in; 429 while the account is locked; 409 revoked). A slot pinned to someone else is 403 slot_pinned; a signed one 409 " +
		"slot_signed. The first signature freezes a draft."}

func (s *Server) handleAttestationSign(ctx context.Context, in *signInput) (*body[assess.Attestation], error) {
	t, err := s.dep.Attestations.Sign(ctx, in.ID, in.SlotID, in.Body, requestActor(ctx))
	return reply(t), err
}

var docAttestationSeal = huma.Operation{OperationID: "sealAttestation", Summary: "Seal an attestation", Tags: tagAttestations,
	Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "After the last slot is signed (409 unsigned_slots naming the others) the platform signs the whole document; " +
		"it is final. Of concurrent seals one succeeds, the others get 409 not_signing."}

func (s *Server) handleAttestationSeal(ctx context.Context, in *idInput) (*body[assess.Attestation], error) {
	t, err := s.dep.Attestations.Seal(ctx, in.ID, requestActor(ctx))
	return reply(t), err
}

var docAttestationRescind = huma.Operation{OperationID: "rescindAttestation", Summary: "Rescind a sealed attestation", Tags: tagAttestations,
	Errors: []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "The sealed document cannot change: the rescission, with its reason, goes into the platform-signed public " +
		"list (/api/v1/rescissions) that verification consults."}

func (s *Server) handleAttestationRescind(ctx context.Context, in *idBody[assess.RescindRequest]) (*body[assess.Attestation], error) {
	t, err := s.dep.Attestations.Rescind(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(t), err
}

var docAttestationExport = huma.Operation{OperationID: "exportAttestation", Summary: "Export an attestation as CycloneDX", Tags: tagAttestations,
	Errors:    []int{http.StatusNotFound},
	Responses: fileResponse(cyclonedx.MediaType, "The attestation's CycloneDX document.", &huma.Schema{Type: huma.TypeObject}),
	Description: "CycloneDX 1.7 (default): once frozen, the stored document byte for byte — the signatures cover exactly its " +
		"JSON. 1.6 on request, and a draft in either version: written from the records, checked against the official " +
		"schema, unsigned, saying so in the property assay:attestation:unsigned (the signatures cover the 1.7 form only). " +
		"E-mail addresses are left out."}

// attestationExportInput names an attestation and the spec version of its export.
type attestationExportInput struct {
	ID          string `path:"id" maxLength:"64"`
	SpecVersion string `query:"specVersion" enum:"1.6,1.7" default:"1.7" doc:"CycloneDX spec version of the document"`
}

func (s *Server) handleAttestationExport(ctx context.Context, in *attestationExportInput) (*fileOutput, error) {
	d, err := s.dep.Attestations.ExportAttestation(ctx, in.ID, in.SpecVersion, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	out := documentOutput(d)
	out.ContentType = cyclonedx.MediaType + "; version=" + cmp.Or(d.SpecVersion, in.SpecVersion)
	return out, nil
}

var docAttestationBundle = huma.Operation{OperationID: "exportAttestationBundle", Summary: "Download the evidence bundle", Tags: tagAttestations,
	Errors: []int{http.StatusNotFound, http.StatusConflict},
	Responses: fileResponse("application/zip", "A ZIP of the stored document (attestation.cdx.json), a manifest and every evidence file it binds.",
		&huma.Schema{Type: huma.TypeString, Format: "binary"}),
	Description: "For receivers who need the files: `assay-ctl verify --bundle` checks each file's SHA-256 against the " +
		"signed document. Only for a frozen or sealed attestation (409 draft)."}

func (s *Server) handleAttestationBundle(ctx context.Context, in *idInput) (*huma.StreamResponse, error) {
	actor := requestActor(ctx)
	d, err := s.dep.Attestations.AttestationDocument(ctx, in.ID, actor)
	if err != nil {
		return nil, err
	}
	refs, err := s.dep.Attestations.AttestationFiles(ctx, in.ID, actor)
	if err != nil {
		return nil, err
	}
	files := make([]attest.BundleFile, len(refs))
	for i, f := range refs {
		files[i] = attest.BundleFile{AttachmentID: f.ID, Filename: f.Filename, SHA256: f.SHA256, Open: func() (io.ReadCloser, error) {
			c, err := s.dep.Attachments.OpenAttachment(ctx, f.EvidenceID, f.ID, actor)
			return c.Body, err
		}}
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		_, w := humachi.Unwrap(hctx)
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Disposition", attachment(in.ID+"-bundle.zip"))
		w.Header().Set("Cache-Control", "no-store")
		if err := attest.WriteBundle(w, d.Bytes, files); err != nil {
			// The status is sent; a broken ZIP tells the client, the log tells us.
			s.dep.Logger.ErrorContext(ctx, "evidence bundle", "attestation", in.ID, "error", err)
		}
	}}, nil
}

func documentOutput(d assess.AttestationDocument) *fileOutput {
	return &fileOutput{ContentType: cdxMediaType, CacheControl: "no-store", ContentDisposition: attachment(d.Filename), Body: d.Bytes}
}

var docSealedExport = huma.Operation{OperationID: "exportAssessmentAttestations", Summary: "Export an assessment's sealed attestations as a ZIP",
	Tags: tagAttestations, Errors: []int{http.StatusNotFound},
	Responses: fileResponse("application/zip", "A ZIP of the sealed CycloneDX documents, each byte for byte as stored.",
		&huma.Schema{Type: huma.TypeString, Format: "binary"}),
	Description: "Every sealed attestation of the assessment (or of the project's assessments the caller may see), each " +
		"document as stored and signed; an empty ZIP when there is none."}

func (s *Server) handleSealedExport(ctx context.Context, in *idInput) (*fileOutput, error) {
	docs, err := s.dep.Attestations.SealedDocuments(ctx, in.ID, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for _, d := range docs {
		w, err := z.Create(d.Filename)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(d.Bytes); err != nil {
			return nil, err
		}
	}
	if err := z.Close(); err != nil {
		return nil, err
	}
	return &fileOutput{ContentType: "application/zip", CacheControl: "no-store", ContentDisposition: attachment(in.ID + "-attestations.zip"),
		Body: buf.Bytes()}, nil
}

var docAttestationVerify = huma.Operation{OperationID: "verifyAttestation", Summary: "Verify an attestation's document", Tags: tagAttestations,
	Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Checks every signature of the stored document with the platform's public key set, as a receiver would " +
		"(pkg/attest): per signature valid, invalid (naming the object) or untrusted; rescission and expiry."}

func (s *Server) handleAttestationVerify(ctx context.Context, in *idInput) (*body[attest.Report], error) {
	d, err := s.dep.Attestations.AttestationDocument(ctx, in.ID, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	r, err := s.verify(ctx, d.Bytes)
	return reply(r), err
}

var docDocumentVerify = huma.Operation{OperationID: "verifyDocument", Summary: "Verify an uploaded attestation document", Tags: tagAttestations,
	Errors: []int{http.StatusUnprocessableEntity},
	Description: "Upload a CycloneDX attestation document (part file, at most STANDARDS_IMPORT_MAX_BYTES); the report says " +
		"for each signature whether it is valid and made with a key of this platform. Nothing of the service's records is " +
		"read or revealed beyond its public keys and rescissions."}

// verifyUploadInput is the multipart upload of a document to verify.
type verifyUploadInput struct {
	Upload
}

func (s *Server) handleDocumentVerify(ctx context.Context, in *verifyUploadInput) (*body[attest.Report], error) {
	data, err := s.readImportFile(in.File)
	if err != nil {
		return nil, err
	}
	r, err := s.verify(ctx, data)
	return reply(r), err
}

// verify checks a document with the platform's keys and its own rescission, if any.
func (s *Server) verify(ctx context.Context, doc []byte) (attest.Report, error) {
	set, err := s.dep.PlatformKeys.PublicKeySet(ctx)
	if err != nil {
		return attest.Report{}, err
	}
	revoked, err := s.dep.PlatformKeys.RevokedSigningKeys(ctx)
	if err != nil {
		return attest.Report{}, err
	}
	opts := attest.Options{Now: s.now(), Rescissions: &attest.RescissionList{}, RevokedKeys: revoked}
	if keys, err := attest.ParseJWKS(set); err == nil { // an error: no key yet, nothing was ever signed here
		opts.PlatformKeys = keys
	}
	r := attest.Verify(doc, opts)
	if r.SerialNumber != "" {
		found, err := s.dep.PlatformKeys.FindRescission(ctx, r.SerialNumber)
		if err != nil {
			return r, err
		}
		if found != nil {
			r.Rescinded, r.OK = found, false
		}
	}
	return r, nil
}

var docPublicKeySet = huma.Operation{OperationID: "getPlatformKeySet", Summary: "The platform's public keys (JWKS)", Tags: tagPlatformKeys,
	Responses: fileResponse("application/jwk-set+json", "Every platform key, active and retired, with its RFC 7638 thumbprint as kid.",
		&huma.Schema{Type: huma.TypeObject}),
	Description: "Public, for receivers to pin: `assay-ctl verify --jwks` takes this file. Retired keys stay, so documents " +
		"sealed before a rotation still verify."}

func (s *Server) handlePublicKeySet(ctx context.Context, _ *struct{}) (*fileOutput, error) {
	set, err := s.dep.PlatformKeys.PublicKeySet(ctx)
	if err != nil {
		return nil, err
	}
	return &fileOutput{ContentType: "application/jwk-set+json", CacheControl: "public, max-age=300", Body: set}, nil
}

var docRescissions = huma.Operation{OperationID: "getRescissions", Summary: "The platform-signed list of rescinded attestations",
	Tags: tagPlatformKeys, Responses: fileResponse("application/json", "The list, JSF-signed by the active platform key.",
		&huma.Schema{Type: huma.TypeObject}),
	Description: "Public: `assay-ctl verify --revocations` takes this file and checks its signature against the key set."}

func (s *Server) handleRescissions(ctx context.Context, _ *struct{}) (*fileOutput, error) {
	list, err := s.dep.PlatformKeys.RescissionList(ctx)
	if err != nil {
		return nil, err
	}
	return &fileOutput{ContentType: "application/json", CacheControl: "no-cache", Body: list}, nil
}

var docPlatformKeyList = huma.Operation{OperationID: "listPlatformKeys", Summary: "List the platform keys", Tags: tagPlatformKeys,
	Description: "Newest first: the active key and the retired ones, with their thumbprints."}

func (s *Server) handlePlatformKeyList(ctx context.Context, _ *struct{}) (*body[assess.PlatformKeyList], error) {
	l, err := s.dep.PlatformKeys.FindPlatformKeys(ctx)
	return reply(l), err
}

var docPlatformKeyRotate = huma.Operation{OperationID: "rotatePlatformKey", Summary: "Rotate the platform key", Tags: tagPlatformKeys,
	DefaultStatus: http.StatusCreated,
	Description: "Retires the active key and makes a new Ed25519 key active; its private key is sealed at rest like every " +
		"secret. Documents sealed before keep verifying: the public key set lists retired keys."}

func (s *Server) handlePlatformKeyRotate(ctx context.Context, _ *struct{}) (*body[assess.PlatformKey], error) {
	k, err := s.dep.PlatformKeys.RotatePlatformKey(ctx, requestActor(ctx))
	return reply(k), err
}

var docAssessorList = huma.Operation{OperationID: "listAssessors", Summary: "List assessors", Tags: tagAssessors,
	Description: "The organisations that attest (CycloneDX declarations.assessors), by name."}

func (s *Server) handleAssessorList(ctx context.Context, _ *struct{}) (*body[assess.AssessorList], error) {
	l, err := s.dep.Attestations.FindAssessors(ctx, requestActor(ctx))
	return reply(l), err
}

var docAssessorCreate = huma.Operation{OperationID: "createAssessor", Summary: "Record an assessor", Tags: tagAssessors,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Names are unique whatever their letter case (409 already_exists)."}

func (s *Server) handleAssessorCreate(ctx context.Context, in *body[assess.NewAssessor]) (*body[assess.Assessor], error) {
	a, err := s.dep.Attestations.CreateAssessor(ctx, in.Body, requestActor(ctx))
	return reply(a), err
}

var docAssessorUpdate = huma.Operation{OperationID: "updateAssessor", Summary: "Update an assessor", Tags: tagAssessors,
	Errors:      []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "Frozen and sealed documents keep what they said; drafts take the change."}

func (s *Server) handleAssessorUpdate(ctx context.Context, in *idBody[assess.AssessorUpdate]) (*body[assess.Assessor], error) {
	a, err := s.dep.Attestations.UpdateAssessor(ctx, in.ID, in.Body, requestActor(ctx))
	return reply(a), err
}

var docAssessorDelete = huma.Operation{OperationID: "deleteAssessor", Summary: "Delete an assessor", Tags: tagAssessors,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "409 in_use while an attestation names it."}

func (s *Server) handleAssessorDelete(ctx context.Context, in *versionedIDInput) (*struct{}, error) {
	return nil, s.dep.Attestations.DeleteAssessor(ctx, in.ID, in.Version, requestActor(ctx))
}

// docSealedExport2 is the project's form of docSealedExport (an operation id each).
var docSealedExport2 = func() huma.Operation {
	op := docSealedExport
	op.OperationID, op.Summary = "exportProjectAttestations", "Export a project's sealed attestations as a ZIP"
	return op
}()

var docSigningKeyList = huma.Operation{OperationID: "listSigningKeys", Summary: "My signing keys", Tags: tagAttestations,
	Description: "The public keys one has signed attestations with (recorded when a digital signature is accepted) or added. " +
		"Private keys never reach the service."}

// SigningKeyList is one's signing keys, newest first, and whether the service can hold
// one for its user, so that a client offers generating one only when it works.
type SigningKeyList struct {
	Items             []assess.SigningKey `json:"items"`
	HeldKeysAvailable bool                `json:"heldKeysAvailable" doc:"true when the service can generate and hold a signing key (encryption at rest is on); false: POST /api/v1/me/signing-keys/generate answers 409 encryption_required"`
}

func (s *Server) handleSigningKeyList(ctx context.Context, _ *struct{}) (*body[SigningKeyList], error) {
	l, err := s.dep.Attestations.FindSigningKeys(ctx, requestActor(ctx))
	return reply(SigningKeyList{Items: l.Items, HeldKeysAvailable: s.cfg.HoldsSigningKeys}), err
}

var docSigningKeyAdd = huma.Operation{OperationID: "addSigningKey", Summary: "Add a public signing key", Tags: tagAttestations,
	DefaultStatus: http.StatusCreated, Errors: []int{http.StatusConflict, http.StatusUnprocessableEntity},
	Description: "A public JWK (Ed25519, EC P-256/384/521, RSA ≥ 2048 bits); a JWK with private members is refused (400)."}

func (s *Server) handleSigningKeyAdd(ctx context.Context, in *body[assess.NewSigningKey]) (*body[assess.SigningKey], error) {
	k, err := s.dep.Attestations.AddSigningKey(ctx, in.Body, requestActor(ctx))
	return reply(k), err
}

var docSigningKeyDelete = huma.Operation{OperationID: "deleteSigningKey", Summary: "Remove a signing key", Tags: tagAttestations,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Documents signed with the key stay valid: they carry the key. A key held by the service is revoked instead " +
		"(409 held_key): its record stays so verification can judge the signatures it made."}

func (s *Server) handleSigningKeyDelete(ctx context.Context, in *idInput) (*struct{}, error) {
	return nil, s.dep.Attestations.DeleteSigningKey(ctx, in.ID, requestActor(ctx))
}

var docSignatureImageGet = huma.Operation{OperationID: "getSignatureImage", Summary: "My signature image", Tags: tagAttestations,
	Responses: withNoImage(fileResponse("image/png", "The PNG kept on one's profile for electronic signatures.",
		&huma.Schema{Type: huma.TypeString, Format: "binary"}))}

// withNoImage adds the answer for a profile without a signature image: 204, not an error
// (a 404 showed in the console of every browser that opened the profile).
func withNoImage(r map[string]*huma.Response) map[string]*huma.Response {
	r["204"] = &huma.Response{Description: "No signature image is kept on the profile."}
	return r
}

// signatureImageOutput is the image kept on one's profile, or 204 when there is none.
type signatureImageOutput struct {
	Status             int
	ContentType        string `header:"Content-Type"`
	ContentDisposition string `header:"Content-Disposition"`
	CacheControl       string `header:"Cache-Control"`
	Body               []byte
}

func (s *Server) handleSignatureImageGet(ctx context.Context, _ *struct{}) (*signatureImageOutput, error) {
	png, err := s.dep.Attestations.ProfileSignatureImage(ctx, requestActor(ctx))
	var e *assess.Error
	if errors.As(err, &e) && e.Code == assess.ECodeNotFound {
		return &signatureImageOutput{Status: http.StatusNoContent, CacheControl: "private, no-cache"}, nil
	}
	if err != nil {
		return nil, err
	}
	return &signatureImageOutput{Status: http.StatusOK, ContentType: "image/png", CacheControl: "private, no-cache",
		ContentDisposition: "inline", Body: png}, nil
}

var docSignatureImageSet = huma.Operation{OperationID: "setSignatureImage", Summary: "Keep a signature image on my profile", Tags: tagAttestations,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusBadRequest},
	Description: "A drawn or scanned signature (PNG, JPEG or WebP, base64; at most 512 KiB and 2000×2000 pixels), re-encoded " +
		"as PNG. An electronic signature with useProfileImage signs with it."}

func (s *Server) handleSignatureImageSet(ctx context.Context, in *body[assess.SignatureImage]) (*struct{}, error) {
	return nil, s.dep.Attestations.SetProfileSignatureImage(ctx, in.Body, requestActor(ctx))
}

var docSignatureImageDelete = huma.Operation{OperationID: "deleteSignatureImage", Summary: "Remove my signature image", Tags: tagAttestations,
	DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound},
	Description: "Signatures already made with it keep their copy in the signed document."}

func (s *Server) handleSignatureImageDelete(ctx context.Context, _ *struct{}) (*struct{}, error) {
	return nil, s.dep.Attestations.DeleteProfileSignatureImage(ctx, requestActor(ctx))
}
