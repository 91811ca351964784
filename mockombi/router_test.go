package mockombi

import (
	"net/http"
	"strings"
	"testing"
)

func TestRouter_match(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		name       string
		method     string
		path       string
		want       string
		wantParams map[string]string
		wantOther  bool
	}{
		{"exact", "GET", "/api/v1/Search/movie/matrix", RouteSearchMovie, map[string]string{"searchTerm": "matrix"}, false},
		{"case-insensitive literals", "GET", "/API/V1/search/MOVIE/matrix", RouteSearchMovie, map[string]string{"searchTerm": "matrix"}, false},
		{"param keeps its case and is unescaped", "GET", "/api/v1/Search/movie/The%20Matrix%2FReloaded", RouteSearchMovie, map[string]string{"searchTerm": "The Matrix/Reloaded"}, false},
		{"trailing slash", "POST", "/api/v1/Request/Movie/", RouteRequestMovie, map[string]string{}, false},
		{"literal beats param", "GET", "/api/v1/Search/movie/popular", "GET /api/v1/Search/movie/popular", map[string]string{}, false},
		{"literal beats param deeper", "GET", "/api/v2/Requests/movie/available/10/0/requestedDate/desc", "GET /api/v2/Requests/movie/{status}/{count}/{position}/{sort}/{sortOrder}", map[string]string{"status": "available", "count": "10"}, false},
		{"v2 list base", "GET", "/api/v2/Requests/movie/15/0/requestedDate/desc", RouteRequestsMovieV2, map[string]string{"count": "15", "sortOrder": "desc"}, false},
		{"info beats id", "GET", "/api/v1/Search/movie/info/603", "GET /api/v1/Search/movie/info/{theMovieDbId}", map[string]string{"theMovieDbId": "603"}, false},
		{"other method", "DELETE", "/api/v1/Search/movie/matrix", "", nil, true},
		{"unknown", "GET", "/api/v1/Nope", "", nil, false},
		{"too long", "GET", "/api/v1/Search/movie/a/b/c", "", nil, false},
		{"empty segment is not a param", "GET", "/api/v1/Search/movie//", "", nil, false},
		{"HEAD uses GET", "HEAD", "/api/v1/Status", RouteStatus, map[string]string{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cr, params, other := s.router.match(tt.method, tt.path)
			got := ""
			if cr != nil {
				got = cr.pattern
			}
			if got != tt.want || other != tt.wantOther {
				t.Fatalf("match(%s %s) = %q other=%v, want %q other=%v", tt.method, tt.path, got, other, tt.want, tt.wantOther)
			}
			for k, v := range tt.wantParams {
				if params[k] != v {
					t.Errorf("param %s = %q, want %q", k, params[k], v)
				}
			}
		})
	}
}

func TestRouter_rejectsBadTables(t *testing.T) {
	h := func(http.ResponseWriter, *http.Request) {}
	tests := []struct {
		name    string
		table   []route
		wantErr string
	}{
		{"no method", []route{{"/api/v1/x", anon, h}}, "want"},
		{"duplicate ignoring case and param names", []route{{"GET /api/v1/X/{a}", anon, h}, {"GET /api/v1/x/{b}", anon, h}}, "duplicate"},
		{"relative path", []route{{"GET api/v1/x", anon, h}}, "want"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newRouter(tt.table)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("newRouter() error = %v, want containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestRoutes_everyPatternIsWellFormed(t *testing.T) {
	s := newTestServer(t, Options{})
	methods := map[string]bool{"GET": true, "POST": true, "PUT": true, "DELETE": true}
	for _, r := range s.routes() {
		method, p, _ := strings.Cut(r.pattern, " ")
		if !methods[method] {
			t.Errorf("%q: method %q", r.pattern, method)
		}
		if !strings.HasPrefix(strings.ToLower(p), "/api/v1/") && !strings.HasPrefix(strings.ToLower(p), "/api/v2/") && p != "/health" {
			t.Errorf("%q: path outside /api/v1, /api/v2", r.pattern)
		}
		if r.handler == nil {
			t.Errorf("%q: nil handler", r.pattern)
		}
		// every route must be reachable through the matcher by its own pattern
		concrete := strings.NewReplacer("{", "x", "}", "").Replace(p)
		cr, _, _ := s.router.match(method, concrete)
		if cr == nil {
			t.Errorf("%q: not matched by %s %s", r.pattern, method, concrete)
		}
	}
}

func TestServer_unknownAPIRoute(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		name   string
		method string
		path   string
		want   int
	}{
		{"unknown v1", "GET", "/api/v1/DoesNotExist", http.StatusNotFound},
		{"unknown v2 with auth", "GET", "/api/v2/Requests/nope", http.StatusNotFound},
		{"wrong method", "PATCH", "/api/v1/Status", http.StatusMethodNotAllowed},
		{"non-API without static dir", "GET", "/discover", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, call{method: tt.method, path: tt.path, header: apiKey()})
			if res.status != tt.want || len(res.body) != 0 {
				t.Fatalf("%s %s = %d %q, want %d with empty body", tt.method, tt.path, res.status, res.body, tt.want)
			}
		})
	}
}
