package httpapi

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/app"
	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/cyclonedx"
)

// Attestation documents made elsewhere, imported (docs/attestations.md, "Importing
// attestations"): upload or URL, with a dry run; the imports and their original documents.

var tagAttestationImports = []string{"Attestation imports"}

const attestationImportDescription = " The document must be valid CycloneDX 1.6 or 1.7 (checked against the official " +
	"schema first: 422 whose details name the JSON pointer of each problem) and declare at least one attestation. " +
	"Standards are linked by identifier and version (created when absent), targets become entities (linked by name and " +
	"type), assessors are linked by name; an assessment (complete), its evidence descriptors (files named, not fetched), " +
	"claims and the attestation (state imported) are created, all read-only, in one transaction. Repairs of real " +
	"documents (undefined requirements, dangling references, placeholder signatures) are listed, never silent. " +
	"Signatures are checked with the verifier receivers use, against this installation's platform keys and the keys " +
	"given in jwks: valid, untrusted, invalid or absent — an imported document is never shown as signed here. " +
	"The same document (serial number and version, else SHA-256) is imported once: a second import creates nothing " +
	"and answers 200 with alreadyImported and the first import; another document with the same serial number and version is 409. dryRun=true reports what would be created, linked or " +
	"repaired and changes nothing."

// importOutput answers an import: 201 when records were created, 200 for a dry run or a
// document imported before.
type importOutput struct {
	Status int
	Body   assess.AttestationImport
}

func importedAnswer(res assess.AttestationImport, err error) (*importOutput, error) {
	if err != nil {
		return nil, err
	}
	status := http.StatusCreated
	if res.DryRun || res.AlreadyImported {
		status = http.StatusOK
	}
	return &importOutput{Status: status, Body: res}, nil
}

func importedResponses() map[string]*huma.Response {
	return map[string]*huma.Response{"200": {Description: "A dry run, or a document imported before (alreadyImported): nothing was created",
		Content: map[string]*huma.MediaType{"application/json": {Schema: &huma.Schema{Ref: "#/components/schemas/AttestationImport"}}}}}
}

var docAttestationImport = huma.Operation{OperationID: "importAttestation", Summary: "Import an attestation document",
	Tags: tagAttestationImports, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusConflict, http.StatusUnprocessableEntity},
	Responses: importedResponses(),
	Description: "Upload a CycloneDX attestation document (part file, at most STANDARDS_IMPORT_MAX_BYTES), optionally " +
		"preceded by a text part jwks: the public keys (a JWKS) of whoever issued it, to trust their signatures." +
		attestationImportDescription}

// attestationImportInput is the multipart upload of a document to import.
type attestationImportInput struct {
	DryRun bool `query:"dryRun" doc:"Report what the import would do, changing nothing"`
	Upload
}

func (s *Server) handleAttestationImport(ctx context.Context, in *attestationImportInput) (*importOutput, error) {
	if s.dep.AttestationImports == nil {
		return nil, &assess.Error{Code: assess.ECodeUnavailable, Message: "Attestation imports are not configured."}
	}
	data, err := s.readImportFile(in.File)
	if err != nil {
		return nil, err
	}
	return importedAnswer(s.dep.AttestationImports.Import(ctx, app.AttestationImportRequest{Document: data, Filename: in.Filename,
		TrustedKeys: []byte(in.Fields["jwks"]), DryRun: in.DryRun}, requestActor(ctx)))
}

// AttestationImportURL asks for an attestation document to be downloaded and imported.
type AttestationImportURL struct {
	URL  string          `json:"url" minLength:"1" maxLength:"2048" doc:"https URL of a CycloneDX 1.6 or 1.7 attestation document (the outbound guard of webhooks applies)"`
	JWKS json.RawMessage `json:"jwks,omitempty" doc:"The public keys (a JWKS) of whoever issued the document, to trust their signatures"`
}

var docAttestationImportURL = huma.Operation{OperationID: "importAttestationFromURL", Summary: "Import an attestation document from a URL",
	Tags: tagAttestationImports, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusConflict, http.StatusUnprocessableEntity},
	Responses: importedResponses(),
	Description: "Downloads the document (https to public addresses; 422 url_not_allowed otherwise, fetch_failed with " +
		"the reason in words when the download fails) and imports it." + attestationImportDescription}

// attestationImportURLInput is a URL import with its dry-run switch.
type attestationImportURLInput struct {
	DryRun bool `query:"dryRun" doc:"Report what the import would do, changing nothing"`
	Body   AttestationImportURL
}

func (s *Server) handleAttestationImportURL(ctx context.Context, in *attestationImportURLInput) (*importOutput, error) {
	if s.dep.AttestationImports == nil {
		return nil, &assess.Error{Code: assess.ECodeUnavailable, Message: "Attestation imports are not configured."}
	}
	return importedAnswer(s.dep.AttestationImports.Import(ctx, app.AttestationImportRequest{URL: in.Body.URL,
		TrustedKeys: in.Body.JWKS, DryRun: in.DryRun}, requestActor(ctx)))
}

var docAttestationImportList = huma.Operation{OperationID: "listAttestationImports", Summary: "List imported attestation documents",
	Tags: tagAttestationImports, Description: "Newest first, cursor-paginated: each import with its report."}

func (s *Server) handleAttestationImportList(ctx context.Context, in *assess.AttestationImportFilter) (*body[assess.Page[assess.AttestationImport]], error) {
	page, err := s.dep.AttestationImportRecords.FindAttestationImports(ctx, *in, requestActor(ctx))
	return reply(page), err
}

var docAttestationImportGet = huma.Operation{OperationID: "getAttestationImport", Summary: "Get an imported attestation document's report",
	Tags: tagAttestationImports, Errors: []int{http.StatusNotFound}}

func (s *Server) handleAttestationImportGet(ctx context.Context, in *idInput) (*body[assess.AttestationImport], error) {
	res, err := s.dep.AttestationImportRecords.FindAttestationImport(ctx, in.ID, requestActor(ctx))
	return reply(res), err
}

var docAttestationImportDocument = huma.Operation{OperationID: "getAttestationImportDocument", Summary: "Download an imported document as it came",
	Tags: tagAttestationImports, Errors: []int{http.StatusNotFound},
	Responses:   fileResponse(cyclonedx.MediaType, "The document's original bytes, unchanged.", &huma.Schema{Type: huma.TypeObject}),
	Description: "The bytes exactly as imported: their signatures, if any, verify as they did at the source."}

func (s *Server) handleAttestationImportDocument(ctx context.Context, in *idInput) (*fileOutput, error) {
	d, err := s.dep.AttestationImportRecords.AttestationImportDocument(ctx, in.ID, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return documentOutput(d), nil
}
