package mockombi

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestStubs_controlAPI: a stub made through the control API answers its
// route instead of the handler, is journaled under its name, counts its
// hits and goes once spent; refused stubs name the field.
func TestStubs_controlAPI(t *testing.T) {
	s := newTestServer(t, Options{})
	key := apiKey()
	tests := []struct {
		name       string
		c          call
		wantStatus int
		check      func(t *testing.T, res result)
	}{
		{"add a stub with a JSON body", call{method: "POST", path: "/_mock/stubs",
			body: `{"method":"GET","path":"/api/v1/Status","status":503,"headers":{"Retry-After":"9"},"body":{"maintenance":true},"times":2}`}, 201,
			func(t *testing.T, res result) {
				var as ActiveStub
				res.json(t, &as)
				if as.ID != 1 || as.Name != "stub#1" || as.Body != `{"maintenance":true}` || as.Remaining == nil || *as.Remaining != 2 ||
					res.header.Get("Location") != "/_mock/stubs/1" {
					t.Errorf("created %+v, Location %q", as, res.header.Get("Location"))
				}
			}},
		{"the stub answers", call{method: "GET", path: "/api/V1/status/"}, 503, func(t *testing.T, res result) {
			if string(res.body) != `{"maintenance":true}` || res.header.Get("Retry-After") != "9" ||
				res.header.Get("Content-Type") != "application/json; charset=utf-8" {
				t.Errorf("answer %s %v", res.body, res.header)
			}
		}},
		{"not for another method", call{method: "POST", path: "/api/v1/Status"}, 405, nil},
		{"it is listed with its hits", call{method: "GET", path: "/_mock/stubs/1"}, 200, func(t *testing.T, res result) {
			var as ActiveStub
			res.json(t, &as)
			if as.Hits != 1 || *as.Remaining != 1 {
				t.Errorf("stub = %+v", as)
			}
		}},
		{"its last call", call{method: "GET", path: "/api/v1/Status"}, 503, nil},
		{"then spent: the route answers", call{method: "GET", path: "/api/v1/Status"}, 200, nil},
		{"spent stubs are gone", call{method: "GET", path: "/_mock/stubs/1"}, 404, nil},
		{"a route pattern and a text body", call{method: "POST", path: "/_mock/stubs",
			body: `{"method":"GET","path":"/api/v1/Request/movie/info/{requestId}","status":200,"body":"plain"}`}, 201, nil},
		{"the pattern matches any id", call{method: "GET", path: "/api/v1/Request/movie/info/12345", header: key}, 200, func(t *testing.T, res result) {
			if string(res.body) != "plain" || res.header.Get("Content-Type") != "text/plain; charset=utf-8" {
				t.Errorf("answer %q %v", res.body, res.header)
			}
		}},
		{"but not more segments", call{method: "GET", path: "/api/v1/Request/movie/info/1/2", header: key}, 404, nil},
		{"the newest stub wins", call{method: "POST", path: "/_mock/stubs",
			body: `{"method":"*","path":"/api/v1/Request/movie/info/7","status":418}`}, 201, nil},
		{"for its path", call{method: "GET", path: "/api/v1/Request/movie/info/7", header: key}, 418, nil},
		{"list", call{method: "GET", path: "/_mock/stubs"}, 200, func(t *testing.T, res result) {
			var list []ActiveStub
			res.json(t, &list)
			if len(list) != 2 || list[0].ID != 2 || list[0].Hits != 1 || list[0].Remaining != nil || list[1].ID != 3 || list[1].Hits != 1 {
				t.Errorf("stubs = %+v", list)
			}
		}},
		{"delete one", call{method: "DELETE", path: "/_mock/stubs/3"}, 204, nil},
		{"delete it again", call{method: "DELETE", path: "/_mock/stubs/3"}, 404, nil},
		{"the older stub answers again", call{method: "GET", path: "/api/v1/Request/movie/info/7", header: key}, 200, func(t *testing.T, res result) {
			if string(res.body) != "plain" {
				t.Errorf("answer %q", res.body)
			}
		}},
		{"delete all", call{method: "DELETE", path: "/_mock/stubs"}, 204, func(t *testing.T, _ result) {
			if len(s.Stubs()) != 0 {
				t.Errorf("stubs left: %+v", s.Stubs())
			}
		}},
		{"bad id", call{method: "GET", path: "/_mock/stubs/x"}, 404, nil},
		{"wrong method on one stub", call{method: "POST", path: "/_mock/stubs/1"}, 405, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, tt.c)
			if res.status != tt.wantStatus {
				t.Fatalf("%s %s = %d %s, want %d", tt.c.method, tt.c.path, res.status, res.body, tt.wantStatus)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
	var stubbed []string
	for _, c := range s.Journal() {
		if c.Stub != "" {
			stubbed = append(stubbed, c.Stub+" "+c.Route)
		}
	}
	want := "stub#1 GET /api/v1/Status,stub#1 GET /api/v1/Status,stub#2 GET /api/v1/Request/movie/info/{requestId},stub#3 GET /api/v1/Request/movie/info/{requestId},stub#2 GET /api/v1/Request/movie/info/{requestId}"
	if got := strings.Join(stubbed, ","); got != want {
		t.Errorf("stubbed calls in the journal:\n got %s\nwant %s", got, want)
	}
}

// TestStubs_refused: each malformed stub is refused with a *StubError
// naming its field, through Go and through the control API.
func TestStubs_refused(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		name      string
		stub      Stub
		body      string // the control API's form when it differs
		wantField string
		wantText  string
	}{
		{"no method", Stub{Path: "/api/v1/Status", Status: 200}, "", "method", "required"},
		{"bad method", Stub{Method: "GE T", Path: "/api/v1/Status", Status: 200}, "", "method", "not an HTTP method"},
		{"no path", Stub{Method: "GET", Status: 200}, "", "path", "required"},
		{"relative path", Stub{Method: "GET", Path: "api/v1/Status", Status: 200}, "", "path", "starting with /"},
		{"query in path", Stub{Method: "GET", Path: "/api/v1/Status?x=1", Status: 200}, "", "path", "without a query"},
		{"empty segment", Stub{Method: "GET", Path: "/api//Status", Status: 200}, "", "path", "empty segment"},
		{"status 0", Stub{Method: "GET", Path: "/x"}, "", "status", "0 is out of range"},
		{"status 600", Stub{Method: "GET", Path: "/x", Status: 600}, "", "status", "600 is out of range"},
		{"negative times", Stub{Method: "GET", Path: "/x", Status: 200, Times: -1}, "", "times", "must not be negative"},
		{"framing header", Stub{Method: "GET", Path: "/x", Status: 200, Headers: map[string]string{"Content-Length": "3"}}, "", "headers.Content-Length", "framing"},
		{"bad header name", Stub{Method: "GET", Path: "/x", Status: 200, Headers: map[string]string{"Bad Name": "v"}}, "", "headers.Bad Name", "not a valid header name"},
		{"header not a string", Stub{}, `{"method":"GET","path":"/x","status":200,"headers":{"Retry-After":30}}`, "headers.Retry-After", "want a string"},
		{"status not a number", Stub{}, `{"method":"GET","path":"/x","status":"200"}`, "status", "want an integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := tt.body
			if body == "" {
				_, err := s.AddStub(tt.stub)
				var se *StubError
				if !errors.As(err, &se) || se.Field != tt.wantField || !strings.Contains(se.Problem, tt.wantText) {
					t.Fatalf("AddStub(%+v) = %v, want a StubError on %s saying %q", tt.stub, err, tt.wantField, tt.wantText)
				}
				body = string(mustMarshal(t, tt.stub))
			}
			res := do(t, s, call{method: "POST", path: "/_mock/stubs", body: body})
			var e struct{ Error, Field string }
			res.json(t, &e)
			if res.status != 400 || e.Field != tt.wantField || !strings.Contains(e.Error, tt.wantText) || !strings.HasPrefix(e.Error, "stub: "+tt.wantField+": ") {
				t.Errorf("POST %s = %d %s", body, res.status, res.body)
			}
		})
	}
	if res := do(t, s, call{method: "POST", path: "/_mock/stubs", body: `{"method":"GET","path":"/x","status":200,"delay_ms":5}`}); res.status != 400 ||
		!strings.Contains(string(res.body), `unknown field \"delay_ms\"`) {
		t.Errorf("unknown field = %d %s", res.status, res.body)
	}
	if len(s.Stubs()) != 0 {
		t.Errorf("a refused stub was added: %+v", s.Stubs())
	}
	if _, err := New(Options{Stubs: []Stub{{Method: "GET", Path: "/x", Status: 200}, {Method: "GET", Path: "/x", Status: 99}}}); err == nil ||
		err.Error() != "options: Stubs[1]: stub: status: 99 is out of range; want 200-599" {
		t.Errorf("New with a bad stub = %v", err)
	}
}

