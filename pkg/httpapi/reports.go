package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
	"github.com/assay-dev/assay/pkg/report"
)

// The PDF reports of assessments and attestations (docs/attestations.md, "PDF reports"):
// the store reads the data in one snapshot, pkg/report lays it out, the bytes go out as
// they are.

var pdfSchema = &huma.Schema{Type: huma.TypeString, Format: "binary"}

var docAssessmentReport = huma.Operation{OperationID: "getAssessmentReport", Summary: "Download an assessment's PDF report",
	Tags: tagAssessments, Errors: []int{http.StatusNotFound},
	Responses: fileResponse(report.MediaType, "The report (A4, text in DejaVu Sans).", pdfSchema),
	Description: "A cover (entity, standards, dates, score, the SHA-256 of the report's content, the platform key and how to " +
		"verify), the contents, the figures per standard and per level, every requirement with its result and rationale, " +
		"the claims (with claims.view) and the evidence with each file's SHA-256 (with evidence.view). An assessment the " +
		"caller may not see is 404, as its JSON read."}

func (s *Server) handleAssessmentReport(ctx context.Context, in *idInput) (*fileOutput, error) {
	r, err := s.dep.Reports.AssessmentReport(ctx, in.ID, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return s.pdfOutput(ctx, r, "assessment")
}

var docAttestationReport = huma.Operation{OperationID: "getAttestationReport", Summary: "Download an attestation's PDF report",
	Tags: tagAttestations, Errors: []int{http.StatusNotFound},
	Responses: fileResponse(report.MediaType, "The report (A4, text in DejaVu Sans).", pdfSchema),
	Description: "The assessment's report with the attestation's map (scores, confidence, its claims and the evidence they " +
		"cite), the SHA-256 of the stored CycloneDX document, the signatories with their kind, time and the verdict on " +
		"each signature, the seal and the rescission. A draft has no document yet and says so. Not a signed document " +
		"itself: the CycloneDX export is."}

func (s *Server) handleAttestationReport(ctx context.Context, in *idInput) (*fileOutput, error) {
	r, err := s.dep.Reports.AttestationReport(ctx, in.ID, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return s.pdfOutput(ctx, r, "attestation")
}

// pdfOutput renders r, one report at a time, and names the file after what it reports on.
// A report still waiting for its turn when the request's deadline passes is 503.
func (s *Server) pdfOutput(ctx context.Context, r assess.Report, kind string) (*fileOutput, error) {
	select {
	case s.renders <- struct{}{}:
	case <-ctx.Done():
		return nil, &assess.Error{Code: assess.ECodeUnavailable, Message: "Other reports are being generated; try again in a moment."}
	}
	defer func() { <-s.renders }()
	pdf, err := report.Render(r)
	if err != nil {
		return nil, err
	}
	return &fileOutput{ContentType: report.MediaType, CacheControl: "no-store",
		ContentDisposition: reportDisposition(kind, r.Title, r.ID), Body: pdf}, nil
}

// reportDisposition names a report's file: <kind>-<title in lower-case ASCII words>-report.pdf
// (the id when the title has no such words), and the title itself in filename* for
// clients that read it.
func reportDisposition(kind, title, id string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			if b.Len() >= 60 {
				break
			}
			continue
		}
		dash = true
	}
	slug := b.String()
	if slug == "" {
		slug = id
	}
	name := kind + "-" + slug + "-report.pdf"
	full := kind + "-" + strings.TrimSpace(title) + "-report.pdf"
	return attachment(name) + "; filename*=UTF-8''" + rfc5987(full)
}

// rfc5987 percent-encodes s as an RFC 5987 value: every byte outside attr-char escaped.
func rfc5987(s string) string {
	const attrChar = "!#$&+-.^_`|~"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < utf8.RuneSelf && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)) || strings.IndexByte(attrChar, c) >= 0) {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
