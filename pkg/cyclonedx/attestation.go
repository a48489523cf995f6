package cyclonedx

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/assay-dev/assay/pkg/assess"
)

// AttestationSpec is the CycloneDX version attestations are written and signed in.
const AttestationSpec = "1.7"

// Property names of an attestation document (docs/attestations.md).
const (
	PropertyAttestation = "assay:attestation:id"
	PropertyScore       = "assay:attestation:score"
	PropertyValidUntil  = "assay:attestation:valid-until"
	PropertyUnsigned    = "assay:attestation:unsigned"
)

// The declarations of an attestation document, in the order they are written.
type attestationDocument struct {
	Schema       string          `json:"$schema"`
	BOMFormat    string          `json:"bomFormat"`
	SpecVersion  string          `json:"specVersion"`
	SerialNumber string          `json:"serialNumber"`
	Version      int             `json:"version"`
	Metadata     attestationMeta `json:"metadata"`
	Declarations declarations    `json:"declarations"`
	Definitions  *definitions    `json:"definitions,omitempty"`
	Properties   []property      `json:"properties,omitempty"`
}

type attestationMeta struct {
	Timestamp string `json:"timestamp"`
	Tools     struct {
		Components []toolComponent `json:"components"`
	} `json:"tools"`
}

type toolComponent struct {
	Type    string `json:"type"`
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type property struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type declarations struct {
	Assessors    []cdxAssessor    `json:"assessors,omitempty"`
	Attestations []cdxAttestation `json:"attestations"`
	Claims       []cdxClaim       `json:"claims"`
	Evidence     []cdxEvidence    `json:"evidence,omitempty"`
	Targets      *targets         `json:"targets,omitempty"`
	Affirmation  *affirmation     `json:"affirmation,omitempty"`
}

type organization struct {
	BOMRef string   `json:"bom-ref,omitempty"`
	Name   string   `json:"name"`
	URL    []string `json:"url,omitempty"`
}

type contact struct {
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
}

type cdxAssessor struct {
	BOMRef       string       `json:"bom-ref"`
	ThirdParty   bool         `json:"thirdParty"`
	Organization organization `json:"organization"`
}

type cdxAttestation struct {
	BOMRef  string     `json:"-"` // attestations have no bom-ref in CycloneDX; the id is a property of the document
	Summary string     `json:"summary,omitempty"`
	Assess  string     `json:"assessor,omitempty"`
	Map     []mapEntry `json:"map"`
}

type mapEntry struct {
	Requirement   string      `json:"requirement"`
	Claims        []string    `json:"claims,omitempty"`
	CounterClaims []string    `json:"counterClaims,omitempty"`
	Conformance   conformance `json:"conformance"`
	Confidence    *confidence `json:"confidence,omitempty"`
}

type conformance struct {
	Score                *float64 `json:"score,omitempty"`
	Rationale            string   `json:"rationale,omitempty"`
	MitigationStrategies []string `json:"mitigationStrategies,omitempty"`
}

type confidence struct {
	Score     float64 `json:"score"`
	Rationale string  `json:"rationale,omitempty"`
}

type externalReference struct {
	URL     string     `json:"url"`
	Comment string     `json:"comment,omitempty"`
	Type    string     `json:"type"`
	Hashes  []hash     `json:"hashes,omitempty"`
	Props   []property `json:"properties,omitempty"`
}

type hash struct {
	Alg     string `json:"alg"`
	Content string `json:"content"`
}

type cdxClaim struct {
	BOMRef               string              `json:"bom-ref"`
	Target               string              `json:"target"`
	Predicate            string              `json:"predicate"`
	MitigationStrategies []string            `json:"mitigationStrategies,omitempty"`
	Reasoning            string              `json:"reasoning,omitempty"`
	Evidence             []string            `json:"evidence,omitempty"`
	CounterEvidence      []string            `json:"counterEvidence,omitempty"`
	ExternalReferences   []externalReference `json:"externalReferences,omitempty"`
}

type evidenceData struct {
	Name     string `json:"name"`
	Contents struct {
		URL string `json:"url"`
	} `json:"contents"`
	Classification string `json:"classification,omitempty"`
}

type cdxEvidence struct {
	BOMRef       string         `json:"bom-ref"`
	PropertyName string         `json:"propertyName"`
	Description  string         `json:"description,omitempty"`
	Data         []evidenceData `json:"data,omitempty"`
	Created      string         `json:"created,omitempty"`
	Expires      string         `json:"expires,omitempty"`
	Author       *contact       `json:"author,omitempty"`
	Reviewer     *contact       `json:"reviewer,omitempty"`
}

type targets struct {
	Organizations []organization `json:"organizations,omitempty"`
	Components    []cdxComponent `json:"components,omitempty"`
	Services      []cdxService   `json:"services,omitempty"`
}

type cdxComponent struct {
	Type        string `json:"type"`
	BOMRef      string `json:"bom-ref"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

type cdxService struct {
	BOMRef      string `json:"bom-ref"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

type affirmation struct {
	Statement   string      `json:"statement"`
	Signatories []signatory `json:"signatories,omitempty"`
}

type signatory struct {
	Name              string            `json:"name,omitempty"`
	Role              string            `json:"role"`
	Organization      organization      `json:"organization"`
	ExternalReference externalReference `json:"externalReference"`
}

// SignatoryURN is the reference of an attestation's signatory slot: the slot's entry in
// declarations.affirmation.signatories points at it, and the record a signature adds to
// the document's externalReferences names it (docs/attestations.md, "Signing").
func SignatoryURN(slotID string) string { return "urn:assay:signatory:" + slotID }

// AttachmentURL is where a file of evidence is downloaded: a link into the service at
// appURL, or a URN when no URL is configured.
func AttachmentURL(appURL, attachmentID string) string {
	if appURL == "" {
		return "urn:assay:attachment:" + attachmentID
	}
	return strings.TrimRight(appURL, "/") + "/api/v1/attachments/" + attachmentID + "/content"
}

// BuildAttestation writes the statement of an attestation as a CycloneDX document of spec
// version spec (1.6 or 1.7) with serial number serial, stamped at now, and checks it against
// the official schema. The document carries no signature: the signing profile
// (pkg/attest) adds them. toolVersion names the service's version in metadata.tools.
func BuildAttestation(spec string, c assess.AttestationContent, serial string, now time.Time, toolVersion string) ([]byte, error) {
	if !slices.Contains(SpecVersions, spec) {
		return nil, fmt.Errorf("cyclonedx: spec version %q is not supported", spec)
	}
	a := c.Attestation
	doc := attestationDocument{Schema: schemaBase + "bom-" + spec + ".schema.json", BOMFormat: "CycloneDX", SpecVersion: spec,
		SerialNumber: serial, Version: 1}
	doc.Metadata.Timestamp = now.UTC().Format(time.RFC3339)
	doc.Metadata.Tools.Components = []toolComponent{{Type: "application", Name: "Assay", Version: toolVersion}}
	doc.Declarations = declarations{Attestations: []cdxAttestation{{Summary: a.Summary, Map: mapOf(c)}}, Claims: []cdxClaim{}}
	for _, as := range a.Assessors {
		org := organization{Name: as.Name}
		if as.URL != "" {
			org.URL = []string{as.URL}
		}
		doc.Declarations.Assessors = append(doc.Declarations.Assessors, cdxAssessor{BOMRef: as.ID, ThirdParty: as.ThirdParty, Organization: org})
	}
	if len(a.Assessors) > 0 {
		doc.Declarations.Attestations[0].Assess = a.Assessors[0].ID
	}
	doc.Declarations.Targets = targetsOf(c)
	files := map[string][]assess.AttestationFile{}
	for _, e := range c.Evidence {
		files[e.ID] = e.Files
		doc.Declarations.Evidence = append(doc.Declarations.Evidence, evidenceOf(c, e))
	}
	for _, cl := range c.Claims {
		doc.Declarations.Claims = append(doc.Declarations.Claims, claimOf(c, cl, files))
	}
	doc.Declarations.Affirmation = &affirmation{Statement: a.Statement}
	for _, s := range a.Signatories {
		entry := signatory{Role: s.Title, Organization: organization{Name: s.Organization},
			ExternalReference: externalReference{Type: "other", URL: SignatoryURN(s.ID),
				Comment: "Signatory slot; the signature made for it is recorded under this reference."}}
		if s.User != nil {
			entry.Name = cmp.Or(s.User.DisplayName, s.User.Username)
		}
		doc.Declarations.Affirmation.Signatories = append(doc.Declarations.Affirmation.Signatories, entry)
	}
	if len(c.Standards) > 0 {
		doc.Definitions = &definitions{Standards: make([]standard, 0, len(c.Standards))}
		for _, s := range c.Standards {
			doc.Definitions.Standards = append(doc.Definitions.Standards, standardOf(s))
		}
	}
	doc.Properties = []property{{Name: PropertyAttestation, Value: a.ID}}
	if score := assess.AttestationScore(c.Requirements); score != nil {
		doc.Properties = append(doc.Properties, property{Name: PropertyScore, Value: strconv.FormatFloat(*score, 'f', 2, 64)})
	}
	if until := validUntil(c.Evidence); until != "" {
		doc.Properties = append(doc.Properties, property{Name: PropertyValidUntil, Value: until})
	}
	if c.Unsigned != "" {
		doc.Properties = append(doc.Properties, property{Name: PropertyUnsigned, Value: c.Unsigned})
	}
	return encodeValid(doc, spec)
}

// encodeValid writes doc as indented JSON and checks it against the schema of spec.
func encodeValid(doc any, spec string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := ValidateBytes(buf.Bytes(), spec); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ValidateBytes checks a CycloneDX JSON document against the official schema of spec; the
// error lists at most five problems, each with its JSON pointer.
func ValidateBytes(data []byte, spec string) error {
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	ps, err := validateDocument(parsed, spec, 5)
	if err != nil {
		return err
	}
	if len(ps) > 0 {
		return fmt.Errorf("cyclonedx: the document breaks the %s schema: %v", spec, ps)
	}
	return nil
}

// mapOf is the attestation's map: every requirement with a result, its score and rationale,
// confidence, and the chosen claims about it.
func mapOf(c assess.AttestationContent) []mapEntry {
	mitigations := map[string][]string{} // claim → its mitigation evidence
	for _, cl := range c.Claims {
		for _, e := range cl.MitigationStrategies {
			mitigations[cl.ID] = append(mitigations[cl.ID], e.ID)
		}
	}
	out := make([]mapEntry, 0, len(c.Requirements))
	for _, r := range c.Requirements {
		e := mapEntry{Requirement: cmp.Or(c.RequirementRefs[r.ID], r.ID), Claims: r.ClaimIDs, CounterClaims: r.CounterClaimIDs}
		e.Conformance.Score = r.Score
		e.Conformance.Rationale = r.Rationale
		if r.Result == string(assess.ResultNotApplicable) {
			e.Conformance.Rationale = strings.TrimSpace("Not applicable. " + r.Rationale)
		}
		for _, id := range slices.Concat(r.ClaimIDs, r.CounterClaimIDs) {
			for _, ev := range mitigations[id] {
				if !slices.Contains(e.Conformance.MitigationStrategies, ev) {
					e.Conformance.MitigationStrategies = append(e.Conformance.MitigationStrategies, ev)
				}
			}
		}
		if r.Confidence != nil {
			e.Confidence = &confidence{Score: *r.Confidence, Rationale: r.ConfidenceRationale}
		}
		out = append(out, e)
	}
	return out
}

// targetsOf declares the assessed entity (as an organisation, component or service by its
// type) and each free-text claim target as an organisation named by the text.
func targetsOf(c assess.AttestationContent) *targets {
	t := &targets{}
	a := c.Attestation
	switch c.EntityType {
	case assess.EntityTypeService:
		t.Services = append(t.Services, cdxService{BOMRef: a.EntityID, Name: a.EntityName, Description: c.EntityDesc})
	case assess.EntityTypeProduct, assess.EntityTypeProductVersion, assess.EntityTypeProject:
		t.Components = append(t.Components, cdxComponent{Type: "application", BOMRef: a.EntityID, Name: a.EntityName, Description: c.EntityDesc})
	case assess.EntityTypeComponent:
		t.Components = append(t.Components, cdxComponent{Type: "library", BOMRef: a.EntityID, Name: a.EntityName, Description: c.EntityDesc})
	default:
		t.Organizations = append(t.Organizations, organization{BOMRef: a.EntityID, Name: a.EntityName})
	}
	declared := map[string]bool{a.EntityID: true}
	for _, cl := range c.Claims {
		ref := claimTarget(a, cl)
		if declared[ref] {
			continue
		}
		declared[ref] = true
		if cl.TargetEntityID != "" {
			t.Organizations = append(t.Organizations, organization{BOMRef: ref, Name: cmp.Or(cl.TargetEntityName, cl.Target)})
		} else {
			t.Organizations = append(t.Organizations, organization{BOMRef: ref, Name: cl.Target})
		}
	}
	return t
}

// claimTarget is the bom-ref a claim's target is declared under: its entity, or a ref of
// the claim's own for a target given in words.
func claimTarget(a assess.Attestation, cl assess.Claim) string {
	if cl.TargetEntityID != "" {
		return cl.TargetEntityID
	}
	return cl.ID + "-target"
}

func claimOf(c assess.AttestationContent, cl assess.Claim, files map[string][]assess.AttestationFile) cdxClaim {
	ids := func(es []assess.ClaimEvidence) []string {
		out := make([]string, 0, len(es))
		for _, e := range es {
			out = append(out, e.ID)
		}
		return nilIfEmpty(out)
	}
	out := cdxClaim{BOMRef: cl.ID, Target: claimTarget(c.Attestation, cl), Predicate: cl.Predicate, Reasoning: cl.Reasoning,
		MitigationStrategies: ids(cl.MitigationStrategies), Evidence: ids(cl.Evidence), CounterEvidence: ids(cl.CounterEvidence)}
	for _, r := range cl.ExternalReferences {
		out.ExternalReferences = append(out.ExternalReferences, externalReference{URL: r.URL, Comment: r.Comment, Type: r.Type})
	}
	for _, e := range slices.Concat(cl.Evidence, cl.CounterEvidence, cl.MitigationStrategies) {
		for _, f := range files[e.ID] {
			out.ExternalReferences = append(out.ExternalReferences, externalReference{URL: AttachmentURL(c.AppURL, f.ID),
				Comment: e.ID + ": " + f.Filename, Type: "evidence", Hashes: []hash{{Alg: "SHA-256", Content: f.SHA256}}})
		}
	}
	return out
}

func evidenceOf(c assess.AttestationContent, e assess.AttestationEvidence) cdxEvidence {
	out := cdxEvidence{BOMRef: e.ID, PropertyName: e.Name, Description: e.Description, Created: e.CreatedAt.UTC().Format(time.RFC3339)}
	if e.CollectedOn != "" {
		out.Created = e.CollectedOn + "T00:00:00Z"
	}
	if e.ValidUntil != "" {
		out.Expires = e.ValidUntil + "T23:59:59Z"
	}
	person := func(name, email string) *contact {
		if !c.IncludeEmails {
			email = ""
		}
		if name == "" && email == "" {
			return nil
		}
		return &contact{Name: name, Email: email}
	}
	out.Author, out.Reviewer = person(e.AuthorName, e.AuthorEmail), person(e.ReviewerName, e.ReviewerEmail)
	for _, f := range e.Files {
		d := evidenceData{Name: f.Filename, Classification: e.Classification}
		d.Contents.URL = AttachmentURL(c.AppURL, f.ID)
		out.Data = append(out.Data, d)
	}
	return out
}

// standardOf writes a standard of definitions.standards with record ids as bom-refs, the
// refs the map points at.
func standardOf(c assess.StandardContent) standard {
	st := c.Standard
	s := standard{BOMRef: st.ID, Name: st.Name, Version: st.StandardVersion, Description: st.Description, Owner: st.Owner,
		ExternalReferences: nilIfEmpty(st.ExternalReferences)}
	for _, r := range c.Requirements {
		s.Requirements = append(s.Requirements, requirement{BOMRef: r.ID, Identifier: r.Identifier, Title: r.Name,
			Text: r.Description, OpenCRE: nilIfEmpty(r.OpenCRE), Parent: r.ParentID})
	}
	return s
}

// validUntil is the earliest valid-until day of the evidence, or "".
func validUntil(evidence []assess.AttestationEvidence) string {
	earliest := ""
	for _, e := range evidence {
		if e.ValidUntil != "" && (earliest == "" || e.ValidUntil < earliest) {
			earliest = e.ValidUntil
		}
	}
	return earliest
}
