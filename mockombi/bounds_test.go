package mockombi

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestJournal_ringKeepsTheLatestCalls(t *testing.T) {
	s := newTestServer(t, Options{JournalSize: 3})
	for range 5 {
		do(t, s, call{method: "GET", path: "/api/v1/Status"})
	}
	j := s.Journal()
	if len(j) != 3 || j[0].Seq != 3 || j[2].Seq != 5 {
		t.Fatalf("journal = %+v, want calls 3-5", j)
	}
	var in mockInfo
	do(t, s, call{method: "GET", path: "/_mock/info"}).json(t, &in)
	if in.Journal.Kept != 3 || in.Journal.Dropped != 2 || in.Journal.Last != 5 || in.Journal.MaxCalls != 3 {
		t.Errorf("info journal = %+v", in.Journal)
	}
	if d := newTestServer(t, Options{}); d.journal.maxCalls != DefaultJournalSize || d.journal.maxBytes != DefaultJournalBytes {
		t.Errorf("default bounds = %d calls, %d bytes", d.journal.maxCalls, d.journal.maxBytes)
	}
	if u := newTestServer(t, Options{JournalSize: -1, JournalBytes: -1}); u.journal.maxCalls != 0 || u.journal.maxBytes != 0 {
		t.Errorf("unlimited bounds = %d calls, %d bytes", u.journal.maxCalls, u.journal.maxBytes)
	}
}

func TestJournal_byteBudgetDropsOldestCalls(t *testing.T) {
	s := newTestServer(t, Options{JournalBytes: 100 << 10, JournalBodyBytes: 30 << 10})
	body := `"` + strings.Repeat("x", 40<<10) + `"`
	for range 10 {
		do(t, s, call{method: "POST", path: "/api/v1/Token/requirePassword", body: body})
	}
	st := s.journal.stats()
	if st.Kept < 2 || st.Kept > 4 || st.Bytes > 100<<10 || st.Dropped != 10-st.Kept {
		t.Fatalf("journal = %+v", st)
	}
	// one call larger than the whole budget is still kept, alone
	s = newTestServer(t, Options{JournalBytes: 1000})
	do(t, s, call{method: "GET", path: "/api/v1/Status"})
	do(t, s, call{method: "POST", path: "/api/v1/Token/requirePassword", body: `"` + strings.Repeat("y", 5000) + `"`})
	if j := s.Journal(); len(j) != 1 || j[0].Seq != 2 {
		t.Fatalf("journal = %d calls", len(j))
	}
}

func TestJournal_bodiesCutAtTheCap(t *testing.T) {
	s := newTestServer(t, Options{JournalBodyBytes: 16, JournalResponses: true})
	do(t, s, call{method: "POST", path: "/api/v1/Token/requirePassword", body: `{"username":"someone-with-a-long-name"}`})
	do(t, s, call{method: "POST", path: "/api/v1/Token/requirePassword", body: `{"a":"é"}`})
	do(t, s, call{method: "GET", path: "/api/v1/Status"})
	j := s.Journal()
	if c := j[0]; !c.BodyTruncated || c.BodyBytes != 39 || string(c.Body) != `"{\"username\":\"som"` {
		t.Errorf("cut body = %s truncated %v bytes %d", c.Body, c.BodyTruncated, c.BodyBytes)
	}
	if c := j[1]; c.BodyTruncated || string(c.Body) != `{"a":"é"}` || c.BodyBytes != 0 {
		t.Errorf("short body = %s truncated %v", c.Body, c.BodyTruncated)
	}
	if b, cut := journalBody([]byte(`{"a":"aaaaaaaaaé"}`), 16); !cut || string(b) != `"{\"a\":\"aaaaaaaaa"` {
		t.Errorf("cut inside a UTF-8 sequence = %s", b)
	}
	if c := j[2]; string(c.ResponseBody) != "200" || c.ResponseTruncated || c.ResponseBytes != 3 || c.ResponseHeader.Get("Content-Type") == "" {
		t.Errorf("response = %s %v headers %v", c.ResponseBody, c.ResponseTruncated, c.ResponseHeader)
	}
	// a long answer is cut too; an oversized stream keeps only the cap
	s = newTestServer(t, Options{JournalResponses: true})
	_ = s.InjectFault(Fault{Path: "/api/v1/Status", Kind: FaultOversized, Size: 1 << 20})
	do(t, s, call{method: "GET", path: "/api/v1/Status"})
	c := s.Journal()[0]
	var kept string
	if err := json.Unmarshal(c.ResponseBody, &kept); err != nil || len(kept) != DefaultJournalBodyBytes || !c.ResponseTruncated || c.ResponseBytes != 1<<20 {
		t.Errorf("oversized answer kept %d bytes (%v), truncated %v, counted %d", len(kept), err, c.ResponseTruncated, c.ResponseBytes)
	}
	// responses are not recorded unless asked for
	s = newTestServer(t, Options{})
	do(t, s, call{method: "GET", path: "/api/v1/Status"})
	if c := s.Journal()[0]; c.ResponseBody != nil || c.ResponseHeader != nil || c.DurationMS < 0 || !c.Time.Equal(testNow) {
		t.Errorf("call = %+v", c)
	}
}

