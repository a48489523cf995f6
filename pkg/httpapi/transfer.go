package httpapi

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/cyclonedx"
)

// Standards in and out: CycloneDX import (upload or URL) and export, CSV export and import
// of one requirement tree (transfer_csv.go), the standards feed and the starter set
// (transfer_feed.go). Uploaded documents are parsed and validated here (package
// cyclonedx); downloads — by URL, the feed and its items — are pkg/app's
// (StandardImports); the store writes and reads whole trees.

var tagTransfer = []string{"Standards transfer"}

// importResultOutput answers an import: 201 when a standard was created, 200 when every
// standard of the document was already present.
type importResultOutput struct {
	Status int
	Body   assess.ImportResult
}

func importAnswer(res assess.ImportResult, err error) (*importResultOutput, error) {
	if err != nil {
		return nil, err
	}
	status := http.StatusOK
	if res.Created > 0 {
		status = http.StatusCreated
	}
	return &importResultOutput{Status: status, Body: res}, nil
}

// importResponses documents the 200 of an import that created nothing (huma adds the 201).
func importResponses() map[string]*huma.Response {
	return map[string]*huma.Response{"200": {Description: "Every standard of the document was already present (outcome unchanged)",
		Content: map[string]*huma.MediaType{"application/json": {Schema: &huma.Schema{Ref: "#/components/schemas/ImportResult"}}}}}
}

const importDescription = " The document must be valid CycloneDX 1.6 or 1.7 (checked against the official schema; " +
	"422 business_rule_violation whose details name the JSON pointer of each problem, code schema_invalid) and define " +
	"at least one standard. Every standard of the document is written in one transaction, or none is. A standard " +
	"whose identifier and standardVersion are already present is left as it is (outcome unchanged): 201 when a " +
	"standard was created, 200 when none was. New standards are published. See docs/catalogue.md for the mapping."

var docStandardImport = huma.Operation{OperationID: "importStandards", Summary: "Import standards from a CycloneDX file",
	Tags: tagTransfer, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusUnprocessableEntity}, Responses: importResponses(),
	Description: "Upload a CycloneDX document (part file), at most STANDARDS_IMPORT_MAX_BYTES." + importDescription}

// standardImportInput is the multipart upload of a CycloneDX document.
type standardImportInput struct {
	Upload
}

func (s *Server) handleStandardImport(ctx context.Context, in *standardImportInput) (*importResultOutput, error) {
	data, err := s.readImportFile(in.File)
	if err != nil {
		return nil, err
	}
	return s.importDocument(ctx, data)
}

// importDocument parses a CycloneDX document and imports its standards (source import).
func (s *Server) importDocument(ctx context.Context, data []byte) (*importResultOutput, error) {
	imports, err := cyclonedx.Parse(data)
	if err != nil {
		return nil, err
	}
	return importAnswer(s.dep.Transfer.ImportStandards(ctx, imports, assess.SourceImport, requestActor(ctx)))
}

// readImportFile reads an uploaded document up to the import limit.
func (s *Server) readImportFile(r io.Reader) ([]byte, error) {
	limit := s.cfg.StandardsImportMaxBytes
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &assess.Error{Code: assess.ECodePayloadTooLarge, Message: "The document is larger than STANDARDS_IMPORT_MAX_BYTES allows."}
	}
	return data, nil
}

// ImportURL asks for a CycloneDX document to be downloaded and imported.
type ImportURL struct {
	URL string `json:"url" minLength:"1" maxLength:"2048" doc:"https URL of a CycloneDX 1.6 or 1.7 document (plain http and internal addresses only inside OUTBOUND_ALLOW_NETWORKS)"`
}

var docStandardImportURL = huma.Operation{OperationID: "importStandardsFromURL", Summary: "Import standards from a URL",
	Tags: tagTransfer, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusUnprocessableEntity}, Responses: importResponses(),
	Description: "Downloads the document (the outbound guard of webhooks applies: https to public addresses; " +
		"422 url_not_allowed otherwise) and imports it. A download that fails is 422 with detail fetch_failed and the " +
		"reason in words (\"The document at example.com could not be downloaded: the connection was refused.\"), so " +
		"the client can offer the file upload instead; too_large when it is over STANDARDS_IMPORT_MAX_BYTES." + importDescription}

func (s *Server) handleStandardImportURL(ctx context.Context, in *body[ImportURL]) (*importResultOutput, error) {
	return importAnswer(s.dep.StandardImports.ImportStandardsFromURL(ctx, in.Body.URL, requestActor(ctx)))
}

// exportInput names the standard and the spec version of its export.
type exportInput struct {
	ID          string `path:"id" maxLength:"64"`
	SpecVersion string `query:"specVersion" enum:"1.6,1.7" default:"1.6" doc:"CycloneDX spec version of the document"`
}

// fileOutput is a downloaded file: raw bytes with their type and a file name.
type fileOutput struct {
	ContentType        string `header:"Content-Type"`
	ContentDisposition string `header:"Content-Disposition"`
	CacheControl       string `header:"Cache-Control"`
	Body               []byte
}

// fileResponse documents a file download in the OpenAPI document.
func fileResponse(mediaType, description string, schema *huma.Schema) map[string]*huma.Response {
	return map[string]*huma.Response{"200": {Description: description,
		Headers: map[string]*huma.Param{"Content-Disposition": {Schema: &huma.Schema{Type: huma.TypeString},
			Description: "attachment; filename=…"}},
		Content: map[string]*huma.MediaType{mediaType: {Schema: schema}}}}
}

var docStandardExport = huma.Operation{OperationID: "exportStandard", Summary: "Export a standard as CycloneDX",
	Tags: tagTransfer, Errors: []int{http.StatusNotFound},
	Responses: fileResponse(cyclonedx.MediaType, "A CycloneDX document holding the standard in definitions.standards.",
		&huma.Schema{Type: huma.TypeObject}),
	Description: "The standard with its requirement tree and levels as a CycloneDX 1.6 (default) or 1.7 document, " +
		"checked against the official schema before it is sent. Any state can be exported."}

func (s *Server) handleStandardExport(ctx context.Context, in *exportInput) (*fileOutput, error) {
	c, err := s.dep.Transfer.StandardContent(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	doc, err := cyclonedx.Build(in.SpecVersion, []assess.StandardContent{c}, s.now())
	if err != nil { // our document breaks the schema: a bug, logged as an internal error
		return nil, err
	}
	return &fileOutput{ContentType: cyclonedx.MediaType, CacheControl: "no-store",
		ContentDisposition: attachment(exportName(c.Standard) + ".cdx.json"), Body: doc}, nil
}

// now is the server's clock.
func (s *Server) now() time.Time {
	if s.cfg.Now != nil {
		return s.cfg.Now()
	}
	return time.Now()
}

var unsafeNameChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// exportName is a file name for a standard: identifier and version, safe characters only.
func exportName(st assess.Standard) string {
	name := st.Identifier
	if st.StandardVersion != "" {
		name += "-" + st.StandardVersion
	}
	name = strings.Trim(unsafeNameChars.ReplaceAllString(name, "_"), "._-")
	if len(name) > 120 {
		name = name[:120]
	}
	if name == "" {
		name = "standard"
	}
	return name
}

func attachment(filename string) string { return `attachment; filename="` + filename + `"` }
