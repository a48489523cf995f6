package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/cyclonedx"
	"github.com/assay-dev/assay/pkg/cyclonedx/cdxtest"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/standards/starter"
)

// standardDocuments returns the catalogue documents, by path relative to standards/.
func standardDocuments(t testing.TB) []string {
	t.Helper()
	root := filepath.Join(cdxtest.SharedData(t), "standards")
	var out []string
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".cdx.json") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	}))
	require.GreaterOrEqual(t, len(out), 12)
	return out
}

// upload sends content as the file part of a multipart POST.
func (c *apiClient) upload(t testing.TB, path, filename string, content []byte) (*http.Response, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	part, err := mw.CreateFormFile("file", filename)
	require.NoError(t, err)
	_, _ = part.Write(content)
	require.NoError(t, mw.Close())
	req, err := http.NewRequest(http.MethodPost, c.ts.url+path, &buf)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
	}
	for name, values := range c.header {
		req.Header[name] = values
	}
	return c.send(t, req)
}

// download GETs a file and returns the response and its bytes.
func (c *apiClient) download(t testing.TB, path string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.ts.url+path, nil)
	require.NoError(t, err)
	for name, values := range c.header {
		req.Header[name] = values
	}
	res, err := c.http.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, raw
}

// countStandards counts the standards, requirements and levels in the server's database.
func countStandards(t testing.TB, ts *testServer) [3]int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, ts.dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var n [3]int
	require.NoError(t, conn.QueryRow(ctx, `SELECT (SELECT count(*) FROM standards), (SELECT count(*) FROM requirements),
		(SELECT count(*) FROM levels)`).Scan(&n[0], &n[1], &n[2]))
	return n
}

// treeShape is what a round trip must keep of a standard.
type treeShape struct {
	Identifier, Version, Name string
	Requirements              map[string][3]string // identifier → name, description, parent identifier
	Levels                    map[string][]string  // level identifier → requirement identifiers, sorted
}

func shapeOf(s assess.StandardImport) treeShape {
	out := treeShape{Identifier: s.Identifier, Version: s.StandardVersion, Name: s.Name,
		Requirements: map[string][3]string{}, Levels: map[string][]string{}}
	for _, r := range s.Requirements {
		out.Requirements[r.Identifier] = [3]string{r.Name, r.Description, r.Parent}
	}
	for _, l := range s.Levels {
		out.Levels[l.Identifier] = slices.Sorted(slices.Values(l.Requirements))
	}
	return out
}

// parseShapes parses a document (which also validates it against its schema).
func parseShapes(t testing.TB, doc []byte) []treeShape {
	t.Helper()
	imports, err := cyclonedx.Parse(doc)
	require.NoError(t, err)
	var out []treeShape
	for _, s := range imports {
		out = append(out, shapeOf(s))
	}
	return out
}

// serveStandards serves the catalogue folder on loopback; the feed's URLs point at it.
func serveStandards(t *testing.T) *httptest.Server {
	t.Helper()
	root := filepath.Join(cdxtest.SharedData(t), "standards")
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/feed.json" {
			raw, err := os.ReadFile(filepath.Join(root, "feed.json"))
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			raw = bytes.ReplaceAll(raw, []byte("https://raw.githubusercontent.com/CycloneDX/official-3rd-party-standards/main/standards/"), []byte(srv.URL+"/"))
			w.Header().Set("Content-Type", "application/feed+json")
			_, _ = w.Write(raw)
			return
		}
		http.FileServer(http.Dir(root)).ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestStandardImportRoundTrip: every document of the catalogue imports in one request, as
