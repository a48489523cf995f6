package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The request fuzzer reads the API description of a running server and sends every
// operation malformed input: NUL and invalid UTF-8 in each path and query parameter and
// in each string of the JSON body (field names from the request schema), overlong
// strings, wrong types, garbage ids and cursors, bodies that are not JSON or not an
// object, and odd headers. It calls as the administrator, with an API key, so permission
// checks do not hide validation. Any answer may be a success (the operations have side
// effects); what it requires is that no answer is a 5xx or a redirect, none hangs, and
// every 4xx is the JSON error envelope with the request id. Its answers also go to the
// contract check of live answers (live_answers_test.go).

// fuzzBudget bounds the fuzzer's run: it stops sending when the budget is spent and fails,
// saying how far it got, rather than let the suite run on. About 11,400 requests to 208
// operations took 50–55 s with the race detector on two busy cores (November 2026).
const fuzzBudget = 150 * time.Second

// fuzzSeed makes the random parts of the fuzzer (junk bytes) the same on every run.
const fuzzSeed = 20240501

// overlong is longer than any maxLength of the API.
var overlong = strings.Repeat("x", 100_000)

// notFuzzed lists operations the fuzzer leaves out, with the reason. Every other
// operation of the description is fuzzed. None is left out today: the fuzzer calls with
// an API key, so sign-out (which ends a session) has none to end, and the records it may
// delete or change are fixtures of its own, never its key or the administrator.
var notFuzzed = map[string]string{}

// rawPlaceholder stands in a JSON document for a string value that must be sent as raw
// bytes (invalid UTF-8), which encoding/json would otherwise repair.
const rawPlaceholder = "\u0001raw-placeholder\u0001"

// fuzzCase is one request: target is the path and query, sent exactly as written.
type fuzzCase struct {
	name    string
	method  string
	target  string
	body    []byte
	raw     string // replaces rawPlaceholder in body
	header  http.Header
	chunked bool
	// fileAnswer: the operation answers success with a file, whose type need not be JSON.
	fileAnswer bool
}

// fuzzOp is an operation of the description with what the fuzzer needs of it.
type fuzzOp struct {
	method, path string
	pathParams   []string
	queryParams  []string
	body         map[string]any // the resolved request schema, nil without a JSON body
	multipart    bool           // the request body is multipart/form-data (an upload)
	fileAnswer   bool           // a success answers a file (documented content other than JSON), not JSON
}

type fuzzer struct {
	ts      *testServer
	token   string
	client  *http.Client
	schemas map[string]any
	ids     map[string]string // valid path parameter values by "path template/param"

	mu       sync.Mutex
	sent     int
	byStatus map[int]int
	byKind   map[string]int // requests by input kind: the first word of the case name
	problems []string
}

