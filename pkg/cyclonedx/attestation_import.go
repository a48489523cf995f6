package cyclonedx

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/assay-dev/assay/pkg/assess"
)

// Reading CycloneDX attestation documents made elsewhere (docs/attestations.md, "Importing
// attestations"). ParseAttestation checks the document against the official schema first,
// then reads it into the neutral model, repairing what real documents get wrong with a
// repair note each: refs to claims or evidence the document does not declare are left out,
// map entries whose requirement is not defined are kept for the store to resolve, and
// signature objects that cannot be real signatures are noted as placeholders.

// The parts of an attestation document the import reads. Lenient where the schema is: every
// field optional.
type importDocument struct {
	SpecVersion  string `json:"specVersion"`
	SerialNumber string `json:"serialNumber"`
	Version      int    `json:"version"`
	Metadata     *struct {
		Timestamp string `json:"timestamp"`
		Component *struct {
			Name string `json:"name"`
		} `json:"component"`
	} `json:"metadata"`
	Definitions  *definitions `json:"definitions"`
	Declarations *struct {
		Assessors []struct {
			BOMRef       string           `json:"bom-ref"`
			ThirdParty   bool             `json:"thirdParty"`
			Organization *importOrgEntity `json:"organization"`
		} `json:"assessors"`
		Attestations []struct {
			Summary  string `json:"summary"`
			Assessor string `json:"assessor"`
			Map      []struct {
				Requirement   string   `json:"requirement"`
				Claims        []string `json:"claims"`
				CounterClaims []string `json:"counterClaims"`
				Conformance   *struct {
					Score                *float64 `json:"score"`
					Rationale            string   `json:"rationale"`
					MitigationStrategies []string `json:"mitigationStrategies"`
				} `json:"conformance"`
				Confidence *struct {
					Score     *float64 `json:"score"`
					Rationale string   `json:"rationale"`
				} `json:"confidence"`
			} `json:"map"`
		} `json:"attestations"`
		Claims []struct {
			BOMRef               string              `json:"bom-ref"`
			Target               string              `json:"target"`
			Predicate            string              `json:"predicate"`
			MitigationStrategies []string            `json:"mitigationStrategies"`
			Reasoning            string              `json:"reasoning"`
			Evidence             []string            `json:"evidence"`
			CounterEvidence      []string            `json:"counterEvidence"`
			ExternalReferences   []externalReference `json:"externalReferences"`
		} `json:"claims"`
		Evidence []struct {
			BOMRef       string `json:"bom-ref"`
			PropertyName string `json:"propertyName"`
			Description  string `json:"description"`
			Data         []struct {
				Name     string `json:"name"`
				Contents *struct {
					URL        string `json:"url"`
					Attachment *struct {
						Content     string `json:"content"`
						ContentType string `json:"contentType"`
					} `json:"attachment"`
				} `json:"contents"`
				Classification string `json:"classification"`
			} `json:"data"`
			Created string `json:"created"`
			Expires string `json:"expires"`
		} `json:"evidence"`
		Targets *struct {
			Organizations []importOrgEntity `json:"organizations"`
			Components    []struct {
				Type        string `json:"type"`
				BOMRef      string `json:"bom-ref"`
				Name        string `json:"name"`
				Description string `json:"description"`
			} `json:"components"`
			Services []struct {
				BOMRef      string `json:"bom-ref"`
				Name        string `json:"name"`
				Description string `json:"description"`
			} `json:"services"`
		} `json:"targets"`
		Affirmation *struct {
			Statement   string `json:"statement"`
			Signatories []struct {
				Name              string           `json:"name"`
				Role              string           `json:"role"`
				Organization      *importOrgEntity `json:"organization"`
				ExternalReference *struct {
					URL string `json:"url"`
				} `json:"externalReference"`
				Signature json.RawMessage `json:"signature"`
			} `json:"signatories"`
		} `json:"affirmation"`
	} `json:"declarations"`
}