// an upload and by URL, and exports again as a schema-valid 1.6 and 1.7 document with the
// same identifiers, names, descriptions, tree and levels.
func TestStandardImportRoundTrip(t *testing.T) {
	t.Parallel()
	files := standardDocuments(t)
	srv := serveStandards(t)
	for _, via := range []string{"upload", "url"} {
		t.Run(via, func(t *testing.T) {
			t.Parallel()
			ts := startServer(t, "OUTBOUND_ALLOW_NETWORKS=127.0.0.0/8")
			admin := ts.admin(t)
			for _, rel := range files {
				t.Run(rel, func(t *testing.T) {
					raw, err := os.ReadFile(filepath.Join(cdxtest.SharedData(t), "standards", rel))
					require.NoError(t, err)
					var res *http.Response
					var body map[string]any
					if via == "upload" {
						res, body = admin.upload(t, "/api/v1/standards/import", filepath.Base(rel), raw)
					} else {
						res, body = admin.do(t, "POST", "/api/v1/standards/import-url", map[string]string{"url": srv.URL + "/" + rel})
					}
					require.Equal(t, http.StatusCreated, res.StatusCode, body)
					require.Equal(t, float64(1), body["created"])
					st := body["standards"].([]any)[0].(map[string]any)
					require.Equal(t, "created", st["outcome"])
					require.Equal(t, "published", st["state"])
					require.Equal(t, "import", st["source"])
					require.Equal(t, admin.user.ID, st["createdBy"])
					want := parseShapes(t, raw)
					for _, spec := range []string{"1.6", "1.7"} {
						res, doc := admin.download(t, "/api/v1/standards/"+st["id"].(string)+"/export?specVersion="+spec)
						require.Equal(t, http.StatusOK, res.StatusCode, string(doc))
						require.Equal(t, cyclonedx.MediaType, res.Header.Get("Content-Type"))
						require.Regexp(t, `^attachment; filename="[A-Za-z0-9._-]+\.cdx\.json"$`, res.Header.Get("Content-Disposition"))
						require.Contains(t, string(doc), `"specVersion": "`+spec+`"`)
						require.Equal(t, want, parseShapes(t, doc), spec)
					}
				})
			}
		})
	}
}