// TestStubs_state: stubs are part of the state: exported with the calls
// they have left, put back by ReplaceState and RestoreState, checked in a
// data document, and Reset returns to the start-up stubs (Options.Stubs
// and the data file's). A state without stubs exports no stubs section.
func TestStubs_state(t *testing.T) {
	s := newDataServer(t, exampleData)
	plain := stateOf(t, s)
	if bytes.Contains(plain, []byte(`"stubs"`)) {
		t.Fatal("a state without stubs exports a stubs section")
	}
	if _, err := s.AddStub(Stub{Method: "GET", Path: "/api/v1/Status", Status: 503, Body: `{"down":true}`, Times: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddStub(Stub{Method: "POST", Path: "/api/v1/Request/movie", Status: 200, Headers: map[string]string{"X-Stubbed": "yes"}, Body: "ok"}); err != nil {
		t.Fatal(err)
	}
	if res := do(t, s, call{method: "GET", path: "/api/v1/Status"}); res.status != 503 {
		t.Fatalf("stubbed status = %d", res.status)
	}
	exported := stateOf(t, s)
	wantStubs := `"stubs": [
    {
      "method": "GET",
      "path": "/api/v1/Status",
      "status": 503,
      "body": "{\"down\":true}",
      "times": 2
    },
    {
      "method": "POST",
      "path": "/api/v1/Request/movie",
      "status": 200,
      "headers": {
        "X-Stubbed": "yes"
      },
      "body": "ok"
    }
  ]`
	if !bytes.Contains(exported, []byte(wantStubs)) {
		t.Fatalf("export lacks the stubs:\n%s", exported[max(0, len(exported)-800):])
	}
	for name, put := range map[string]func([]byte) error{"ReplaceState": s.ReplaceState, "RestoreState": s.RestoreState} {
		s.ClearStubs()
		if err := put(exported); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if again := stateOf(t, s); !bytes.Equal(again, exported) {
			t.Fatalf("%s: state differs:\n%s", name, firstDiff(exported, again))
		}
		if got := s.Stubs(); len(got) != 2 || got[0].Remaining == nil || *got[0].Remaining != 2 {
			t.Fatalf("%s: stubs = %+v", name, got)
		}
	}
	if err := s.ReplaceState(plain); err != nil {
		t.Fatal(err)
	}
	if again := stateOf(t, s); !bytes.Equal(again, plain) || len(s.Stubs()) != 0 {
		t.Fatalf("a state without stubs did not put the stubs away:\n%s", firstDiff(plain, again))
	}

	bad := bytes.Replace(exported, []byte(`"status": 503`), []byte(`"status": 99`), 1)
	for name, put := range map[string]func([]byte) error{"ReplaceState": s.ReplaceState, "RestoreState": s.RestoreState} {
		err := put(bad)
		var se *StateError
		if !errors.As(err, &se) || !strings.Contains(strings.Join(se.Problems, "\n"), "$.stubs[0].status: 99 is out of range") {
			t.Errorf("%s of a bad stub = %v", name, err)
		}
	}

	seeded := mustNew(t, Options{Stubs: []Stub{{Method: "GET", Path: "/api/v1/Status", Status: 202}}})
	seeded.ClearStubs()
	if res := do(t, seeded, call{method: "GET", path: "/api/v1/Status"}); res.status != 200 {
		t.Fatalf("cleared stub still answers: %d", res.status)
	}
	seeded.Reset()
	if res := do(t, seeded, call{method: "GET", path: "/api/v1/Status"}); res.status != 202 {
		t.Errorf("after Reset the start-up stub does not answer: %d", res.status)
	}
}

// mustMarshal encodes v as JSON or fails the test.
func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
