package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/assay-dev/assay/pkg/app"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/blob"
	"github.com/assay-dev/assay/pkg/blob/blobtest"
	"github.com/assay-dev/assay/pkg/postgres"
	"github.com/assay-dev/assay/pkg/postgres/pgtest"
	"github.com/assay-dev/assay/pkg/postgres/services"
	"github.com/assay-dev/assay/pkg/postgres/work"
)

// The attachment suite runs once per storage provider: the database (blob_chunks rows)
// and S3 on a real S3-compatible server (versitygw), with the S3 keys given as *_FILE.

// uploadLimit is UPLOAD_MAX_FILE_SIZE of the suite's servers: above one S3 part, so the
// round trip covers a multipart upload.
const uploadLimit = 8 << 20

// storageEnv is a server environment for one provider, and what the suite needs to look
// into that provider behind the server's back.
type storageEnv struct {
	name string
	env  []string
	gw   *blobtest.Gateway // nil for the database provider
}

func databaseStorage() storageEnv {
	return storageEnv{name: assess.StorageDatabase, env: []string{fmt.Sprintf("UPLOAD_MAX_FILE_SIZE=%d", uploadLimit)}}
}

// s3Storage starts versitygw and returns the environment of a server storing in it, the
// credentials in files.
func s3Storage(t testing.TB, provider string) storageEnv {
	t.Helper()
	g := blobtest.StartVersityGW(t)
	dir := t.TempDir()
	keyFile, secretFile := filepath.Join(dir, "access"), filepath.Join(dir, "secret")
	require.NoError(t, os.WriteFile(keyFile, []byte(g.AccessKey+"\n"), 0o600))
	require.NoError(t, os.WriteFile(secretFile, []byte(g.SecretKey+"\n"), 0o600))
	return storageEnv{name: assess.StorageS3, gw: g, env: []string{
		"STORAGE_PROVIDER=" + provider, fmt.Sprintf("UPLOAD_MAX_FILE_SIZE=%d", uploadLimit),
		"S3_BUCKET=" + g.Bucket, "S3_REGION=" + g.Region, "S3_ENDPOINT=" + g.Endpoint, "S3_FORCE_PATH_STYLE=true",
		"S3_ACCESS_KEY_ID_FILE=" + keyFile, "S3_SECRET_ACCESS_KEY_FILE=" + secretFile,
	}}
}

// dbExec runs one statement on the server's database.
func dbExec(t testing.TB, ts *testServer, sql string, args ...any) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	_, err = conn.Exec(context.Background(), sql, args...)
	require.NoError(t, err)
}

// dbValue reads one value from the server's database.
func dbValue[T any](t testing.TB, ts *testServer, sql string, args ...any) T {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var v T
	require.NoError(t, conn.QueryRow(context.Background(), sql, args...).Scan(&v))
	return v
}

// newEvidence inserts a piece of evidence authored by author (the evidence API belongs to
// another slice; the attachment suite needs only the row).
func newEvidence(t testing.TB, ts *testServer, author user) string {
	t.Helper()
	id := assess.NewID(assess.PrefixEvidence, time.Now())
	dbExec(t, ts, "INSERT INTO evidence (id, name, author_id) VALUES ($1, $2, $3)", id, "Evidence "+id[len(id)-6:], author.ID)
	return id
}

// attach sends file as the multipart part "file" with the given file name (encoded as
// RFC 2231 so that any character survives) and declared type. Without a length the body
// is streamed with chunked encoding, so the server cannot refuse it up front.
func (c *apiClient) attach(t testing.TB, evidenceID, filename, declared string, file io.Reader, withLength bool) (*http.Response, map[string]any) {
	t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", "form-data; name=\"file\"; filename*=UTF-8''"+rfc2231(filename))
		h.Set("Content-Type", declared)
		part, err := mw.CreatePart(h)
		if err == nil {
			_, err = io.Copy(part, file)
		}
		if err == nil {
			err = mw.Close()
		}
		_ = pw.CloseWithError(err)
	}()
	var body io.Reader = pr
	if withLength {
		raw, err := io.ReadAll(pr)
		require.NoError(t, err)
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(http.MethodPost, c.ts.url+"/api/v1/evidence/"+evidenceID+"/attachments", body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
	}
	return c.sendWithCredential(t, req)
}