// TestRequestFuzzer sends every operation of the API description malformed input and
// requires no 5xx, no hang and the envelope on every 4xx (see the top of this file).
func TestRequestFuzzer(t *testing.T) {
	t.Parallel()
	started := time.Now()
	ts := startServer(t, "RATE_LIMIT_PER_MINUTE=10000000", "SLACK_ENABLED=true", "OUTBOUND_ALLOW_NETWORKS=127.0.0.0/8")
	admin := ts.admin(t)
	created := admin.post(t, "/api/v1/me/api-keys", `{"name":"fuzzer"}`, http.StatusCreated)
	token := created["token"].(string)
	keyID := created["apiKey"].(map[string]any)["id"].(string)
	key := ts.bearerClient(token)
	doc := ts.openAPIDocument(t)

	f := &fuzzer{ts: ts, token: token, client: &http.Client{Timeout: 10 * time.Second},
		schemas: doc["components"].(map[string]any)["schemas"].(map[string]any), byStatus: map[int]int{}, byKind: map[string]int{}}
	ops := f.operations(doc)
	var names []string
	for _, op := range ops {
		names = append(names, op.method+" "+op.path)
	}
	for name := range notFuzzed {
		require.Contains(t, names, name, "notFuzzed names an operation the description does not have")
	}
	f.ids = fuzzFixtures(t, ts, admin, key, ops, []string{keyID, admin.user.ID})

	rng := rand.New(rand.NewPCG(fuzzSeed, fuzzSeed))
	// Deletions go last, in a second wave, so that the records they remove (an attachment,
	// a link: some deletions need no version) are still there while the other operations
	// of the same records are fuzzed.
	var plans, deletions [][]fuzzCase
	for _, op := range ops {
		if _, skip := notFuzzed[op.method+" "+op.path]; skip {
			continue
		}
		cases := f.cases(op, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())))
		if op.method == http.MethodDelete {
			deletions = append(deletions, cases)
		} else {
			plans = append(plans, cases)
		}
	}
	planned := 0
	for _, p := range append(slices.Clone(plans), deletions...) {
		planned += len(p)
	}
	for _, wave := range [][][]fuzzCase{plans, deletions} {
		f.sendAll(wave, started)
	}
	plans = append(plans, deletions...)

	resolved := 0
	for _, id := range f.ids {
		if id != "" {
			resolved++
		}
	}
	t.Logf("fuzzed %d of %d operations with %d of %d planned requests in %s (path parameters naming a record: %d of %d); "+
		"requests by input: %v; answers by status: %v; not fuzzed: %v",
		len(plans), len(ops), f.sent, planned, time.Since(started).Round(time.Millisecond), resolved, len(f.ids), f.byKind, f.byStatus, notFuzzed)
	for i, p := range f.problems {
		if i == 40 {
			t.Errorf("… and %d more", len(f.problems)-i)
			break
		}
		t.Error(p)
	}
	if len(f.problems) > 0 {
		for line := range strings.SplitSeq(ts.logs.String(), "\n") {
			if strings.Contains(line, `"level":"ERROR"`) {
				t.Logf("server: %.2000s", line)
			}
		}
	}
	require.Equal(t, planned, f.sent, "the fuzzer spent its budget of %s before sending every planned request", fuzzBudget)
}

// sendAll sends the plans on 8 workers, each plan's cases in order, until the budget
// (counted from started) is spent.
func (f *fuzzer) sendAll(plans [][]fuzzCase, started time.Time) {
	work := make(chan []fuzzCase)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for cases := range work {
				for _, c := range cases {
					if time.Since(started) > fuzzBudget {
						break
					}
					f.send(c)
				}
			}
		})
	}
	for _, p := range plans {
		work <- p
	}
	close(work)
	wg.Wait()
}

// operations lists the operations of the description, sorted.
func (f *fuzzer) operations(doc map[string]any) []fuzzOp {
	var out []fuzzOp
	for path, item := range doc["paths"].(map[string]any) {
		for method, raw := range item.(map[string]any) {
			op := raw.(map[string]any)
			fo := fuzzOp{method: strings.ToUpper(method), path: path}
			params, _ := op["parameters"].([]any)
			for _, p := range params {
				p := p.(map[string]any)
				switch p["in"] {
				case "path":
					fo.pathParams = append(fo.pathParams, p["name"].(string))
				case "query":
					fo.queryParams = append(fo.queryParams, p["name"].(string))
				}
			}
			if rb, ok := op["requestBody"].(map[string]any); ok {
				content, _ := rb["content"].(map[string]any)
				if mt, ok := content["application/json"].(map[string]any); ok {
					fo.body = f.resolve(mt["schema"].(map[string]any))
				}
				_, fo.multipart = content["multipart/form-data"]
			}
			responses, _ := op["responses"].(map[string]any)
			for code, r := range responses {
				content, _ := r.(map[string]any)["content"].(map[string]any)
				for mt := range content {
					fo.fileAnswer = fo.fileAnswer || strings.HasPrefix(code, "2") && !strings.HasPrefix(mt, "application/json")
				}
			}
			out = append(out, fo)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path+out[i].method < out[j].path+out[j].method })
	return out
}

