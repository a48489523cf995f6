package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
)

// OpenAPIDocument renders the API description: the huma-generated OpenAPI 3.1 document
// with a webhooks root always present (event payloads are described there).
func (s *Server) OpenAPIDocument() ([]byte, error) {
	raw, err := json.Marshal(s.API.OpenAPI())
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if _, ok := doc["webhooks"]; !ok {
		doc["webhooks"] = map[string]any{}
	}
	return json.MarshalIndent(doc, "", "  ")
}

// handleOpenAPI serves the document, rendered once (it is fixed for the life of the
// process), with an ETag so clients revalidate it without downloading it again.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	s.openapiOnce.Do(func() {
		s.openapiDoc, s.openapiErr = s.OpenAPIDocument()
		sum := sha256.Sum256(s.openapiDoc)
		s.openapiETag = `"` + hex.EncodeToString(sum[:16]) + `"`
	})
	if s.openapiErr != nil {
		writeError(w, r, s.dep.Logger, s.openapiErr)
		return
	}
	w.Header().Set("Content-Type", contentTypeJSON)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", s.openapiETag)
	if r.Header.Get("If-None-Match") == s.openapiETag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	_, _ = w.Write(s.openapiDoc)
}

// markNullableObjects describes the fields that hold a pointer to a struct and are sent
// as null when unset (no omitempty) as "the object or null": huma describes them as the
// object alone, and the typed clients generated from the document then claim a value is
// always there (evidence reviewer, attachment uploadedBy, a note's author, a signatory
// slot's user).
func (s *Server) markNullableObjects() {
	registry := s.API.OpenAPI().Components.Schemas
	for name, schema := range registry.Map() {
		t := registry.TypeFromRef(schemaRef + name)
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			continue
		}
		for _, prop := range nullableObjectFields(t) {
			if p := schema.Properties[prop]; p != nil && p.Ref != "" {
				schema.Properties[prop] = &huma.Schema{Description: p.Description,
					AnyOf: []*huma.Schema{{Ref: p.Ref}, {Type: "null"}}}
			}
		}
	}
}

const schemaRef = "#/components/schemas/"

// nullableObjectFields are the JSON names of t's fields (embedded structs included) that
// hold a pointer to a struct and are written as null when nil.
func nullableObjectFields(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, nullableObjectFields(ft)...)
			}
			continue
		}
		if name == "-" || !f.IsExported() || strings.Contains(opts, "omitempty") {
			continue
		}
		if f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct && f.Type.Elem() != reflect.TypeFor[time.Time]() {
			if name == "" {
				name = f.Name
			}
			out = append(out, name)
		}
	}
	return out
}