func TestJournal_sinceAndLimit(t *testing.T) {
	s := newTestServer(t, Options{})
	for range 6 {
		do(t, s, call{method: "GET", path: "/api/v1/Status"})
	}
	seqs := func(q string) (string, string) {
		res := do(t, s, call{method: "GET", path: "/_mock/journal" + q})
		var j []Call
		res.json(t, &j)
		var out []string
		for _, c := range j {
			out = append(out, strconv.Itoa(c.Seq))
		}
		return strings.Join(out, ","), res.header.Get("X-Mock-Journal-Last")
	}
	for q, want := range map[string]string{"": "1,2,3,4,5,6", "?since=4": "5,6", "?limit=2": "5,6", "?since=1&limit=2": "5,6",
		"?since=2&limit=10": "3,4,5,6", "?since=6": ""} {
		if got, last := seqs(q); got != want || last != "6" {
			t.Errorf("journal%s = %q (last %s), want %q", q, got, last, want)
		}
	}
	if res := do(t, s, call{method: "GET", path: "/_mock/journal?since=-1"}); res.status != 400 || !strings.Contains(string(res.body), "since") {
		t.Errorf("since=-1 = %d %s", res.status, res.body)
	}
	epoch := do(t, s, call{method: "GET", path: "/_mock/journal"}).header.Get("X-Mock-Journal-Epoch")
	s.ClearJournal()
	if got, last := seqs("?since=6"); got != "" || last != "0" {
		t.Errorf("after clear = %q last %s", got, last)
	}
	if again := do(t, s, call{method: "GET", path: "/_mock/journal"}).header.Get("X-Mock-Journal-Epoch"); again == epoch {
		t.Errorf("epoch %s unchanged by a clear", again)
	}
}

func TestBody_overTheCapIs413(t *testing.T) {
	s := newTestServer(t, Options{MaxBodyBytes: 1024})
	base := startServer(t, s)
	for _, chunked := range []bool{false, true} {
		body := io.Reader(strings.NewReader(`"` + strings.Repeat("z", 2000) + `"`))
		if chunked {
			body = io.MultiReader(body) // no length known: read until the cap
		}
		req, _ := http.NewRequest("POST", base+"/api/v1/Token/requirePassword", body)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 413 || !strings.Contains(string(b), "The max request body size is 1024 bytes") {
			t.Errorf("chunked %v: %d %s", chunked, resp.StatusCode, b)
		}
	}
	j := s.Journal()
	if len(j) != 2 || j[0].Status != 413 || !j[0].BodyTruncated || j[1].Status != 413 {
		t.Fatalf("journal = %+v", j)
	}
	// at the cap it passes
	res := do(t, s, call{method: "POST", path: "/api/v1/Token/requirePassword", body: `{"username":"` + strings.Repeat("a", 1024-15) + `"}`})
	if res.status != 200 {
		t.Errorf("body at the cap = %d %s", res.status, res.body)
	}
	if d := newTestServer(t, Options{}); orDefault(d.opts.MaxBodyBytes, DefaultMaxBodyBytes) != 30_000_000 {
		t.Error("default body cap is not Kestrel's 30,000,000 bytes")
	}
}

func TestControl_bodiesAreCapped(t *testing.T) {
	s := newTestServer(t, Options{MaxStateBytes: 1000})
	big := `{"name":"` + strings.Repeat("q", MaxControlBody) + `","enabled":true}`
	if res := do(t, s, call{method: "POST", path: "/_mock/quirks", body: big}); res.status != 413 {
		t.Errorf("POST quirks with %d bytes = %d", len(big), res.status)
	}
	if res := do(t, s, call{method: "POST", path: "/_mock/state", body: `{"movies":[` + strings.Repeat(" ", 1000) + `]}`}); res.status != 413 {
		t.Errorf("POST state over MaxStateBytes = %d %s", res.status, res.body)
	}
}