// fuzzFixtures creates one of each resource the API manages, so that path parameters can
// name real records and malformed bodies reach the handlers, then resolves each path
// parameter to an id from its collection (never one of protected: the fuzzer's own key
// and the administrator). Creation is best effort: a parameter that resolves to nothing
// is fuzzed with garbage ids only.
func fuzzFixtures(t *testing.T, ts *testServer, admin, key *apiClient, ops []fuzzOp, protected []string) map[string]string {
	t.Helper()
	u, _ := ts.newUserNamed(t, "zz-fuzz-target", "assessee")
	ts.newRole(t, "admin.users")
	for _, c := range []struct{ path, body string }{
		{"/api/v1/me/api-keys", `{"name":"spare"}`},
		{"/api/v1/users/" + u.ID + "/api-keys", `{"name":"target key"}`},
		{"/api/v1/admin/invites", `{"intendedRole":"assessee"}`},
		{"/api/v1/notification-rules", `{"name":"r","eventTypes":["*"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]}}`},
		{"/api/v1/admin/notification-rules", `{"name":"g","eventTypes":["*"],"channels":{"inApp":true,"email":false,"webhookIds":[],"chatIds":[]},"roles":["admin"]}`},
		{"/api/v1/admin/webhooks", `{"name":"w","url":"http://127.0.0.1:9/x","eventTypes":["*"]}`},
		{"/api/v1/admin/chat-destinations", `{"platform":"slack","name":"c","url":"https://hooks.slack.com/services/A/B/C","eventTypes":["*"]}`},
	} {
		res, body := key.do(t, "POST", c.path, c.body)
		if res.StatusCode != http.StatusCreated {
			t.Logf("fixture %s: %d %v", c.path, res.StatusCode, body)
		}
	}
	for _, list := range []string{"/api/v1/admin/webhooks", "/api/v1/admin/chat-destinations"} {
		if id := firstID(t, key, list, protected); id != "" {
			key.do(t, "POST", list+"/"+id+"/test", nil) // a delivery to read and redeliver
		}
	}
	unlisted := fuzzWorkFixtures(t, ts, key)
	ids := map[string]string{}
	for _, op := range ops {
		path := op.path
		for _, p := range op.pathParams {
			k := op.path + "/" + p
			collection, _, _ := strings.Cut(path, "/{"+p+"}")
			if _, done := ids[k]; !done {
				if ids[k] = firstID(t, key, collection, protected); ids[k] == "" {
					ids[k] = unlisted[collection]
				}
			}
			if ids[k] == "" {
				break
			}
			path = strings.Replace(path, "{"+p+"}", ids[k], 1)
		}
	}
	return ids
}

// firstID returns the id of the first item of a list that is not protected.
func firstID(t *testing.T, c *apiClient, collection string, protected []string) string {
	res, body := c.do(t, "GET", collection+"?limit=50", nil)
	if res.StatusCode != http.StatusOK {
		return ""
	}
	list, _ := body["items"].([]any)
	for _, it := range list {
		m, _ := it.(map[string]any)
		if id, _ := m["id"].(string); id != "" && !slices.Contains(protected, id) {
			return id
		}
	}
	return ""
}

// target builds the path of op with its parameters set: override for one parameter
// (sent as written), valid ids (escaped) for the others, a garbage id when none is known.
func (f *fuzzer) target(op fuzzOp, param, override string) string {
	path := op.path
	for _, p := range op.pathParams {
		v := url.PathEscape(f.ids[op.path+"/"+p])
		if v == "" {
			v = "x_unknown"
		}
		if p == param {
			v = override
		}
		path = strings.Replace(path, "{"+p+"}", v, 1)
	}
	return path
}

// Values sent in path and query parameters, as they appear in the URL.
var (
	garbagePathValues  = []string{"u_zzz", "..%2F..%2Fetc", "%2e%2e", "%ZZ", "%00", "%ff%fe", "%C0%80", "%20", "-1", "0", overlong}
	garbageQueryValues = []string{"%00", "%ff%fe", "%ZZ", "%C0%80", overlong, "-1", "abc", "99999999999999999999", "1e400",
		"true", "zzz", "eyJpZCI6IngifQ", "AAAA%3D%3D"}
)

