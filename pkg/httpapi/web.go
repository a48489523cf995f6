package httpapi

import (
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/assay-dev/assay/pkg/assess"
)

// serveSPA serves a file of the built web application, or index.html for any other path
// that names a page, so the client-side router can take over (deep links, the not-found
// page). A path that names a file the build lacks (anything under /assets/, or a name
// with an extension such as /favicon.ico or an old bundle) is 404: answering it with the
// page would hand a browser HTML where it expects a script or an image.
func (s *Server) serveSPA(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name != "" && s.serveFile(w, r, name) {
		return
	}
	if isFilePath(name) {
		w.Header().Set("Cache-Control", "no-cache")
		http.Error(w, "Not found: no such file in this build of the web application.", http.StatusNotFound)
		return
	}
	if !s.serveFile(w, r, "index.html") {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, "The web application has not been built. Run `make build` (or `npm --prefix web run build`) and restart.\n")
	}
}

// isFilePath reports a path that names a file rather than a page of the application:
// below assets/, or a last segment with an extension. No page route has a dot in it.
func isFilePath(name string) bool {
	return strings.HasPrefix(name, "assets/") || path.Ext(name) != ""
}

// serveFile writes one file of the web FS with its cache policy; false when absent.
// Hashed assets never change, so browsers may keep them for a year; everything else is
// revalidated so a new release shows at once.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, name string) bool {
	if s.dep.Web == nil {
		return false
	}
	f, err := s.dep.Web.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	if s.serveGzipTwin(w, r, name) {
		return true
	}
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		return false
	}
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		return false
	}
	setFileCache(w, name)
	http.ServeContent(w, r, st.Name(), time.Time{}, rs)
	return true
}

// serveGzipTwin sends the precompressed twin (name.gz, written by the web build) of a file
// to a client that accepts gzip; false when there is none or the client does not.
func (s *Server) serveGzipTwin(w http.ResponseWriter, r *http.Request, name string) bool {
	w.Header().Add("Vary", "Accept-Encoding")
	if !acceptsGzip(r) {
		return false
	}
	f, err := s.dep.Web.Open(name + ".gz")
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	rs, ok := f.(io.ReadSeeker)
	if err != nil || st.IsDir() || !ok {
		return false
	}
	if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.Header().Set("Content-Encoding", "gzip")
	setFileCache(w, name)
	http.ServeContent(w, r, st.Name(), time.Time{}, rs)
	return true
}

// setFileCache sets the cache policy of a file of the web build.
func setFileCache(w http.ResponseWriter, name string) {
	if strings.HasPrefix(name, "assets/") {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
}

// handleDocs serves the interactive API documentation (Swagger UI, bundled into the web
// build so it works with no network): the page at /api/v1/docs, its assets below it.
func (s *Server) handleDocs(w http.ResponseWriter, r *http.Request) {
	file := chi.URLParam(r, "file")
	if file == "" {
		file = "index.html"
	}
	if !fs.ValidPath(file) || !s.serveFile(w, r, "apidocs/"+file) {
		writeError(w, r, s.dep.Logger, assess.Errorf(assess.ECodeNotFound,
			"No API documentation asset %q; if the web application was not built, run `make build`.", file))
	}
}
