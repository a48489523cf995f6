package assess

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// StandardTransferService moves standards in and out: CycloneDX import and export, CSV
// import and export of one requirement tree, the public standards feed and the starter
// standards. Parsing and fetching happen outside the store (package cyclonedx, the
// DocumentFetcher); the store writes and reads the neutral model below.
type StandardTransferService interface {
	// ImportStandards writes every standard of one document in one transaction: all or
	// nothing. A standard whose identifier and standardVersion are already present is left
	// as it is and reported unchanged. New standards are published, with source.
	ImportStandards(ctx context.Context, imports []StandardImport, source StandardSource, actor Actor) (ImportResult, error)
	// StandardContent reads a standard with its whole requirement tree (depth first) and
	// its levels, for export.
	StandardContent(ctx context.Context, id string) (StandardContent, error)
	// ImportRequirementRows upserts requirements of a draft standard by identifier (CSV
	// import), in one transaction; 409 not_draft for any other state.
	ImportRequirementRows(ctx context.Context, id string, rows []RequirementRow, actor Actor) (RowImportResult, error)
	// FindStandardsByIdentifier returns every local standard (any version, any state) whose
	// identifier is one of identifiers, for the feed's statuses.
	FindStandardsByIdentifier(ctx context.Context, identifiers []string) ([]Standard, error)
}

// StandardImportService imports standards from outside the service (pkg/app
// StandardImports: the download, the cached standards feed and the store's import).
type StandardImportService interface {
	// ImportStandardsFromURL downloads the CycloneDX document at rawURL through the
	// DocumentFetcher and imports it (source import); problems of the URL or the download
	// are 422 on field url.
	ImportStandardsFromURL(ctx context.Context, rawURL string, actor Actor) (ImportResult, error)
	// StandardsFeed returns the items of the public standards feed (cached for a few
	// minutes) with their local status.
	StandardsFeed(ctx context.Context) ([]FeedItem, error)
	// ImportFeedItem downloads the document of the feed item itemID and imports it (source
	// feed); 404 when the feed has no such item.
	ImportFeedItem(ctx context.Context, itemID string, actor Actor) (ImportResult, error)
	// ImportStarterStandards imports the starter set (OWASP ASVS 5.0.0, NIST SSDF 1.1,
	// OWASP SAMM 2.1.0, OWASP SCVS 1.0) in one transaction, from the documents built into
	// the binary (no network) and, for those it lacks, from the feed; those present already
	// are listed as unchanged.
	ImportStarterStandards(ctx context.Context, actor Actor) (ImportResult, error)
}

// DocumentFetcher downloads a document from outside (the standards feed, an import by URL)
// through the outbound SSRF guard of webhooks: https to public addresses, plain http and
// internal addresses only inside OUTBOUND_ALLOW_NETWORKS. A URL it will not use is 422
// url_not_allowed and a document larger than limit 422 too_large, naming field; a download
// that fails is a *FetchError.
type DocumentFetcher interface {
	FetchDocument(ctx context.Context, field, rawURL string, limit int64) ([]byte, error)
}

// FetchError is a download that did not succeed, said in words: the host of the URL asked
// for (never an address it resolved to) and the reason, lower case and ending in a period
// ("the name does not resolve.", "it answered HTTP 404 Not Found."), never a Go error text.
// It unwraps to its answer, 422 business_rule_violation "The document at <host> could not
// be downloaded: <reason>" with detail fetch_failed on Field; a caller that knows what it
// was downloading says so instead (the standards feed: feed_unreachable).
type FetchError struct {
	Field  string
	Host   string
	Reason string
}

// Error implements the error interface.
func (e *FetchError) Error() string {
	return e.Unwrap().Error()
}

// Unwrap returns the answer to the client: the 422 with detail fetch_failed. Its detail
// says what the client can do instead, as the message already says why.
func (e *FetchError) Unwrap() error {
	return &Error{Code: ECodeBusinessRule, Message: "The document at " + e.Host + " could not be downloaded: " + e.Reason,
		Details: []Detail{{Field: e.Field, Code: "fetch_failed", Message: "The document can also be imported as a file upload."}}}
}

// StandardImport is one standard of an imported document in the neutral model that the
// CycloneDX parser produces and the store writes.
type StandardImport struct {
	Identifier         string
	StandardVersion    string
	Name               string
	Description        string
	Owner              string
	BOMRef             string
	ExternalReferences []ExternalReference
	// Requirements in document order; Parent is the identifier of the parent requirement.
	Requirements []RequirementImport
	Levels       []LevelImport
	// Warnings are what the parser repaired or left out (duplicate identifiers, level
	// members the document does not define); shown in the import result.
	Warnings []string
}