// cases plans the requests for one operation.
func (f *fuzzer) cases(op fuzzOp, rng *rand.Rand) []fuzzCase {
	base := f.target(op, "", "")
	var baseBody []byte
	if op.body != nil {
		baseBody, _ = json.Marshal(f.sample(op.body, 0))
	}
	out := []fuzzCase{{name: "plain request", method: op.method, target: base, body: baseBody}}
	add := func(name, target string, body []byte, hdr ...string) {
		c := fuzzCase{name: name, method: op.method, target: target, body: body, header: http.Header{}}
		for i := 0; i+1 < len(hdr); i += 2 {
			c.header.Set(hdr[i], hdr[i+1])
		}
		out = append(out, c)
	}

	for _, p := range op.pathParams {
		for _, v := range append(garbagePathValues, junk(rng, 12)) {
			add(fmt.Sprintf("path: %s=%.20q", p, v), f.target(op, p, v), baseBody)
		}
	}
	for _, p := range op.queryParams {
		for _, v := range append(garbageQueryValues, junk(rng, 16)) {
			add(fmt.Sprintf("query: %s=%.20q", p, v), base+"?"+p+"="+v, baseBody)
		}
		add("query: "+p+" twice", base+"?"+p+"=a&"+p+"=b", baseBody)
	}
	add("query: unknown parameters", base+"?zz%00z=1&%ff=2", baseBody)

	if op.method == http.MethodGet {
		add("HEAD: like GET", base, nil)
		out[len(out)-1].method = http.MethodHead
	}
	for _, h := range [][]string{
		{"Accept", "image/png"}, {"If-Match", overlong}, {"X-Request-Id", overlong}, {"X-Fuzz", overlong},
		{"Idempotency-Key", "not a valid key"}, {"Idempotency-Key", strings.Repeat("k", 300)}, {"X-Api-Key", "assay_\xff"},
		{"Authorization", "bearer " + f.token}, {"Authorization", "Bearer " + overlong}, {"Origin", "null"},
		{"Content-Type", "text/plain"}, {"Content-Type", "application/xml"}, {"Content-Type", "multipart/form-data; boundary=zz"},
		{"Content-Type", "application/json; charset=latin1"}, {"Content-Type", "application/json; charset=\xff"},
	} {
		add(fmt.Sprintf("header: %s: %.20q", h[0], h[1]), base, baseBody, h...)
	}
	if op.multipart {
		out = append(out, multipartCases(op.method, base, rng)...)
	}
	if op.body == nil {
		return fileAnswers(out, op.fileAnswer)
	}

	for _, b := range []struct{ name, body string }{
		{"an array body", `[]`}, {"a string body", `"x"`}, {"a null body", `null`}, {"a number body", `12`},
		{"truncated JSON", `{"a":`}, {"an empty body", ``}, {"trailing garbage", string(baseBody) + `}}`},
		{"deep nesting", strings.Repeat("[", 20000) + strings.Repeat("]", 20000)},
		{"deep objects", strings.Repeat(`{"a":`, 5000) + `1` + strings.Repeat(`}`, 5000)},
		{"an unknown field", `{"zzUnknown":1}`}, {"a NUL key", `{"\u0000":1}`}, {"an escaped NUL at the top", `"\u0000"`},
		{"random bytes", junk(rng, 64)}, {"2 MiB of JSON", `{"a":"` + strings.Repeat("x", 2<<20) + `"}`},
	} {
		add("body: "+b.name, base, []byte(b.body))
	}
	add("body: latin-1 bytes", base, latin1(baseBody), "Content-Type", "application/json; charset=latin1")
	out = append(out, fuzzCase{name: "body: chunked", method: op.method, target: base, body: baseBody, chunked: true})

	for _, fld := range f.fields(op.body, nil, 0) {
		for _, m := range mutations(fld.schema) {
			doc := f.sample(op.body, 0)
			setAt(&doc, fld.path, m.value)
			raw, err := json.Marshal(doc)
			if err != nil {
				continue
			}
			c := fuzzCase{name: "field: " + strings.Join(fld.path, ".") + ": " + m.name, method: op.method, target: base, body: raw}
			if m.raw != "" {
				c.raw = m.raw
			}
			out = append(out, c)
		}
	}
	return fileAnswers(out, op.fileAnswer)
}

// fileAnswers marks the cases of an operation that answers success with a file.
func fileAnswers(cases []fuzzCase, file bool) []fuzzCase {
	for i := range cases {
		cases[i].fileAnswer = file
	}
	return cases
}

// latin1 puts an ISO 8859-1 "é" (0xE9, invalid UTF-8) into the first string of a body.
func latin1(body []byte) []byte {
	if i := bytes.Index(body, []byte(`":"`)); i >= 0 {
		return slices.Concat(body[:i+3], []byte("caf\xe9"), body[i+3:])
	}
	return []byte("{\"caf\xe9\":1}")
}