// TestStandardImportRules: idempotency, all-or-nothing, schema errors with their path,
// hostile input answered with our envelope, never 500.
func TestStandardImportRules(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "STANDARDS_IMPORT_MAX_BYTES=200000")
	admin := ts.admin(t)
	srv := serveStandards(t)
	scvs, err := os.ReadFile(filepath.Join(cdxtest.SharedData(t), "standards", "OWASP", "SCVS", "scvs-1.0.0.cdx.json"))
	require.NoError(t, err)

	step(t, "a document imports", func(t *testing.T) {
		res, body := admin.upload(t, "/api/v1/standards/import", "scvs.json", scvs)
		require.Equal(t, http.StatusCreated, res.StatusCode, body)
	})
	t.Run("the same document again is unchanged", func(t *testing.T) {
		before := countStandards(t, ts)
		res, body := admin.upload(t, "/api/v1/standards/import", "scvs.json", scvs)
		require.Equal(t, http.StatusOK, res.StatusCode, body)
		require.Equal(t, float64(0), body["created"])
		require.Equal(t, float64(1), body["unchanged"])
		require.Equal(t, "unchanged", body["standards"].([]any)[0].(map[string]any)["outcome"])
		require.Equal(t, before, countStandards(t, ts))
	})
	t.Run("a document that breaks the schema names the path and writes nothing", func(t *testing.T) {
		before := countStandards(t, ts)
		bad := bytes.Replace(scvs, []byte(`"bom-ref": "SCVS-1.0",`), []byte(`"bom-ref": "SCVS-other", "colour": 7,`), 1)
		require.NotEqual(t, scvs, bad)
		res, body := admin.upload(t, "/api/v1/standards/import", "bad.json", bad)
		requireEnvelope(t, res, body, 422, "business_rule_violation")
		d := body["details"].([]any)[0].(map[string]any)
		require.Equal(t, "schema_invalid", d["code"])
		require.Equal(t, "/definitions/standards/0", d["field"])
		require.Equal(t, before, countStandards(t, ts))
	})
	t.Run("a second standard that cannot be written leaves the first unwritten", func(t *testing.T) {
		before := countStandards(t, ts)
		doc := `{"bomFormat":"CycloneDX","specVersion":"1.6","definitions":{"standards":[
			{"bom-ref":"a","name":"Fine","version":"1","requirements":[{"bom-ref":"r1","identifier":"R1"}]},
			{"bom-ref":"b","name":"Broken","version":"1","requirements":[{"bom-ref":"x","identifier":"X","parent":"y"},{"bom-ref":"y","identifier":"Y","parent":"x"}]}]}}`
		res, body := admin.upload(t, "/api/v1/standards/import", "two.json", []byte(doc))
		requireEnvelope(t, res, body, 422, "business_rule_violation")
		require.Equal(t, "cycle", detailCode(t, body))
		require.Equal(t, before, countStandards(t, ts))
	})
	hostile := []struct {
		name    string
		content []byte
		status  int
		code    string
	}{
		{"not JSON", []byte("definitely not json"), 422, "business_rule_violation"},
		{"NUL bytes", []byte("{\"bomFormat\":\"CycloneDX\"\x00\x00}"), 422, "business_rule_violation"},
		{"NUL escaped in a name", []byte(`{"bomFormat":"CycloneDX","specVersion":"1.6","definitions":{"standards":[{"bom-ref":"s","name":"A\u0000B"}]}}`), 422, "business_rule_violation"},
		{"an image", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), 422, "business_rule_violation"},
		{"other JSON", []byte(`{"hello":"world"}`), 422, "business_rule_violation"},
		{"a JSON array", []byte(`[[[[[[[[[[]]]]]]]]]]`), 422, "business_rule_violation"},
		{"deep nesting", bytes.Repeat([]byte("["), 100000), 422, "business_rule_violation"},
		{"CycloneDX 1.5", []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":1}`), 422, "business_rule_violation"},
		{"no standards", []byte(`{"bomFormat":"CycloneDX","specVersion":"1.7","version":1}`), 422, "business_rule_violation"},
		{"huge", bytes.Repeat([]byte(" "), 300000), 413, "payload_too_large"},
	}
	for _, h := range hostile {
		t.Run("hostile upload: "+h.name, func(t *testing.T) {
			before := countStandards(t, ts)
			res, body := admin.upload(t, "/api/v1/standards/import", "x.json", h.content)
			requireEnvelope(t, res, body, h.status, h.code)
			require.Equal(t, before, countStandards(t, ts))
		})
	}
	t.Run("not multipart", func(t *testing.T) {
		admin.fails(t, "POST", "/api/v1/standards/import", `{"bomFormat":"CycloneDX"}`, 415, "unsupported_media_type")
	})
	for _, bad := range []struct{ name, url, code string }{
		{"loopback outside OUTBOUND_ALLOW_NETWORKS", srv.URL + "/OWASP/SCVS/scvs-1.0.0.cdx.json", "url_not_allowed"},
		{"cloud metadata", "https://169.254.169.254/latest/meta-data", "url_not_allowed"},
		{"not a URL", "::::", "url_not_allowed"},
		{"file scheme", "file:///etc/passwd", "url_not_allowed"},
	} {
		t.Run("refused URL: "+bad.name, func(t *testing.T) {
			body := admin.fails(t, "POST", "/api/v1/standards/import-url", map[string]string{"url": bad.url}, 422, "business_rule_violation")
			require.Equal(t, bad.code, detailCode(t, body))
		})
	}
	t.Run("export of an unknown standard is 404", func(t *testing.T) {
		admin.fails(t, "GET", "/api/v1/standards/st_nope/export", nil, 404, "not_found")
		admin.fails(t, "GET", "/api/v1/standards/01234/export.csv", nil, 404, "not_found")
	})
	t.Run("an unknown spec version is refused", func(t *testing.T) {
		res, _ := admin.do(t, "GET", "/api/v1/standards/st_nope/export?specVersion=1.5", nil)
		require.Equal(t, 400, res.StatusCode)
	})
	t.Run("a user without standards.import cannot import", func(t *testing.T) {
		_, viewer := ts.newUser(t, "assessee")
		res, body := viewer.upload(t, "/api/v1/standards/import", "scvs.json", scvs)
		requireEnvelope(t, res, body, 403, "permission_denied")
	})
}

// TestStandardImportURLErrors: a download that fails is 422 fetch_failed, saying why in
// words, or too_large.
func TestStandardImportURLErrors(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "OUTBOUND_ALLOW_NETWORKS=127.0.0.0/8", "STANDARDS_IMPORT_MAX_BYTES=50000")
	admin := ts.admin(t)
	srv := serveStandards(t)
	for _, bad := range []struct{ name, url, code, message string }{
		{"missing document", srv.URL + "/nothing-here.json", "fetch_failed",
			"The document at 127.0.0.1 could not be downloaded: it answered HTTP 404 Not Found."},
		{"closed port", "http://127.0.0.1:1/x.json", "fetch_failed",
			"The document at 127.0.0.1 could not be downloaded: the connection was refused."},
		{"too large", srv.URL + "/OWASP/ASVS/asvs-5.0.0.cdx.json", "too_large",
			"The document is larger than 50000 bytes (STANDARDS_IMPORT_MAX_BYTES)."},
	} {
		t.Run(bad.name, func(t *testing.T) {
			body := admin.fails(t, "POST", "/api/v1/standards/import-url", map[string]string{"url": bad.url}, 422, "business_rule_violation")
			require.Equal(t, bad.code, detailCode(t, body))
			require.Equal(t, bad.message, body["message"])
		})
	}
}

