package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// Fixtures and uploads of the request fuzzer (fuzz_test.go) for the catalogue and
// assessment work: one record of each kind, so that a path naming a standard, an entity,
// an assessment, its requirements, claims and notes, evidence, its links and attachments
// reaches the handler's validation rather than stopping at 404.

// fuzzWorkFixtures creates, as the administrator (key): a published standard with three
// requirements and a level, an entity, a tag, a project, an assessment of the entity against
// the standard, started (its requirements loaded), two pieces of evidence linked to its
// requirements — the older one cited by a claim (so locked), the newer one, which the lists
// name first, with a note and an attachment — and a work note. It returns the ids of the
// collections that have no list of their own (by collection path, as fuzzFixtures builds
// them): claims, and the links of the evidence.
func fuzzWorkFixtures(t *testing.T, ts *testServer, key *apiClient) map[string]string {
	t.Helper()
	standard := ts.newStandardSQL(t, "Fuzz Standard", "published")
	var reqs []string
	for i := range 3 {
		id := assess.NewID(assess.PrefixRequirement, time.Now())
		ts.sqlExec(t, `INSERT INTO requirements (id, standard_id, identifier, natural_key, name, position) VALUES ($1, $2, $3, $3, $4, $5)`,
			id, standard, fmt.Sprintf("F%d", i+1), fmt.Sprintf("Requirement F%d", i+1), i)
		reqs = append(reqs, id)
	}
	level := ts.newLevelSQL(t, standard, "L1")
	ts.sqlExec(t, `INSERT INTO level_requirements (level_id, requirement_id) SELECT $1, unnest($2::text[])`, level, reqs)
	entity := assess.NewID(assess.PrefixEntity, time.Now())
	ts.sqlExec(t, `INSERT INTO entities (id, name, entity_type) VALUES ($1, 'Fuzz Service', 'service')`, entity)
	key.post(t, "/api/v1/tags", map[string]any{"name": "fuzz-tag"}, http.StatusCreated)
	key.post(t, "/api/v1/projects", map[string]any{"name": "Fuzz project", "entityIds": []string{entity},
		"standardIds": []string{standard}}, http.StatusCreated)

	a := key.post(t, "/api/v1/assessments", map[string]any{"title": "Fuzz assessment", "entityId": entity,
		"standards": []map[string]any{{"standardId": standard}}}, http.StatusCreated)
	aid := a["id"].(string)
	key.post(t, "/api/v1/assessments/"+aid+"/start", map[string]any{"version": a["version"]}, http.StatusOK)
	ars := idsOf(items(t, key.get(t, "/api/v1/assessments/"+aid+"/requirements", http.StatusOK)))
	require.Len(t, ars, 3)
	cited := key.post(t, "/api/v1/evidence", map[string]any{"name": "Cited evidence", "requirementIds": ars[1:2]}, http.StatusCreated)
	claim := key.post(t, "/api/v1/assessments/"+aid+"/claims", map[string]any{"name": "Fuzz claim", "target": "The service",
		"predicate": "It holds.", "evidenceIds": []string{cited["id"].(string)}, "requirementIds": ars[:1]}, http.StatusCreated)
	ev := key.post(t, "/api/v1/evidence", map[string]any{"name": "Fuzz evidence", "requirementIds": ars[:1]}, http.StatusCreated)
	evID := ev["id"].(string)
	key.post(t, "/api/v1/evidence/"+evID+"/notes", map[string]any{"content": "A note."}, http.StatusCreated)
	key.post(t, "/api/v1/assessments/"+aid+"/notes", map[string]any{"content": "A work note."}, http.StatusCreated)
	body, ctype := multipartFile("file", "report.txt", []byte("A fuzz report.\n"))
	res, answer := key.do(t, http.MethodPost, "/api/v1/evidence/"+evID+"/attachments", string(body), "Content-Type", ctype)
	require.Equal(t, http.StatusCreated, res.StatusCode, answer)
	return map[string]string{
		"/api/v1/claims":                      claim["id"].(string),
		"/api/v1/evidence/" + evID + "/links": ars[0],
	}
}

