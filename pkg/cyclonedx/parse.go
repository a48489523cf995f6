package cyclonedx

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/assay-dev/assay/pkg/assess"
)

// DescriptionProperty is the property name under which a requirement keeps the CycloneDX
// `descriptions` (supplementary texts), one property each, in order: our model has one
// description (the CycloneDX text), and export turns these properties back into
// `descriptions`.
const DescriptionProperty = "assay:description"

// The parts of a CycloneDX document the catalogue reads and writes.
type document struct {
	Schema       string       `json:"$schema,omitempty"`
	BOMFormat    string       `json:"bomFormat"`
	SpecVersion  string       `json:"specVersion"`
	SerialNumber string       `json:"serialNumber,omitempty"`
	Version      int          `json:"version"`
	Metadata     *metadata    `json:"metadata,omitempty"`
	Definitions  *definitions `json:"definitions,omitempty"`
}

type metadata struct {
	Timestamp string `json:"timestamp,omitempty"`
}

type definitions struct {
	Standards []standard `json:"standards"`
}

type standard struct {
	BOMRef             string                     `json:"bom-ref,omitempty"`
	Name               string                     `json:"name,omitempty"`
	Version            string                     `json:"version,omitempty"`
	Description        string                     `json:"description,omitempty"`
	Owner              string                     `json:"owner,omitempty"`
	Requirements       []requirement              `json:"requirements,omitempty"`
	Levels             []level                    `json:"levels,omitempty"`
	ExternalReferences []assess.ExternalReference `json:"externalReferences,omitempty"`
}

type requirement struct {
	BOMRef             string                     `json:"bom-ref,omitempty"`
	Identifier         string                     `json:"identifier,omitempty"`
	Title              string                     `json:"title,omitempty"`
	Text               string                     `json:"text,omitempty"`
	Descriptions       []string                   `json:"descriptions,omitempty"`
	OpenCRE            []string                   `json:"openCre,omitempty"`
	Parent             string                     `json:"parent,omitempty"`
	Properties         []assess.Property          `json:"properties,omitempty"`
	ExternalReferences []assess.ExternalReference `json:"externalReferences,omitempty"`
}

type level struct {
	BOMRef       string   `json:"bom-ref,omitempty"`
	Identifier   string   `json:"identifier,omitempty"`
	Title        string   `json:"title,omitempty"`
	Description  string   `json:"description,omitempty"`
	Requirements []string `json:"requirements,omitempty"`
}

// documentProblem is the 422 of a document that cannot be read at all.
func documentProblem(field, code, msg string) error {
	return &assess.Error{Code: assess.ECodeBusinessRule, Message: msg,
		Details: []assess.Detail{{Field: field, Code: code, Message: msg}}}
}

// Parse validates a CycloneDX 1.6 or 1.7 document against its official schema and returns
// the standards of definitions.standards in the neutral model, each checked with
// StandardImport.Validate. Every refusal is a 422 business_rule_violation whose details
// name the JSON pointer of what is wrong: invalid_json, not_cyclonedx,
// unsupported_spec_version, schema_invalid (up to assess.MaxImportProblems of them),
// no_standards, or the codes of Validate.
func Parse(data []byte) ([]assess.StandardImport, error) {
	// A byte order mark, as editors on Windows write, is ignored (RFC 8259 section 8.1 lets a
	// parser): a standard is not signed, so nothing depends on its exact bytes.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		// An upload of any other kind of file (text, CSV, a PDF) ends here: say what it is not
		// in words first, the parser's reason after.
		return nil, documentProblem("/", "invalid_json", "The file is not a CycloneDX JSON document: it is not JSON ("+jsonReason(err)+").")
	}
	obj, ok := raw.(map[string]any)
	if !ok || obj["bomFormat"] != "CycloneDX" {
		return nil, documentProblem("/bomFormat", "not_cyclonedx", `The document is not a CycloneDX BOM (bomFormat "CycloneDX").`)
	}
	spec, _ := obj["specVersion"].(string)
	if !slices.Contains(SpecVersions, spec) {
		return nil, documentProblem("/specVersion", "unsupported_spec_version",
			"The document's specVersion must be 1.6 or 1.7 (the versions that define standards); it is "+strconv.Quote(spec)+".")
	}
	ps, err := validateDocument(raw, spec, assess.MaxImportProblems)
	if err != nil {
		return nil, err
	}
	if len(ps) > 0 {
		return nil, schemaInvalid(spec, ps)
	}
	var doc document
	if err := json.Unmarshal(data, &doc); err != nil {
		// The schema accepted it, so this is a type our structs do not expect.
		return nil, documentProblem("/", "invalid_json", "The document cannot be read: "+jsonReason(err)+".")
	}
	if doc.Definitions == nil || len(doc.Definitions.Standards) == 0 {
		return nil, documentProblem("/definitions/standards", "no_standards", "The document defines no standards (definitions.standards is empty).")
	}
	out := make([]assess.StandardImport, 0, len(doc.Definitions.Standards))
	for i, s := range doc.Definitions.Standards {
		imp := fromDocument(s)
		if err := imp.Validate(fmt.Sprintf("/definitions/standards/%d", i)); err != nil {
			return nil, err
		}
		out = append(out, imp)
	}
	return out, nil
}

