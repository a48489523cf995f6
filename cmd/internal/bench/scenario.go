package main

import (
	"bytes"
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
	// credParticipant is Authorization: Bearer <token> of participantName, an assessor
	// without assessments.view_all: reads as them go through the visibility rule in SQL.
	credParticipant = "participantKey"
	credNone        = "none"
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
	"publishedStandardId":   func(d *Dataset, _ *rand.Rand) string { return d.PublishedStandardID },
	"projectId":             func(d *Dataset, r *rand.Rand) string { return d.ProjectIDs[r.IntN(len(d.ProjectIDs))] },
	"assessmentId":          func(d *Dataset, _ *rand.Rand) string { return d.AssessmentID },
	"busyAssessmentId": func(d *Dataset, _ *rand.Rand) string {
		if d.BusyAssessmentID == "" {
			return d.AssessmentID
		}
		return d.BusyAssessmentID
	},
	"entityId":      func(d *Dataset, _ *rand.Rand) string { return d.EntityID },
	"attestationId": func(d *Dataset, _ *rand.Rand) string { return d.AttestationID },
	"assessmentRequirementId": func(d *Dataset, r *rand.Rand) string {
		return d.AssessmentRequirementIDs[r.IntN(len(d.AssessmentRequirementIDs))]
	},
	"evidenceId":       func(d *Dataset, r *rand.Rand) string { return d.EvidenceIDs[r.IntN(len(d.EvidenceIDs))] },
	"uploadEvidenceId": func(d *Dataset, r *rand.Rand) string { return d.UploadEvidenceIDs[r.IntN(len(d.UploadEvidenceIDs))] },
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
	// Upload, instead of Body, sends a multipart/form-data body with one file part.
	Upload *Upload `json:"upload,omitempty"`
	// Revalidate sends, as a client holding the answer does, If-None-Match with the ETag of
	// the connection's last answer to the same URL; 304 Not Modified then counts as success.
	Revalidate bool `json:"revalidate,omitempty"`

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
	case !slices.Contains([]string{credAPIKey, credSession, credParticipant, credNone}, op.Credential):
		return fmt.Errorf("credential must be %s, %s, %s or %s", credAPIKey, credSession, credParticipant, credNone)
	case op.Weight < 0:
		return errors.New("weight must not be negative")
	case op.Upload != nil && op.Body != "":
		return errors.New("body and upload exclude each other")
	case op.Revalidate && op.Method != http.MethodGet:
		return errors.New("revalidate needs GET")
	case op.Upload != nil && (op.Upload.Field == "" || op.Upload.Filename == "" || op.Upload.Bytes < 64 || op.Upload.Bytes > 64<<20):
		return errors.New("upload needs a field, a filename and 64 B to 64 MiB of bytes")
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
	contentType := ""
	switch {
	case op.Body != "":
		body, contentType = strings.NewReader(op.body.expand(d, r)), "application/json"
	case op.Upload != nil:
		body, contentType = bytes.NewReader(op.Upload.body(r)), "multipart/form-data; boundary="+uploadBoundary
	}
	req, err := http.NewRequest(op.Method, base+op.path.expand(d, r), body)
	if err != nil {
		return nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	switch op.Credential {
	case credAPIKey:
		req.Header.Set("Authorization", "Bearer "+d.APIKeys[worker%len(d.APIKeys)])
	case credParticipant:
		req.Header.Set("Authorization", "Bearer "+d.ParticipantKeys[worker%len(d.ParticipantKeys)])
	case credSession:
		req.Header.Set("Cookie", sessionCookie+"="+d.Sessions[worker%len(d.Sessions)])
		req.Header.Set("Origin", base) // cookie-authenticated writes must come from the server's origin
	}
	return req, nil
}

// Upload is a file sent as multipart/form-data: one part named Field with Bytes bytes of
// plain text whose first line is random, so that no two uploads have the same content (the
// server would answer a repeated file with the attachment it already stores).
type Upload struct {
	Field    string `json:"field"`
	Filename string `json:"filename"`
	Bytes    int    `json:"bytes"`
}

const uploadBoundary = "assay-bench-boundary-7f3a9c"

// body builds the multipart body of one upload.
func (u *Upload) body(r *rand.Rand) []byte {
	const filler = "Bench evidence file: a line of plain text repeated to fill the upload.\n"
	head := "--" + uploadBoundary + "\r\nContent-Disposition: form-data; name=\"" + u.Field + "\"; filename=\"" + u.Filename +
		"\"\r\nContent-Type: text/plain\r\n\r\n"
	tail := "\r\n--" + uploadBoundary + "--\r\n"
	buf := make([]byte, 0, len(head)+u.Bytes+len(tail))
	buf = append(buf, head...)
	buf = fmt.Appendf(buf, "bench upload %016x%016x\n", r.Uint64(), r.Uint64())
	for len(buf)-len(head) < u.Bytes {
		buf = append(buf, filler[:min(len(filler), u.Bytes-(len(buf)-len(head)))]...)
	}
	return append(buf, tail...)
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
