package main

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
)

// scenarioJSON is the built-in scenario; -scenario replaces it with a file.
//
//go:embed scenario.json
var scenarioJSON []byte

// Credential kinds an operation authenticates with.
const (
	credAPIKey  = "apiKey"  // Authorization: Bearer <token> of the measured administrator
	credSession = "session" // the assay_session cookie of the measured administrator, plus Origin
	credNone    = "none"
)

// placeholders are the {{name}} variables a path or body template may use. Each draws a
// value from the seeded dataset; a new kind of seeded record adds its entry here.
var placeholders = map[string]func(d *Dataset, r *rand.Rand) string{
	"userId": func(d *Dataset, r *rand.Rand) string { return d.UserIDs[r.IntN(len(d.UserIDs))] },
	// entityDeepCursor is the cursor of the last page of the entity list by name (URL-safe).
	"entityDeepCursor":      func(d *Dataset, _ *rand.Rand) string { return d.EntityDeepCursor },
	"largeStandardId":       func(d *Dataset, _ *rand.Rand) string { return d.LargeStandardID },
	"requirementDeepCursor": func(d *Dataset, _ *rand.Rand) string { return d.RequirementDeepCursor },
	"standardId":            func(d *Dataset, _ *rand.Rand) string { return d.StandardID },
	"projectId":             func(d *Dataset, r *rand.Rand) string { return d.ProjectIDs[r.IntN(len(d.ProjectIDs))] },
	"assessmentId":          func(d *Dataset, _ *rand.Rand) string { return d.AssessmentID },
	"assessmentRequirementId": func(d *Dataset, r *rand.Rand) string {
		return d.AssessmentRequirementIDs[r.IntN(len(d.AssessmentRequirementIDs))]
	},
}

// Scenario is the list of operations the load generator drives.
type Scenario struct {
	Comment    string       `json:"comment"`
	Operations []*Operation `json:"operations"`
}

// Operation is one kind of request of the scenario, as declared in scenario.json.
type Operation struct {
	Name       string `json:"name"`   // unique; -op selects it
	Method     string `json:"method"` // GET, POST, …
	Path       string `json:"path"`   // a template, e.g. /api/v1/users/{{userId}}
	Body       string `json:"body"`   // a JSON template; empty for none
	Credential string `json:"credential"`
	Weight     int    `json:"weight"` // share of the operation in the mixed phase

	path, body template
}

// parseScenario decodes and checks a scenario document.
func parseScenario(data []byte) (*Scenario, error) {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	var sc Scenario
	if err := dec.Decode(&sc); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	if len(sc.Operations) == 0 {
		return nil, errors.New("scenario: no operations")
	}
	seen := map[string]bool{}
	for _, op := range sc.Operations {
		if err := op.check(); err != nil {
			return nil, fmt.Errorf("scenario: operation %q: %w", op.Name, err)
		}
		if seen[op.Name] {
			return nil, fmt.Errorf("scenario: operation %q is declared twice", op.Name)
		}
		seen[op.Name] = true
	}
	return &sc, nil
}

func (op *Operation) check() error {
	var err error
	switch {
	case op.Name == "" || strings.ContainsAny(op.Name, " \t"):
		return errors.New("name must be one word")
	case !slices.Contains([]string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}, op.Method):
		return fmt.Errorf("unknown method %q", op.Method)
	case !strings.HasPrefix(op.Path, "/"):
		return errors.New("path must start with /")
	case !slices.Contains([]string{credAPIKey, credSession, credNone}, op.Credential):
		return fmt.Errorf("credential must be %s, %s or %s", credAPIKey, credSession, credNone)
	case op.Weight < 0:
		return errors.New("weight must not be negative")
	}
	if op.path, err = parseTemplate(op.Path); err != nil {
		return fmt.Errorf("path: %w", err)
	}
	if op.body, err = parseTemplate(op.Body); err != nil {
		return fmt.Errorf("body: %w", err)
	}
	return nil
}

// request builds one request of op against base; worker picks the credential, so each
// connection keeps using the same one, as a real client does.
func (op *Operation) request(base string, d *Dataset, r *rand.Rand, worker int) (*http.Request, error) {
	var body io.Reader = http.NoBody
	if op.Body != "" {
		body = strings.NewReader(op.body.expand(d, r))
	}
	req, err := http.NewRequest(op.Method, base+op.path.expand(d, r), body)
	if err != nil {
		return nil, err
	}
	if op.Body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	switch op.Credential {
	case credAPIKey:
		req.Header.Set("Authorization", "Bearer "+d.APIKeys[worker%len(d.APIKeys)])
	case credSession:
		req.Header.Set("Cookie", sessionCookie+"="+d.Sessions[worker%len(d.Sessions)])
		req.Header.Set("Origin", base) // cookie-authenticated writes must come from the server's origin
	}
	return req, nil
}

// template is a path or body split once at load into literals and {{placeholders}}.
type template []templatePart

type templatePart struct {
	literal string
	fill    func(d *Dataset, r *rand.Rand) string // nil for a literal
}

func parseTemplate(s string) (template, error) {
	var t template
	for s != "" {
		start := strings.Index(s, "{{")
		if start < 0 {
			return append(t, templatePart{literal: s}), nil
		}
		end := strings.Index(s[start:], "}}")
		if end < 0 {
			return nil, errors.New("unclosed {{")
		}
		name := s[start+2 : start+end]
		fill, ok := placeholders[name]
		if !ok {
			return nil, fmt.Errorf("unknown placeholder {{%s}}", name)
		}
		t = append(t, templatePart{literal: s[:start]}, templatePart{fill: fill})
		s = s[start+end+2:]
	}
	return t, nil
}

func (t template) expand(d *Dataset, r *rand.Rand) string {
	if len(t) == 1 && t[0].fill == nil {
		return t[0].literal
	}
	var b strings.Builder
	for _, p := range t {
		if p.fill != nil {
			b.WriteString(p.fill(d, r))
		} else {
			b.WriteString(p.literal)
		}
	}
	return b.String()
}
