package httpapi

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/assess"
)

// The upload path is proven with an operation that exists only in the tests: it streams
// the file into a hash and answers its size and digest.

type testUploadInput struct {
	ID string `path:"id" maxLength:"64"`
	Upload
}

type testUploadResult struct {
	ID     string            `json:"id"`
	Size   int64             `json:"size"`
	SHA256 string            `json:"sha256"`
	Name   string            `json:"name"`
	Fields map[string]string `json:"fields"`
}

func handleTestUpload(_ context.Context, in *testUploadInput) (*body[testUploadResult], error) {
	h := sha256.New()
	n, err := io.Copy(h, in.File)
	if err != nil {
		return nil, err
	}
	return reply(testUploadResult{ID: in.ID, Size: n, SHA256: hex.EncodeToString(h.Sum(nil)), Name: in.Filename, Fields: in.Fields}), nil
}

// uploadServer serves the test upload operation with a file limit.
func uploadServer(t testing.TB, limit int64) *httptest.Server {
	t.Helper()
	h := newHarness(&testing.T{}, permAuthorizer{granted: "things.upload"})
	h.srv.cfg.UploadMaxBytes = limit
	h.srv = New(Config{Version: "test", StartedAt: time.Now(), MaxBodyBytes: 256, UploadMaxBytes: limit},
		Deps{Logger: h.srv.dep.Logger, Database: h.db, Setup: h.setup, Authorizer: permAuthorizer{granted: "things.upload"}})
	r := onUpload(http.MethodPost, "/api/v1/things/{id}/files", "things.upload", handleTestUpload,
		huma.Operation{OperationID: "uploadThingFile", Summary: "Upload a file to a thing"})
	h.srv.registerRoute(r)
	srv := httptest.NewServer(h.srv)
	t.Cleanup(srv.Close)
	return srv
}

// countingReader counts what the server pulled from the client.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// postUpload posts body as contentType to url with the test credential and decodes the
// JSON answer; the caller closes the answer's body.
func postUpload(t testing.TB, url, contentType string, body io.Reader) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer test")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
	return res, out
}

// streamUpload sends size random bytes as the file part, with a text field first, without
// a Content-Length (chunked), so nothing but the streaming limit can stop it.
func streamUpload(t testing.TB, url string, size int64) (*http.Response, map[string]any, *countingReader, string) {
	t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	h := sha256.New()
	written := make(chan struct{})
	go func() {
		defer close(written)
		_ = mw.WriteField("note", "collected from CI")
		fw, err := mw.CreateFormFile("file", "sbom.json")
		if err == nil {
			_, err = io.Copy(io.MultiWriter(fw, h), io.LimitReader(rand.Reader, size))
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	body := &countingReader{r: pr}
	res, out := postUpload(t, url, mw.FormDataContentType(), body)
	defer res.Body.Close()
	_ = pr.CloseWithError(io.ErrClosedPipe)
	<-written // the writer stops at the closed pipe; only then is the hash complete
	return res, out, body, hex.EncodeToString(h.Sum(nil))
}

func TestUploadStreamsTheFileToTheHandler(t *testing.T) {
	srv := uploadServer(t, 8<<20)
	res, out, _, sum := streamUpload(t, srv.URL+"/api/v1/things/t1/files", 5<<20)
	require.Equal(t, http.StatusOK, res.StatusCode, out)
	require.Equal(t, float64(5<<20), out["size"])
	require.Equal(t, sum, out["sha256"])
	require.Equal(t, "sbom.json", out["name"])
	require.Equal(t, "t1", out["id"])
	require.Equal(t, map[string]any{"note": "collected from CI"}, out["fields"])
}

func TestUploadOverTheLimitIsRefusedWithoutReadingTheRest(t *testing.T) {
	const limit = 1 << 20
	srv := uploadServer(t, limit)
	res, out, sent, _ := streamUpload(t, srv.URL+"/api/v1/things/t1/files", 64<<20)
	require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode, out)
	require.Equal(t, assess.ECodePayloadTooLarge, out["error"])
	require.NotEmpty(t, out["requestId"])
	// The server stopped reading at the limit: what it pulled is the limit plus socket
	// and multipart buffers, far from the 64 MiB offered.
	require.Less(t, sent.n.Load(), int64(16<<20), "the server read on after the limit")
}

func TestUploadWithDeclaredOversizeIsRefusedAtOnce(t *testing.T) {
	srv := uploadServer(t, 1<<20)
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/things/t1/files", strings.NewReader("x"))
	require.NoError(t, err)
	req.ContentLength = 10 << 20
	req.Header.Set("Content-Type", "multipart/form-data; boundary=b")
	req.Header.Set("Authorization", "Bearer test")
	res, err := http.DefaultTransport.RoundTrip(req)
	if err == nil { // the server answers before reading; the client may see either outcome
		defer res.Body.Close()
		require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode)
	}
}

