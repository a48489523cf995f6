package httpapi

import (
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

func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	doc, err := s.OpenAPIDocument()
	if err != nil {
		writeError(w, r, s.dep.Logger, err)
		return
	}
	w.Header().Set("Content-Type", contentTypeJSON)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(doc)
}