// multipartFile is a multipart/form-data body with one file part, and its Content-Type.
func multipartFile(field, name string, content []byte) ([]byte, string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, _ := w.CreateFormFile(field, name)
	_, _ = part.Write(content)
	_ = w.Close()
	return b.Bytes(), w.FormDataContentType()
}

// fuzzBoundary is the boundary of the hand-written multipart bodies.
const fuzzBoundary = "fuzzboundary"

// multipartCases are malformed uploads: odd and hostile file names, refused types, no or
// several file parts, a truncated body, oversized part headers, a missing boundary.
func multipartCases(method, target string, rng *rand.Rand) []fuzzCase {
	part := func(disposition, ctype, content string) string {
		return "--" + fuzzBoundary + "\r\nContent-Disposition: " + disposition + "\r\nContent-Type: " + ctype + "\r\n\r\n" + content + "\r\n"
	}
	end := "--" + fuzzBoundary + "--\r\n"
	file := func(name, content string) string {
		return part(`form-data; name="file"; filename="`+name+`"`, "application/octet-stream", content)
	}
	junkFile := make([]byte, 512)
	for i := range junkFile {
		junkFile[i] = byte(rng.UintN(256))
	}
	cases := []struct{ name, body string }{
		{"a text file", file("notes.txt", "plain text\n") + end},
		{"an HTML file", file("page.txt", "<!DOCTYPE html><html><script>alert(1)</script></html>") + end},
		{"an SVG file", file("image.svg", `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`) + end},
		{"an ELF executable", file("tool", "\x7fELF\x02\x01\x01\x00"+strings.Repeat("\x00", 64)) + end},
		{"a script name", file("run.ps1", "Write-Host hi") + end},
		{"a NUL, CR-LF and bidi name", file("a\x00b\r\nX-Evil: 1\u202etxt.exe", "text") + end},
		{"a path name", file("../../etc/passwd", "root:x:0:0") + end},
		{"an invalid UTF-8 name", file("\xff\xfe.txt", "text") + end},
		{"an overlong name", file(strings.Repeat("n", 5000)+".txt", "text") + end},
		{"an empty file", file("empty.txt", "") + end},
		{"random bytes", file("junk.bin", string(junkFile)) + end},
		{"no file part", part(`form-data; name="note"`, "text/plain", "no file") + end},
		{"another field name", part(`form-data; name="upload"; filename="a.txt"`, "text/plain", "text") + end},
		{"two file parts", file("a.txt", "one") + file("b.txt", "two") + end},
		{"no closing boundary", file("a.txt", "text")},
		{"no parts", end},
		{"not multipart at all", "just some bytes"},
		{"an overlong part header", "--" + fuzzBoundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nX-Pad: " +
			strings.Repeat("p", 200_000) + "\r\n\r\ntext\r\n" + end},
	}
	out := make([]fuzzCase, 0, len(cases)+2)
	for _, c := range cases {
		out = append(out, fuzzCase{name: "multipart: " + c.name, method: method, target: target, body: []byte(c.body),
			header: http.Header{"Content-Type": {"multipart/form-data; boundary=" + fuzzBoundary}}})
	}
	good := []byte(file("a.txt", "text") + end)
	out = append(out,
		fuzzCase{name: "multipart: no boundary", method: method, target: target, body: good,
			header: http.Header{"Content-Type": {"multipart/form-data"}}},
		fuzzCase{name: "multipart: an overlong boundary", method: method, target: target, body: good,
			header: http.Header{"Content-Type": {"multipart/form-data; boundary=" + strings.Repeat("b", 5000)}}},
		fuzzCase{name: "multipart: chunked", method: method, target: target, body: good, chunked: true,
			header: http.Header{"Content-Type": {"multipart/form-data; boundary=" + fuzzBoundary}}})
	return out
}
