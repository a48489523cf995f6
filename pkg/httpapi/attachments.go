package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"

	"github.com/assay-dev/assay/pkg/assess"
)

var tagAttachments = []string{"Evidence files"}

// AttachmentList is the whole list of a piece of evidence's files.
type AttachmentList struct {
	Items []assess.Attachment `json:"items"`
}

// attachmentInput names one file of one piece of evidence.
type attachmentInput struct {
	ID           string `path:"id" maxLength:"64"`
	AttachmentID string `path:"attId" maxLength:"64"`
}

// attachmentUploadInput is the multipart upload of a file to a piece of evidence.
type attachmentUploadInput struct {
	ID string `path:"id" maxLength:"64"`
	Upload
}

// attachmentUploaded answers an upload: 201 for a new file, 200 for bytes attached already.
type attachmentUploaded struct {
	Status int
	Body   assess.Attachment
}

var docAttachmentUpload = huma.Operation{OperationID: "uploadEvidenceAttachment", Summary: "Attach a file to evidence",
	Tags: tagAttachments, DefaultStatus: http.StatusCreated, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "multipart/form-data with one file part named `file`, streamed to the storage provider (memory does not grow " +
		"with the file). At most UPLOAD_MAX_FILE_SIZE bytes: 413 payload_too_large as soon as the limit is passed, with " +
		"nothing stored. The type is detected from the first bytes, not taken from the client: HTML, XHTML, SVG, JavaScript " +
		"and executables are refused with 415 (details code `unsupported_type`, the detected type in its message). The " +
		"SHA-256 is computed while streaming; the same bytes attached to the same evidence again answer 200 with the " +
		"existing attachment and store nothing. Locked evidence answers 409 conflict with the lock reason. " +
		"Idempotency-Key is not accepted (the content makes the upload idempotent).",
	Responses: map[string]*huma.Response{"200": {Description: "The same bytes are attached already: the existing attachment",
		Content: map[string]*huma.MediaType{"application/json": {Schema: &huma.Schema{Ref: "#/components/schemas/Attachment"}}}}}}

func (s *Server) handleAttachmentUpload(ctx context.Context, in *attachmentUploadInput) (*attachmentUploaded, error) {
	a, created, err := s.dep.Attachments.AddAttachment(ctx, in.ID,
		assess.AttachmentUpload{Filename: in.Filename, DeclaredType: in.ContentType, Content: in.File}, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return &attachmentUploaded{Status: status, Body: a}, nil
}

var docAttachmentList = huma.Operation{OperationID: "listEvidenceAttachments", Summary: "List the files of evidence",
	Tags: tagAttachments, Errors: []int{http.StatusNotFound},
	Description: "The whole list, oldest first. Evidence the caller may not see answers 404."}

func (s *Server) handleAttachmentList(ctx context.Context, in *idInput) (*body[AttachmentList], error) {
	items, err := s.dep.Attachments.FindAttachments(ctx, in.ID, requestActor(ctx))
	return reply(AttachmentList{Items: items}), err
}

var docAttachmentGet = huma.Operation{OperationID: "getEvidenceAttachment", Summary: "Get a file's record",
	Tags: tagAttachments, Errors: []int{http.StatusNotFound}}

func (s *Server) handleAttachmentGet(ctx context.Context, in *attachmentInput) (*body[assess.Attachment], error) {
	a, err := s.dep.Attachments.GetAttachment(ctx, in.ID, in.AttachmentID, requestActor(ctx))
	return reply(a), err
}

var docAttachmentDownload = huma.Operation{OperationID: "downloadEvidenceAttachment", Summary: "Download a file",
	Tags: tagAttachments, Errors: []int{http.StatusNotFound, http.StatusRequestedRangeNotSatisfiable, http.StatusInternalServerError},
	Description: "The bytes, as a download (`Content-Disposition: attachment` with the name in RFC 5987 form, " +
		"`X-Content-Type-Options: nosniff`, `Content-Security-Policy: sandbox; default-src 'none'`), with the type detected " +
		"at upload. `ETag` is the SHA-256 in quotes; `Range` and `If-Range`/`If-None-Match` requests are served (206, 304); " +
		"`If-Match` is ignored (the bytes of an attachment never change); a range outside the file is 416 " +
		"range_not_satisfiable (Content-Range names the size). " +
		"The SHA-256 of the stored bytes is checked before the first byte is sent: a mismatch (a file changed or lost in " +
		"storage) answers 500 integrity_error, is recorded in the audit log (evidence.attachment_integrity_failed), and " +
		"sends no byte of the file.",
	Responses: map[string]*huma.Response{
		"200": {Description: "The file", Content: map[string]*huma.MediaType{
			"application/octet-stream": {Schema: &huma.Schema{Type: huma.TypeString, Format: "binary"}}}},
		"206": {Description: "The requested range of the file", Content: map[string]*huma.MediaType{
			"application/octet-stream": {Schema: &huma.Schema{Type: huma.TypeString, Format: "binary"}}}},
		"304": {Description: "The file has not changed (If-None-Match)"},
	}}

func (s *Server) handleAttachmentDownload(ctx context.Context, in *attachmentInput) (*huma.StreamResponse, error) {
	content, err := s.dep.Attachments.OpenAttachment(ctx, in.ID, in.AttachmentID, requestActor(ctx))
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		defer content.Body.Close()
		r, w := humachi.Unwrap(hctx)
		h := w.Header()
		h.Set("Content-Type", content.ContentType)
		h.Set("Content-Disposition", contentDisposition(content.Filename))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
		h.Set("ETag", `"`+content.SHA256+`"`)
		h.Set("Cache-Control", "private, no-cache")
		// If-Match guards changes; a download changes nothing, and the file of an
		// attachment never changes (its ETag is its SHA-256), so it is not evaluated:
		// ServeContent would answer a mismatch 412 in plain text, outside the envelope.
		r.Header.Del("If-Match")
		http.ServeContent(&rangeRefusal{ResponseWriter: w, r: r, log: s.dep.Logger}, r, "", time.Time{}, content.Body)
	}}, nil
}