type importOrgEntity struct {
	BOMRef string   `json:"bom-ref"`
	Name   string   `json:"name"`
	URL    []string `json:"url"`
}

// ParseAttestation validates a CycloneDX 1.6 or 1.7 attestation document against its
// official schema and reads it. Refusals are 422 business_rule_violation with details naming
// the JSON pointer of each problem: invalid_json, not_cyclonedx, unsupported_spec_version,
// schema_invalid (up to assess.MaxImportProblems), no_declarations, or the codes of
// StandardImport.Validate for a standard it defines.
func ParseAttestation(data []byte) (assess.AttestationImportPlan, error) {
	var plan assess.AttestationImportPlan
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return plan, documentProblem("/", "invalid_json", "The file is not a JSON document: "+jsonReason(err)+".")
	}
	obj, ok := raw.(map[string]any)
	if !ok || obj["bomFormat"] != "CycloneDX" {
		return plan, documentProblem("/bomFormat", "not_cyclonedx", `The document is not a CycloneDX BOM (bomFormat "CycloneDX").`)
	}
	spec, _ := obj["specVersion"].(string)
	if !slices.Contains(SpecVersions, spec) {
		return plan, documentProblem("/specVersion", "unsupported_spec_version",
			"The document's specVersion must be 1.6 or 1.7 (the versions that define attestations); it is "+strconv.Quote(spec)+".")
	}
	ps, err := validateDocument(raw, spec, assess.MaxImportProblems)
	if err != nil {
		return plan, err
	}
	if len(ps) > 0 {
		return plan, schemaInvalid(spec, ps)
	}
	if bytes.Contains(data, []byte(`\u0000`)) {
		return plan, documentProblem("/", "invalid_text", "The document contains a NUL character (\\u0000) in a string; text with NUL cannot be stored.")
	}
	var doc importDocument
	if err := json.Unmarshal(data, &doc); err != nil {
		return plan, documentProblem("/", "invalid_json", "The document cannot be read: "+jsonReason(err)+".")
	}
	d := doc.Declarations
	if d == nil || len(d.Attestations) == 0 {
		return plan, documentProblem("/declarations/attestations", "no_declarations",
			"The document declares no attestation (declarations.attestations is empty): it is not an attestation.")
	}
	sum := sha256.Sum256(data)
	plan = assess.AttestationImportPlan{SpecVersion: spec, SerialNumber: strings.TrimSpace(doc.SerialNumber), DocVersion: cmp.Or(doc.Version, 1),
		SHA256: hex.EncodeToString(sum[:]), Requirements: map[string]assess.ImportRequirementRef{}}
	if m := doc.Metadata; m != nil {
		if t, err := time.Parse(time.RFC3339, m.Timestamp); err == nil {
			t = t.UTC()
			plan.Timestamp = &t
		}
		if m.Component != nil {
			plan.Title = strings.TrimSpace(m.Component.Name)
		}
	}
	r := &planReader{plan: &plan}
	if err := r.standards(doc.Definitions); err != nil {
		return plan, err
	}
	r.targets(doc)
	for i, a := range d.Assessors {
		ptr := fmt.Sprintf("/declarations/assessors/%d", i)
		name := ""
		var url string
		if a.Organization != nil {
			name = strings.TrimSpace(a.Organization.Name)
			if len(a.Organization.URL) > 0 {
				url = a.Organization.URL[0]
			}
		}
		if name == "" {
			r.repair(ptr, "missing_target", "An assessor without an organisation name was left out.")
			continue
		}
		plan.Assessors = append(plan.Assessors, assess.ImportAssessor{BOMRef: a.BOMRef, Name: clip(name, 300), URL: url, ThirdParty: a.ThirdParty})
	}
	evidence := map[string]bool{}
	for i, e := range d.Evidence {
		ptr := fmt.Sprintf("/declarations/evidence/%d", i)
		if e.BOMRef == "" || evidence[e.BOMRef] {
			r.repair(ptr, "duplicate_reference", "Evidence without a bom-ref of its own was left out: nothing can cite it.")
			continue
		}
		evidence[e.BOMRef] = true
		ev := assess.ImportEvidence{BOMRef: e.BOMRef, Description: e.Description, PropertyName: e.PropertyName,
			Created: day(e.Created), Expires: day(e.Expires)}
		for _, dt := range e.Data {
			ev.Classification = cmp.Or(ev.Classification, dt.Classification)
			f := assess.ExternalFile{Name: strings.TrimSpace(dt.Name)}
			if dt.Contents != nil {
				f.URL = dt.Contents.URL
				if a := dt.Contents.Attachment; a != nil {
					f.ContentType, f.Inline = a.ContentType, a.Content != ""
				}
			}
			if f.Name != "" || f.URL != "" {
				ev.Files = append(ev.Files, f)
			}
		}
		ev.Name = clip(cmp.Or(firstName(ev.Files), firstLine(e.Description), e.PropertyName, e.BOMRef), 300)
		plan.Evidence = append(plan.Evidence, ev)
	}
	claims := map[string]bool{}
	for i, c := range d.Claims {
		ptr := fmt.Sprintf("/declarations/claims/%d", i)
		if c.BOMRef == "" || claims[c.BOMRef] {
			r.repair(ptr, "duplicate_reference", "A claim without a bom-ref of its own was left out: no attestation can cite it.")
			continue
		}
		claims[c.BOMRef] = true
		cl := assess.ImportClaim{BOMRef: c.BOMRef, Target: strings.TrimSpace(c.Target), Predicate: strings.TrimSpace(c.Predicate), Reasoning: c.Reasoning,
			Evidence: r.known(c.Evidence, evidence, ptr+"/evidence", "evidence"), CounterEvidence: r.known(c.CounterEvidence, evidence, ptr+"/counterEvidence", "evidence"),
			Mitigations: r.known(c.MitigationStrategies, evidence, ptr+"/mitigationStrategies", "evidence")}
		for _, x := range c.ExternalReferences {
			if x.URL == "" {
				continue
			}
			cl.ExternalReferences = append(cl.ExternalReferences, assess.ExternalReference{Type: clip(x.Type, 64), URL: clip(x.URL, 2048), Comment: clip(x.Comment, 1000)})
			r.fileHashes(x, cl.Evidence, cl.CounterEvidence, cl.Mitigations)
		}
		if cl.Predicate == "" {
			cl.Predicate = "(no predicate)"
			r.repair(ptr+"/predicate", "missing_target", "The claim has no predicate; it was imported as “(no predicate)”.")
		}
		if cl.Target == "" {
			r.repair(ptr+"/target", "missing_target", "The claim names no target; the assessment's entity is its target.")
		}
		plan.Claims = append(plan.Claims, cl)
	}
	for i, a := range d.Attestations {
		ptr := fmt.Sprintf("/declarations/attestations/%d", i)
		entry := assess.ImportAttestationEntry{Summary: a.Summary, Assessor: a.Assessor}
		if a.Assessor != "" && !slices.ContainsFunc(plan.Assessors, func(x assess.ImportAssessor) bool { return x.BOMRef == a.Assessor }) {
			r.repair(ptr+"/assessor", "dangling_reference", fmt.Sprintf("The assessor %q is not declared; the attestation was imported without it.", a.Assessor))
			entry.Assessor = ""
		}
		for j, m := range a.Map {
			mptr := fmt.Sprintf("%s/map/%d", ptr, j)
			me := assess.ImportMapEntry{Requirement: m.Requirement,
				Claims: r.known(m.Claims, claims, mptr+"/claims", "claim"), CounterClaims: r.known(m.CounterClaims, claims, mptr+"/counterClaims", "claim")}
			if c := m.Conformance; c != nil {
				me.Score, me.Rationale = unitScore(c.Score, mptr+"/conformance/score", r), c.Rationale
				me.Mitigations = r.known(c.MitigationStrategies, evidence, mptr+"/conformance/mitigationStrategies", "evidence")
			}
			if c := m.Confidence; c != nil {
				me.Confidence, me.ConfidenceRationale = unitScore(c.Score, mptr+"/confidence/score", r), c.Rationale
			}
			if m.Requirement == "" {
				r.repair(mptr, "dangling_reference", "A map entry names no requirement; it was left out.")
				continue
			}
			entry.Map = append(entry.Map, me)
		}
		plan.Attestations = append(plan.Attestations, entry)
	}
	if a := d.Affirmation; a != nil {
		aff := &assess.ImportAffirmation{Statement: clip(strings.TrimSpace(a.Statement), 10000)}
		for _, s := range a.Signatories {
			sg := assess.ImportSignatory{Name: clip(strings.TrimSpace(s.Name), 300), Role: clip(strings.TrimSpace(s.Role), 300)}
			if s.Organization != nil {
				sg.Organization = clip(strings.TrimSpace(s.Organization.Name), 300)
			}
			switch {
			case len(s.Signature) > 0 && string(s.Signature) != "null":
				sg.Kind = "digital"
			case s.ExternalReference != nil && s.ExternalReference.URL != "":
				sg.Kind = "electronic"
			}
			aff.Signatories = append(aff.Signatories, sg)
		}
		plan.Affirmation = aff
	}
	r.placeholders(raw, "")
	slices.Sort(plan.Placeholders)
	return plan, nil
}

