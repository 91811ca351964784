package mockombi

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// TestJournalSince_afterAMark: the calls after a mark are exactly the ones
// made since, in order; a clear in between hands back every kept call.
func TestJournalSince_afterAMark(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) {
		s.Handler().ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
	}
	paths := func(cs []Call) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Path)
		}
		return out
	}
	get("/api/v1/Status")
	m := s.JournalMark()
	if got := s.JournalSince(m); len(got) != 0 {
		t.Fatalf("since a fresh mark = %v, want none", paths(got))
	}
	get("/api/v1/Status/info")
	get("/api/v1/Settings/about")
	if got, want := paths(s.JournalSince(m)), []string{"/api/v1/Status/info", "/api/v1/Settings/about"}; !slices.Equal(got, want) {
		t.Fatalf("since the mark = %v, want %v", got, want)
	}
	if now := s.JournalMark(); now == m || now.Last != m.Last+2 {
		t.Fatalf("mark after two calls = %+v, from %+v", now, m)
	}
	s.ClearJournal()
	get("/api/v1/Status")
	if got, want := paths(s.JournalSince(m)), []string{"/api/v1/Status"}; !slices.Equal(got, want) {
		t.Fatalf("since the mark across a clear = %v, want %v", got, want)
	}
}