// RequirementImport is one requirement of a StandardImport.
type RequirementImport struct {
	Identifier         string
	Parent             string // identifier of the parent; "" at the top
	Name               string
	Description        string
	BOMRef             string
	OpenCRE            []string
	ExternalReferences []ExternalReference
	Properties         []Property
}

// LevelImport is one level of a StandardImport; Requirements are requirement identifiers.
type LevelImport struct {
	Identifier   string
	Title        string
	Description  string
	BOMRef       string
	Requirements []string
}

// Import limits, beyond what the schema of the tables checks.
const (
	maxImportRequirements = 20000
	maxImportLevels       = 100
	maxImportText         = 100000
	// maxRequirementName is the longest requirement name (title) the API takes
	// (NewRequirement, RequirementUpdate: maxLength 1000); imports hold to it too, so a
	// requirement imported can be saved again unchanged.
	maxRequirementName = 1000
)

// Validate checks what the tables need: a name and identifier, unique requirement and
// level identifiers, parents that exist and form no cycle, level members that exist, text
// without NUL characters and within bounds. prefix locates the standard in the document
// for the error details (e.g. "/definitions/standards/0").
func (s *StandardImport) Validate(prefix string) error {
	var v importChecks
	v.text(prefix+"/name", s.Name, 1, 500)
	v.text(prefix+"/identifier", s.Identifier, 1, 200)
	v.text(prefix+"/version", s.StandardVersion, 0, 100)
	v.text(prefix+"/description", s.Description, 0, maxImportText)
	v.text(prefix+"/owner", s.Owner, 0, 1000)
	v.text(prefix+"/bom-ref", s.BOMRef, 0, 1000)
	v.refs(prefix+"/externalReferences", s.ExternalReferences)
	if len(s.Requirements) > maxImportRequirements {
		v.add(prefix+"/requirements", "too_many", fmt.Sprintf("At most %d requirements per standard.", maxImportRequirements))
	}
	if len(s.Levels) > maxImportLevels {
		v.add(prefix+"/levels", "too_many", fmt.Sprintf("At most %d levels per standard.", maxImportLevels))
	}
	parents := make(map[string]string, len(s.Requirements))
	for i, r := range s.Requirements {
		at := fmt.Sprintf("%s/requirements/%d", prefix, i)
		v.text(at+"/identifier", r.Identifier, 1, 200)
		v.text(at+"/title", r.Name, 0, maxRequirementName)
		v.text(at+"/text", r.Description, 0, maxImportText)
		v.text(at+"/bom-ref", r.BOMRef, 0, 1000)
		for j, c := range r.OpenCRE {
			v.text(fmt.Sprintf("%s/openCre/%d", at, j), c, 1, 200)
		}
		v.refs(at+"/externalReferences", r.ExternalReferences)
		for j, p := range r.Properties {
			v.text(fmt.Sprintf("%s/properties/%d/name", at, j), p.Name, 1, 200)
			v.text(fmt.Sprintf("%s/properties/%d/value", at, j), p.Value, 0, maxImportText)
		}
		if _, dup := parents[r.Identifier]; dup {
			v.add(at+"/identifier", "duplicate", "The identifier "+r.Identifier+" is used twice.")
		}
		parents[r.Identifier] = r.Parent
	}
	for i, r := range s.Requirements {
		if _, ok := parents[r.Parent]; r.Parent != "" && !ok {
			v.add(fmt.Sprintf("%s/requirements/%d/parent", prefix, i), "unknown_parent", "The parent "+r.Parent+" is not a requirement of the standard.")
		}
	}
	if cyc := TreeCycle(parents); cyc != "" {
		v.add(prefix+"/requirements", "cycle", "The requirement "+cyc+" is its own ancestor.")
	}
	levels := map[string]bool{}
	for i, l := range s.Levels {
		at := fmt.Sprintf("%s/levels/%d", prefix, i)
		v.text(at+"/identifier", l.Identifier, 1, 200)
		v.text(at+"/title", l.Title, 0, 1000)
		v.text(at+"/description", l.Description, 0, maxImportText)
		v.text(at+"/bom-ref", l.BOMRef, 0, 1000)
		if levels[l.Identifier] {
			v.add(at+"/identifier", "duplicate", "The level "+l.Identifier+" is defined twice.")
		}
		levels[l.Identifier] = true
		for _, m := range l.Requirements {
			if _, ok := parents[m]; !ok {
				v.add(at+"/requirements", "unknown_requirement", "The level names "+m+", which is not a requirement of the standard.")
			}
		}
	}
	return v.err("The document's standard cannot be imported.")
}

