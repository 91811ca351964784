package mockombi

import (
	"embed"
	"net/http"
	"strings"
)

// dashboardFiles is the control API's web page: plain HTML, CSS and
// JavaScript, no build step, no external assets.
//
//go:embed dashboard/index.html dashboard/dashboard.js dashboard/dashboard.css dashboard/favicon.svg
var dashboardFiles embed.FS

// faviconPath is where a browser asks for a site's icon unprompted.
const faviconPath = "/favicon.ico"

// dashboardCSP keeps the page to its own origin.
const dashboardCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

// browserIcon reports whether r is a browser's own GET (or HEAD) of
// /favicon.ico that the mock answers itself, unjournaled: no Ombi client
// calls it, and no frontend is served at the root to answer it (with
// StaticDir and no BasePath the frontend's own icon is served, as any of
// its files, and journaled).
func (s *Server) browserIcon(r *http.Request, escaped string) bool {
	if escaped != faviconPath || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		return false
	}
	return s.opts.StaticDir == "" || s.basePath != ""
}

// serveDashboard answers GET /_mock/, its assets and its icon; false when
// rest is not a dashboard path.
func (s *Server) serveDashboard(w http.ResponseWriter, r *http.Request, rest string) bool {
	var name, ctype string
	switch rest {
	case "":
		name, ctype = "dashboard/index.html", "text/html; charset=utf-8"
	case "dashboard.js":
		name, ctype = "dashboard/dashboard.js", "text/javascript; charset=utf-8"
	case "dashboard.css":
		name, ctype = "dashboard/dashboard.css", "text/css; charset=utf-8"
	case "favicon.svg":
		name, ctype = "dashboard/favicon.svg", "image/svg+xml"
	default:
		return false
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeControlError(w, http.StatusMethodNotAllowed, r.Method+" "+controlPrefix+rest+": want GET")
		return true
	}
	if rest == "" && !strings.HasSuffix(r.URL.Path, "/") {
		// the page uses relative URLs: they need the trailing slash
		http.Redirect(w, r, r.URL.EscapedPath()+"/", http.StatusMovedPermanently)
		return true
	}
	b, err := dashboardFiles.ReadFile(name)
	if err != nil {
		writeControlError(w, http.StatusInternalServerError, err.Error())
		return true
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", dashboardCSP)
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(b)
	}
	return true
}
