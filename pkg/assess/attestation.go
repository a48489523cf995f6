package assess

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// AttestationState is where an attestation stands (docs/attestations.md, "Lifecycle"):
// a draft whose map may change; signing, once the statement is frozen (the first
// signatory signed, or a digital signatory fetched it to sign); sealed by the platform
// after the last slot; rescinded, when a sealed attestation is withdrawn with a reason.
type AttestationState string

// The attestation states.
const (
	AttestationDraft     AttestationState = "draft"
	AttestationSigning   AttestationState = "signing"
	AttestationSealed    AttestationState = "sealed"
	AttestationRescinded AttestationState = "rescinded"
)

// AttestationHoldsResult reports whether an attestation in state s fixes the result of
// its assessment, which then cannot be reopened (409 affirmation_sealed): while it is
// being signed and once it is sealed; an imported one always (the assessment is the
// document's record). A rescinded attestation no longer holds it.
func AttestationHoldsResult(s AttestationState) bool {
	return s == AttestationSigning || s == AttestationSealed || s == AttestationImported
}

// ErrImportedReadOnly refuses a change to what an attestation import created.
var ErrImportedReadOnly = &Error{Code: ECodeConflict, Message: "This record was imported with an attestation document and cannot change; import a newer version of the document instead.",
	Details: []Detail{{Field: "state", Code: "imported"}}}

// AttestationFreezesEvidence reports whether an attestation in state s locks the evidence
// its claims cite (LockAffirmationSealed): in every state past the draft, rescinded
// included — its signed document still covers that evidence.
func AttestationFreezesEvidence(s AttestationState) bool {
	return s != AttestationDraft
}

// Identifier prefixes of the attestation work.
const (
	PrefixAssessor    = "ao_" // an assessor organisation (CycloneDX declarations.assessors)
	PrefixSignatory   = "sg_" // a signatory slot of an attestation's affirmation
	PrefixPlatformKey = "pk_"
	PrefixSigningKey  = "uk_" // a user's public signing key
)