// startStarterServer is startServer whose starter documents are those of fsys: the
// catalogue's (catalogueFS), as in a release binary, or none (fstest.MapFS{}), as in a build
// that did not fetch them.
func startStarterServer(t *testing.T, fsys fs.FS, env ...string) *testServer {
	t.Helper()
	return startServerWith(t, pgtest.NewDatabase(t), options{StarterStandards: fsys}, env...)
}

// catalogueFS is the shared copy of the CycloneDX catalogue's standards/ folder: it holds the
// starter documents where the fetch script puts them for the build.
func catalogueFS(t testing.TB) fs.FS {
	t.Helper()
	return os.DirFS(filepath.Join(cdxtest.SharedData(t), "standards"))
}

// TestStarterStandardsOffline: with the feed unreachable (STANDARDS_FEED_URL at a closed
// loopback port, as on a machine without the internet) the setup wizard's starter set
// imports from the documents built into the server, and again lists them as present; the
// feed page's calls are answered in words with detail feed_unreachable, never a Go error.
// A server built without the documents answers the starter set the same way.
func TestStarterStandardsOffline(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := l.Addr().String()
	require.NoError(t, l.Close())
	env := []string{"OUTBOUND_ALLOW_NETWORKS=127.0.0.0/8", "STANDARDS_FEED_URL=http://" + closed + "/feed.json"}
	ts := startStarterServer(t, catalogueFS(t), env...)
	admin := ts.admin(t)

	step(t, "the starter set imports with no network", func(t *testing.T) {
		require.Equal(t, true, admin.get(t, "/api/v1/setup/status", 200)["starterStandardsBuiltIn"], "the wizard may promise it")
		body := admin.post(t, "/api/v1/standards/starter", nil, 201)
		require.Equal(t, float64(4), body["created"])
		var got []string
		for _, st := range body["standards"].([]any) {
			st := st.(map[string]any)
			require.Equal(t, "created", st["outcome"])
			require.Equal(t, "published", st["state"])
			got = append(got, fmt.Sprint(st["name"], " ", st["standardVersion"]))
		}
		require.Equal(t, []string{"Application Security Verification Standard (ASVS) 5.0.0",
			"Secure Software Development Framework (SSDF) Version 1.1 1.1",
			"OWASP Software Assurance Maturity Model (SAMM) 2.1.0",
			"Software Component Verification Standard (SCVS) 1.0"}, got)
		require.Equal(t, [3]int{4, 442 + 65 + 140 + 93, 9}, countStandards(t, ts))
	})
	step(t, "a second call lists them as present", func(t *testing.T) {
		body := admin.post(t, "/api/v1/standards/starter", nil, 200)
		require.Equal(t, float64(0), body["created"])
		require.Equal(t, float64(4), body["unchanged"])
		require.Len(t, body["standards"], 4)
	})
	const unreachable = "The standards feed at 127.0.0.1 could not be reached: the connection was refused."
	t.Run("the feed says in words that it cannot be reached", func(t *testing.T) {
		body := admin.fails(t, "GET", "/api/v1/standards/feed", nil, 422, "business_rule_violation")
		require.Equal(t, unreachable, body["message"])
		require.Equal(t, "feed_unreachable", detailCode(t, body))
		body = admin.fails(t, "POST", "/api/v1/standards/feed/import", map[string]string{"itemId": starter.Manifest()[0].FeedItemID}, 422, "business_rule_violation")
		require.Equal(t, unreachable, body["message"])
		require.Equal(t, "feed_unreachable", detailCode(t, body))
	})
	t.Run("without the documents built in, the starter set needs the feed", func(t *testing.T) {
		ts := startStarterServer(t, fstest.MapFS{}, env...)
		admin := ts.admin(t)
		require.Equal(t, false, admin.get(t, "/api/v1/setup/status", 200)["starterStandardsBuiltIn"], "the wizard promises no import without the network")
		body := admin.fails(t, "POST", "/api/v1/standards/starter", nil, 422, "business_rule_violation")
		require.Equal(t, unreachable, body["message"])
		require.Equal(t, "feed_unreachable", detailCode(t, body))
		require.Equal(t, [3]int{}, countStandards(t, ts))
	})
}

