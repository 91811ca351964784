package mockombi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkWriteRoutes measures the hot write routes in process (no
// network), API-key auth and the journal on, so the per-request cost of the
// write path shows without the HTTP stack around it.
func BenchmarkWriteRoutes(b *testing.B) {
	cases := []struct {
		name, method, path, body string
	}{
		{"issue_comment", http.MethodPost, "/api/v1/Issues/comments", `{"issueId":1,"comment":"Playback fails again."}`},
		{"issue_create", http.MethodPost, "/api/v1/Issues", `{"title":"Dune","requestType":1,"providerId":"693134","subject":"No sound","description":"Silent from the start.","issueCategoryId":1}`},
		{"request_movie", http.MethodPost, "/api/v1/Request/movie", `{"theMovieDbId":604}`},
		{"request_approve", http.MethodPost, "/api/v1/Request/movie/approve", `{"id":1}`},
		{"vote_up", http.MethodPost, "/api/v1/Vote/up/movie/1", ""},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			s := mustNew(b, Options{JournalSize: 1024})
			h := s.Handler()
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
				req.Header.Set("ApiKey", DefaultAPIKey)
				if tc.body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s %s: %d %s", tc.method, tc.path, rec.Code, rec.Body)
				}
			}
		})
	}
}