func rfc2231(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// fetchFile fetches a file's bytes with extra header pairs.
func (c *apiClient) fetchFile(t testing.TB, evidenceID, id string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.ts.url+"/api/v1/evidence/"+evidenceID+"/attachments/"+id+"/content", nil)
	require.NoError(t, err)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
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

// pdfBytes returns n bytes of a PDF-looking file, deterministic for seed.
func pdfBytes(n int, seed uint64) []byte {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(seed, 42))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	copy(b, "%PDF-1.7\n")
	return b
}

func hexSHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// storedObjects counts what the provider holds: blob_chunks objects, or bucket objects.
func (s storageEnv) storedObjects(t testing.TB, ts *testServer) int {
	t.Helper()
	if s.gw != nil {
		return len(s.gw.Objects(t))
	}
	return dbValue[int](t, ts, "SELECT count(DISTINCT blob_key)::int FROM blob_chunks")
}

// corrupt flips the first byte of the stored object of attachment id.
func (s storageEnv) corrupt(t testing.TB, ts *testServer, id string) {
	t.Helper()
	key := dbValue[string](t, ts, "SELECT storage_key FROM evidence_attachments WHERE id = $1", id)
	if s.gw == nil {
		dbExec(t, ts, "UPDATE blob_chunks SET data = set_byte(data, 0, get_byte(data, 0) # 255) WHERE blob_key = $1 AND seq = 0", key)
		return
	}
	path := s.gw.ObjectPath(key)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	raw[0] ^= 0xff
	require.NoError(t, os.WriteFile(path, raw, 0o644))
}

// collect runs the blob collector the worker runs periodically, now.
func (s storageEnv) collect(t testing.TB, ts *testServer) {
	t.Helper()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, ts.dsn)
	require.NoError(t, err)
	defer pool.Close()
	db := postgres.New(pool, nil)
	cfg := app.StorageConfig{Database: work.NewChunkStore(db)}
	if s.gw != nil {
		store, err := blob.NewS3(ctx, blob.S3Config{Bucket: s.gw.Bucket, Endpoint: s.gw.Endpoint, ForcePathStyle: true,
			AccessKeyID: s.gw.AccessKey, SecretAccessKey: s.gw.SecretKey})
		require.NoError(t, err)
		cfg.S3 = store
	}
	files, err := app.NewAttachments(services.New(db).Attachments, cfg)
	require.NoError(t, err)
	_, err = files.CollectBlobGarbage(ctx, 1000)
	require.NoError(t, err)
}

func TestAttachmentsDatabaseProvider(t *testing.T) {
	t.Parallel()
	runAttachmentSuite(t, databaseStorage())
}

func TestAttachmentsS3Provider(t *testing.T) {
	t.Parallel()
	runAttachmentSuite(t, s3Storage(t, assess.StorageS3))
}