// feedItem returns the item id of the feed answer.
func feedItem(t testing.TB, body map[string]any, id string) map[string]any {
	t.Helper()
	for _, it := range items(t, body) {
		if it["id"] == id {
			return it
		}
	}
	t.Fatalf("the feed has no item %s", id)
	return nil
}

// TestStandardFeedAPI: statuses before and after imports, update_available, the feed
// import beside an older version, the starter set from the feed (a server built without
// its documents).
func TestStandardFeedAPI(t *testing.T) {
	t.Parallel()
	srv := serveStandards(t)
	ts := startStarterServer(t, fstest.MapFS{}, "OUTBOUND_ALLOW_NETWORKS=127.0.0.0/8", "STANDARDS_FEED_URL="+srv.URL+"/feed.json")
	admin := ts.admin(t)
	const asvs4, asvs5 = "application-security-verification-standard-asvs-@4.0.3", "application-security-verification-standard-asvs-@5.0.0"

	step(t, "nothing is imported at first", func(t *testing.T) {
		feed := admin.get(t, "/api/v1/standards/feed", 200)
		list := items(t, feed)
		require.Len(t, list, 12)
		for _, it := range list {
			require.Equal(t, "not_imported", it["status"], it["id"])
			require.True(t, strings.HasPrefix(it["url"].(string), srv.URL), it["url"])
		}
		require.Equal(t, "application-security-verification-standard-asvs", feedItem(t, feed, asvs5)["identifier"])
	})
	var old string
	step(t, "ASVS 4.0.3 from the feed", func(t *testing.T) {
		body := admin.post(t, "/api/v1/standards/feed/import", map[string]string{"itemId": asvs4}, 201)
		st := body["standards"].([]any)[0].(map[string]any)
		require.Equal(t, "feed", st["source"])
		require.Equal(t, "4.0.3", st["standardVersion"])
		old = st["id"].(string)
	})
	step(t, "then ASVS 5.0.0 is an update", func(t *testing.T) {
		feed := admin.get(t, "/api/v1/standards/feed", 200)
		require.Equal(t, "imported", feedItem(t, feed, asvs4)["status"])
		require.Equal(t, old, feedItem(t, feed, asvs4)["importedId"])
		it := feedItem(t, feed, asvs5)
		require.Equal(t, "update_available", it["status"])
		require.Equal(t, []any{old}, it["standardIds"])
	})
	step(t, "importing it adds the new version beside the old", func(t *testing.T) {
		body := admin.post(t, "/api/v1/standards/feed/import", map[string]string{"itemId": asvs5}, 201)
		st := body["standards"].([]any)[0].(map[string]any)
		require.NotEqual(t, old, st["id"])
		feed := admin.get(t, "/api/v1/standards/feed", 200)
		require.Equal(t, "imported", feedItem(t, feed, asvs4)["status"])
		require.Equal(t, "imported", feedItem(t, feed, asvs5)["status"])
		require.Len(t, feedItem(t, feed, asvs5)["standardIds"], 2)
	})
	t.Run("an older version than the local one is not an update", func(t *testing.T) {
		admin.post(t, "/api/v1/standards/feed/import", map[string]string{"itemId": "mobile-application-security-verification-standard-masvs-@v2.1.0"}, 201)
		feed := admin.get(t, "/api/v1/standards/feed", 200)
		require.Equal(t, "not_imported", feedItem(t, feed, "mobile-application-security-verification-standard-masvs-@2.0.0")["status"])
	})
	t.Run("an unknown item is 404", func(t *testing.T) {
		admin.fails(t, "POST", "/api/v1/standards/feed/import", map[string]string{"itemId": "nothing@1"}, 404, "not_found")
	})
	step(t, "the starter set imports from the feed what is missing", func(t *testing.T) {
		body := admin.post(t, "/api/v1/standards/starter", nil, 201)
		require.Equal(t, float64(3), body["created"])
		require.Equal(t, float64(1), body["unchanged"])
		body = admin.post(t, "/api/v1/standards/starter", nil, 200)
		require.Equal(t, float64(0), body["created"])
		require.Equal(t, float64(4), body["unchanged"])
		feed := admin.get(t, "/api/v1/standards/feed", 200)
		for _, d := range starter.Manifest() {
			require.Equal(t, "imported", feedItem(t, feed, d.FeedItemID)["status"], d.FeedItemID)
		}
	})
}