// junk returns n seeded random bytes, percent-encoded.
func junk(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.UintN(256))
	}
	return url.QueryEscape(string(b))
}

type mutation struct {
	name  string
	value any
	raw   string
}

// mutations are the malformed values tried on a field of the given schema.
func mutations(schema map[string]any) []mutation {
	out := []mutation{{name: "null", value: nil}}
	switch schemaType(schema) {
	case "string":
		out = append(out,
			mutation{name: "NUL", value: "fu\u0000zz"},
			mutation{name: "invalid UTF-8", value: rawPlaceholder, raw: "fu\xff\xfezz"},
			mutation{name: "overlong", value: overlong},
			mutation{name: "a number", value: 12345},
			mutation{name: "an object", value: map[string]any{"a": 1}})
	case "integer", "number":
		out = append(out,
			mutation{name: "a string", value: "12"},
			mutation{name: "huge", value: json.Number("1e400")},
			mutation{name: "negative", value: -1},
			mutation{name: "a fraction", value: 3.5},
			mutation{name: "beyond int64", value: json.Number("99999999999999999999")})
	case "boolean":
		out = append(out, mutation{name: "a string", value: "yes"}, mutation{name: "a number", value: 1})
	case "array":
		out = append(out, mutation{name: "an object", value: map[string]any{}}, mutation{name: "a string", value: "x"},
			mutation{name: "many items", value: slices.Repeat([]any{"x"}, 5000)})
	case "object":
		out = append(out, mutation{name: "an array", value: []any{}}, mutation{name: "a string", value: "x"})
	default:
		out = append(out, mutation{name: "NUL", value: "\u0000"})
	}
	return out
}

type fuzzField struct {
	path   []string // property names; "[]" steps into an array's item
	schema map[string]any
}

// fields lists the fields of a schema to mutate: every property, nested objects and
// array items down to a small depth.
func (f *fuzzer) fields(schema map[string]any, prefix []string, depth int) []fuzzField {
	if depth > 3 {
		return nil
	}
	var out []fuzzField
	switch schemaType(schema) {
	case "object":
		props, _ := schema["properties"].(map[string]any)
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			s := f.resolve(props[n].(map[string]any))
			p := append(slices.Clone(prefix), n)
			out = append(out, fuzzField{path: p, schema: s})
			out = append(out, f.fields(s, p, depth+1)...)
		}
	case "array":
		if items, ok := schema["items"].(map[string]any); ok {
			s := f.resolve(items)
			p := append(slices.Clone(prefix), "[]")
			out = append(out, fuzzField{path: p, schema: s})
			out = append(out, f.fields(s, p, depth+1)...)
		}
	}
	return out
}

// setAt sets the value at path in a JSON value, creating objects and one-item arrays.
func setAt(doc *any, path []string, value any) {
	if len(path) == 0 {
		*doc = value
		return
	}
	if path[0] == "[]" {
		var item any
		if a, ok := (*doc).([]any); ok && len(a) > 0 {
			item = a[0]
		}
		setAt(&item, path[1:], value)
		*doc = []any{item}
		return
	}
	m, ok := (*doc).(map[string]any)
	if !ok {
		m = map[string]any{}
	}
	child := m[path[0]]
	setAt(&child, path[1:], value)
	m[path[0]] = child
	*doc = m
}

// resolve follows a $ref to the components.
func (f *fuzzer) resolve(s map[string]any) map[string]any {
	if ref, ok := s["$ref"].(string); ok {
		if r, ok := f.schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any); ok {
			return r
		}
	}
	return s
}

func schemaType(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if x != "null" {
				return x.(string)
			}
		}
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	return ""
}