// rangeRefusal answers a Range that lies outside the file (http.ServeContent's 416 in
// plain text) with the error envelope instead, keeping the Content-Range header that
// names the file's size.
type rangeRefusal struct {
	http.ResponseWriter
	r       *http.Request
	log     *slog.Logger
	refused bool
}

func (w *rangeRefusal) WriteHeader(status int) {
	if status != http.StatusRequestedRangeNotSatisfiable {
		w.ResponseWriter.WriteHeader(status)
		return
	}
	w.refused = true
	h := w.Header()
	h.Del("Content-Disposition")
	h.Del("ETag")
	writeError(w.ResponseWriter, w.r, w.log, &assess.Error{Code: assess.ECodeRangeNotSatisfiable,
		Message: "The requested range lies outside the file; Content-Range names its size."})
}

// Write drops ServeContent's plain-text body of a refusal; the envelope is written.
func (w *rangeRefusal) Write(b []byte) (int, error) {
	if w.refused {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

var docAttachmentDelete = huma.Operation{OperationID: "deleteEvidenceAttachment", Summary: "Delete a file",
	Tags: tagAttachments, DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusNotFound, http.StatusConflict},
	Description: "Locked evidence answers 409 conflict with the lock reason. The stored bytes are deleted from the provider " +
		"(at once in the database; by the blob collector job from S3)."}

func (s *Server) handleAttachmentDelete(ctx context.Context, in *attachmentInput) (*struct{}, error) {
	return nil, s.dep.Attachments.DeleteAttachment(ctx, in.ID, in.AttachmentID, requestActor(ctx))
}

// contentDisposition names a download: an ASCII fallback for old clients (quotes,
// backslashes, controls and non-ASCII characters replaced) and the exact name as an RFC
// 5987 UTF-8 parameter.
func contentDisposition(name string) string {
	ascii := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' || r == '%' {
			return '_'
		}
		return r
	}, name)
	return `attachment; filename="` + ascii + `"; filename*=UTF-8''` + rfc5987Encode(name)
}

// rfc5987Encode percent-encodes every byte of s outside RFC 5987's attr-char set.
func rfc5987Encode(s string) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
	return b.String()
}