// runAttachmentSuite is the suite both providers pass.
func runAttachmentSuite(t *testing.T, st storageEnv) {
	ts := startServer(t, st.env...)
	fileRole := ts.newRole(t, string(assess.PermEvidenceView), string(assess.PermEvidenceCreate), string(assess.PermEvidenceDelete))
	author, ac := ts.newUser(t, fileRole.Name)
	_, outsider := ts.newUser(t, fileRole.Name)
	ev := newEvidence(t, ts, author)
	base := "/api/v1/evidence/" + ev + "/attachments"

	content := pdfBytes(6<<20+123, 1) // more than one S3 part
	var first map[string]any
	t.Run("upload, list, get and download round trip", func(t *testing.T) {
		res, body := ac.attach(t, ev, "report.pdf", "application/octet-stream", bytes.NewReader(content), false)
		require.Equal(t, http.StatusCreated, res.StatusCode, body)
		first = body
		require.Regexp(t, `^af_[0-9a-z]{26}$`, body["id"], "attachment ids start af_ (at_ is the attestations')")
		require.Equal(t, "report.pdf", body["filename"])
		require.Equal(t, "application/pdf", body["contentType"], "the type comes from the bytes, not the declared one")
		require.EqualValues(t, len(content), body["sizeBytes"])
		require.Equal(t, hexSHA256(content), body["sha256"])
		require.Equal(t, st.name, body["provider"])
		require.Equal(t, author.ID, body["uploadedBy"].(map[string]any)["id"])

		list := ac.get(t, base, http.StatusOK)
		require.Len(t, list["items"], 1)
		require.Equal(t, body["id"], list["items"].([]any)[0].(map[string]any)["id"])
		require.Equal(t, body, ac.get(t, base+"/"+body["id"].(string), http.StatusOK))

		res, raw := ac.fetchFile(t, ev, body["id"].(string))
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.True(t, bytes.Equal(content, raw), "the downloaded bytes are the uploaded ones")
		require.Equal(t, "application/pdf", res.Header.Get("Content-Type"))
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
		require.Equal(t, "sandbox; default-src 'none'", res.Header.Get("Content-Security-Policy"))
		require.Equal(t, "bytes", res.Header.Get("Accept-Ranges"))
		require.Equal(t, `"`+hexSHA256(content)+`"`, res.Header.Get("ETag"))
		disposition, params, err := mime.ParseMediaType(res.Header.Get("Content-Disposition"))
		require.NoError(t, err)
		require.Equal(t, "attachment", disposition)
		require.Equal(t, "report.pdf", params["filename"])
	})
	id := first["id"].(string)

	t.Run("range requests and conditional requests", func(t *testing.T) {
		res, raw := ac.fetchFile(t, ev, id, "Range", "bytes=100-199")
		require.Equal(t, http.StatusPartialContent, res.StatusCode)
		require.Equal(t, content[100:200], raw)
		require.Equal(t, fmt.Sprintf("bytes 100-199/%d", len(content)), res.Header.Get("Content-Range"))
		res, raw = ac.fetchFile(t, ev, id, "Range", fmt.Sprintf("bytes=%d-", len(content)-10))
		require.Equal(t, http.StatusPartialContent, res.StatusCode)
		require.Equal(t, content[len(content)-10:], raw)
		res, _ = ac.fetchFile(t, ev, id, "If-None-Match", `"`+hexSHA256(content)+`"`)
		require.Equal(t, http.StatusNotModified, res.StatusCode)
		// A range outside the file is refused in the envelope, naming the size.
		res, raw = ac.fetchFile(t, ev, id, "Range", fmt.Sprintf("bytes=%d-", len(content)+5))
		require.Equal(t, http.StatusRequestedRangeNotSatisfiable, res.StatusCode)
		require.Equal(t, fmt.Sprintf("bytes */%d", len(content)), res.Header.Get("Content-Range"))
		require.True(t, strings.HasPrefix(res.Header.Get("Content-Type"), "application/json"), res.Header.Get("Content-Type"))
		require.Contains(t, string(raw), `"error":"range_not_satisfiable"`)
		require.Empty(t, res.Header.Get("Content-Disposition"))
	})

	t.Run("the same bytes again answer the existing attachment and store nothing", func(t *testing.T) {
		before := st.storedObjects(t, ts)
		res, body := ac.attach(t, ev, "copy.pdf", "application/pdf", bytes.NewReader(content), true)
		require.Equal(t, http.StatusOK, res.StatusCode, body)
		require.Equal(t, id, body["id"])
		require.Equal(t, "report.pdf", body["filename"])
		require.Equal(t, before, st.storedObjects(t, ts))
		require.Zero(t, dbValue[int](t, ts, "SELECT count(*)::int FROM blob_garbage"))
	})

	t.Run("past UPLOAD_MAX_FILE_SIZE: 413 and nothing stored", func(t *testing.T) {
		before := st.storedObjects(t, ts)
		big := pdfBytes(uploadLimit+1, 2)
		res, body := ac.attach(t, ev, "big.pdf", "application/pdf", bytes.NewReader(big), false) // streamed, refused while reading
		requireEnvelope(t, res, body, http.StatusRequestEntityTooLarge, assess.ECodePayloadTooLarge)
		require.Equal(t, "The file is larger than the upload limit of 8 MiB.", body["message"], "the limit in words, not in bytes")
		res, body = ac.attach(t, ev, "big.pdf", "application/pdf", bytes.NewReader(pdfBytes(uploadLimit+2<<20, 3)), true) // refused by its length
		requireEnvelope(t, res, body, http.StatusRequestEntityTooLarge, assess.ECodePayloadTooLarge)
		require.Equal(t, "The file is larger than the upload limit of 8 MiB.", body["message"], "the file's limit, not the body's (with its form overhead) in bytes")
		status := ac.get(t, "/api/v1/setup/status", http.StatusOK)
		require.EqualValues(t, uploadLimit, status["uploadMaxFileSize"], "a client learns the limit before it uploads")
		require.Equal(t, before, st.storedObjects(t, ts))
		require.Zero(t, dbValue[int](t, ts, "SELECT count(*)::int FROM blob_garbage"))
		require.Len(t, ac.get(t, base, http.StatusOK)["items"], 1)
	})

	t.Run("active content and executables are refused with 415", func(t *testing.T) {
		before := st.storedObjects(t, ts)
		pe := append([]byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff"), make([]byte, 64)...)
		for _, c := range []struct{ name, declared, content, detected string }{
			{"page.txt", "text/plain", "<!DOCTYPE html><html><body>hi</body></html>", "text/html"},
			{"page.bin", "application/octet-stream", "\n  <HTML><script>alert(1)</script>", "text/html"},
			{"drawing.xml", "application/xml", `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>`, "image/svg+xml"},
			{"app.js", "text/plain", "console.log(1)", "text/javascript"},
			{"notes.txt", "application/javascript", "plain words", "text/javascript"},
			{"tool", "application/octet-stream", "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00", "application/x-executable"},
			{"setup.dat", "application/octet-stream", string(pe), "application/x-executable"},
		} {
			res, body := ac.attach(t, ev, c.name, c.declared, strings.NewReader(c.content), false)
			requireEnvelope(t, res, body, http.StatusUnsupportedMediaType, assess.ECodeUnsupportedMedia)
			detail := body["details"].([]any)[0].(map[string]any)
			require.Equal(t, "unsupported_type", detail["code"], c.name)
			require.Equal(t, c.detected, detail["message"], c.name)
		}
		require.Equal(t, before, st.storedObjects(t, ts))
	})

	t.Run("a file cut off before its closing boundary: 400 and nothing stored", func(t *testing.T) {
		before := st.storedObjects(t, ts)
		for _, size := range []int{100, 300 << 10} { // within the type sniffing, and past it
			body := "--cut\r\nContent-Disposition: form-data; name=\"file\"; filename=\"cut.pdf\"\r\nContent-Type: application/pdf\r\n\r\n" +
				string(pdfBytes(size, 4))
			res, out := ac.do(t, http.MethodPost, base, body, "Content-Type", "multipart/form-data; boundary=cut")
			requireEnvelope(t, res, out, http.StatusBadRequest, assess.ECodeValidation)
		}
		require.Equal(t, before, st.storedObjects(t, ts))
		require.Len(t, ac.get(t, base, http.StatusOK)["items"], 1)
	})

	t.Run("file names with quotes, CR LF and non-ASCII characters stay one safe header", func(t *testing.T) {
		name := "Bericht \"Q3\"\r\nX-Injected: yes; ü €.txt"
		res, body := ac.attach(t, ev, name, "text/plain", strings.NewReader("plain text evidence\n"), false)
		require.Equal(t, http.StatusCreated, res.StatusCode, body)
		require.Equal(t, "Bericht \"Q3\"__X-Injected: yes; ü €.txt", body["filename"])
		require.Equal(t, "text/plain", body["contentType"])
		res, _ = ac.fetchFile(t, ev, body["id"].(string))
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.Empty(t, res.Header.Get("X-Injected"))
		cd := res.Header.Get("Content-Disposition")
		require.NotContains(t, cd, "\r")
		require.NotContains(t, cd, "\n")
		_, params, err := mime.ParseMediaType(cd)
		require.NoError(t, err, cd)
		require.Equal(t, body["filename"], params["filename"], "the RFC 5987 name is the exact one")
		ac.delete(t, base+"/"+body["id"].(string), http.StatusNoContent)
	})

	t.Run("a corrupted object is refused with integrity_error and an audit row", func(t *testing.T) {
		data := pdfBytes(300<<10, 4)
		_, body := ac.attach(t, ev, "tampered.pdf", "application/pdf", bytes.NewReader(data), false)
		att := body["id"].(string)
		st.corrupt(t, ts, att)
		res, raw := ac.fetchFile(t, ev, att)
		require.Equal(t, http.StatusInternalServerError, res.StatusCode)
		require.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
		require.Contains(t, string(raw), `"error":"integrity_error"`)
		require.False(t, bytes.Contains(raw, data[1:64]), "no byte of the object is sent")
		require.Equal(t, 1, dbValue[int](t, ts, "SELECT count(*)::int FROM audit_log WHERE action = $1 AND target_id = $2",
			assess.ChangeEvidenceAttachmentCorrupt.Action, att))
		res, _ = ac.fetchFile(t, ev, att, "Range", "bytes=0-9")
		require.Equal(t, http.StatusInternalServerError, res.StatusCode, "a range of a corrupted object is refused too")
		ac.delete(t, base+"/"+att, http.StatusNoContent)
	})

	t.Run("outsiders get 404 on every operation", func(t *testing.T) {
		unknown := assess.NewID(assess.PrefixEvidence, time.Now())
		for _, e := range []string{ev, unknown, "not-an-id"} {
			p := "/api/v1/evidence/" + e + "/attachments"
			outsider.fails(t, http.MethodGet, p, nil, http.StatusNotFound, assess.ECodeNotFound)
			outsider.fails(t, http.MethodGet, p+"/"+id, nil, http.StatusNotFound, assess.ECodeNotFound)
			outsider.fails(t, http.MethodGet, p+"/"+id+"/content", nil, http.StatusNotFound, assess.ECodeNotFound)
			outsider.fails(t, http.MethodDelete, p+"/"+id, nil, http.StatusNotFound, assess.ECodeNotFound)
			res, body := outsider.attach(t, e, "x.pdf", "application/pdf", bytes.NewReader(pdfBytes(1000, 5)), false)
			requireEnvelope(t, res, body, http.StatusNotFound, assess.ECodeNotFound)
		}
		ac.fails(t, http.MethodGet, base+"/af_00000000000000000000000000", nil, http.StatusNotFound, assess.ECodeNotFound)
		// An id from before migration 0017 (at_ and the same 26 characters): an old link.
		old := "at_" + strings.TrimPrefix(id, assess.PrefixAttachment)
		ac.fails(t, http.MethodGet, base+"/"+old, nil, http.StatusNotFound, assess.ECodeNotFound)
		ac.fails(t, http.MethodGet, base+"/"+old+"/content", nil, http.StatusNotFound, assess.ECodeNotFound)
		require.Len(t, ac.get(t, base, http.StatusOK)["items"], 1, "nothing the outsider sent was stored")
	})

	t.Run("locked evidence refuses adding and deleting files", func(t *testing.T) {
		dbExec(t, ts, "UPDATE evidence SET state = 'claimed' WHERE id = $1", ev)
		res, body := ac.attach(t, ev, "late.pdf", "application/pdf", bytes.NewReader(pdfBytes(1000, 6)), false)
		requireEnvelope(t, res, body, http.StatusConflict, assess.ECodeConflict)
		require.Equal(t, assess.LockClaimed, body["details"].([]any)[0].(map[string]any)["code"])
		body = ac.fails(t, http.MethodDelete, base+"/"+id, nil, http.StatusConflict, assess.ECodeConflict)
		require.Equal(t, assess.LockClaimed, body["details"].([]any)[0].(map[string]any)["code"])
		res, _ = ac.fetchFile(t, ev, id)
		require.Equal(t, http.StatusOK, res.StatusCode, "locked files are still served")
		dbExec(t, ts, "UPDATE evidence SET state = 'in_progress' WHERE id = $1", ev)
	})

	t.Run("deleting files and evidence leaves no stored bytes", func(t *testing.T) {
		ac.delete(t, base+"/"+id, http.StatusNoContent)
		ac.fails(t, http.MethodGet, base+"/"+id, nil, http.StatusNotFound, assess.ECodeNotFound)
		other := newEvidence(t, ts, author)
		res, body := ac.attach(t, other, "kept.csv", "text/csv", strings.NewReader("a,b\n1,2\n"), false)
		require.Equal(t, http.StatusCreated, res.StatusCode, body)
		require.Equal(t, "text/csv", body["contentType"])
		dbExec(t, ts, "DELETE FROM evidence WHERE id = $1", other)
		st.collect(t, ts)
		require.Zero(t, st.storedObjects(t, ts))
		require.Zero(t, dbValue[int](t, ts, "SELECT count(*)::int FROM blob_garbage"))
	})

	t.Run("events name the evidence", func(t *testing.T) {
		n := dbValue[int](t, ts, "SELECT count(*)::int FROM events WHERE type = $1", string(assess.EventEvidenceAttachmentAdded))
		require.GreaterOrEqual(t, n, 3)
		require.Equal(t, ev, dbValue[string](t, ts, "SELECT data->>'evidenceId' FROM events WHERE type = $1 ORDER BY id LIMIT 1",
			string(assess.EventEvidenceAttachmentRemoved)))
	})
}

// TestAttachmentStorageHealth: with S3, health is a HEAD on the bucket: 503 once the bucket
// is gone.
func TestAttachmentStorageHealth(t *testing.T) {
	t.Parallel()
	st := s3Storage(t, assess.StorageS3)
	ts := startServer(t, st.env...)
	res, body := ts.browser(t).do(t, http.MethodGet, "/api/health", nil)
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	require.Equal(t, "ok", body["storage"])
	st.gw.RemoveBucket(t)
	res, body = ts.browser(t).do(t, http.MethodGet, "/api/health", nil)
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, body)
	require.Equal(t, "storage check failed", body["message"])
	require.Equal(t, "ok", body["database"])
}

