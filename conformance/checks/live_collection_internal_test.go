package checks

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
)

// TestLiveCollectionClaims holds each rule of the collection check to an
// answer that breaks it, beside the same situation answered truthfully:
// collection 10 has titles 1 (requested before), 2 and 3; the call made
// request 50 of title 2, and Ombi left title 3 unrequested.
func TestLiveCollectionClaims(t *testing.T) {
	c := liveCollectionPick{id: 10, titles: map[int]string{1: "One", 2: "Two", 3: "Three"}, held: map[int]bool{1: true}}
	created := map[int]int{50: 2}
	ok := func(data string) *harness.Outcome {
		return &harness.Outcome{Envelope: &harness.Envelope{OK: true, Data: json.RawMessage(data)}}
	}
	failed := func(code string) *harness.Outcome {
		return &harness.Outcome{Envelope: &harness.Envelope{Error: &harness.EnvelopeError{Code: code}}}
	}
	tests := []struct {
		name string
		o    *harness.Outcome
		made map[int]int
		want string // a part of the one error; "" for none
	}{
		{"accepted, nothing claimed", ok(`{"outcome":"accepted"}`), created, ""},
		{"the request made named", ok(`{"outcome":"accepted","request_id":50}`), created, ""},
		{"a request not made named", ok(`{"outcome":"accepted","request_id":1}`), created, "names request 1"},
		{"the count of requests made", ok(`{"outcome":"accepted","affected_count":1}`), created, ""},
		{"a count of the collection's titles", ok(`{"outcome":"accepted","affected_count":3}`), created, "counts 3 affected"},
		{"completed while a title is left", ok(`{"outcome":"completed"}`), created, "3 (Three)"},
		{"completed when every title is requested", ok(`{"outcome":"completed"}`), map[int]int{50: 2, 51: 3}, ""},
		{"rejected while a request was made", ok(`{"outcome":"rejected"}`), created, "says rejected"},
		{"rejected when nothing was made", ok(`{"outcome":"rejected"}`), map[int]int{}, ""},
		{"per-title outcomes as made", ok(`{"outcome":"partial","item_results":[{"identifier":"2","outcome":"completed"},{"identifier":"Three","outcome":"rejected"}]}`), created, ""},
		{"a title completed that was not requested", ok(`{"outcome":"partial","item_results":[{"identifier":"3","outcome":"completed"}]}`), created, "no new request of tmdb 3"},
		{"a title rejected that was requested", ok(`{"outcome":"partial","item_results":[{"identifier":"50","outcome":"rejected"}]}`), created, "made request 50"},
		{"an item of no title", ok(`{"outcome":"partial","item_results":[{"identifier":"99","outcome":"unknown"}]}`), created, "names no title"},
		{"a partial failure", failed("PARTIAL_FAILURE"), created, ""},
		{"a failure when nothing was made", failed("UPSTREAM_ERROR"), map[int]int{}, ""},
		{"a failure while a request was made", failed("UPSTREAM_ERROR"), created, "failed with UPSTREAM_ERROR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := liveCollectionClaims(tt.o, c, tt.made)
			switch {
			case tt.want == "" && len(e) > 0:
				t.Errorf("errors %q, want none", e)
			case tt.want != "" && (len(e) != 1 || !strings.Contains(e[0], tt.want)):
				t.Errorf("errors %q, want one naming %q", e, tt.want)
			}
		})
	}
}

func TestLiveCollectionSent(t *testing.T) {
	tests := []struct {
		writes []string
		want   int
	}{
		{[]string{"POST /api/v2/Requests/movie/collection/10"}, 0},
		{[]string{"POST /api/v1/Request/movie {\"theMovieDbId\":2}", "POST /api/v1/Request/movie {\"theMovieDbId\":3}"}, 0},
		{[]string{"POST /api/v2/Requests/movie/collection/10", "POST /api/v2/Requests/movie/collection/10"}, 1},
		{nil, 1},
	}
	for _, tt := range tests {
		if e := liveCollectionSent(tt.writes); len(e) != tt.want {
			t.Errorf("liveCollectionSent(%q) = %q, want %d errors", tt.writes, e, tt.want)
		}
	}
}