// planReader collects repairs while reading one document.
type planReader struct {
	plan *assess.AttestationImportPlan
}

func (r *planReader) repair(ptr, code, msg string) {
	r.plan.Repairs = append(r.plan.Repairs, assess.ImportRepair{Pointer: ptr, Code: code, Message: msg})
}

// known keeps the refs that name a declared record of the kind, noting the others.
func (r *planReader) known(refs []string, declared map[string]bool, ptr, kind string) []string {
	var out []string
	for i, ref := range refs {
		if !declared[ref] {
			r.repair(fmt.Sprintf("%s/%d", ptr, i), "dangling_reference", fmt.Sprintf("No %s %q is declared; the reference was left out.", kind, ref))
			continue
		}
		if !slices.Contains(out, ref) {
			out = append(out, ref)
		}
	}
	return out
}

// standards reads definitions.standards; a standard the catalogue's rules refuse is a 422
// with its pointer.
func (r *planReader) standards(defs *definitions) error {
	if defs == nil {
		return nil
	}
	for i, s := range defs.Standards {
		imp := fromDocument(s)
		ptr := fmt.Sprintf("/definitions/standards/%d", i)
		if err := imp.Validate(ptr); err != nil {
			return err
		}
		for _, w := range imp.Warnings {
			r.repair(ptr, "standard_repaired", w)
		}
		for j, req := range s.Requirements {
			if req.BOMRef != "" {
				if _, dup := r.plan.Requirements[req.BOMRef]; !dup {
					r.plan.Requirements[req.BOMRef] = assess.ImportRequirementRef{Standard: len(r.plan.Standards), Identifier: imp.Requirements[j].Identifier}
				}
			}
		}
		r.plan.Standards = append(r.plan.Standards, imp)
	}
	return nil
}