// TestAttachmentProviderChange: files stay readable when STORAGE_PROVIDER changes, each
// from the provider its attachment records.
func TestAttachmentProviderChange(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	first := startServerOn(t, dsn, databaseStorage().env...)
	fileRole := first.newRole(t, string(assess.PermEvidenceView), string(assess.PermEvidenceCreate))
	author, _ := first.newUser(t, fileRole.Name)
	ev := newEvidence(t, first, author)
	inDatabase := pdfBytes(2<<20, 7)
	res, body := first.login(t, author.Username, fixturePassword).attach(t, ev, "a.pdf", "application/pdf", bytes.NewReader(inDatabase), false)
	require.Equal(t, http.StatusCreated, res.StatusCode, body)
	require.Equal(t, assess.StorageDatabase, body["provider"])
	dbID := body["id"].(string)

	s3 := s3Storage(t, assess.StorageS3)
	second := startServerOn(t, dsn, s3.env...)
	c := second.login(t, author.Username, fixturePassword)
	inS3 := pdfBytes(1<<20, 8)
	res, body = c.attach(t, ev, "b.pdf", "application/pdf", bytes.NewReader(inS3), false)
	require.Equal(t, http.StatusCreated, res.StatusCode, body)
	require.Equal(t, assess.StorageS3, body["provider"])
	s3ID := body["id"].(string)
	res, raw := c.fetchFile(t, ev, dbID)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, inDatabase, raw, "the database file is served while S3 is the provider")

	// Back to the database, S3 still configured: the S3 file stays readable.
	third := startServerOn(t, dsn, append([]string{"STORAGE_PROVIDER=database"}, s3.env[1:]...)...)
	c = third.login(t, author.Username, fixturePassword)
	res, raw = c.fetchFile(t, ev, s3ID)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, inS3, raw)
	res, raw = c.fetchFile(t, ev, dbID)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, inDatabase, raw)
}