// sample builds a plausible value of a schema: its required members only.
func (f *fuzzer) sample(s map[string]any, depth int) any {
	s = f.resolve(s)
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	switch schemaType(s) {
	case "string":
		switch s["format"] {
		case "email":
			return "fuzz@example.com"
		case "uri":
			return "https://example.com/fuzz"
		case "date-time":
			return "2024-05-01T12:00:00Z"
		}
		n, _ := s["minLength"].(float64)
		return "fuzz" + strings.Repeat("z", max(int(n)-4, 0))
	case "integer", "number":
		if m, ok := s["minimum"].(float64); ok {
			return m
		}
		return 1
	case "boolean":
		return false
	case "array":
		n, _ := s["minItems"].(float64)
		items, _ := s["items"].(map[string]any)
		out := []any{}
		for range int(n) {
			out = append(out, f.sample(items, depth+1))
		}
		return out
	case "object":
		out := map[string]any{}
		if depth > 4 {
			return out
		}
		props, _ := s["properties"].(map[string]any)
		required, _ := s["required"].([]any)
		for _, r := range required {
			if p, ok := props[r.(string)].(map[string]any); ok {
				out[r.(string)] = f.sample(p, depth+1)
			}
		}
		return out
	}
	return "fuzz"
}

// send sends one case and checks the answer.
func (f *fuzzer) send(c fuzzCase) {
	u, _ := url.Parse(f.ts.url)
	u.Opaque = c.target
	body := c.body
	if c.raw != "" {
		placeholder, _ := json.Marshal(rawPlaceholder)
		if !bytes.Contains(body, placeholder) {
			panic("fuzz case " + c.name + ": no placeholder for the raw value")
		}
		body = bytes.ReplaceAll(body, placeholder, []byte(`"`+c.raw+`"`))
	}
	req := &http.Request{Method: c.method, URL: u, Host: u.Host, Header: http.Header{}}
	if body != nil {
		req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		req.Header.Set("Content-Type", "application/json")
	}
	if c.chunked {
		req.ContentLength = -1
	}
	req.Header.Set("Authorization", "Bearer "+f.token)
	for name, values := range c.header {
		req.Header[name] = values
	}
	problem, status := f.check(req, c.fileAnswer)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent++
	f.byStatus[status]++
	kind, _, _ := strings.Cut(c.name, " ")
	f.byKind[strings.TrimSuffix(kind, ":")]++
	if problem != "" {
		path, _, _ := strings.Cut(c.target, "?")
		f.problems = append(f.problems, fmt.Sprintf("%s %.120s — %s: %s", c.method, path, c.name, problem))
	}
}

// check sends req and returns what is wrong with the answer ("" when nothing) and its
// status (0 when none came).
func (f *fuzzer) check(req *http.Request, fileAnswer bool) (string, int) {
	res, err := f.client.Do(req)
	if err != nil {
		return "no answer: " + err.Error(), 0
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return "the answer could not be read: " + err.Error(), res.StatusCode
	}
	s := res.StatusCode
	// Every answer to a credential counts against its budget and says so (issue 26 item 11),
	// malformed input or not; except the unlimited paths (health, the API description) and
	// the requests net/http itself cannot parse (answered on the connection, which closes),
	// where no credential was read.
	limited := req.URL.Path != "/api/health" && !strings.HasPrefix(req.URL.Opaque, "/api/health") &&
		!strings.HasPrefix(req.URL.Opaque, "/api/v1/openapi.json") && !strings.HasPrefix(req.URL.Opaque, "/api/v1/docs") && !res.Close
	if limited && s < 500 && (res.Header.Get("X-RateLimit-Limit") == "" || res.Header.Get("X-RateLimit-Remaining") == "" ||
		res.Header.Get("X-RateLimit-Reset") == "") {
		return fmt.Sprintf("answered %d without the X-RateLimit headers", s), s
	}
	switch {
	case s >= 500:
		return fmt.Sprintf("answered %d: %.300s", s, raw), s
	case s >= 300 && s < 400:
		return fmt.Sprintf("answered %d", s), s
	case s < 400:
		if len(raw) > 0 && !fileAnswer && !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			return fmt.Sprintf("answered %d with %s", s, res.Header.Get("Content-Type")), s
		}
		return "", s
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		return fmt.Sprintf("answered %d with Content-Type %q: %.200s", s, ct, raw), s
	}
	id := res.Header.Get("X-Request-Id")
	if id == "" {
		return fmt.Sprintf("answered %d without X-Request-Id", s), s
	}
	if req.Method == http.MethodHead {
		return "", s
	}
	var env struct {
		Error, Message, RequestID string
	}
	if err := json.Unmarshal(raw, &env); err != nil || env.Error == "" || env.Message == "" || env.RequestID != id {
		return fmt.Sprintf("answered %d without the envelope: %.300s", s, raw), s
	}
	return "", s
}