// TreeCycle returns an identifier that is its own ancestor in the parent map (identifier →
// parent identifier, "" at the top), or "" when the map is a forest.
func TreeCycle(parents map[string]string) string {
	const (
		unseen = iota
		visiting
		done
	)
	state := make(map[string]int, len(parents))
	keys := make([]string, 0, len(parents))
	for k := range parents {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the same answer every time
	for _, start := range keys {
		var path []string
		for id := start; id != "" && state[id] != done; id = parents[id] {
			if state[id] == visiting {
				return id
			}
			state[id] = visiting
			path = append(path, id)
		}
		for _, id := range path {
			state[id] = done
		}
	}
	return ""
}

// importChecks collects the problems of an import, capped at MaxImportProblems.
type importChecks struct{ details []Detail }

// MaxImportProblems caps the details of a refused import or a schema validation.
const MaxImportProblems = 50

func (v *importChecks) add(field, code, msg string) {
	if len(v.details) < MaxImportProblems {
		v.details = append(v.details, Detail{Field: field, Code: code, Message: msg})
	}
}

func (v *importChecks) text(field, s string, minLen, maxLen int) {
	n := utf8.RuneCountInString(s)
	switch {
	case strings.ContainsRune(s, 0):
		v.add(field, "nul_character", "The text contains a NUL character.")
	case strings.ContainsAny(s, "\u202d\u202e"):
		// As the API's input boundary refuses them: they show the text after them in another
		// order than it is stored ("report \u202egnp.exe" reads "report exe.png").
		v.add(field, "bidi_override", "The text contains a direction override (U+202D or U+202E), which shows it in another order than it is stored.")
	case n < minLen:
		v.add(field, "required", "A value is required.")
	case n > maxLen:
		v.add(field, "too_long", fmt.Sprintf("At most %d characters.", maxLen))
	}
}

func (v *importChecks) refs(field string, refs []ExternalReference) {
	for i, r := range refs {
		v.text(fmt.Sprintf("%s/%d/type", field, i), r.Type, 1, 64)
		v.text(fmt.Sprintf("%s/%d/url", field, i), r.URL, 1, 2048)
		v.text(fmt.Sprintf("%s/%d/comment", field, i), r.Comment, 0, 1000)
	}
}

func (v *importChecks) err(msg string) error {
	if len(v.details) == 0 {
		return nil
	}
	return &Error{Code: ECodeBusinessRule, Message: msg, Details: v.details}
}

// ImportOutcome tells what an import did with one standard of the document.
type ImportOutcome string

// Import outcomes.
const (
	ImportCreated   ImportOutcome = "created"
	ImportUnchanged ImportOutcome = "unchanged"
)

// ImportedStandard is one standard of an import result.
type ImportedStandard struct {
	Standard
	Outcome  ImportOutcome `json:"outcome" enum:"created,unchanged" doc:"unchanged: this identifier and standardVersion were already present and were left as they are"`
	Warnings []string      `json:"warnings" doc:"What the import repaired or left out, e.g. level members the document does not define"`
}

// ImportResult answers an import: every standard of the document with its outcome.
type ImportResult struct {
	Standards []ImportedStandard `json:"standards"`
	Created   int                `json:"created"`
	Unchanged int                `json:"unchanged"`
}

// StandardContent is a standard with its whole tree and its levels, as exports read it.
type StandardContent struct {
	Standard     Standard
	Requirements []Requirement // depth first, siblings by position then natural order
	Levels       []Level
}

// RequirementRow is one row of a CSV requirement import: Parent and Levels are
// identifiers (of a requirement, of levels of the standard).
type RequirementRow struct {
	Line        int // the CSV line, for error details
	Identifier  string
	Parent      string
	Name        string
	Description string
	Levels      []string
}

// RowImportResult answers a CSV import.
type RowImportResult struct {
	Created       int `json:"created" doc:"Requirements added"`
	Updated       int `json:"updated" doc:"Existing requirements (same identifier) overwritten"`
	LevelsCreated int `json:"levelsCreated" doc:"Levels named in the file that the standard did not have yet"`
}

// StandardIdentifier derives the identifier of an imported standard from its name, the
// way the public standards feed names its items: lower case, every run of characters
// other than a–z and 0–9 replaced by one hyphen, then hyphens at either end removed ("Application
// Security Verification Standard (ASVS)" → "application-security-verification-standard-asvs").
func StandardIdentifier(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			hyphen = false
			continue
		}
		if !hyphen {
			b.WriteByte('-')
			hyphen = true
		}
	}
	return strings.Trim(b.String(), "-")
}