// TestStalledUploadIsCutOff: a client that stops sending in the middle of an upload is
// cut off after REQUEST_TIMEOUT without a byte arriving, and nothing of its file is kept
// (issue 26 item 15: uploads had no bound but their size).
func TestStalledUploadIsCutOff(t *testing.T) {
	t.Parallel()
	ts := startServer(t, "REQUEST_TIMEOUT=1s")
	admin := ts.admin(t)
	token := ts.newAPIKey(t, admin)
	ev := admin.post(t, "/api/v1/evidence", map[string]any{"name": "Stalled upload"}, http.StatusCreated)["id"].(string)
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	head := "--zz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.txt\"\r\nContent-Type: text/plain\r\n\r\n"
	_, err = fmt.Fprintf(conn, "POST /api/v1/evidence/%s/attachments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: multipart/form-data; boundary=zz\r\nContent-Length: %d\r\n\r\n%s%s", ev, token, 1<<20, head, strings.Repeat("a", 64<<10))
	require.NoError(t, err)
	began := time.Now()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(20*time.Second)))
	_, _ = io.ReadAll(conn) // the server answers or closes: either way the read ends
	require.Less(t, time.Since(began), 10*time.Second, "the stalled upload was not cut off")
	require.Eventually(t, func() bool {
		return len(items(t, admin.get(t, "/api/v1/evidence/"+ev+"/attachments", http.StatusOK))) == 0
	}, 5*time.Second, 100*time.Millisecond)
	conn2, err := pgx.Connect(context.Background(), ts.dsn)
	require.NoError(t, err)
	defer conn2.Close(context.Background())
	var chunks int
	require.NoError(t, conn2.QueryRow(context.Background(), "SELECT count(*) FROM blob_chunks").Scan(&chunks))
	require.Zero(t, chunks, "no chunk of the stalled file is kept")
}