// targets reads declarations.targets: organisations, components (products, or components
// for libraries and the like) and services.
func (r *planReader) targets(doc importDocument) {
	t := doc.Declarations.Targets
	if t == nil {
		return
	}
	add := func(ptr, ref, name, desc string, typ assess.EntityType) {
		name = strings.TrimSpace(name)
		if name == "" {
			r.repair(ptr, "missing_target", "A target without a name was left out.")
			return
		}
		r.plan.Targets = append(r.plan.Targets, assess.ImportTarget{BOMRef: ref, Name: clip(name, 300), Type: typ, Description: desc})
	}
	for i, o := range t.Organizations {
		add(fmt.Sprintf("/declarations/targets/organizations/%d", i), o.BOMRef, o.Name, "", assess.EntityTypeOrganization)
	}
	for i, c := range t.Components {
		typ := assess.EntityTypeComponent
		if c.Type == "application" || c.Type == "platform" || c.Type == "device" || c.Type == "firmware" {
			typ = assess.EntityTypeProduct
		}
		add(fmt.Sprintf("/declarations/targets/components/%d", i), c.BOMRef, c.Name, c.Description, typ)
	}
	for i, s := range t.Services {
		add(fmt.Sprintf("/declarations/targets/services/%d", i), s.BOMRef, s.Name, s.Description, assess.EntityTypeService)
	}
}