// CompareStandardVersions orders two versions of a standard naturally: digit runs as
// numbers, letters without case, a leading "v" ignored (2.0.0 < v2.1.0 < 10).
func CompareStandardVersions(a, b string) int {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		if len(s) > 1 && s[0] == 'v' && s[1] >= '0' && s[1] <= '9' {
			s = s[1:]
		}
		return NaturalKey(s)
	}
	return cmp.Compare(norm(a), norm(b))
}

// FeedStatus tells whether a feed item is present locally.
type FeedStatus string

// Feed item statuses.
const (
	FeedNotImported     FeedStatus = "not_imported"
	FeedImported        FeedStatus = "imported"
	FeedUpdateAvailable FeedStatus = "update_available"
)

// FeedItem is one standard the public feed offers.
type FeedItem struct {
	ID            string     `json:"id" doc:"The feed's item id: the standard's identifier, @, its version"`
	Identifier    string     `json:"identifier" doc:"The identifier the standard gets when imported"`
	Title         string     `json:"title"`
	Summary       string     `json:"summary"`
	Version       string     `json:"version"`
	Owner         string     `json:"owner"`
	URL           string     `json:"url" doc:"Where the CycloneDX document is downloaded from"`
	DatePublished *time.Time `json:"datePublished,omitempty"`
	Status        FeedStatus `json:"status" enum:"not_imported,imported,update_available" doc:"update_available: an older version is present and this one is newer than every local one"`
	StandardIDs   []string   `json:"standardIds" doc:"Local standards with the same identifier, any version"`
	ImportedID    string     `json:"importedId,omitempty" doc:"The local standard of exactly this version, when imported"`
}

// FeedItemIdentifier is the identifier of a feed item id (the text before its last "@",
// hyphens at either end removed), which StandardIdentifier gives the item's document.
func FeedItemIdentifier(itemID string) string {
	i := strings.LastIndex(itemID, "@")
	if i < 0 {
		return StandardIdentifier(itemID)
	}
	return strings.Trim(itemID[:i], "-")
}

// SetStatus fills the item's Status, StandardIDs and ImportedID from the local standards
// with its identifier.
func (it *FeedItem) SetStatus(local []Standard) {
	it.StandardIDs = []string{}
	it.Status, it.ImportedID = FeedNotImported, ""
	newer := true
	for _, s := range local {
		if s.Identifier != it.Identifier {
			continue
		}
		it.StandardIDs = append(it.StandardIDs, s.ID)
		if s.StandardVersion == it.Version {
			it.ImportedID = s.ID
		}
		if CompareStandardVersions(s.StandardVersion, it.Version) >= 0 {
			newer = false
		}
	}
	switch {
	case it.ImportedID != "":
		it.Status = FeedImported
	case len(it.StandardIDs) > 0 && newer:
		it.Status = FeedUpdateAvailable
	}
}

// MaxRequirementRows bounds one CSV import.
const MaxRequirementRows = 20000

// ValidateRequirementRows checks the rows of a CSV import on their own: at least one,
// identifiers present and unique, text within bounds and without NUL characters. Parents
// are checked by the store against the standard. Details name the line: lines[7].parent.
func ValidateRequirementRows(rows []RequirementRow) error {
	var v importChecks
	if len(rows) == 0 {
		v.add("file", "empty", "The file has no requirement rows.")
	}
	if len(rows) > MaxRequirementRows {
		v.add("file", "too_many", fmt.Sprintf("At most %d rows per file.", MaxRequirementRows))
	}
	seen := map[string]int{}
	for _, r := range rows {
		at := fmt.Sprintf("lines[%d]", r.Line)
		v.text(at+".identifier", r.Identifier, 1, 200)
		v.text(at+".parent", r.Parent, 0, 200)
		v.text(at+".name", r.Name, 0, maxRequirementName)
		v.text(at+".description", r.Description, 0, maxImportText)
		for _, l := range r.Levels {
			v.text(at+".levels", l, 1, 200)
		}
		if first, dup := seen[r.Identifier]; dup {
			v.add(at+".identifier", "duplicate", fmt.Sprintf("The identifier %s is already on line %d.", r.Identifier, first))
		}
		seen[r.Identifier] = r.Line
		if r.Parent != "" && r.Parent == r.Identifier {
			v.add(at+".parent", "cycle", "A requirement cannot be its own parent.")
		}
	}
	return v.err("The file cannot be imported.")
}