func TestControl_CORSOnlyForConfiguredOrigins(t *testing.T) {
	open := newTestServer(t, Options{})
	allowed := newTestServer(t, Options{CORSOrigins: []string{"http://localhost:4200"}})
	foreign := map[string]string{"Origin": "http://evil.example"}
	tests := []struct {
		name       string
		s          *Server
		c          call
		wantStatus int
		wantACAO   string
	}{
		{"credentials from a foreign page", open, call{method: "GET", path: "/_mock/credentials", header: foreign}, 403, ""},
		{"reset from a foreign page", open, call{method: "POST", path: "/_mock/reset", header: foreign}, 403, ""},
		{"preflight from a foreign page", open, call{method: "OPTIONS", path: "/_mock/faults", header: map[string]string{"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}}, 403, ""},
		{"the dashboard's own origin", open, call{method: "POST", path: "/_mock/quirks", body: `{"name":"news_html","enabled":false}`, header: map[string]string{"Origin": "http://example.com"}}, 204, ""},
		{"no origin (curl)", open, call{method: "GET", path: "/_mock/credentials"}, 200, ""},
		{"API routes answer any origin", open, call{method: "GET", path: "/api/v1/Status", header: foreign}, 200, "http://evil.example"},
		{"configured origin", allowed, call{method: "GET", path: "/_mock/journal", header: map[string]string{"Origin": "http://localhost:4200"}}, 200, "http://localhost:4200"},
		{"configured origin preflight", allowed, call{method: "OPTIONS", path: "/_mock/faults", header: map[string]string{"Origin": "http://localhost:4200", "Access-Control-Request-Method": "POST"}}, 204, "http://localhost:4200"},
		{"other origin still refused", allowed, call{method: "GET", path: "/_mock/credentials", header: map[string]string{"Origin": "http://localhost:4201"}}, 403, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, tt.s, tt.c)
			if res.status != tt.wantStatus || res.header.Get("Access-Control-Allow-Origin") != tt.wantACAO {
				t.Fatalf("%s %s = %d ACAO %q, want %d %q: %s", tt.c.method, tt.c.path, res.status, res.header.Get("Access-Control-Allow-Origin"), tt.wantStatus, tt.wantACAO, res.body)
			}
			if strings.HasPrefix(tt.c.path, "/_mock/") && res.header.Get("Access-Control-Allow-Credentials") != "" {
				t.Errorf("control API allows credentials")
			}
			if tt.wantStatus == 403 && !strings.Contains(string(res.body), "--cors-origin") {
				t.Errorf("403 does not say how to allow the origin: %s", res.body)
			}
		})
	}
	if _, err := New(Options{CORSOrigins: []string{"localhost:4200"}}); err == nil || !strings.Contains(err.Error(), "CORSOrigins[0]") {
		t.Errorf("bad origin accepted: %v", err)
	}
}

func TestOptions_badValuesAreErrors(t *testing.T) {
	for _, tt := range []struct {
		opts Options
		want string
	}{
		{Options{DataSet: "huge"}, `DataSet "huge"`},
		{Options{DataSet: DataSetLarge, DataFile: "x.json"}, "give one"},
		{Options{DataFile: "testdata/missing.json"}, "read data file"},
		{Options{Users: []User{{Username: "a", Password: "p", Role: "root"}}}, `Users[0] (a): role "root"`},
		{Options{Users: []User{{Username: "a", Role: RoleUser}, {Username: "A", Role: RoleUser}}}, "given twice"},
		{Options{Latency: -time.Second}, "negative"},
	} {
		if _, err := New(tt.opts); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) = %v, want %q", tt.opts, err, tt.want)
		}
	}
	if s, err := New(Options{DataSet: "huge"}); s != nil || err == nil {
		t.Errorf("New on a bad data set = %v, %v; want no server and an error", s, err)
	}
}

func TestStart_timeoutsCloseStuckConnections(t *testing.T) {
	s := newTestServer(t, Options{ReadHeaderTimeout: 200 * time.Millisecond, ReadTimeout: 400 * time.Millisecond, IdleTimeout: 300 * time.Millisecond})
	base := startServer(t, s)
	addr := strings.TrimPrefix(base, "http://")
	closedWithin := func(t *testing.T, name string, conn net.Conn, d time.Duration) {
		t.Helper()
		start := time.Now()
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err := io.Copy(io.Discard, conn)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Errorf("%s: connection still open after 5s", name)
		} else if time.Since(start) > d {
			t.Errorf("%s: closed after %v, want within %v", name, time.Since(start), d)
		}
	}
	// half-sent header
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "GET /api/v1/Status HTTP/1.1\r\nHost: x\r\n")
	closedWithin(t, "half-sent header", conn, 2*time.Second)
	// half-sent body
	conn2, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	_, _ = io.WriteString(conn2, "POST /api/v1/Token/requirePassword HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"user")
	closedWithin(t, "half-sent body", conn2, 2*time.Second)
	// idle keep-alive connection after a complete request
	conn3, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn3.Close()
	_, _ = io.WriteString(conn3, "GET /api/v1/Status HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn3), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("keep-alive request: %v", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	closedWithin(t, "idle keep-alive", conn3, 2*time.Second)
}
