package assess

import (
	"context"
	"strconv"
	"time"
)

// Importing CycloneDX attestation documents made elsewhere (docs/attestations.md,
// "Importing attestations"). The document is read into an AttestationImportPlan (pkg/cyclonedx),
// its signatures are judged (pkg/attest), and the store writes what the plan describes in one
// transaction, linking what exists, as read-only records that name their import.

// PrefixAttestationImport is the identifier prefix of an imported document.
const PrefixAttestationImport = "ai_"

// AttestationImported is the state of an attestation that came in a document from
// elsewhere: it was neither frozen, signed nor sealed here and never changes.
const AttestationImported AttestationState = "imported"

// The change and event of an import.
const EventAttestationImported EventName = "attestation.imported"

// ChangeAttestationImported records an imported document.
var ChangeAttestationImported = Change{"attestation.imported", EventAttestationImported}

// Verdicts on the signatures of an imported document, worst first: one signature that does
// not verify makes the document invalid; one whose key nobody vouches for makes it
// untrusted; valid needs at least one signature, all valid with a trusted key; absent means
// no real signature (placeholders count as none).
const (
	SignaturesValid     = "valid"
	SignaturesUntrusted = "untrusted"
	SignaturesInvalid   = "invalid"
	SignaturesAbsent    = "absent"
)

// AttestationImportPlan is a CycloneDX attestation document read into the neutral model,
// refs still as the document names them. Repairs lists what the reader had to repair or
// leave out.
type AttestationImportPlan struct {
	SpecVersion  string
	SerialNumber string
	DocVersion   int
	SHA256       string // hex of the document's bytes
	Timestamp    *time.Time
	Title        string // metadata.component.name, if any
	Standards    []StandardImport
	// Requirements maps a requirement's bom-ref in the document to its standard (an index of
	// Standards) and identifier there.
	Requirements map[string]ImportRequirementRef
	Targets      []ImportTarget
	Assessors    []ImportAssessor
	Evidence     []ImportEvidence
	Claims       []ImportClaim
	Attestations []ImportAttestationEntry
	Affirmation  *ImportAffirmation
	// Placeholders are the pointers of signature objects that cannot be real signatures (no
	// key, or a value that is not base64url): the specification's examples carry them.
	Placeholders []string
	Repairs      []ImportRepair
}

// Key is the document's identity for idempotent imports: its serial number and version,
// else the SHA-256 of its bytes.
func (p AttestationImportPlan) Key() string {
	if p.SerialNumber != "" {
		return p.SerialNumber + "#" + strconv.Itoa(p.DocVersion)
	}
	return "sha256:" + p.SHA256
}

// ImportRequirementRef locates a requirement the document defines.
type ImportRequirementRef struct {
	Standard   int
	Identifier string
}

// ImportTarget is an organisation, component or service the document declares as a target.
type ImportTarget struct {
	BOMRef      string
	Name        string
	Type        EntityType // organization, component, product or service
	Description string
}

// ImportAssessor is an assessor organisation of the document.
type ImportAssessor struct {
	BOMRef     string
	Name       string
	URL        string
	ThirdParty bool
}

// ImportEvidence is an evidence descriptor: what it says and the files it names. Files are
// not fetched.
type ImportEvidence struct {
	BOMRef         string
	Name           string
	Description    string
	PropertyName   string
	Classification string
	Created        string // YYYY-MM-DD or ""
	Expires        string // YYYY-MM-DD or ""
	Files          []ExternalFile
}

// ExternalFile is a file an imported evidence descriptor names: kept as a reference, with
// its hash when the document gives one.
type ExternalFile struct {
	Name        string `json:"name"`
	URL         string `json:"url,omitempty"`
	ContentType string `json:"contentType,omitempty"`
	SHA256      string `json:"sha256,omitempty" doc:"Hex SHA-256 the document states for the file"`
	Inline      bool   `json:"inline,omitempty" doc:"The document carries the content itself (not kept)"`
}

// ImportClaim is a claim of the document with its refs.
type ImportClaim struct {
	BOMRef             string
	Target             string // a target's bom-ref, or text
	Predicate          string
	Reasoning          string
	Evidence           []string
	CounterEvidence    []string
	Mitigations        []string
	ExternalReferences []ExternalReference
}

// ImportAttestationEntry is one entry of declarations.attestations.
type ImportAttestationEntry struct {
	Summary  string
	Assessor string // an assessor's bom-ref
	Map      []ImportMapEntry
}

// ImportMapEntry is one requirement of an attestation's map.
type ImportMapEntry struct {
	Requirement         string
	Claims              []string
	CounterClaims       []string
	Score               *float64
	Rationale           string
	Mitigations         []string
	Confidence          *float64
	ConfidenceRationale string
}

// ImportAffirmation is the document's affirmation.
type ImportAffirmation struct {
	Statement   string
	Signatories []ImportSignatory
}