func TestUploadRefusesOtherBodies(t *testing.T) {
	srv := uploadServer(t, 1<<20)
	for name, c := range map[string]struct {
		contentType, body string
		status            int
	}{
		"JSON instead of a form":   {"application/json", `{"file":"x"}`, http.StatusUnsupportedMediaType},
		"no file part":             {"multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nx\r\n--b--\r\n", http.StatusBadRequest},
		"truncated multipart body": {"multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-da", http.StatusBadRequest},
		// The file part begins but the body ends before its closing boundary: a cut-off
		// upload, not a short file.
		"file without its closing boundary": {"multipart/form-data; boundary=b",
			"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nsome text", http.StatusBadRequest},
	} {
		t.Run(name, func(t *testing.T) {
			res, out := postUpload(t, srv.URL+"/api/v1/things/t1/files", c.contentType, strings.NewReader(c.body))
			defer res.Body.Close()
			require.Equal(t, c.status, res.StatusCode, out)
			require.NotEmpty(t, out["requestId"])
		})
	}
}

// TestUploadRefusesMalformedText: the text of an upload form (field names and values, the
// file name) is held to the input boundary's rule: no NUL, valid UTF-8.
func TestUploadRefusesMalformedText(t *testing.T) {
	srv := uploadServer(t, 1<<20)
	part := func(disposition, value string) string {
		return "--b\r\nContent-Disposition: form-data; " + disposition + "\r\n\r\n" + value + "\r\n"
	}
	file := part(`name="file"; filename="sbom.json"`, "{}") + "--b--\r\n"
	for name, c := range map[string]struct{ body, field string }{
		"a NUL in a field value":         {part(`name="note"`, "a\x00b") + file, "note"},
		"invalid UTF-8 in a field value": {part(`name="note"`, "caf\xe9") + file, "note"},
		"invalid UTF-8 in a field name":  {part("name=\"n\xffte\"", "x") + file, "n\uFFFDte"},
		"invalid UTF-8 in the file name": {part("name=\"file\"; filename=\"sb\xffm.json\"", "{}") + "--b--\r\n", "file"},
	} {
		t.Run(name, func(t *testing.T) {
			res, out := postUpload(t, srv.URL+"/api/v1/things/t1/files", "multipart/form-data; boundary=b", strings.NewReader(c.body))
			defer res.Body.Close()
			require.Equal(t, http.StatusBadRequest, res.StatusCode, out)
			require.Equal(t, assess.ECodeValidation, out["error"])
			require.Equal(t, c.field, out["details"].([]any)[0].(map[string]any)["field"], out)
		})
	}
}

func TestUploadIsDocumentedAsMultipart(t *testing.T) {
	srv := uploadServer(t, 1<<20)
	res, err := http.Get(srv.URL + "/api/v1/openapi.json")
	require.NoError(t, err)
	defer res.Body.Close()
	var doc map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&doc))
	op := doc["paths"].(map[string]any)["/api/v1/things/{id}/files"].(map[string]any)["post"].(map[string]any)
	content := op["requestBody"].(map[string]any)["content"].(map[string]any)
	require.Contains(t, content, "multipart/form-data")
	require.Equal(t, "things.upload", op[ExtPermission])
	require.Contains(t, op["responses"], "413")
}

// TestUploadMemoryDoesNotGrowWithTheFile: a 50 MiB upload allocates a small, bounded
// amount of memory in the whole process (client included), not the file's size.
func TestUploadMemoryDoesNotGrowWithTheFile(t *testing.T) {
	srv := uploadServer(t, 64<<20)
	allocated := uploadAllocations(t, srv.URL, 50<<20)
	require.Less(t, allocated, uint64(16<<20), "a 50 MiB upload allocated %d MiB", allocated>>20)
}

func uploadAllocations(t testing.TB, url string, size int64) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, out, _, _ := streamUpload(t, url+"/api/v1/things/t1/files", size)
	runtime.ReadMemStats(&after)
	require.Equal(t, http.StatusOK, res.StatusCode, out)
	return after.TotalAlloc - before.TotalAlloc
}

// BenchmarkUpload50MiB reports the bytes allocated per 50 MiB upload (client and server
// in one process) and the throughput. Run with `make bench-upload`.
func BenchmarkUpload50MiB(b *testing.B) {
	srv := uploadServer(b, 64<<20)
	var total uint64
	b.SetBytes(50 << 20)
	for b.Loop() {
		total += uploadAllocations(b, srv.URL, 50<<20)
	}
	b.ReportMetric(float64(total)/float64(b.N)/(1<<20), "alloc-MiB/op")
	fmt.Fprint(io.Discard)
}

// TestMultipartIsNoUploadElsewhere: a request that claims multipart/form-data on an
// operation that takes no upload keeps the request deadline (it skipped it before): only
// the declared upload operations are exempt (issue 26 item 15).
func TestMultipartIsNoUploadElsewhere(t *testing.T) {
	t.Parallel()
	setup := &fakeSetup{}
	setup.done.Store(true)
	srv := New(Config{Version: "test", StartedAt: time.Now(), RequestTimeout: time.Minute},
		Deps{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Setup: setup})
	type probe struct {
		Body struct {
			Deadline bool `json:"deadline"`
		}
	}
	register(srv, Op{Permission: assess.PermPublic, Operation: huma.Operation{OperationID: "probeDeadline", Method: http.MethodGet,
		Path: "/api/v1/probe"}}, func(ctx context.Context, _ *struct{}) (*probe, error) {
		out := &probe{}
		_, out.Body.Deadline = ctx.Deadline()
		return out, nil
	})
	for _, ct := range []string{"", "multipart/form-data; boundary=zz"} {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/probe", nil)
		req.Header.Set("Content-Type", ct)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
		require.JSONEq(t, `{"deadline":true}`, rec.Body.String(), "Content-Type %q", ct)
	}
}
