package mockombi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestFaults_kinds(t *testing.T) {
	s := newTestServer(t, Options{})
	base := startServer(t, s)
	client := &http.Client{Timeout: 10 * time.Second}
	tests := []struct {
		name        string
		fault       Fault
		path        string
		wantStatus  int
		wantHeader  map[string]string
		wantBody    func(t *testing.T, body []byte)
		wantReadErr bool
		wantDoErr   bool
	}{
		{
			name:       "429 with Retry-After and an Ombi error body",
			fault:      Fault{Method: "GET", Path: "/api/v1/Status", Status: 429, Headers: map[string]string{"Retry-After": "30"}},
			path:       "/api/v1/Status",
			wantStatus: 429,
			wantHeader: map[string]string{"Retry-After": "30", "Content-Type": "application/json"},
			wantBody: func(t *testing.T, b []byte) {
				if string(b) != `{"error":"429 Too Many Requests"}` {
					t.Errorf("body %s", b)
				}
			},
		},
		{
			name:       "status with custom body",
			fault:      Fault{Method: "*", Path: "/api/v1/status", Status: 503, Body: `{"error":"down"}`},
			path:       "/api/v1/Status",
			wantStatus: 503,
			wantBody: func(t *testing.T, b []byte) {
				if string(b) != `{"error":"down"}` {
					t.Errorf("body %s", b)
				}
			},
		},
		{
			name:       "html",
			fault:      Fault{Path: "/api/v1/**", Kind: FaultHTML},
			path:       "/api/v1/Request/count",
			wantStatus: 502,
			wantHeader: map[string]string{"Content-Type": "text/html"},
			wantBody: func(t *testing.T, b []byte) {
				if !strings.Contains(string(b), "<h1>502 Bad Gateway</h1>") {
					t.Errorf("body %s", b)
				}
			},
		},
		{
			name:       "empty",
			fault:      Fault{Path: "/api/v1/Request/count", Kind: FaultEmpty},
			path:       "/api/v1/Request/count",
			wantStatus: 200,
			wantBody: func(t *testing.T, b []byte) {
				if len(b) != 0 {
					t.Errorf("body %q", b)
				}
			},
		},
		{
			name:       "malformed",
			fault:      Fault{Path: "/api/v1/Request/count", Kind: FaultMalformed},
			path:       "/api/v1/Request/count",
			wantStatus: 200,
			wantBody: func(t *testing.T, b []byte) {
				if json.Valid(b) || len(b) == 0 {
					t.Errorf("body %q is valid JSON", b)
				}
			},
		},
		{
			name:       "business error merges a JSON body",
			fault:      Fault{Path: "/api/v1/Request/count", Kind: FaultBusinessError, Body: `{"errorCode":"MovieRequestQuotaExceeded","errorMessage":"You have exceeded your Movie request quota!"}`},
			path:       "/api/v1/Request/count",
			wantStatus: 200,
			wantBody: func(t *testing.T, b []byte) {
				var er map[string]any
				if err := json.Unmarshal(b, &er); err != nil {
					t.Fatal(err)
				}
				if er["result"] != false || er["isError"] != true || er["errorCode"] != "MovieRequestQuotaExceeded" || er["errorMessage"] != "You have exceeded your Movie request quota!" {
					t.Errorf("result %v", er)
				}
			},
		},
		{
			name:       "wrong content type keeps the real answer",
			fault:      Fault{Path: "/api/v1/Request/count", Kind: FaultWrongContentType},
			path:       "/api/v1/Request/count",
			wantStatus: 200,
			wantHeader: map[string]string{"Content-Type": "text/html; charset=utf-8"},
			wantBody: func(t *testing.T, b []byte) {
				var c map[string]int
				if err := json.Unmarshal(b, &c); err != nil || c["available"] == 0 {
					t.Errorf("body %s: %v", b, err)
				}
			},
		},
		{
			name:        "truncate",
			fault:       Fault{Path: "/api/v1/Request/count", Kind: FaultTruncate},
			path:        "/api/v1/Request/count",
			wantStatus:  200,
			wantReadErr: true,
		},
		{
			name:      "reset",
			fault:     Fault{Path: "/api/v1/Request/count", Kind: FaultReset},
			path:      "/api/v1/Request/count",
			wantDoErr: true,
		},
		{
			name:       "oversized streams exactly size bytes of a valid array",
			fault:      Fault{Path: "/api/v1/Request/count", Kind: FaultOversized, Size: 1 << 20},
			path:       "/api/v1/Request/count",
			wantStatus: 200,
			wantBody: func(t *testing.T, b []byte) {
				var arr []map[string]any
				if len(b) != 1<<20 {
					t.Errorf("len %d, want %d", len(b), 1<<20)
				}
				if err := json.Unmarshal(b, &arr); err != nil || len(arr) < 100 {
					t.Errorf("decode: %v (%d records)", err, len(arr))
				}
			},
		},
		{
			name:       "oversized tiny",
			fault:      Fault{Path: "/api/v1/Request/count", Kind: FaultOversized, Size: 2},
			path:       "/api/v1/Request/count",
			wantStatus: 200,
			wantBody: func(t *testing.T, b []byte) {
				if string(b) != "[]" {
					t.Errorf("body %q", b)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.ClearFaults()
			s.ClearJournal()
			if err := s.InjectFault(tt.fault); err != nil {
				t.Fatal(err)
			}
			resp, err := client.Get(base + tt.path)
			if tt.wantDoErr {
				if err == nil {
					resp.Body.Close()
					t.Fatalf("request succeeded with %d, want a connection error", resp.StatusCode)
				}
				waitJournal(t, s, 1)
				if j := s.Journal(); j[0].Status != 0 || !strings.HasPrefix(j[0].Fault, "reset#") {
					t.Errorf("journal %+v, want status 0 and the reset fault", j)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, readErr := io.ReadAll(resp.Body)
			if tt.wantReadErr {
				if readErr == nil {
					t.Fatalf("read %q without error, want a truncated body", body)
				}
				if !strings.HasPrefix(string(body), `{"collection":[`) {
					t.Errorf("truncated body %q does not start like JSON", body)
				}
				return
			}
			if readErr != nil {
				t.Fatal(readErr)
			}
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			for k, v := range tt.wantHeader {
				if got := resp.Header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
			if tt.wantBody != nil {
				tt.wantBody(t, body)
			}
			waitJournal(t, s, 1)
			j := s.Journal()
			if len(j) != 1 || j[0].Fault == "" || j[0].Status != tt.wantStatus {
				t.Errorf("journal %+v, want one call naming the fault with status %d", j, tt.wantStatus)
			}
		})
	}
}

func TestFaults_matchingAndTimes(t *testing.T) {
	tests := []struct {
		name   string
		fault  Fault
		calls  []string // "METHOD path"
		wanted []int    // status per call
	}{
		{"times 2 then spent", Fault{Method: "GET", Path: "/api/v1/Status", Status: 500, Times: 2},
			[]string{"GET /api/v1/Status", "GET /api/v1/Status", "GET /api/v1/Status"}, []int{500, 500, 200}},
		{"0 means always", Fault{Path: "/api/v1/Status", Status: 500},
			[]string{"GET /api/v1/Status", "GET /api/v1/Status", "GET /api/v1/Status"}, []int{500, 500, 500}},
		{"method filter", Fault{Method: "POST", Path: "/api/v1/Status", Status: 500},
			[]string{"GET /api/v1/Status"}, []int{200}},
		{"star is one segment", Fault{Path: "/api/v1/*", Status: 418},
			[]string{"GET /api/v1/Status", "GET /api/v1/Status/info"}, []int{418, 200}},
		{"double star is any rest", Fault{Path: "/api/**", Status: 418},
			[]string{"GET /api/v1/Status/info", "GET /api/v2/Features"}, []int{418, 418}},
		{"glob inside a segment, any case", Fault{Path: "/API/v1/Sta*", Status: 418},
			[]string{"GET /api/v1/status", "GET /api/v1/Request/count"}, []int{418, 200}},
		{"unescaped glob matches an escaped path", Fault{Path: "/api/v1/Search/movie/The Matrix", Status: 418},
			[]string{"GET /api/v1/Search/movie/The%20Matrix"}, []int{418}},
		{"delay only passes through", Fault{Path: "/api/v1/Status", DelayMS: 20, Headers: map[string]string{"X-Mock": "1"}},
			[]string{"GET /api/v1/Status"}, []int{200}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{})
			if err := s.InjectFault(tt.fault); err != nil {
				t.Fatal(err)
			}
			for i, c := range tt.calls {
				method, p, _ := strings.Cut(c, " ")
				start := time.Now()
				res := do(t, s, call{method: method, path: p})
				if res.status != tt.wanted[i] {
					t.Fatalf("call %d %s = %d, want %d", i, c, res.status, tt.wanted[i])
				}
				if tt.fault.DelayMS > 0 {
					if time.Since(start) < time.Duration(tt.fault.DelayMS)*time.Millisecond {
						t.Errorf("no delay")
					}
					if res.header.Get("X-Mock") != "1" || string(res.body) != "200" {
						t.Errorf("delay fault answer %q headers %v", res.body, res.header)
					}
				}
			}
		})
	}
}

func TestFaults_journalNamesTheFault(t *testing.T) {
	s := newTestServer(t, Options{})
	if err := s.InjectFault(Fault{Path: "/api/v1/Status", Status: 429, Times: 1}); err != nil {
		t.Fatal(err)
	}
	do(t, s, call{method: "GET", path: "/api/v1/Status"})
	do(t, s, call{method: "GET", path: "/api/v1/Status"})
	j := s.Journal()
	if len(j) != 2 || j[0].Fault != "status_429#1" || j[0].Status != 429 || j[1].Fault != "" || j[1].Status != 200 {
		t.Fatalf("journal = %+v", j)
	}
}

func TestFaults_invalid(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		name  string
		fault Fault
	}{
		{"unknown kind", Fault{Path: "/x", Kind: "explode"}},
		{"no path", Fault{Status: 500}},
		{"bad glob", Fault{Path: "/api/[", Status: 500}},
		{"bad status", Fault{Path: "/x", Status: 42}},
		{"negative times", Fault{Path: "/x", Status: 500, Times: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.InjectFault(tt.fault); err == nil || !strings.HasPrefix(err.Error(), "inject fault: ") {
				t.Fatalf("InjectFault() = %v, want an inject fault error", err)
			}
		})
	}
}

func TestFaults_oversizedStopsWhenClientLeaves(t *testing.T) {
	s := newTestServer(t, Options{})
	base := startServer(t, s)
	if err := s.InjectFault(Fault{Path: "/api/v1/Status", Kind: FaultOversized, Size: 8 << 30}); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(base + "/api/v1/Status")
	if err != nil {
		t.Fatal(err)
	}
	if resp.ContentLength != 8<<30 {
		t.Errorf("Content-Length = %d", resp.ContentLength)
	}
	buf := make([]byte, 1<<20)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// the handler must notice and finish: the journal entry is written when it returns
	deadline := time.Now().Add(5 * time.Second)
	for len(s.Journal()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("handler still streaming 5s after the client went away")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestFaults_truncateInProcessAborts(t *testing.T) {
	s := newTestServer(t, Options{})
	if err := s.InjectFault(Fault{Path: "/api/v1/Status", Kind: FaultTruncate}); err != nil {
		t.Fatal(err)
	}
	defer func() {
		v := recover()
		if err, ok := v.(error); !ok || !errors.Is(err, http.ErrAbortHandler) {
			t.Fatalf("recovered %v, want http.ErrAbortHandler", v)
		}
		if j := s.Journal(); len(j) != 1 || !strings.HasPrefix(j[0].Fault, "truncate") {
			t.Fatalf("journal = %+v", j)
		}
	}()
	do(t, s, call{method: "GET", path: "/api/v1/Status"})
}

func TestFaults_oversizedExactSizes(t *testing.T) {
	for _, size := range []int64{1, 2, 3, 100, 150, 65535, 65536, 65537, 200003, 1<<20 + 5} {
		rec := httptest.NewRecorder()
		streamOversized(rec, httptest.NewRequest("GET", "/", nil), 200, size, false)
		body := rec.Body.Bytes()
		if int64(len(body)) != size {
			t.Errorf("size %d: wrote %d bytes", size, len(body))
			continue
		}
		if size >= 2 && !json.Valid(body) {
			t.Errorf("size %d: invalid JSON ending %q", size, body[max(0, len(body)-40):])
		}
		if rec.Header().Get("Content-Length") != strconv.FormatInt(size, 10) {
			t.Errorf("size %d: Content-Length %q", size, rec.Header().Get("Content-Length"))
		}
	}
}

func TestFaults_oversizedChunked(t *testing.T) {
	s := newTestServer(t, Options{})
	base := startServer(t, s)
	if err := s.InjectFault(Fault{Path: "/api/v1/Status", Kind: FaultOversized, Size: 100, Chunked: true}); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(base + "/api/v1/Status")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.ContentLength != -1 || !slices.Equal(resp.TransferEncoding, []string{"chunked"}) || len(body) != 100 || !json.Valid(body) {
		t.Errorf("chunked oversized answer: length %d, transfer encoding %v, %d bytes, valid %v (%v)", resp.ContentLength, resp.TransferEncoding, len(body), json.Valid(body), err)
	}
	if err := validateFault(Fault{Path: "/x", Status: 500, Chunked: true}); err == nil || !strings.Contains(err.Error(), "chunked: only for kind oversized") {
		t.Errorf("chunked on a status fault: %v", err)
	}
}

// waitJournal waits until the journal holds n calls (handlers record on return).
func waitJournal(t *testing.T, s *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(s.Journal()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("journal has %d calls after 5s, want %d", len(s.Journal()), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestFaults_pathBelowOrWithBasePath(t *testing.T) {
	for _, glob := range []string{"/api/v1/Status", "/ombi/api/v1/Status", "/ombi/**"} {
		t.Run(glob, func(t *testing.T) {
			s := newTestServer(t, Options{BasePath: "/ombi"})
			if err := s.InjectFault(Fault{Path: glob, Status: 503}); err != nil {
				t.Fatal(err)
			}
			if res := do(t, s, call{method: "GET", path: "/ombi/api/v1/Status"}); res.status != 503 {
				t.Fatalf("= %d", res.status)
			}
		})
	}
}
