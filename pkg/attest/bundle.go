package attest

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/assay-dev/assay/pkg/jsf"
)

// Names inside an evidence bundle (a ZIP): the sealed document, a manifest, and each
// evidence file under evidence/<attachment id>/<file name>.
const (
	BundleDocument = "attestation.cdx.json"
	BundleManifest = "manifest.json"
	bundleFiles    = "evidence/"
)

// BundleFile is one evidence file to put into a bundle.
type BundleFile struct {
	AttachmentID string
	Filename     string
	SHA256       string
	Open         func() (io.ReadCloser, error)
}

// FileCheck is the verdict on one file of a bundle.
type FileCheck struct {
	Name     string `json:"name"`
	Expected string `json:"expected,omitempty" doc:"SHA-256 the signed document gives"`
	Actual   string `json:"actual,omitempty"`
	OK       bool   `json:"ok"`
	Reason   string `json:"reason,omitempty"`
}

// manifest lists the bundle's files with their hashes, for people and tools that read the
// bundle without the document; the document's hashes are what verification trusts.
type manifest struct {
	Document string         `json:"document"`
	Files    []manifestFile `json:"files"`
}

type manifestFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// WriteBundle writes a ZIP of the sealed document, the manifest and the files, streaming
// each file from its store.
func WriteBundle(w io.Writer, document []byte, files []BundleFile) error {
	z := zip.NewWriter(w)
	m := manifest{Document: BundleDocument, Files: []manifestFile{}}
	for _, f := range files {
		m.Files = append(m.Files, manifestFile{Path: bundlePath(f.AttachmentID, f.Filename), SHA256: f.SHA256})
	}
	if err := writeEntry(z, BundleDocument, document); err != nil {
		return err
	}
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := writeEntry(z, BundleManifest, mb); err != nil {
		return err
	}
	for _, f := range files {
		if err := copyEntry(z, bundlePath(f.AttachmentID, f.Filename), f.Open); err != nil {
			return err
		}
	}
	return z.Close()
}

func bundlePath(id, filename string) string {
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '_'
		}
		return r
	}, filename)
	if name == "" || name == "." || name == ".." {
		name = "file"
	}
	return bundleFiles + id + "/" + name
}

func writeEntry(z *zip.Writer, name string, data []byte) error {
	w, err := z.Create(name)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

func copyEntry(z *zip.Writer, name string, open func() (io.ReadCloser, error)) error {
	r, err := open()
	if err != nil {
		return fmt.Errorf("attest: bundle %s: %w", name, err)
	}
	defer r.Close()
	w, err := z.Create(name)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, r)
	return err
}

// VerifyBundle verifies the bundle's document as Verify does and checks every evidence
// file the document binds by hash against the bundled bytes; a missing or changed file
// makes the report fail, naming the file.
func VerifyBundle(r io.ReaderAt, size int64, opts Options) (Report, error) {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return Report{}, fmt.Errorf("attest: the bundle is not a ZIP archive: %w", err)
	}
	entries := map[string]*zip.File{}
	for _, f := range z.File {
		if entries[f.Name] != nil {
			// Tools disagree on which of two entries of one name they extract: refuse.
			return Report{}, fmt.Errorf("attest: the bundle holds %q twice", f.Name)
		}
		entries[f.Name] = f
	}
	docFile := entries[BundleDocument]
	if docFile == nil {
		return Report{}, errors.New("attest: the bundle holds no " + BundleDocument)
	}
	doc, err := readEntry(docFile, 64<<20)
	if err != nil {
		return Report{}, err
	}
	report := Verify(doc, opts)
	bound := boundFiles(doc)
	seen := map[string]bool{}
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		rest, ok := strings.CutPrefix(name, bundleFiles)
		if !ok || strings.HasSuffix(name, "/") {
			continue
		}
		id, _, _ := strings.Cut(rest, "/")
		fc := FileCheck{Name: name, Expected: bound[id]}
		switch {
		case fc.Expected == "":
			fc.Reason = "the signed document binds no such file"
		case seen[id]:
			fc.Reason = "a second file for the same attachment"
		default:
			if fc.Actual, err = hashEntry(entries[name]); err != nil {
				fc.Reason = err.Error()
			} else if fc.Actual != fc.Expected {
				fc.Reason = "its SHA-256 differs from the one the signed document gives"
			} else {
				fc.OK = true
			}
		}
		seen[id] = true
		report.Files = append(report.Files, fc)
	}
	ids := make([]string, 0, len(bound))
	for id := range bound {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if !seen[id] {
			report.Files = append(report.Files, FileCheck{Name: bundleFiles + id, Expected: bound[id], Reason: "missing from the bundle"})
		}
	}
	for _, fc := range report.Files {
		report.OK = report.OK && fc.OK
	}
	return report, nil
}

// boundFiles maps each attachment id the document binds (claims' externalReferences of
// type evidence) to its SHA-256.
func boundFiles(doc []byte) map[string]string {
	out := map[string]string{}
	root, err := jsf.ParseObject(doc)
	if err != nil {
		return out
	}
	decl, _ := get(root, "declarations").(*jsf.Object)
	claims, _ := get(decl, "claims").([]any)
	for _, c := range claims {
		refs, _ := get(asObject(c), "externalReferences").([]any)
		for _, r := range refs {
			ref := asObject(r)
			if str(ref, "type") != "evidence" {
				continue
			}
			hashes, _ := get(ref, "hashes").([]any)
			for _, h := range hashes {
				if str(asObject(h), "alg") == "SHA-256" {
					out[attachmentOf(str(ref, "url"))] = str(asObject(h), "content")
				}
			}
		}
	}
	return out
}

// attachmentOf is the attachment id in an evidence URL (…/attachments/<id>/content) or URN.
func attachmentOf(url string) string {
	if id, ok := strings.CutPrefix(url, "urn:assay:attachment:"); ok {
		return id
	}
	return path.Base(path.Dir(url))
}

func asObject(v any) *jsf.Object {
	o, _ := v.(*jsf.Object)
	return o
}

func readEntry(f *zip.File, limit int64) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("attest: %s is larger than %d bytes", f.Name, limit)
	}
	return data, err
}

func hashEntry(f *zip.File) (string, error) {
	rc, err := f.Open()
	if err != nil {
		return "", err
	}
	defer rc.Close()
	h := sha256.New()
	if _, err := io.Copy(h, rc); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
