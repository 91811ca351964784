package mockombi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
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

// gatedWriter signals when the first byte of an answer is written, then
// holds the handler there until released: the answer is out, the call
// not yet recorded.
type gatedWriter struct {
	*httptest.ResponseRecorder
	written chan struct{}
	release chan struct{}
	once    bool
}

func (g *gatedWriter) Write(b []byte) (int, error) {
	if !g.once {
		g.once = true
		close(g.written)
		<-g.release
	}
	return g.ResponseRecorder.Write(b)
}

// TestJournal_waitsForAnswersAlreadySent: a client can read an answer
// before the handler that wrote it returns (a long body is flushed as it
// goes), so a reader that looks once its answer came must still see the
// call: Journal and JournalSince wait for the requests in flight.
func TestJournal_waitsForAnswersAlreadySent(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, read := range []struct {
		name string
		read func(JournalMark) []Call
	}{
		{"JournalSince", s.JournalSince},
		{"Journal", func(JournalMark) []Call { return s.Journal() }},
	} {
		s.ClearJournal()
		m := s.JournalMark()
		w := &gatedWriter{ResponseRecorder: httptest.NewRecorder(), written: make(chan struct{}), release: make(chan struct{})}
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/v1/Status", nil))
		}()
		<-w.written
		go func() {
			time.Sleep(50 * time.Millisecond)
			close(w.release)
		}()
		got := read.read(m)
		<-done
		if len(got) != 1 || got[0].Path != "/api/v1/Status" {
			t.Errorf("%s while the answer was out = %d calls, want the one in flight", read.name, len(got))
		}
	}
}

// TestJournal_pollerSeesEachCallOnce: a poller that passes back the
// X-Mock-Journal-Last it was given, while requests keep arriving and
// finishing out of order, sees every call exactly once and in order.
func TestJournal_pollerSeesEachCallOnce(t *testing.T) {
	s := newTestServer(t, Options{})
	base := startServer(t, s)
	const workers, each = 8, 40
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				resp, err := http.Get(base + "/api/v1/Status")
				if err != nil {
					t.Error(err)
					return
				}
				_ = resp.Body.Close()
			}
		})
	}
	seen := map[int]int{}
	last := 0
	poll := func() {
		resp, err := http.Get(fmt.Sprintf("%s/_mock/journal?since=%d", base, last))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var calls []Call
		if err := json.NewDecoder(resp.Body).Decode(&calls); err != nil {
			t.Fatal(err)
		}
		for i, c := range calls {
			seen[c.Seq]++
			if c.Seq <= last || (i > 0 && c.Seq <= calls[i-1].Seq) {
				t.Errorf("call %d after since=%d, out of order", c.Seq, last)
			}
		}
		if last, err = strconv.Atoi(resp.Header.Get("X-Mock-Journal-Last")); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for polling := true; polling; {
		select {
		case <-done:
			polling = false
		default:
		}
		poll()
	}
	poll()
	for seq := 1; seq <= workers*each; seq++ {
		if seen[seq] != 1 {
			t.Errorf("call %d seen %d times, want once", seq, seen[seq])
		}
	}
	if len(seen) != workers*each {
		t.Errorf("saw %d calls, want %d", len(seen), workers*each)
	}
}
