package harness

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestLedger_allow(t *testing.T) {
	l := NewLedger("http://127.0.0.1:1", true) // nothing is read from it here
	l.add(kindMovie, 7)
	l.add(kindIssue, 3)
	readOnly := NewLedger("http://127.0.0.1:1", false)
	tests := []struct {
		name         string
		l            *Ledger
		method, path string
		body         string
		allowed      bool
	}{
		{"a read", l, "GET", "/api/v1/Request/movie", "", true},
		{"a search by POST", l, "POST", "/api/v2/Search/multi/matrix", `{}`, true},
		{"logging in", readOnly, "POST", "/api/v1/Token", `{}`, true},
		{"a creation", l, "POST", "/api/v1/Request/movie", `{"theMovieDbId":603}`, true},
		{"a creation without --allow-mutations", readOnly, "POST", "/api/v1/Request/movie", `{"theMovieDbId":603}`, false},
		{"approving the run's request", l, "POST", "/api/v1/Request/movie/approve", `{"id":7}`, true},
		{"approving another request", l, "POST", "/api/v1/Request/movie/approve", `{"id":8}`, false},
		{"approving a tv request of the run's movie id", l, "POST", "/api/v1/Request/tv/approve", `{"id":7}`, false},
		{"deleting the run's request, other case", l, "DELETE", "/api/v1/request/MOVIE/7", "", true},
		{"deleting another request", l, "DELETE", "/api/v1/Request/movie/1", "", false},
		{"deleting a tv parent", l, "DELETE", "/api/v1/Request/tv/7", "", false},
		{"a comment on the run's issue", l, "POST", "/api/v1/Issues/comments", `{"issueId":3,"comment":"x"}`, true},
		{"a comment on another issue", l, "POST", "/api/v1/Issues/comments", `{"issueId":4,"comment":"x"}`, false},
		{"a vote on the run's request", l, "POST", "/api/v1/Vote/up/movie/7", "", true},
		{"a vote on another request", l, "POST", "/api/v1/Vote/up/movie/1", "", false},
		{"reprocessing the run's request", l, "POST", "/api/v2/Requests/reprocess/movie/7/false", "", true},
		{"reprocessing another request", l, "POST", "/api/v2/Requests/reprocess/movie/1/false", "", false},
		{"a job", l, "POST", "/api/v1/Job/update", "", true},
		{"deleting a user", l, "DELETE", "/api/v1/Identity/0b1c", "", false},
		{"removing a retry", l, "DELETE", "/api/v1/RequestRetry/2", "", false},
		{"a collection request whose collection cannot be read first", l, "POST", "/api/v2/Requests/movie/collection/10", "", false},
		{"a newsletter opt-out by GET", l, "GET", "/api/v1/Identity/newsletter/unsubscribe/0b1c", "", false},
		{"a settings change whose settings cannot be read first", l, "POST", "/api/v1/Settings/ombi", `{}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			err := tt.l.Allow(r, tt.path, []byte(tt.body))
			if (err == nil) != tt.allowed {
				t.Errorf("Allow(%s %s %s) = %v, want allowed %v", tt.method, tt.path, tt.body, err, tt.allowed)
			}
		})
	}
}

func TestLedger_notesAndUndoes(t *testing.T) {
	var calls []string
	ombi := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls = append(calls, r.Method+" "+r.URL.Path)
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/Identity":
			_, _ = w.Write([]byte(`{"language":"fr","streamingCountry":null}`))
		case r.Method == http.MethodDelete:
			_, _ = w.Write([]byte(`{"result":true}`))
		default:
			_, _ = w.Write([]byte(`true`))
		}
	}))
	defer ombi.Close()
	l := NewLedger(ombi.URL, true)
	answer := func(method, path, body string, status int, answer string) {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		if err := l.Allow(r, path, []byte(body)); err != nil {
			t.Fatalf("Allow(%s %s): %v", method, path, err)
		}
		l.Answered(r, path, []byte(body), status, []byte(answer))
	}
	answer("POST", "/api/v1/Request/movie", `{"theMovieDbId":603}`, 200, `{"result":true,"requestId":41}`)
	answer("POST", "/api/v1/Request/movie", `{"theMovieDbId":604}`, 200, `{"result":false,"isError":true,"requestId":0}`)
	answer("POST", "/api/v1/Issues", `{"title":"x"}`, 200, `12`)
	answer("POST", "/api/v1/Issues/comments", `{"issueId":12,"comment":"x"}`, 200, `{"id":5}`)
	answer("POST", "/api/v1/Identity/language", `{"lang":"de"}`, 200, ``)
	answer("POST", "/api/v1/Job/update", ``, 200, ``)
	answer("DELETE", "/api/v1/Request/movie/41", ``, 200, `{"result":true}`)
	got := []string{}
	for _, u := range l.Report().Left {
		got = append(got, u.What+": "+u.Line())
	}
	want := []string{"issue 12: DELETE /api/v1/Issues/12", "issue comment 5: DELETE /api/v1/Issues/comments/5",
		`the language of the account the server uses: POST /api/v1/Identity/language {"lang":"fr"}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("left before the cleanup:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	calls = nil
	l.Cleanup(t.Context(), ombi.URL, http.Header{"Apikey": {"k"}})
	rep := l.Report()
	if len(rep.Left) != 0 || len(rep.Undone) != 3 || len(rep.Errors) != 0 {
		t.Errorf("after the cleanup: %+v, want 3 undone, none left", rep)
	}
	wantCalls := "POST /api/v1/Identity/language|DELETE /api/v1/Issues/comments/5|DELETE /api/v1/Issues/12"
	if strings.Join(calls, "|") != wantCalls {
		t.Errorf("the cleanup called %q, want %q (newest first)", strings.Join(calls, "|"), wantCalls)
	}
	if len(rep.Irreversible) != 1 || rep.Irreversible[0].Call != "POST /api/v1/Job/{job}" {
		t.Errorf("irreversible: %+v, want the job run", rep.Irreversible)
	}
}

func TestLedger_tvParent(t *testing.T) {
	ombi := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// parent 30 holds the run's child 41 only; parent 31 holds 42 (the
		// run's) and 43 (another caller's)
		_, _ = w.Write([]byte(`[{"id":30,"childRequests":[{"id":41}]},{"id":31,"childRequests":[{"id":42},{"id":43}]}]`))
	}))
	defer ombi.Close()
	l := NewLedger(ombi.URL, true)
	call := func(method, path, body, answer string) error {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		err := l.Allow(r, path, []byte(body))
		if err == nil {
			l.Answered(r, path, []byte(body), http.StatusOK, []byte(answer))
		}
		return err
	}
	for _, answer := range []string{`{"result":true,"requestId":41}`, `{"result":true,"requestId":42}`} {
		if err := call("POST", "/api/v2/Requests/tv", `{"theMovieDbId":1}`, answer); err != nil {
			t.Fatalf("create: %v", err)
		}
	}
	tests := []struct {
		name, method, path, body string
		allowed                  bool
	}{
		{"options of the parent the run created", "POST", "/api/v2/Requests/tv/advancedoptions", `{"requestId":30}`, true},
		{"the root folder of that parent", "PUT", "/api/v1/Request/tv/root/30/2", "", true},
		{"options of a parent holding another caller's child", "POST", "/api/v2/Requests/tv/advancedoptions", `{"requestId":31}`, false},
		{"options named by the child's id", "POST", "/api/v2/Requests/tv/advancedoptions", `{"requestId":41}`, false},
		{"approving the child", "POST", "/api/v1/Request/tv/approve", `{"id":41}`, true},
		{"approving the parent's id", "POST", "/api/v1/Request/tv/approve", `{"id":30}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			if err := l.Allow(r, tt.path, []byte(tt.body)); (err == nil) != tt.allowed {
				t.Errorf("Allow(%s %s %s) = %v, want allowed %v", tt.method, tt.path, tt.body, err, tt.allowed)
			}
		})
	}
	if got := l.Created()["tv parent request"]; len(got) != 1 || got[0] != 30 {
		t.Errorf("created tv parents = %v, want [30]", got)
	}
	var left []string
	for _, u := range l.Report().Left {
		left = append(left, u.What+": "+u.Line())
	}
	if want := "tv request 41: DELETE /api/v1/Request/tv/child/41|tv request 42: DELETE /api/v1/Request/tv/child/42"; strings.Join(left, "|") != want {
		t.Errorf("a stopped run would list %q, want %q (a parent goes with its last child)", strings.Join(left, "|"), want)
	}
	if err := call("DELETE", "/api/v1/Request/tv/child/41", "", `{"result":true}`); err != nil {
		t.Fatalf("delete the child: %v", err)
	}
	if l.owns(kindTVParent, 30) {
		t.Error("the parent is still the run's once its only child is gone")
	}
}

// TestLedger_collection holds that a collection request's movie requests
// are the run's: Ombi answers one result for the collection, so the ledger
// reads the movie requests before and after, and owns the new ones of the
// collection's titles (not a request another caller made meanwhile).
func TestLedger_collection(t *testing.T) {
	after := false
	var deleted []string
	ombi := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodDelete:
			deleted = append(deleted, r.URL.Path)
			_, _ = w.Write([]byte(`{"result":true}`))
		case r.URL.Path == "/api/v2/Search/movie/collection/77":
			_, _ = w.Write([]byte(`{"name":"x","collection":[{"id":20},{"id":21},{"id":10}]}`))
		case r.URL.Path == "/api/v1/Request/movie" && !after:
			_, _ = w.Write([]byte(`[{"id":1,"theMovieDbId":10}]`))
		case r.URL.Path == "/api/v1/Request/movie":
			// 2 and 3 are the collection's; 4 is another title, requested meanwhile
			_, _ = w.Write([]byte(`[{"id":1,"theMovieDbId":10},{"id":2,"theMovieDbId":20},{"id":3,"theMovieDbId":21},{"id":4,"theMovieDbId":99}]`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer ombi.Close()
	l := NewLedger(ombi.URL, true)
	path := "/api/v2/Requests/movie/collection/77"
	r := httptest.NewRequest("POST", path, nil)
	if err := l.Allow(r, path, nil); err != nil {
		t.Fatalf("Allow(POST %s) = %v, want allowed", path, err)
	}
	after = true
	// Ombi answers the first title's result: here the one requested before
	l.Answered(r, path, nil, http.StatusOK, []byte(`{"result":true,"message":"The collection x has been successfully added!","requestId":1}`))
	if got := l.Created()["movie request"]; len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Errorf("created movie requests = %v, want [2 3]", got)
	}
	for _, tt := range []struct {
		id      string
		allowed bool
	}{{"2", true}, {"3", true}, {"1", false}, {"4", false}} {
		p := "/api/v1/Request/movie/" + tt.id
		if err := l.Allow(httptest.NewRequest("DELETE", p, nil), p, nil); (err == nil) != tt.allowed {
			t.Errorf("Allow(DELETE %s) = %v, want allowed %v", p, err, tt.allowed)
		}
	}
	l.Settle(0)
	l.Cleanup(t.Context(), ombi.URL, http.Header{"Apikey": {"k"}})
	if want := "/api/v1/Request/movie/3|/api/v1/Request/movie/2"; strings.Join(deleted, "|") != want {
		t.Errorf("the cleanup deleted %q, want %q", strings.Join(deleted, "|"), want)
	}

	// a collection request that fails midway still owns what it made
	after = false
	l = NewLedger(ombi.URL, true)
	r = httptest.NewRequest("POST", path, nil)
	if err := l.Allow(r, path, nil); err != nil {
		t.Fatalf("Allow(POST %s) = %v, want allowed", path, err)
	}
	after = true
	l.Answered(r, path, nil, http.StatusInternalServerError, []byte(`{"error":"x"}`))
	if got := l.Created()["movie request"]; len(got) != 2 {
		t.Errorf("after a failed collection request, created movie requests = %v, want [2 3]", got)
	}
}
