package httpapi

import (
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/assay-dev/assay/pkg/assess"
)

// Uploads (evidence files) are operations of their own kind: declared in the route table
// with onUpload and described in the OpenAPI document as multipart/form-data like any
// other operation, but their body never passes through the JSON cap, the idempotency
// middleware or any buffer. The handler receives the file as a stream, in the order the
// client sends it, and UPLOAD_MAX_FILE_SIZE is enforced while reading: the first byte past
// the limit ends the request with 413 and the rest of the body is not read.
//
// Idempotency-Key is not offered for uploads: replaying one would need the whole body
// hashed before the store sees it, that is, buffered. A request that sends the header is
// refused with 400; stores make an upload idempotent by content instead (the same bytes
// attached twice to one record yield one attachment).

// uploadOverhead is what a multipart body may carry besides the file: part headers and
// small text fields.
const uploadOverhead = 1 << 20

// maxUploadFields bounds the text fields read before the file part.
const maxUploadFields = 32

// Upload is the file of a multipart/form-data request as a handler receives it. Embed it
// in the input type of an upload operation (with its path parameters beside it).
type Upload struct {
	// Fields are the text parts that precede the file part, by name.
	Fields map[string]string
	// Filename and ContentType are what the client declared for the file part; the
	// content type is a claim to be checked against the bytes, never trusted.
	Filename    string
	ContentType string
	// File streams the file's bytes. Reading past UPLOAD_MAX_FILE_SIZE fails with a
	// payload_too_large error, which the handler returns as it is.
	File io.Reader

	started bool
	err     error // what Resolve found wrong with the form, answered before the handler runs
}

// upload gives onUpload's wrapper the Upload embedded in an input.
func (u *Upload) upload() *Upload { return u }

type uploader interface{ upload() *Upload }

// uploadLimitKey carries the file size limit from the server into the request context.
type uploadLimitKey struct{}

// Resolve implements huma.Resolver: it opens the multipart stream and reads up to the
// file part named "file". Nothing of the file is read here. A malformed form is kept as
// the operation's answer (our envelope, not huma's validation list).
func (u *Upload) Resolve(hctx huma.Context) []error {
	if u.started { // found both on the input and on its embedded field
		return nil
	}
	u.started = true
	u.err = u.open(hctx)
	return nil
}

func (u *Upload) open(hctx huma.Context) error {
	limit, _ := hctx.Context().Value(uploadLimitKey{}).(int64)
	mt, params, err := mime.ParseMediaType(hctx.Header("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return &assess.Error{Code: assess.ECodeUnsupportedMedia,
			Message: "Send the file as multipart/form-data with a part named file."}
	}
	mr := multipart.NewReader(hctx.BodyReader(), params["boundary"])
	u.Fields = map[string]string{}
	for {
		part, err := mr.NextPart()
		if err != nil {
			return uploadFormError(err)
		}
		if code, msg := textProblem(part.FormName()); code != "" {
			return malformedUploadText(fieldName(part.FormName()), "The name of a form field", code, msg)
		}
		if part.FormName() == "file" && part.FileName() != "" {
			if code, msg := textProblem(part.FileName()); code != "" {
				return malformedUploadText("file", "The file name", code, msg)
			}
			u.Filename, u.ContentType = part.FileName(), part.Header.Get("Content-Type")
			u.File = &limitedFile{r: part, left: limit, limit: limit}
			return nil
		}
		if len(u.Fields) == maxUploadFields {
			return badUpload("The form has too many fields before the file part.")
		}
		v, err := io.ReadAll(io.LimitReader(part, 64<<10+1))
		if err != nil {
			return uploadFormError(err)
		}
		if len(v) > 64<<10 {
			return badUpload("The form field " + part.FormName() + " is longer than 64 KiB.")
		}
		if code, msg := textProblem(string(v)); code != "" {
			return malformedUploadText(part.FormName(), "The form field "+part.FormName(), code, msg)
		}
		u.Fields[part.FormName()] = string(v)
	}
}

