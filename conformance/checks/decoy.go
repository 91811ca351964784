package checks

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
)

// decoy is a loopback HTTP server of another origin that records every
// request it gets (method, path and headers).
type decoy struct {
	srv *httptest.Server
	url string
	mu  sync.Mutex
	got []string
}

func startDecoy() *decoy {
	d := &decoy{}
	d.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s", r.Method, r.URL.RequestURI())
		for k, v := range r.Header {
			fmt.Fprintf(&b, "\n%s: %s", k, strings.Join(v, ", "))
		}
		d.mu.Lock()
		d.got = append(d.got, b.String())
		d.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[]`))
	}))
	d.url = d.srv.URL
	return d
}

func (d *decoy) requests() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.got)
}

func (d *decoy) close() { d.srv.Close() }