// fileHashes attaches the SHA-256 an evidence reference of a claim states (how this product
// exports files: type evidence, comment "<evidence ref>: <file name>") to the evidence's file
// of the same URL.
func (r *planReader) fileHashes(x externalReference, refs ...[]string) {
	if x.Type != "evidence" {
		return
	}
	var sum string
	for _, h := range x.Hashes {
		if strings.EqualFold(h.Alg, "SHA-256") {
			sum = strings.ToLower(h.Content)
		}
	}
	if sum == "" {
		return
	}
	for i := range r.plan.Evidence {
		e := &r.plan.Evidence[i]
		if !slices.ContainsFunc(refs, func(rs []string) bool { return slices.Contains(rs, e.BOMRef) }) {
			continue
		}
		for j := range e.Files {
			if e.Files[j].URL == x.URL {
				e.Files[j].SHA256 = sum
			}
		}
	}
}

// placeholders notes every signature object that cannot be a real signature: one without a
// key (publicKey or a certificate path of base64 DER) or whose value is not base64url.
func (r *planReader) placeholders(v any, ptr string) {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			child := t[k]
			p := ptr + "/" + escapePointer(k)
			if k == "signature" {
				if sig, ok := child.(map[string]any); ok && placeholder(sig) {
					r.plan.Placeholders = append(r.plan.Placeholders, ptr)
					r.repair(p, "placeholder_signature", "This signature is a placeholder (no usable key or value); it was treated as absent.")
				}
				continue
			}
			r.placeholders(child, p)
		}
	case []any:
		for i, child := range t {
			r.placeholders(child, ptr+"/"+strconv.Itoa(i))
		}
	}
}

func placeholder(sig map[string]any) bool {
	if _, multi := sig["signers"]; multi {
		return false
	}
	if _, chain := sig["chain"]; chain {
		return false
	}
	value, _ := sig["value"].(string)
	if b, err := base64.RawURLEncoding.DecodeString(value); err != nil || len(b) < 32 {
		return true
	}
	if _, ok := sig["publicKey"].(map[string]any); ok {
		return false
	}
	path, _ := sig["certificatePath"].([]any)
	for _, c := range path {
		s, _ := c.(string)
		if b, err := base64.StdEncoding.DecodeString(s); err != nil || len(b) < 64 {
			return true
		}
	}
	return len(path) == 0
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// unitScore is a score of 0 to 1; anything outside is left out with a note (the schema
// already bounds it, but a 1.6 document may predate that).
func unitScore(s *float64, ptr string, r *planReader) *float64 {
	if s == nil {
		return nil
	}
	if *s < 0 || *s > 1 {
		r.repair(ptr, "out_of_range", fmt.Sprintf("The score %v is outside 0 to 1; it was left out.", *s))
		return nil
	}
	v := *s
	return &v
}

// day is the date part of an RFC 3339 timestamp, or "".
func day(s string) string {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC().Format(time.DateOnly)
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t.Format(time.DateOnly)
	}
	return ""
}

func firstName(files []assess.ExternalFile) string {
	for _, f := range files {
		if f.Name != "" {
			return f.Name
		}
	}
	return ""
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// clip shortens s to at most n characters (runes).
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n])
}

// SpecOf is the specVersion a CycloneDX JSON document states, or "".
func SpecOf(data []byte) string {
	var head struct {
		SpecVersion string `json:"specVersion"`
	}
	_ = json.Unmarshal(data, &head)
	return head.SpecVersion
}
