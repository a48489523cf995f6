// Package starter is the starter set of standards — OWASP ASVS 5.0.0, NIST SSDF 1.1, OWASP
// SAMM 2.1.0 and OWASP SCVS 1.0 — as the CycloneDX documents the public standards feed
// offers, so that a first run can import them without the network.
//
// The documents are not in the repository (their terms are the data's, see README.md): the
// folder files/ holds only the manifest files/README.md, which lists each document with its
// feed item and SHA-256, and scripts/fetch-starter-standards.sh downloads the documents beside
// it before a release build (the Dockerfile runs it; the Makefile when it can). They are
// embedded when present; a build without them compiles all the same, and then the server
// imports the starter set from the feed.
package starter

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"strings"
	"sync"
)

// embedded is files/: the committed manifest README.md, and the documents and their licence
// texts (LICENSES/) when the fetch script put them there before the build.
//
//go:embed files
var embedded embed.FS

// Document is one standard of the starter set, as the manifest lists it.
type Document struct {
	// FeedItemID is the id of the standards feed's item that offers this document; the
	// standard imported from it carries the item's identifier and version, so the feed
	// shows the item as imported.
	FeedItemID string
	// Path is the document's path in the catalogue's standards/ folder, and in Files().
	Path string
	// SHA256 is the hex SHA-256 of the published document.
	SHA256 string
	// Licence names the standard's licence (its SPDX id where it has one).
	Licence string
	// Data is the document; set by Documents only.
	Data []byte
}

// Files returns the embedded folder: README.md (the manifest and licence notice) and, in a
// build that fetched them, the documents at their Path and LICENSES/.
func Files() fs.FS {
	sub, err := fs.Sub(embedded, "files")
	if err != nil {
		panic(err) // "files" is a valid path: cannot happen
	}
	return sub
}

// Manifest returns the starter set in the order it is imported, as files/README.md lists
// it: every document, whether this binary has it or not.
func Manifest() []Document {
	return append([]Document(nil), manifest()...)
}

var manifest = sync.OnceValue(func() []Document {
	readme, err := fs.ReadFile(embedded, "files/README.md")
	if err != nil {
		panic(err) // committed and embedded: cannot happen
	}
	return parseManifest(string(readme))
})

// parseManifest reads the rows of the manifest table: | name | `feed item` | `file` |
// `sha-256` | licence |. Other lines, the header among them, are skipped.
func parseManifest(readme string) []Document {
	var out []Document
	for line := range strings.Lines(readme) {
		cells := strings.Split(strings.TrimSpace(line), "|")
		if len(cells) != 7 || cells[0] != "" || cells[6] != "" {
			continue
		}
		code := func(i int) (string, bool) {
			c := strings.TrimSpace(cells[i])
			if len(c) < 3 || c[0] != '`' || c[len(c)-1] != '`' {
				return "", false
			}
			return c[1 : len(c)-1], true
		}
		item, ok1 := code(2)
		path, ok2 := code(3)
		sum, ok3 := code(4)
		if ok1 && ok2 && ok3 {
			out = append(out, Document{FeedItemID: item, Path: path, SHA256: sum, Licence: strings.TrimSpace(cells[5])})
		}
	}
	return out
}

// Documents returns the documents of the manifest that fsys holds at their Path with the
// SHA-256 the manifest names, in the manifest's order, with Data set; a document missing
// or different is left out. fsys is laid out like the catalogue's standards/ folder: Files()
// for the documents built in, or a copy of the catalogue.
func Documents(fsys fs.FS) []Document {
	var out []Document
	for _, d := range manifest() {
		data, err := fs.ReadFile(fsys, d.Path)
		if err != nil {
			continue
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != d.SHA256 {
			continue
		}
		d.Data = data
		out = append(out, d)
	}
	return out
}