// Assessor is an organisation that attests, as CycloneDX expects it
// (declarations.assessors): first or third party, with the organisation's name and URL.
type Assessor struct {
	ID          string    `json:"id"`
	Name        string    `json:"name" doc:"The organisation's name"`
	URL         string    `json:"url,omitempty"`
	ThirdParty  bool      `json:"thirdParty" doc:"true: an independent assessor; false: the organisation assesses itself"`
	Description string    `json:"description"`
	Version     int64     `json:"version"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// NewAssessor is an assessor to record.
type NewAssessor struct {
	Name        string `json:"name" minLength:"1" maxLength:"300"`
	URL         string `json:"url,omitempty" maxLength:"2048" doc:"http(s) URL of the organisation"`
	ThirdParty  bool   `json:"thirdParty"`
	Description string `json:"description,omitempty" maxLength:"2000"`
}

// Validate trims and checks the assessor: a name of 1–300 characters without control
// characters, an http(s) URL when given, a description of at most 2000 characters.
func (n *NewAssessor) Validate() error {
	n.Name, n.URL, n.Description = strings.TrimSpace(n.Name), strings.TrimSpace(n.URL), strings.TrimSpace(n.Description)
	var details []Detail
	details = appendTextProblem(details, "name", n.Name, 300, true)
	details = appendTextProblem(details, "description", n.Description, 2000, false)
	if n.URL != "" && !webURL(n.URL) {
		details = append(details, Detail{Field: "url", Code: "invalid", Message: "Give an http or https URL."})
	}
	return validationError(details)
}

// AssessorUpdate changes an assessor; absent fields stay.
type AssessorUpdate struct {
	Version     int64   `json:"version" minimum:"1"`
	Name        *string `json:"name,omitempty" minLength:"1" maxLength:"300"`
	URL         *string `json:"url,omitempty" maxLength:"2048"`
	ThirdParty  *bool   `json:"thirdParty,omitempty"`
	Description *string `json:"description,omitempty" maxLength:"2000"`
}

// Apply returns a with the update's fields, validated.
func (u AssessorUpdate) Apply(a Assessor) (NewAssessor, error) {
	n := NewAssessor{Name: a.Name, URL: a.URL, ThirdParty: a.ThirdParty, Description: a.Description}
	if u.Name != nil {
		n.Name = *u.Name
	}
	if u.URL != nil {
		n.URL = *u.URL
	}
	if u.ThirdParty != nil {
		n.ThirdParty = *u.ThirdParty
	}
	if u.Description != nil {
		n.Description = *u.Description
	}
	return n, n.Validate()
}

// AssessorList is every assessor, by name.
type AssessorList struct {
	Items []Assessor `json:"items"`
}

// Attestation is an assessor's signed statement about a complete assessment (CycloneDX
// declarations): which requirements it meets, how well and how surely, by which claims,
// affirmed by signatories and sealed by the platform.
type Attestation struct {
	ID              string           `json:"id"`
	AssessmentID    string           `json:"assessmentId"`
	AssessmentTitle string           `json:"assessmentTitle"`
	EntityID        string           `json:"entityId"`
	EntityName      string           `json:"entityName"`
	Summary         string           `json:"summary"`
	Statement       string           `json:"statement" doc:"The affirmation the signatories sign"`
	State           AttestationState `json:"state" enum:"draft,signing,sealed,rescinded,imported"`
	Assessors       []Assessor       `json:"assessors"`
	ClaimIDs        []string         `json:"claimIds" doc:"The claims of the assessment that go into the attestation"`
	Score           *float64         `json:"score" doc:"Overall conformance, 0–100 (two decimals): the mean of the requirements' scores; null when none has one"`
	Signatories     []Signatory      `json:"signatories"`
	SerialNumber    string           `json:"serialNumber,omitempty" doc:"urn:uuid of the CycloneDX document, fixed when the statement is frozen"`
	FrozenAt        *time.Time       `json:"frozenAt"`
	SealedAt        *time.Time       `json:"sealedAt"`
	SealKeyID       string           `json:"sealKeyId,omitempty" doc:"RFC 7638 thumbprint of the platform key that sealed it"`
	ValidUntil      string           `json:"validUntil,omitempty" doc:"YYYY-MM-DD: the earliest valid-until day of the evidence it cites"`
	// ProjectedValidUntil lets a draft show the validity it will have: validUntil is fixed
	// only when the statement freezes, from the evidence the chosen claims cite then.
	ProjectedValidUntil string        `json:"projectedValidUntil,omitempty" doc:"Draft only, YYYY-MM-DD: the validUntil the statement would get if frozen now (the earliest valid-until day of the evidence its claims cite); absent when none expires"`
	RescindedAt         *time.Time    `json:"rescindedAt"`
	RescindReason       string        `json:"rescindReason,omitempty"`
	Imported            *ImportedFrom `json:"imported,omitempty" doc:"Set for an attestation imported from a document made elsewhere (state imported)"`
	CreatedBy           UserRef       `json:"createdBy"`
	Version             int64         `json:"version"`
	CreatedAt           time.Time     `json:"createdAt"`
	UpdatedAt           time.Time     `json:"updatedAt"`
}

// Signatory is a slot of an attestation's affirmation: a title (the signatory's role) and
// organisation, optionally pinned to a user, and once signed who signed and how.
type Signatory struct {
	ID           string     `json:"id"`
	Title        string     `json:"title" doc:"The role the signatory signs in, e.g. Chief Information Security Officer"`
	Organization string     `json:"organization"`
	User         *UserRef   `json:"user" doc:"The user the slot is pinned to; null: any user allowed to sign"`
	Kind         string     `json:"kind,omitempty" enum:"electronic,digital," doc:"How it was signed"`
	SignedBy     *UserRef   `json:"signedBy"`
	SignedAt     *time.Time `json:"signedAt"`
	SignerName   string     `json:"signerName,omitempty" doc:"The name the signatory signed with (snapshot at signing)"`
	KeyID        string     `json:"keyId,omitempty" doc:"Digital: RFC 7638 thumbprint of the signing key"`
	HasImage     bool       `json:"hasImage" doc:"Electronic: a drawn or uploaded signature image was given"`
}

// NewAttestation starts an attestation of a complete assessment. Every claim of the
// assessment goes in unless claimIds chooses.
type NewAttestation struct {
	AssessmentID string   `json:"assessmentId" minLength:"1" maxLength:"64"`
	Summary      string   `json:"summary,omitempty" maxLength:"2000"`
	Statement    string   `json:"statement,omitempty" maxLength:"10000" doc:"The affirmation; a default naming the assessment when blank"`
	AssessorIDs  []string `json:"assessorIds,omitempty" maxItems:"20"`
	ClaimIDs     []string `json:"claimIds,omitempty" maxItems:"2000" doc:"Absent: every claim of the assessment"`
}

// Validate trims and checks what needs no database.
func (n *NewAttestation) Validate() error {
	n.AssessmentID, n.Summary, n.Statement = strings.TrimSpace(n.AssessmentID), strings.TrimSpace(n.Summary), strings.TrimSpace(n.Statement)
	var details []Detail
	if !ValidID(PrefixAssessment, n.AssessmentID) {
		details = append(details, Detail{Field: "assessmentId", Code: "invalid", Message: "Give the id of an assessment (as_…)."})
	}
	details = appendTextProblem(details, "summary", n.Summary, 2000, false)
	details = appendTextProblem(details, "statement", n.Statement, 10000, false)
	n.AssessorIDs, n.ClaimIDs = dedupe(n.AssessorIDs), dedupe(n.ClaimIDs)
	return validationError(details)
}

// AttestationUpdate changes a draft attestation; absent fields stay.
type AttestationUpdate struct {
	Version     int64     `json:"version" minimum:"1"`
	Summary     *string   `json:"summary,omitempty" maxLength:"2000"`
	Statement   *string   `json:"statement,omitempty" maxLength:"10000"`
	AssessorIDs *[]string `json:"assessorIds,omitempty" maxItems:"20"`
	ClaimIDs    *[]string `json:"claimIds,omitempty" maxItems:"2000"`
}

// Validate trims and checks what needs no database.
func (u *AttestationUpdate) Validate() error {
	var details []Detail
	if u.Summary != nil {
		*u.Summary = strings.TrimSpace(*u.Summary)
		details = appendTextProblem(details, "summary", *u.Summary, 2000, false)
	}
	if u.Statement != nil {
		*u.Statement = strings.TrimSpace(*u.Statement)
		details = appendTextProblem(details, "statement", *u.Statement, 10000, true)
	}
	if u.AssessorIDs != nil {
		*u.AssessorIDs = dedupe(*u.AssessorIDs)
	}
	if u.ClaimIDs != nil {
		*u.ClaimIDs = dedupe(*u.ClaimIDs)
	}
	return validationError(details)
}

// AttestationFilter narrows the attestation list.
type AttestationFilter struct {
	Assessment string `query:"assessment" maxLength:"64" doc:"Only attestations of this assessment (as_…)"`
	State      string `query:"state" enum:"draft,signing,sealed,rescinded,imported," doc:"Only attestations in this state"`
	PageRequest
}

// AttestationRequirement is one entry of an attestation's map: a requirement of the
// assessment with its conformance (derived from the result unless overridden), the
// assessor's confidence and the claims for and against it.
type AttestationRequirement struct {
	ID                  string   `json:"id" doc:"The assessment requirement (ar_…)"`
	Identifier          string   `json:"identifier"`
	Name                string   `json:"name"`
	Description         string   `json:"description" doc:"The requirement's text in its standard"`
	StandardID          string   `json:"standardId"`
	Result              string   `json:"result,omitempty" enum:"yes,partial,no,not_applicable,"`
	Rationale           string   `json:"rationale"`
	DerivedScore        *float64 `json:"derivedScore" doc:"From the result: yes 1, partial 0.5, no 0, not applicable none"`
	ScoreOverride       *float64 `json:"scoreOverride" doc:"The assessor's own score, 0–1, replacing the derived one"`
	Score               *float64 `json:"score" doc:"The score that goes into the attestation"`
	Confidence          *float64 `json:"confidence" doc:"0–1"`
	ConfidenceRationale string   `json:"confidenceRationale"`
	ClaimIDs            []string `json:"claimIds"`
	CounterClaimIDs     []string `json:"counterClaimIds"`
}

// AttestationRequirementList is an attestation's whole map, in the assessment's order,
// with the attestation's version and overall score as they stand with it (after a change,
// the version to send next).
type AttestationRequirementList struct {
	Items   []AttestationRequirement `json:"items"`
	Version int64                    `json:"version" doc:"The attestation's version"`
	Score   *float64                 `json:"score" doc:"The attestation's overall score, 0–100"`
}

// AttestationRequirementChange sets the assessor's score override and confidence of one
// requirement; each item sets both, so an absent or null one clears it.
type AttestationRequirementChange struct {
	ID                  string   `json:"id" minLength:"1" maxLength:"64"`
	ScoreOverride       *float64 `json:"scoreOverride" minimum:"0" maximum:"1" required:"false"`
	Confidence          *float64 `json:"confidence" minimum:"0" maximum:"1" required:"false"`
	ConfidenceRationale string   `json:"confidenceRationale,omitempty" maxLength:"10000"`
}

// AttestationRequirementChanges is a bulk change of the map of a draft attestation.
type AttestationRequirementChanges struct {
	Version int64                          `json:"version" minimum:"1"`
	Items   []AttestationRequirementChange `json:"items" minItems:"1" maxItems:"1000"`
}

// Validate checks the changes: scores in 0–1 (finite), each requirement once, a confidence
// rationale only with a confidence.
func (c *AttestationRequirementChanges) Validate() error {
	var details []Detail
	seen := map[string]bool{}
	for i := range c.Items {
		it := &c.Items[i]
		it.ID, it.ConfidenceRationale = strings.TrimSpace(it.ID), strings.TrimSpace(it.ConfidenceRationale)
		field := "items[" + itoa(i) + "]"
		if seen[it.ID] {
			details = append(details, Detail{Field: field + ".id", Code: "duplicate", Message: "Each requirement once."})
		}
		seen[it.ID] = true
		for name, v := range map[string]*float64{"scoreOverride": it.ScoreOverride, "confidence": it.Confidence} {
			if v != nil && (math.IsNaN(*v) || *v < 0 || *v > 1) {
				details = append(details, Detail{Field: field + "." + name, Code: "range", Message: "Between 0 and 1."})
			}
		}
		if it.Confidence == nil && it.ConfidenceRationale != "" {
			details = append(details, Detail{Field: field + ".confidenceRationale", Code: "without_confidence", Message: "Give a confidence with its rationale."})
		}
		details = appendTextProblem(details, field+".confidenceRationale", it.ConfidenceRationale, 10000, false)
	}
	return validationError(details)
}

// ResultScore is the conformance score a result stands for: yes 1, partial 0.5, no 0;
// not applicable and no result have none.
func ResultScore(result string) *float64 {
	var s float64
	switch Result(result) {
	case ResultYes:
		s = 1
	case ResultPartial:
		s = 0.5
	case ResultNo:
		s = 0
	default:
		return nil
	}
	return &s
}

// AttestationScore is the overall conformance of a map, 0–100 with two decimals: the mean
// of the scores of the requirements that have one; nil when none has.
func AttestationScore(items []AttestationRequirement) *float64 {
	var sum float64
	n := 0
	for _, it := range items {
		if it.Score != nil {
			sum += *it.Score
			n++
		}
	}
	if n == 0 {
		return nil
	}
	s := math.Round(sum/float64(n)*10000) / 100
	return &s
}

// NewSignatory adds a slot to the affirmation of a draft attestation.
type NewSignatory struct {
	Title        string `json:"title" minLength:"1" maxLength:"300"`
	Organization string `json:"organization,omitempty" maxLength:"300" doc:"Default: the name of the assessed entity"`
	UserID       string `json:"userId,omitempty" maxLength:"64" doc:"Pin the slot to this user, who must be active, able to see the assessment and hold signatures.sign"`
}

// Validate trims and checks the slot.
func (n *NewSignatory) Validate() error {
	n.Title, n.Organization, n.UserID = strings.TrimSpace(n.Title), strings.TrimSpace(n.Organization), strings.TrimSpace(n.UserID)
	var details []Detail
	details = appendTextProblem(details, "title", n.Title, 300, true)
	details = appendTextProblem(details, "organization", n.Organization, 300, false)
	return validationError(details)
}

// SignatureKind is how a signatory signs.
type SignatureKind string

// The kinds of signature.
const (
	SignatureElectronic SignatureKind = "electronic"
	SignatureDigital    SignatureKind = "digital"
)

// ElectronicSignature is an electronic signature: the name, role and organisation the
// signatory signs with, and optionally an image of a drawn or scanned signature.
type ElectronicSignature struct {
	Name         string `json:"name" minLength:"1" maxLength:"300"`
	Role         string `json:"role,omitempty" maxLength:"300" doc:"Default: the slot's title"`
	Organization string `json:"organization,omitempty" maxLength:"300" doc:"Default: the slot's organisation"`
	Image        []byte `json:"image,omitempty" maxLength:"700000" doc:"PNG, JPEG or WebP, base64; re-encoded as PNG, at most 512 KiB and 2000×2000 pixels"`
	// UseProfileImage signs with the image kept on the signer's profile instead.
	UseProfileImage bool `json:"useProfileImage,omitempty" doc:"Sign with the signature image kept on one's profile (422 when there is none)"`
}

// SignatureImage is the signature image one keeps on one's profile.
type SignatureImage struct {
	Image []byte `json:"image" minLength:"1" maxLength:"700000" doc:"PNG, JPEG or WebP, base64; re-encoded as PNG, at most 512 KiB and 2000×2000 pixels"`
}

// DigitalSignature is a JSF signer object made over the frozen statement by a key the
// service never sees (algorithm, the public key (JWK) and the value), or, for a key the
// service holds for the signer (HeldKeyID), the signer's password to have the service
// make that object.
type DigitalSignature struct {
	Signer map[string]any `json:"signer,omitempty" doc:"The JSF signer object: {algorithm, publicKey, value}; see docs/attestations.md. Not with heldKeyId."`
	// HeldKeyID names a key the service holds for the signer (uk_…): the service signs
	// the same content the signer object would cover.
	HeldKeyID string `json:"heldKeyId,omitempty" maxLength:"64" doc:"Sign on the server with this key held by the service for the caller (uk_…); needs password. Not with signer."`
	// Password is the signer's current password, asked again for every server-side
	// signature; never stored or logged.
	Password string `json:"password,omitempty" maxLength:"1024" doc:"With heldKeyId: the caller's current password (a wrong one counts as a failed sign-in)"`
}

// SignRequest signs a slot, electronically or digitally.
type SignRequest struct {
	Kind       SignatureKind        `json:"kind" enum:"electronic,digital"`
	Electronic *ElectronicSignature `json:"electronic,omitempty"`
	Digital    *DigitalSignature    `json:"digital,omitempty"`
}

// Validate checks that the request carries what its kind needs.
func (r *SignRequest) Validate() error {
	switch r.Kind {
	case SignatureElectronic:
		if r.Electronic == nil {
			return validationError([]Detail{{Field: "electronic", Code: "required", Message: "Give the name to sign with."}})
		}
		e := r.Electronic
		e.Name, e.Role, e.Organization = strings.TrimSpace(e.Name), strings.TrimSpace(e.Role), strings.TrimSpace(e.Organization)
		var details []Detail
		details = appendTextProblem(details, "electronic.name", e.Name, 300, true)
		details = appendTextProblem(details, "electronic.role", e.Role, 300, false)
		details = appendTextProblem(details, "electronic.organization", e.Organization, 300, false)
		return validationError(details)
	case SignatureDigital:
		return r.Digital.validate()
	}
	return validationError([]Detail{{Field: "kind", Code: "invalid", Message: "electronic or digital."}})
}

// validate checks that d carries either a signer object or a held key with a password.
func (d *DigitalSignature) validate() error {
	switch {
	case d == nil || (len(d.Signer) == 0 && d.HeldKeyID == ""):
		return validationError([]Detail{{Field: "digital.signer", Code: "required", Message: "Give the JSF signer object, or heldKeyId and password."}})
	case len(d.Signer) > 0 && (d.HeldKeyID != "" || d.Password != ""):
		return validationError([]Detail{{Field: "digital.heldKeyId", Code: "invalid", Message: "Give either the signer object or heldKeyId, not both."}})
	case d.HeldKeyID != "" && d.Password == "":
		return validationError([]Detail{{Field: "digital.password", Code: "required", Message: "Give your password to sign with a key held by the service."}})
	}
	return nil
}

// RescindRequest withdraws a sealed attestation.
type RescindRequest struct {
	Reason string `json:"reason" minLength:"1" maxLength:"2000"`
}

// Validate checks the reason.
func (r *RescindRequest) Validate() error {
	r.Reason = strings.TrimSpace(r.Reason)
	return validationError(appendTextProblem(nil, "reason", r.Reason, 2000, true))
}

// AttestationDocument is a stored CycloneDX document of an attestation: its exact bytes.
type AttestationDocument struct {
	Bytes    []byte
	Sealed   bool
	Filename string
	// SpecVersion is the document's CycloneDX version when it is not the one asked for (an
	// imported document is served as it came).
	SpecVersion string
}

// Errors of the attestation work.
var (
	ErrAssessmentNotComplete = &Error{Code: ECodeConflict, Message: "Only a complete assessment can be attested.",
		Details: []Detail{{Field: "assessmentId", Code: "not_complete", Message: "Complete the assessment first."}}}
	ErrAttestationFrozen = &Error{Code: ECodeConflict, Message: "The attestation's statement is frozen: signing has begun, so its content can no longer change.",
		Details: []Detail{{Field: "state", Code: "frozen"}}}
	ErrAttestationNotSigning = &Error{Code: ECodeConflict, Message: "The attestation is not collecting signatures.",
		Details: []Detail{{Field: "state", Code: "not_signing"}}}
	ErrSlotSigned = &Error{Code: ECodeConflict, Message: "This slot is signed already.",
		Details: []Detail{{Field: "slot", Code: "slot_signed"}}}
	ErrSlotPinned = &Error{Code: ECodePermissionDenied, Message: "This slot is reserved for another user.",
		Details: []Detail{{Field: "slot", Code: "slot_pinned"}}}
	ErrNoSlots = &Error{Code: ECodeConflict, Message: "Add at least one signatory before sealing.",
		Details: []Detail{{Field: "signatories", Code: "no_slots"}}}
	ErrNotSealed = &Error{Code: ECodeConflict, Message: "Only a sealed attestation can be rescinded.",
		Details: []Detail{{Field: "state", Code: "not_sealed"}}}
	ErrAffirmationSealed = &Error{Code: ECodeConflict, Message: "An attestation of this assessment is being signed or is sealed; its result can no longer change.",
		Details: []Detail{{Field: "state", Code: "affirmation_sealed"}}}
)

// ErrUnsignedSlots refuses to seal while slots are unsigned, naming them.
func ErrUnsignedSlots(titles []string) error {
	details := make([]Detail, len(titles))
	for i, t := range titles {
		details[i] = Detail{Field: "signatories", Code: "unsigned_slots", Message: t}
	}
	return &Error{Code: ECodeConflict, Message: "Every signatory must sign before the attestation is sealed.", Details: details}
}

// ErrBadSignature refuses a digital signature that does not verify over the frozen
// statement.
func ErrBadSignature(reason string) error {
	return &Error{Code: ECodeBusinessRule, Message: "The signature does not verify over the frozen statement: " + reason,
		Details: []Detail{{Field: "digital.signer", Code: "bad_signature", Message: reason}}}
}

// AttestationService keeps attestations (pkg/postgres AttestationService). An attestation
// is visible exactly when its assessment is (404 otherwise).
type AttestationService interface {
	FindAttestations(ctx context.Context, f AttestationFilter, actor Actor) (Page[Attestation], error)
	FindAttestation(ctx context.Context, id string, actor Actor) (Attestation, error)
	CreateAttestation(ctx context.Context, n NewAttestation, actor Actor) (Attestation, error)
	UpdateAttestation(ctx context.Context, id string, u AttestationUpdate, actor Actor) (Attestation, error)
	DeleteAttestation(ctx context.Context, id string, version int64, actor Actor) error
	FindAttestationRequirements(ctx context.Context, id string, actor Actor) (AttestationRequirementList, error)
	ChangeAttestationRequirements(ctx context.Context, id string, c AttestationRequirementChanges, actor Actor) (AttestationRequirementList, error)

	AddSignatory(ctx context.Context, id string, n NewSignatory, actor Actor) (Attestation, error)
	RemoveSignatory(ctx context.Context, id, slotID string, actor Actor) (Attestation, error)
	// FreezeAttestation fixes the statement (idempotent) and returns the document to sign.
	FreezeAttestation(ctx context.Context, id string, actor Actor) (AttestationDocument, error)
	Sign(ctx context.Context, id, slotID string, r SignRequest, actor Actor) (Attestation, error)
	Seal(ctx context.Context, id string, actor Actor) (Attestation, error)
	Rescind(ctx context.Context, id string, r RescindRequest, actor Actor) (Attestation, error)
	// AttestationDocument returns the stored document of a frozen or sealed attestation.
	AttestationDocument(ctx context.Context, id string, actor Actor) (AttestationDocument, error)
	// ExportAttestation returns the document in CycloneDX spec (1.6 or 1.7): the stored
	// bytes for 1.7 once frozen; otherwise written from the records, unsigned, saying so
	// in the property assay:attestation:unsigned.
	ExportAttestation(ctx context.Context, id, spec string, actor Actor) (AttestationDocument, error)
	// SealedDocuments returns the sealed documents of the attestations of an assessment
	// (as_…) or of a project (pr_…) that the actor may see, oldest first; an assessment
	// or project the actor may not see is 404.
	SealedDocuments(ctx context.Context, scopeID string, actor Actor) ([]AttestationDocument, error)
	// AttestationFiles lists the evidence files the attestation's document binds.
	AttestationFiles(ctx context.Context, id string, actor Actor) ([]AttestationFileRef, error)

	// FindSigningKeys lists the actor's public signing keys; AddSigningKey records one
	// (a public JWK, never a private key); DeleteSigningKey forgets one (documents it
	// signed stay valid: they carry the key).
	FindSigningKeys(ctx context.Context, actor Actor) (SigningKeyList, error)
	AddSigningKey(ctx context.Context, n NewSigningKey, actor Actor) (SigningKey, error)
	DeleteSigningKey(ctx context.Context, id string, actor Actor) error
	// GenerateHeldSigningKey creates a key pair the service holds for the actor, its
	// private half sealed at rest (409 in passthrough mode); RevokeSigningKey destroys the
	// private half of such a key and records when (docs/attestations.md).
	GenerateHeldSigningKey(ctx context.Context, n NewHeldSigningKey, actor Actor) (SigningKey, error)
	RevokeSigningKey(ctx context.Context, id string, actor Actor) (SigningKey, error)
	// ProfileSignatureImage returns the PNG kept on the actor's profile (404 when none);
	// SetProfileSignatureImage re-encodes and keeps one; DeleteProfileSignatureImage
	// forgets it (signatures made with it keep their copy).
	ProfileSignatureImage(ctx context.Context, actor Actor) ([]byte, error)
	SetProfileSignatureImage(ctx context.Context, img SignatureImage, actor Actor) error
	DeleteProfileSignatureImage(ctx context.Context, actor Actor) error

	FindAssessors(ctx context.Context, actor Actor) (AssessorList, error)
	CreateAssessor(ctx context.Context, n NewAssessor, actor Actor) (Assessor, error)
	UpdateAssessor(ctx context.Context, id string, u AssessorUpdate, actor Actor) (Assessor, error)
	DeleteAssessor(ctx context.Context, id string, version int64, actor Actor) error
}

// appendTextProblem checks a trimmed text field: required or not, at most max characters,
// and, for a one-line field (max ≤ 300), no control characters.
func appendTextProblem(d []Detail, field, s string, max int, required bool) []Detail {
	d = claimTextProblems(d, field, s, max, required)
	if max <= 300 && strings.ContainsFunc(s, unicode.IsControl) {
		d = append(d, Detail{Field: field, Code: "invalid", Message: "Cannot contain control characters."})
	}
	return d
}

// validationError is validation_failed with details, or nil without.
func validationError(details []Detail) error {
	if len(details) == 0 {
		return nil
	}
	return &Error{Code: ECodeValidation, Message: "The request is invalid.", Details: details}
}

// dedupe trims ids and drops blanks and repeats, keeping the first of each; nil stays nil
// (an absent list).
func dedupe(ids []string) []string {
	if ids == nil {
		return nil
	}
	out, _ := claimIDProblems(nil, "", ids, len(ids))
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

// AttestationContent is everything the CycloneDX statement of an attestation holds, read
// by the store in one snapshot when the statement is frozen (or an unsigned draft is
// exported). Record ids serve as bom-refs, so the same record always gets the same ref.
type AttestationContent struct {
	Attestation  Attestation
	EntityType   EntityType
	EntityDesc   string
	Requirements []AttestationRequirement // the map, in the assessment's order
	// RequirementRefs maps an assessment requirement (ar_…) to the requirement of its
	// standard (rq_…), the bom-ref the map points at in definitions.standards.
	RequirementRefs map[string]string
	Claims          []Claim
	Evidence        []AttestationEvidence
	Standards       []StandardContent // each with only the requirements used and their ancestors
	AppURL          string            // for links to evidence files; "" leaves them as URNs
	IncludeEmails   bool
	// Unsigned, when set, says why the document carries no signature; it is written as
	// the property assay:attestation:unsigned.
	Unsigned string
}

// AttestationEvidence is a piece of evidence as an attestation cites it, with its files.
type AttestationEvidence struct {
	ID, Name, Description, Classification string
	CollectedOn, ValidUntil               string // YYYY-MM-DD or ""
	CreatedAt                             time.Time
	AuthorName, AuthorEmail               string
	ReviewerName, ReviewerEmail           string
	Files                                 []AttestationFile
}

// AttestationFileRef is a file the document of an attestation binds, with the evidence it
// belongs to (for the evidence bundle).
type AttestationFileRef struct {
	EvidenceID string
	AttestationFile
}

// AttestationFile is one file of a piece of evidence, bound into the statement by its
// SHA-256.
type AttestationFile struct {
	ID, Filename, ContentType, SHA256 string
	Size                              int64
}

// SigningKey is a public key a user signs attestations with, kept on their profile.
type SigningKey struct {
	ID        string         `json:"id"`
	Label     string         `json:"label"`
	Algorithm string         `json:"algorithm"`
	KeyID     string         `json:"keyId" doc:"RFC 7638 thumbprint"`
	PublicKey map[string]any `json:"publicKey" doc:"The public key as a JWK"`
	CreatedAt time.Time      `json:"createdAt"`
	Held      bool           `json:"held" doc:"The service holds the private key (generated on request; it signs on the server with the owner's password)"`
	RevokedAt *time.Time     `json:"revokedAt" doc:"Held keys: when the key was revoked (its private key destroyed); signatures claiming a later time are invalid"`
}

// SigningKeyList is the actor's signing keys, newest first.
type SigningKeyList struct {
	Items []SigningKey `json:"items"`
}

// NewSigningKey records a public key on one's profile.
type NewSigningKey struct {
	Label     string         `json:"label" minLength:"1" maxLength:"300"`
	Algorithm string         `json:"algorithm" enum:"Ed25519,ES256,ES384,ES512,RS256,RS384,RS512,PS256,PS384,PS512"`
	PublicKey map[string]any `json:"publicKey" doc:"A public JWK (OKP Ed25519, EC P-256/384/521, or RSA of at least 2048 bits); a private member is refused"`
}

// Validate checks the label and that no private key member is present.
func (n *NewSigningKey) Validate() error {
	n.Label = strings.TrimSpace(n.Label)
	details := appendTextProblem(nil, "label", n.Label, 300, true)
	for _, private := range []string{"d", "p", "q", "dp", "dq", "qi", "k"} {
		if _, ok := n.PublicKey[private]; ok {
			details = append(details, Detail{Field: "publicKey", Code: "private_key", Message: "Send the public key only: the private key never leaves you."})
			break
		}
	}
	return validationError(details)
}

// PlatformKey is a signing key of the platform: the public half and when it was in use.
// The private half never leaves the store, sealed at rest.
type PlatformKey struct {
	ID        string         `json:"id"`
	Algorithm string         `json:"algorithm"`
	KeyID     string         `json:"keyId" doc:"RFC 7638 thumbprint; the kid of the public key set and the keyId of the signatures"`
	PublicKey map[string]any `json:"publicKey" doc:"The public key as a JWK"`
	Active    bool           `json:"active"`
	CreatedAt time.Time      `json:"createdAt"`
	RetiredAt *time.Time     `json:"retiredAt"`
	CreatedBy string         `json:"createdBy,omitempty"`
}

// PlatformKeyList is every platform key, newest first.
type PlatformKeyList struct {
	Items []PlatformKey `json:"items"`
}

// PlatformKeyService keeps the platform's signing keys (pkg/postgres PlatformKeyService).
type PlatformKeyService interface {
	FindPlatformKeys(ctx context.Context) (PlatformKeyList, error)
	// RotatePlatformKey retires the active key and makes a new Ed25519 one active.
	RotatePlatformKey(ctx context.Context, actor Actor) (PlatformKey, error)
	// PublicKeySet is the JWKS of every platform key, for receivers to pin.
	PublicKeySet(ctx context.Context) ([]byte, error)
	// RescissionList is the platform-signed list of rescinded attestations.
	RescissionList(ctx context.Context) ([]byte, error)
	// FindRescission returns the rescission of the document with serial number serial,
	// or nil when it is not rescinded (or not ours).
	FindRescission(ctx context.Context, serial string) (*Rescission, error)
	// RevokedSigningKeys lists the revoked keys that were held by the service, oldest
	// revocation first: verification judges the signatures made with them by their time.
	RevokedSigningKeys(ctx context.Context) ([]KeyRevocation, error)
}

// Rescission is the withdrawal of a sealed attestation, as the public list gives it.
type Rescission struct {
	SerialNumber  string    `json:"serialNumber"`
	AttestationID string    `json:"attestationId"`
	RescindedAt   time.Time `json:"rescindedAt"`
	Reason        string    `json:"reason"`
}