// csvRows reads an exported CSV into identifier → parent, name, description, sorted levels.
func csvRows(t testing.TB, raw []byte) map[string][4]string {
	t.Helper()
	require.True(t, bytes.HasPrefix(raw, []byte("\uFEFF")), "the export begins with a byte order mark, for spreadsheets")
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(raw, []byte("\uFEFF")))).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"identifier", "parent", "name", "description", "levels"}, recs[0])
	out := map[string][4]string{}
	for _, r := range recs[1:] {
		levels := strings.Split(r[4], ";")
		slices.Sort(levels)
		out[r[0]] = [4]string{r[1], r[2], r[3], strings.Join(levels, ";")}
	}
	return out
}

// newDraftStandard inserts an empty draft (the standards core creates them through the API).
func newDraftStandard(t testing.TB, ts *testServer, identifier string) string {
	t.Helper()
	id := assess.NewID(assess.PrefixStandard, time.Now())
	execSQL(t, ts, `INSERT INTO standards (id, identifier, standard_version, name) VALUES ($1, $2, '1', $2)`, id, identifier)
	return id
}

// TestStandardCSVAPI: export and import of one requirement tree as CSV.
func TestStandardCSVAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	admin := ts.admin(t)
	asvs, err := os.ReadFile(filepath.Join(cdxtest.SharedData(t), "standards", "OWASP", "ASVS", "asvs-5.0.0.cdx.json"))
	require.NoError(t, err)
	res, body := admin.upload(t, "/api/v1/standards/import", "asvs.json", asvs)
	require.Equal(t, 201, res.StatusCode, body)
	published := body["standards"].([]any)[0].(map[string]any)["id"].(string)

	var exported []byte
	step(t, "export as CSV", func(t *testing.T) {
		res, raw := admin.download(t, "/api/v1/standards/"+published+"/export.csv")
		require.Equal(t, 200, res.StatusCode, string(raw))
		require.Equal(t, "text/csv; charset=utf-8", res.Header.Get("Content-Type"))
		require.Equal(t, `attachment; filename="application-security-verification-standard-asvs-5.0.0.csv"`, res.Header.Get("Content-Disposition"))
		rows := csvRows(t, raw)
		require.Len(t, rows, 442)
		require.Equal(t, "V1.2", rows["V1.2.1"][0])
		require.Contains(t, rows["V1.2.1"][3], "Level 1")
		exported = raw
	})
	draft := newDraftStandard(t, ts, "csv-copy")
	step(t, "import it into a draft: the same tree", func(t *testing.T) {
		res, body := admin.upload(t, "/api/v1/standards/"+draft+"/import-csv", "asvs.csv", exported)
		require.Equal(t, 200, res.StatusCode, body)
		require.Equal(t, float64(442), body["created"])
		require.Equal(t, float64(3), body["levelsCreated"])
		_, again := admin.download(t, "/api/v1/standards/"+draft+"/export.csv")
		require.Equal(t, csvRows(t, exported), csvRows(t, again))
	})
	t.Run("formula cells are guarded and come back", func(t *testing.T) {
		file := "identifier,parent,name,description,levels\nF1,,\"=HYPERLINK(\"\"x\"\")\",'-1,\n@F2,F1,+1,ok,Level 1\n"
		res, body := admin.upload(t, "/api/v1/standards/"+draft+"/import-csv", "f.csv", []byte(file))
		require.Equal(t, 200, res.StatusCode, body)
		require.Equal(t, float64(2), body["created"])
		_, raw := admin.download(t, "/api/v1/standards/"+draft+"/export.csv")
		require.Contains(t, string(raw), "F1,,\"'=HYPERLINK(\"\"x\"\")\",'-1,\n")
		require.Contains(t, string(raw), "'@F2,F1,'+1,ok,Level 1\n")
		rows := csvRows(t, raw)
		require.Equal(t, [4]string{"", "'=HYPERLINK(\"x\")", "'-1", ""}, rows["F1"])
	})
	t.Run("an existing identifier is updated", func(t *testing.T) {
		body := admin.upload2(t, "/api/v1/standards/"+draft+"/import-csv", "identifier,parent,name\nV1.2.1,V1.2,Renamed\n")
		require.Equal(t, float64(1), body["updated"])
		_, raw := admin.download(t, "/api/v1/standards/"+draft+"/export.csv")
		require.Equal(t, "Renamed", csvRows(t, raw)["V1.2.1"][1])
	})
	t.Run("an unknown parent names the line and writes nothing", func(t *testing.T) {
		before := countStandards(t, ts)
		res, body := admin.upload(t, "/api/v1/standards/"+draft+"/import-csv", "x.csv",
			[]byte("identifier,parent,name\nN1,,new\nN2,NOPE,orphan\n"))
		requireEnvelope(t, res, body, 422, "business_rule_violation")
		d := body["details"].([]any)[0].(map[string]any)
		require.Equal(t, "unknown_parent", d["code"])
		require.Equal(t, "lines[3].parent", d["field"])
		require.Equal(t, before, countStandards(t, ts))
	})
	t.Run("a cycle is refused", func(t *testing.T) {
		res, body := admin.upload(t, "/api/v1/standards/"+draft+"/import-csv", "x.csv", []byte("identifier,parent\nV1,V1.2.1\n"))
		requireEnvelope(t, res, body, 422, "business_rule_violation")
		require.Equal(t, "cycle", detailCode(t, body))
	})
	t.Run("a published standard is not a draft", func(t *testing.T) {
		res, body := admin.upload(t, "/api/v1/standards/"+published+"/import-csv", "asvs.csv", exported)
		requireEnvelope(t, res, body, 409, "conflict")
		require.Equal(t, "not_draft", detailCode(t, body))
	})
	for _, bad := range []struct{ name, file string }{
		{"no header", ""},
		{"no identifier column", "name,parent\nx,y\n"},
		{"NUL bytes", "identifier\nA\x00B\n"},
		{"broken quoting", "identifier,name\nA,\"unterminated\n"},
		{"a quote opened in the first field and never closed", "identifier,parent,name,description,levels\n\"unterminated,,a,,"},
		{"more cells than the header has columns", "identifier,name\nX1,a name, with a comma\n"},
		{"a name longer than the API takes", "identifier,name\nLONG1," + strings.Repeat("n", 1001) + "\n"},
		{"empty identifier", "identifier,name\n,x\n"},
	} {
		t.Run("a malformed file: "+bad.name, func(t *testing.T) {
			res, body := admin.upload(t, "/api/v1/standards/"+draft+"/import-csv", "x.csv", []byte(bad.file))
			requireEnvelope(t, res, body, 422, "business_rule_violation")
		})
	}
}

