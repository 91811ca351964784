package mockombi

import (
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
)

// serveStatic serves the built frontend from Options.StaticDir byte for byte;
// unknown paths fall back to index.html, as Ombi's SPA fallback does. It
// reports false when it answered 404 because it serves nothing there.
func (s *Server) serveStatic(w http.ResponseWriter, r *http.Request, upstream string) bool {
	if s.opts.StaticDir == "" || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		w.WriteHeader(http.StatusNotFound)
		return false
	}
	name, err := url.PathUnescape(upstream)
	if err != nil {
		name = upstream
	}
	name = strings.TrimPrefix(path.Clean("/"+name), "/")
	fsys := os.DirFS(s.opts.StaticDir)
	if st, err := fs.Stat(fsys, name); name == "" || err != nil || st.IsDir() {
		name = "index.html"
	}
	f, err := fsys.Open(name)
	if err != nil {
		w.WriteHeader(http.StatusNotFound)
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	rs, ok := f.(io.ReadSeeker)
	if err != nil || !ok {
		w.WriteHeader(http.StatusNotFound)
		return false
	}
	http.ServeContent(w, r, st.Name(), st.ModTime(), rs)
	return true
}