// ImportSignatory is one signatory of the affirmation: digital when it carries a signature,
// electronic when it points at one (an external reference), else unsigned.
type ImportSignatory struct {
	Name         string
	Role         string
	Organization string
	Kind         string // digital, electronic or ""
}

// ImportRepair is something the import repaired or left out, with the JSON pointer of where
// in the document it is.
type ImportRepair struct {
	Pointer string `json:"pointer"`
	Code    string `json:"code" enum:"missing_definitions,dangling_reference,placeholder_signature,missing_target,duplicate_reference,standard_repaired,out_of_range"`
	Message string `json:"message"`
}

// ImportCounts counts records of each kind.
type ImportCounts struct {
	Standards    int `json:"standards"`
	Requirements int `json:"requirements"`
	Entities     int `json:"entities"`
	Assessors    int `json:"assessors"`
	Assessments  int `json:"assessments"`
	Evidence     int `json:"evidence"`
	Claims       int `json:"claims"`
	Attestations int `json:"attestations"`
}

// ImportedRecord is one record the import created or linked.
type ImportedRecord struct {
	Kind    string `json:"kind" enum:"standard,entity,assessor,assessment,evidence,claim,attestation"`
	ID      string `json:"id" doc:"Empty on a dry run for created records"`
	Name    string `json:"name"`
	Outcome string `json:"outcome" enum:"created,linked"`
	Ref     string `json:"ref,omitempty" doc:"The bom-ref the document gave it"`
}

// SignatureCheck is the verdict on one signature of an imported document.
type SignatureCheck struct {
	Object     string `json:"object" doc:"What the signature covers, for people"`
	Pointer    string `json:"pointer" doc:"RFC 6901 pointer of the signed object"`
	Status     string `json:"status" enum:"valid,untrusted,invalid,absent"`
	Thumbprint string `json:"thumbprint,omitempty"`
	Reason     string `json:"reason,omitempty"`
}

// ImportSignatures is the verdict on a document's signatures.
type ImportSignatures struct {
	State  string           `json:"state" enum:"valid,untrusted,invalid,absent" doc:"Worst verdict: invalid, untrusted, valid; absent when it carries no real signature"`
	Sealed bool             `json:"sealed" doc:"The document carries a signature over the whole of it"`
	Checks []SignatureCheck `json:"checks"`
	// TrustedKeys counts the keys the verdict trusted: this installation's platform keys and
	// those given with the import.
	TrustedKeys int `json:"trustedKeys"`
}

// AttestationImport is an imported document (or, on a dry run, what importing it would do).
type AttestationImport struct {
	ID              string           `json:"id" doc:"Empty on a dry run"`
	DryRun          bool             `json:"dryRun"`
	AlreadyImported bool             `json:"alreadyImported" doc:"The same document (serial number and version, else SHA-256) was imported before: nothing was created; this is the first import"`
	SerialNumber    string           `json:"serialNumber"`
	DocVersion      int              `json:"docVersion"`
	SpecVersion     string           `json:"specVersion"`
	SHA256          string           `json:"sha256"`
	Source          string           `json:"source" doc:"upload, or the URL it was fetched from"`
	Filename        string           `json:"filename"`
	AssessmentID    string           `json:"assessmentId"`
	AttestationID   string           `json:"attestationId"`
	Created         ImportCounts     `json:"created"`
	Linked          ImportCounts     `json:"linked"`
	Records         []ImportedRecord `json:"records"`
	Repairs         []ImportRepair   `json:"repairs"`
	Signatures      ImportSignatures `json:"signatures"`
	ImportedBy      UserRef          `json:"importedBy"`
	CreatedAt       time.Time        `json:"createdAt"`
}

// ImportedFrom says where an imported attestation came from and what its signatures are worth.
type ImportedFrom struct {
	ID           string `json:"id" doc:"The import (ai_…)"`
	SerialNumber string `json:"serialNumber"`
	Source       string `json:"source" doc:"upload, or the URL it was fetched from"`
	Signatures   string `json:"signatures" enum:"valid,untrusted,invalid,absent" doc:"The verdict on the document's signatures at import"`
}

// NewAttestationImport is what the store needs to import a read document.
type NewAttestationImport struct {
	Plan       AttestationImportPlan
	Document   []byte
	Source     string
	Filename   string
	Signatures ImportSignatures
	DryRun     bool
}

// AttestationImportFilter pages the imports.
type AttestationImportFilter struct {
	PageRequest
}

// AttestationImportService imports attestation documents and lists the imports.
type AttestationImportService interface {
	ImportAttestation(ctx context.Context, n NewAttestationImport, actor Actor) (AttestationImport, error)
	FindAttestationImports(ctx context.Context, f AttestationImportFilter, actor Actor) (Page[AttestationImport], error)
	FindAttestationImport(ctx context.Context, id string, actor Actor) (AttestationImport, error)
	// AttestationImportDocument is the document's original bytes and file name.
	AttestationImportDocument(ctx context.Context, id string, actor Actor) (AttestationDocument, error)
}