// upload2 uploads text and requires 200.
func (c *apiClient) upload2(t testing.TB, path, content string) map[string]any {
	t.Helper()
	res, body := c.upload(t, path, "f.csv", []byte(content))
	require.Equal(t, 200, res.StatusCode, body)
	return body
}

// BenchmarkImportASVS imports OWASP ASVS 5.0.0 (442 requirements, 3 levels), the largest
// document of the catalogue, through the API: parse, schema validation and the write.
// Each round imports it under a new version, so every round writes.
//
//	go test ./cmd/server -run '^$' -bench BenchmarkImportASVS -benchtime 20x
func BenchmarkImportASVS(b *testing.B) {
	asvs, err := os.ReadFile(filepath.Join(cdxtest.SharedData(b), "standards", "OWASP", "ASVS", "asvs-5.0.0.cdx.json"))
	require.NoError(b, err)
	ts := startServer(b)
	admin := ts.admin(b)
	b.ResetTimer()
	for i := range b.N {
		doc := bytes.Replace(asvs, []byte(`"version": "5.0.0"`), fmt.Appendf(nil, `"version": "5.0.0-bench.%d"`, i), 1)
		res, body := admin.upload(b, "/api/v1/standards/import", "asvs.json", doc)
		if res.StatusCode != http.StatusCreated {
			b.Fatalf("import: %d %v", res.StatusCode, body)
		}
	}
}
