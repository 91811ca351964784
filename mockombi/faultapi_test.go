package mockombi

import (
	"strings"
	"testing"
)

func TestFaultAPI_lifecycle(t *testing.T) {
	s := newTestServer(t, Options{BasePath: "/ombi"})
	res := do(t, s, call{method: "POST", path: "/_mock/faults", body: `{"method":"GET","path":"/api/v1/Status","status":503,"headers":{"Retry-After":"5"},"times":2}`})
	if res.status != 201 || res.header.Get("Location") != "/ombi/_mock/faults/1" {
		t.Fatalf("POST faults = %d %s, Location %q", res.status, res.body, res.header.Get("Location"))
	}
	var created ActiveFault
	res.json(t, &created)
	if created.ID != 1 || created.Name != "status_503#1" || created.Status != 503 || created.Times != 2 || created.Remaining == nil || *created.Remaining != 2 {
		t.Fatalf("created = %+v", created)
	}
	id2, err := s.AddFault(Fault{Path: "/api/v1/Request/**", Kind: FaultEmpty})
	if err != nil || id2 != 2 {
		t.Fatalf("AddFault = %d, %v", id2, err)
	}
	if err := s.InjectFault(Fault{Path: "/api/v1/Search/**", DelayMS: 10}); err != nil {
		t.Fatal(err)
	}

	var list []ActiveFault
	do(t, s, call{method: "GET", path: "/_mock/faults"}).json(t, &list)
	if len(list) != 3 || list[0].ID != 1 || list[1].Name != "empty#2" || list[2].Name != "delay#3" || list[1].Remaining != nil {
		t.Fatalf("list = %+v", list)
	}
	if res := do(t, s, call{method: "GET", path: "/ombi/api/v1/Status"}); res.status != 503 {
		t.Fatalf("fault did not fire: %d", res.status)
	}
	var one ActiveFault
	do(t, s, call{method: "GET", path: "/ombi/_mock/faults/1"}).json(t, &one)
	if one.Fired != 1 || *one.Remaining != 1 || one.Headers["Retry-After"] != "5" {
		t.Fatalf("GET faults/1 = %+v", one)
	}

	if res := do(t, s, call{method: "DELETE", path: "/_mock/faults/2"}); res.status != 204 {
		t.Fatalf("DELETE faults/2 = %d %s", res.status, res.body)
	}
	for _, c := range []call{{method: "GET", path: "/_mock/faults/2"}, {method: "DELETE", path: "/_mock/faults/2"}, {method: "GET", path: "/_mock/faults/x"}} {
		if res := do(t, s, c); res.status != 404 || !strings.Contains(string(res.body), "no fault") {
			t.Errorf("%s %s = %d %s, want 404", c.method, c.path, res.status, res.body)
		}
	}
	if res := do(t, s, call{method: "PUT", path: "/_mock/faults/1", body: `{}`}); res.status != 405 {
		t.Errorf("PUT faults/1 = %d", res.status)
	}
	if _, ok := s.LookupFault(2); ok {
		t.Error("fault 2 still there")
	}
	if !s.RemoveFault(3) || s.RemoveFault(3) {
		t.Error("RemoveFault(3) should succeed once")
	}
	do(t, s, call{method: "GET", path: "/ombi/api/v1/Status"}) // the second and last firing
	if got := s.Faults(); len(got) != 0 {
		t.Fatalf("spent fault still listed: %+v", got)
	}
	if _, err := s.AddFault(Fault{Path: "/x", Status: 500}); err != nil {
		t.Fatal(err)
	}
	if res := do(t, s, call{method: "DELETE", path: "/_mock/faults"}); res.status != 204 || len(s.Faults()) != 0 {
		t.Fatalf("DELETE faults = %d, left %v", res.status, s.Faults())
	}
	if id, _ := s.AddFault(Fault{Path: "/x", Status: 500}); id != 5 {
		t.Errorf("ids restarted after a clear: %d", id)
	}
}