func badUpload(msg string) error {
	return &assess.Error{Code: assess.ECodeValidation, Message: msg,
		Details: []assess.Detail{{Field: "file", Code: "invalid", Message: msg}}}
}

// malformedUploadText refuses form text the input boundary would refuse in a JSON body.
func malformedUploadText(field, what, code, msg string) error {
	return &assess.Error{Code: assess.ECodeValidation, Message: what + " " + msg + ".",
		Details: []assess.Detail{{Field: field, Code: code, Message: msg}}}
}

func uploadFormError(err error) error {
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return &assess.Error{Code: assess.ECodePayloadTooLarge, Message: "The request body is larger than an upload may be."}
	case errors.Is(err, io.EOF):
		return badUpload("The form has no part named file with a file name.")
	}
	return badUpload("The multipart body is malformed.")
}

// limitedFile reads a file part and fails on the first byte past the limit.
type limitedFile struct {
	r     io.Reader
	left  int64
	limit int64 // UPLOAD_MAX_FILE_SIZE, for the refusal's message
}

func (f *limitedFile) Read(p []byte) (int, error) {
	if f.left < 0 {
		return 0, f.tooLarge()
	}
	if int64(len(p)) > f.left+1 {
		p = p[:f.left+1]
	}
	n, err := f.r.Read(p)
	f.left -= int64(n)
	if f.left < 0 {
		return n - int(-f.left), f.tooLarge()
	}
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return n, f.tooLarge()
	case errors.Is(err, io.ErrUnexpectedEOF): // the body ended before the part's closing boundary
		return n, errUploadCutOff
	}
	return n, err
}

// tooLarge is the refusal of a file past the limit, naming the limit.
func (f *limitedFile) tooLarge() error {
	return &assess.Error{Code: assess.ECodePayloadTooLarge, Message: errFileTooLarge(f.limit).Message}
}

var (
	errUploadCutOff = badUpload("The request body ended before the end of the file part (its closing boundary): the upload is incomplete.")
)

// isMultipart reports a multipart/form-data request: an upload.
func isMultipart(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "multipart/form-data"
}

// uploadRequestBody documents the body of an upload operation.
func uploadRequestBody(description string, fields map[string]*huma.Schema) *huma.RequestBody {
	props := map[string]*huma.Schema{
		"file": {Type: huma.TypeString, Format: "binary",
			Description: "The file; at most UPLOAD_MAX_FILE_SIZE bytes. Text fields, if any, come before it."},
	}
	for name, schema := range fields {
		props[name] = schema
	}
	return &huma.RequestBody{Required: true, Description: description, Content: map[string]*huma.MediaType{
		"multipart/form-data": {Schema: &huma.Schema{Type: huma.TypeObject, Required: []string{"file"}, Properties: props}},
	}}
}

// withUploadFields documents the text fields upload route r takes before its file part.
func withUploadFields(r route, fields map[string]*huma.Schema) route {
	r.uploadFields = fields
	return r
}

// onUpload declares an upload route: like on, with a multipart/form-data body that the
// handler streams through the Upload embedded in its input (I must embed Upload). The
// body is described in the document after registration (registerRoute), so huma itself
// never reads it.
func onUpload[I any, O any](method, path string, perm assess.Perm, handler func(context.Context, *I) (*O, error), doc huma.Operation) route {
	doc.Errors = append(doc.Errors, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType)
	r := on(method, path, perm, func(ctx context.Context, in *I) (*O, error) {
		u, ok := any(in).(uploader)
		if !ok {
			panic("upload operation " + doc.OperationID + ": its input does not embed httpapi.Upload")
		}
		if err := u.upload().err; err != nil {
			return nil, err
		}
		return handler(ctx, in)
	}, doc)
	r.upload = true
	return r
}