// jsonReason describes a JSON syntax error briefly, with its byte offset.
func jsonReason(err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("%s at byte %d", syn.Error(), syn.Offset)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return fmt.Sprintf("%s has the wrong type", typ.Field)
	}
	return err.Error()
}

// fromDocument maps one CycloneDX standard to the neutral model (docs/catalogue.md,
// "Import and export"). It repairs what real catalogue documents get wrong, with a
// warning each: a requirement without identifier takes its bom-ref; a repeated identifier
// gets "-2", "-3", …; a parent the document does not define leaves the requirement at the
// top; level members the document does not define are left out.
func fromDocument(s standard) assess.StandardImport {
	imp := assess.StandardImport{
		Identifier: assess.StandardIdentifier(s.Name), StandardVersion: strings.TrimSpace(s.Version),
		Name: strings.TrimSpace(s.Name), Description: s.Description, Owner: s.Owner, BOMRef: s.BOMRef,
		ExternalReferences: nonNil(s.ExternalReferences),
	}
	if imp.Identifier == "" {
		imp.Identifier = assess.StandardIdentifier(s.BOMRef)
	}
	used := map[string]bool{} // requirement identifiers given so far
	byRef := map[string]string{}
	for _, r := range s.Requirements {
		id := cmp.Or(strings.TrimSpace(r.Identifier), strings.TrimSpace(r.BOMRef))
		if id != "" && used[id] {
			unique := freeName(id, used)
			imp.Warnings = append(imp.Warnings, fmt.Sprintf("The identifier %s is used twice; the second requirement (%q) became %s.", id, r.Title, unique))
			id = unique
		}
		used[id] = true
		ref := r.BOMRef
		if _, dup := byRef[ref]; ref != "" && dup {
			ref = "" // export gives it a fresh one; references resolve to the first
		} else if ref != "" {
			byRef[ref] = id
		}
		props := nonNil(slices.Clone(r.Properties))
		for _, d := range r.Descriptions {
			props = append(props, assess.Property{Name: DescriptionProperty, Value: d})
		}
		imp.Requirements = append(imp.Requirements, assess.RequirementImport{
			Identifier: id, Parent: r.Parent, Name: r.Title, Description: r.Text, BOMRef: ref,
			OpenCRE: nonNil(r.OpenCRE), ExternalReferences: nonNil(r.ExternalReferences), Properties: props,
		})
	}
	for i := range imp.Requirements {
		r := &imp.Requirements[i]
		if r.Parent == "" {
			continue
		}
		parent, ok := byRef[r.Parent]
		if !ok || parent == r.Identifier {
			imp.Warnings = append(imp.Warnings, fmt.Sprintf("The parent %s of %s is not a requirement of the document; %s was placed at the top.", r.Parent, r.Identifier, r.Identifier))
			parent = ""
		}
		r.Parent = parent
	}
	imp.Levels = levelsFromDocument(s.Levels, byRef, &imp.Warnings)
	return imp
}

func levelsFromDocument(levels []level, byRef map[string]string, warnings *[]string) []assess.LevelImport {
	out := make([]assess.LevelImport, 0, len(levels))
	used := map[string]bool{}
	for i, l := range levels {
		id := cmp.Or(strings.TrimSpace(l.Identifier), strings.TrimSpace(l.BOMRef), strings.TrimSpace(l.Title), "level-"+strconv.Itoa(i+1))
		if used[id] {
			id = freeName(id, used)
		}
		used[id] = true
		li := assess.LevelImport{Identifier: id, Title: l.Title, Description: l.Description, BOMRef: l.BOMRef, Requirements: []string{}}
		missing := 0
		for _, ref := range l.Requirements {
			rid, ok := byRef[ref]
			switch {
			case !ok:
				missing++
			case !slices.Contains(li.Requirements, rid):
				li.Requirements = append(li.Requirements, rid)
			}
		}
		if missing > 0 {
			*warnings = append(*warnings, fmt.Sprintf("The level %s names %d requirements the document does not define; they were left out.", id, missing))
		}
		out = append(out, li)
	}
	return out
}

// freeName returns name-2, name-3, … whichever is not used yet.
func freeName(name string, used map[string]bool) string {
	for n := 2; ; n++ {
		if c := name + "-" + strconv.Itoa(n); !used[c] {
			return c
		}
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