func TestFaultAPI_validation(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		name, body, want string
		status           int
	}{
		{"informational status", `{"path":"/x","status":101}`, "inject fault: status: 101 is out of range; want 0 (the kind's default) or 200-599", 400},
		{"status 100", `{"path":"/x","status":100}`, "status: 100", 400},
		{"status 600", `{"path":"/x","status":600}`, "status: 600", 400},
		{"a 31-year delay", `{"path":"/x","delay_ms":978307200000}`, "delay_ms: 978307200000 is out of range; want 0-300000", 400},
		{"negative delay", `{"path":"/x","delay_ms":-1}`, "delay_ms: -1", 400},
		{"Transfer-Encoding", `{"path":"/x","status":500,"headers":{"Transfer-Encoding":"chunked"}}`, "headers.Transfer-Encoding: Transfer-Encoding is a hop-by-hop or framing header", 400},
		{"Content-Length", `{"path":"/x","status":500,"headers":{"content-length":"5"}}`, "headers.content-length: Content-Length", 400},
		{"Connection", `{"path":"/x","status":500,"headers":{"Connection":"close"}}`, "headers.Connection", 400},
		{"duplicate header", `{"path":"/x","status":500,"headers":{"Retry-After":"1","retry-after":"2"}}`, "given twice", 400},
		{"header name", `{"path":"/x","status":500,"headers":{"Bad Name":"1"}}`, `headers.Bad Name: "Bad Name" is not a valid header name`, 400},
		{"header value", `{"path":"/x","status":500,"headers":{"X-A":"a\r\nSet-Cookie: x=1"}}`, "headers.X-A: value holds control character 0x0d", 400},
		{"unknown field", `{"path":"/x","delay":3000}`, `inject fault: unknown field "delay"; want method, path, status`, 400},
		{"status as text", `{"path":"/x","status":"500"}`, "inject fault: status: want an integer, got a JSON string", 400},
		{"headers as list", `{"path":"/x","headers":["Retry-After: 3"]}`, "inject fault: headers: want an object of strings", 400},
		{"header value as number", `{"path":"/x","headers":{"Retry-After":30}}`, "inject fault: headers.Retry-After: want a string, got the number 30", 400},
		{"no path", `{"status":500}`, "inject fault: path: required", 400},
		{"relative path", `{"path":"api/v1/Status","status":500}`, "path: \"api/v1/Status\" must start with /", 400},
		{"bad method", `{"method":"GET /x","path":"/x"}`, "method: \"GET /x\" is not an HTTP method", 400},
		{"unknown kind", `{"path":"/x","kind":"explode"}`, "kind: unknown kind \"explode\"", 400},
		{"huge size", `{"path":"/x","kind":"oversized","size":1e15}`, "size: want an integer", 400},
		{"size over the cap", `{"path":"/x","kind":"oversized","size":2199023255553}`, "size: 2199023255553 is out of range", 400},
		{"negative times", `{"path":"/x","times":-2}`, "times: -2 must not be negative", 400},
		{"not JSON", `status=500`, "inject fault: invalid JSON", 400},
		{"empty body", ``, "inject fault: empty body", 400},
		{"body over the fault request cap", `{"path":"/x","body":"` + strings.Repeat("a", maxFaultRequest) + `"}`, "request body too large", 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, call{method: "POST", path: "/_mock/faults", body: tt.body})
			var e struct{ Error string }
			res.json(t, &e)
			if res.status != tt.status || !strings.Contains(e.Error, tt.want) {
				t.Fatalf("POST %s = %d %q, want %d containing %q", truncate(tt.body, 80), res.status, e.Error, tt.status, tt.want)
			}
		})
	}
	if got := s.Faults(); len(got) != 0 {
		t.Fatalf("a refused fault was stored: %+v", got)
	}
	if _, err := s.AddFault(Fault{Path: "/x", Body: strings.Repeat("a", MaxFaultBody+1)}); err == nil || !strings.Contains(err.Error(), "body:") {
		t.Errorf("oversized Go body = %v", err)
	}
}

func TestFaultAPI_bodyAsJSON(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	res := do(t, s, call{method: "POST", path: "/_mock/faults", body: `{"method":"POST","path":"/api/v1/Request/movie","kind":"business_error",` +
		`"body":{"errorCode":"MovieRequestQuotaExceeded","errorMessage":"You have exceeded your Movie request quota!"}}`})
	if res.status != 201 {
		t.Fatalf("object body refused: %d %s", res.status, res.body)
	}
	got := do(t, s, call{method: "POST", path: "/api/v1/Request/movie", header: h, body: `{"theMovieDbId":105}`})
	want := `{"errorCode":"MovieRequestQuotaExceeded","errorMessage":"You have exceeded your Movie request quota!","isError":true,"message":null,"requestId":0,"result":false}`
	if got.status != 200 || compactJSON(t, got.body) != want {
		t.Fatalf("business_error answer = %d %s", got.status, got.body)
	}
	// a string body keeps working, an array body is served as its JSON text
	for body, want := range map[string]string{`"plain text"`: "plain text", `[1, 2]`: "[1,2]"} {
		s.ClearFaults()
		if res := do(t, s, call{method: "POST", path: "/_mock/faults", body: `{"path":"/api/v1/Status","status":500,"body":` + body + `}`}); res.status != 201 {
			t.Fatalf("body %s refused: %s", body, res.body)
		}
		if got := do(t, s, call{method: "GET", path: "/api/v1/Status"}); got.status != 500 || string(got.body) != want {
			t.Errorf("body %s served as %q", body, got.body)
		}
	}
}
