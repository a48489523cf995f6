package starter_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/assay-dev/assay/pkg/cyclonedx/cdxtest"
	"github.com/assay-dev/assay/standards/starter"
)

// catalogue returns the shared copy of the CycloneDX catalogue's standards/ folder (what
// the public feed serves); the test fails without it, as cdxtest does.
func catalogue(t *testing.T) string {
	t.Helper()
	return filepath.Join(cdxtest.SharedData(t), "standards")
}

// TestManifestIsThePublishedDocuments: the manifest lists the four documents of the starter
// set, each with the SHA-256 of the published document (the shared copy of the catalogue),
// under the feed item whose attachment it is.
func TestManifestIsThePublishedDocuments(t *testing.T) {
	t.Parallel()
	dir := catalogue(t)
	m := starter.Manifest()
	var ids []string
	for _, d := range m {
		ids = append(ids, d.FeedItemID)
	}
	want := []string{
		"application-security-verification-standard-asvs-@5.0.0",
		"secure-software-development-framework-ssdf-version-1-1@1.1",
		"owasp-software-assurance-maturity-model-samm-@2.1.0",
		"software-component-verification-standard-scvs-@1.0",
	}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Fatalf("the manifest lists %v, want %v", ids, want)
	}

	raw, err := os.ReadFile(filepath.Join(dir, "feed.json"))
	if err != nil {
		t.Fatal(err)
	}
	var feed struct {
		Items []struct {
			ID          string `json:"id"`
			Attachments []struct {
				URL string `json:"url"`
			} `json:"attachments"`
		} `json:"items"`
	}
	if err := json.Unmarshal(raw, &feed); err != nil {
		t.Fatal(err)
	}
	urls := map[string]string{}
	for _, it := range feed.Items {
		if len(it.Attachments) > 0 {
			urls[it.ID] = it.Attachments[0].URL
		}
	}

	for _, d := range m {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(d.Path)))
		if err != nil {
			t.Fatalf("the shared catalogue lacks %s: %v", d.Path, err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != d.SHA256 {
			t.Errorf("%s: the manifest says SHA-256 %s, the published document has %s", d.Path, d.SHA256, got)
		}
		if !strings.HasSuffix(urls[d.FeedItemID], "/standards/"+d.Path) {
			t.Errorf("the feed item %s offers %q, not %s", d.FeedItemID, urls[d.FeedItemID], d.Path)
		}
		if d.Licence == "" || d.Data != nil {
			t.Errorf("%s: licence %q, data %d bytes: a manifest entry names a licence and carries no data", d.Path, d.Licence, len(d.Data))
		}
	}

	docs := starter.Documents(os.DirFS(dir))
	if len(docs) != len(m) {
		t.Fatalf("Documents of the catalogue: %d, want all %d", len(docs), len(m))
	}
	for i, d := range docs {
		published, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(d.Path)))
		if d.FeedItemID != m[i].FeedItemID || !bytes.Equal(d.Data, published) {
			t.Errorf("document %d is %s with %d bytes, want %s as published", i, d.FeedItemID, len(d.Data), m[i].FeedItemID)
		}
	}
}

// TestDocumentsVerifiesEachFile: Documents returns only the files present whose SHA-256 is
// the manifest's, in the manifest's order; a changed file and a missing one are left out.
func TestDocumentsVerifiesEachFile(t *testing.T) {
	t.Parallel()
	dir := catalogue(t)
	m := starter.Manifest()
	read := func(d starter.Document) []byte {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(d.Path)))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	changed := bytes.Clone(read(m[0]))
	changed[len(changed)/2] ^= 1 // one bit flipped: another SHA-256
	fsys := fstest.MapFS{
		m[0].Path: {Data: changed},
		// m[1] missing
		m[2].Path: {Data: read(m[2])},
		m[3].Path: {Data: read(m[3])},
	}
	var got []string
	for _, d := range starter.Documents(fsys) {
		got = append(got, d.Path)
	}
	if want := m[2].Path + " " + m[3].Path; strings.Join(got, " ") != want {
		t.Errorf("Documents = %v, want %s", got, want)
	}
	if docs := starter.Documents(fstest.MapFS{}); len(docs) != 0 {
		t.Errorf("an empty folder has %d documents", len(docs))
	}
}

// TestBuiltInFolder: the embedded folder always has the manifest, so that a fresh clone
// with nothing downloaded builds; what it holds besides (after the fetch script) is only
// the documents of the manifest, each with the manifest's SHA-256, and their licence texts.
func TestBuiltInFolder(t *testing.T) {
	t.Parallel()
	if _, err := fs.Stat(starter.Files(), "README.md"); err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{"README.md": true}
	for _, d := range starter.Manifest() {
		listed[d.Path] = true
	}
	err := fs.WalkDir(starter.Files(), ".", func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && !listed[p] && !strings.HasPrefix(p, "LICENSES/") {
			t.Errorf("%s is built in but not in the manifest (rerun scripts/fetch-starter-standards.sh)", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	built := map[string]bool{}
	for _, d := range starter.Documents(starter.Files()) {
		built[d.Path] = true
	}
	for _, d := range starter.Manifest() {
		if _, err := fs.Stat(starter.Files(), d.Path); err == nil && !built[d.Path] {
			t.Errorf("%s is built in but differs from the manifest (rerun scripts/fetch-starter-standards.sh)", d.Path)
		}
	}
	t.Logf("this build has %d of the %d starter documents", len(built), len(starter.Manifest()))
}
