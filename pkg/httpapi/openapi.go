package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
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
