// Package cyclonedx reads and writes the CycloneDX documents of the standards catalogue:
// it validates a document against the official JSON schema of its specVersion (1.6 or
// 1.7, embedded with the schemas they reference), parses definitions.standards into the
// neutral model of package assess, and builds a document from a standard with its
// requirement tree and levels. The schema files come unchanged (but for their published
// names) from the npm package @cyclonedx/cyclonedx-library; scripts/fetch-cyclonedx-schemas.sh
// reproduces them, and schema/LICENSE and schema/NOTICE are their licence.
package cyclonedx

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/assay-dev/assay/pkg/assess"
)

//go:embed schema/*.schema.json schema/LICENSE schema/NOTICE
var schemaFiles embed.FS

// Spec versions this package validates, parses and writes.
const (
	Spec16 = "1.6"
	Spec17 = "1.7"
)

// SpecVersions are the supported spec versions, oldest first.
var SpecVersions = []string{Spec16, Spec17}

// schemaBase is where the schemas say they live; their $ref values are relative to it.
const schemaBase = "http://cyclonedx.org/schema/"

var (
	compileOnce sync.Once
	compiled    map[string]*jsonschema.Schema
	compileErr  error
)

// schemas compiles the bom schemas once, from the embedded files only (no network).
func schemas() (map[string]*jsonschema.Schema, error) {
	compileOnce.Do(func() {
		c := jsonschema.NewCompiler()
		c.UseLoader(noLoader{})
		entries, err := schemaFiles.ReadDir("schema")
		if err != nil {
			compileErr = err
			return
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".schema.json") {
				continue
			}
			raw, err := schemaFiles.ReadFile("schema/" + e.Name())
			if err != nil {
				compileErr = err
				return
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				compileErr = fmt.Errorf("cyclonedx: schema %s: %w", e.Name(), err)
				return
			}
			if err := c.AddResource(schemaBase+e.Name(), doc); err != nil {
				compileErr = fmt.Errorf("cyclonedx: schema %s: %w", e.Name(), err)
				return
			}
		}
		compiled = map[string]*jsonschema.Schema{}
		for _, v := range SpecVersions {
			s, err := c.Compile(schemaBase + "bom-" + v + ".schema.json")
			if err != nil {
				compileErr = fmt.Errorf("cyclonedx: compile bom-%s: %w", v, err)
				return
			}
			compiled[v] = s
		}
	})
	return compiled, compileErr
}

// noLoader refuses every schema that is not embedded: validation never goes online.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema %s is not embedded", url)
}

// SchemaFile returns an embedded schema file by name (e.g. "bom-1.6.schema.json").
func SchemaFile(name string) ([]byte, error) { return schemaFiles.ReadFile("schema/" + name) }

// Problem is one reason a document does not satisfy its schema: where (a JSON pointer to
// the offending value, "" for the whole document) and what.
type Problem struct {
	Path    string
	Message string
}

// ValidateDocument checks doc (decoded with jsonschema.UnmarshalJSON semantics: numbers
// as json.Number) against the schema of specVersion. It returns at most max problems,
// nil when the document is valid; an unknown spec version is an error.
func validateDocument(doc any, specVersion string, max int) ([]Problem, error) {
	all, err := schemas()
	if err != nil {
		return nil, err
	}
	s, ok := all[specVersion]
	if !ok {
		return nil, fmt.Errorf("cyclonedx: spec version %q is not supported", specVersion)
	}
	err = s.Validate(doc)
	if err == nil {
		return nil, nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return nil, err
	}
	return problems(verr, max), nil
}

// problems flattens a validation error into its leaves (the checks that actually failed),
// without repeats, at most max of them.
func problems(verr *jsonschema.ValidationError, max int) []Problem {
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(out) >= max {
			return
		}
		if len(e.Causes) == 0 {
			p := Problem{Path: pointer(e.InstanceLocation), Message: leafMessage(e)}
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(verr)
	return out
}

// leafMessage is the text of one failed check, without the library's location prefix.
func leafMessage(e *jsonschema.ValidationError) string {
	out := e.BasicOutput()
	for _, u := range append([]jsonschema.OutputUnit{*out}, out.Errors...) {
		if u.Error != nil {
			return u.Error.String()
		}
	}
	return "does not match the schema"
}

// pointer renders an instance location as a JSON pointer (RFC 6901).
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

// schemaInvalid is the 422 of a document that breaks its schema.
func schemaInvalid(specVersion string, ps []Problem) error {
	details := make([]assess.Detail, 0, len(ps))
	for _, p := range ps {
		field := p.Path
		if field == "" {
			field = "/"
		}
		details = append(details, assess.Detail{Field: field, Code: "schema_invalid", Message: p.Message})
	}
	return &assess.Error{Code: assess.ECodeBusinessRule,
		Message: "The document is not valid CycloneDX " + specVersion + ": it breaks the official JSON schema.", Details: details}
}
