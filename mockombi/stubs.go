package mockombi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

// MaxStubBody is the longest body a stub may carry.
const MaxStubBody = MaxFaultBody

// StubError is a stub that failed validation: Field is its JSON name
// ("status", "headers.Retry-After", ...) and Problem what is wrong with it.
type StubError struct {
	Field   string `json:"field"`
	Problem string `json:"problem"`
}

// Error names the field and the problem.
func (e *StubError) Error() string { return "stub: " + e.Field + ": " + e.Problem }

// ActiveStub is a stub as the control API lists it: its id, its journal
// name, the stub, how many calls it answered and how many it still will
// (nil: every call).
type ActiveStub struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Stub
	Hits      int  `json:"hits"`
	Remaining *int `json:"remaining"`
}

// validateStub checks every field of st; the error is a *StubError.
func validateStub(st Stub) error {
	bad := func(field, format string, args ...any) error {
		return &StubError{Field: field, Problem: fmt.Sprintf(format, args...)}
	}
	if st.Method != "*" && !isToken(st.Method) {
		if st.Method == "" {
			return bad("method", `required: an HTTP method such as GET, or "*" for any`)
		}
		return bad("method", "%q is not an HTTP method", st.Method)
	}
	if st.Path == "" {
		return bad("path", `required, e.g. "/api/v1/Status" or "/api/v1/Request/movie/{id}"`)
	}
	if !strings.HasPrefix(st.Path, "/") || strings.ContainsAny(st.Path, "?#") {
		return bad("path", "%q: want a path starting with / and without a query", st.Path)
	}
	for _, seg := range splitPath(st.Path) {
		if seg == "" {
			return bad("path", "%q has an empty segment", st.Path)
		}
		if _, err := url.PathUnescape(seg); err != nil {
			return bad("path", "%q: segment %q: %v", st.Path, seg, err)
		}
	}
	if st.Status < 200 || st.Status > 599 {
		return bad("status", "%d is out of range; want 200-599", st.Status)
	}
	if st.Times < 0 {
		return bad("times", "%d must not be negative (0 means every call)", st.Times)
	}
	if len(st.Body) > MaxStubBody {
		return bad("body", "%d bytes is longer than %d", len(st.Body), MaxStubBody)
	}
	if err := validateFault(Fault{Path: "/", Headers: st.Headers}); err != nil {
		// the headers follow the faults' rules; the fault's message names the header
		field, problem, _ := strings.Cut(strings.TrimPrefix(err.Error(), "inject fault: "), ": ")
		return bad(field, "%s", problem)
	}
	return nil
}

// stubMatcher is a stub's path split for matching: literal segments
// unescaped and lower-cased, "" where the stub has a {name}.
type stubMatcher []string

// compileStubPath splits a validated stub path.
func compileStubPath(p string) stubMatcher {
	parts := splitPath(p)
	m := make(stubMatcher, len(parts))
	for i, part := range parts {
		if strings.HasPrefix(part, "{") && strings.HasSuffix(part, "}") {
			continue
		}
		m[i] = lowerUnescaped(part)
	}
	return m
}

// lowerUnescaped is a path segment unescaped (when it can be) and lower-cased.
func lowerUnescaped(seg string) string {
	if v, err := url.PathUnescape(seg); err == nil {
		seg = v
	}
	return strings.ToLower(seg)
}

// fits reports whether the segments of an escaped path fit m.
func (m stubMatcher) fits(parts []string) bool {
	if len(parts) != len(m) {
		return false
	}
	for i, want := range m {
		if parts[i] == "" || (want != "" && lowerUnescaped(parts[i]) != want) {
			return false
		}
	}
	return true
}

// activeStub is a stub with its counters.
type activeStub struct {
	st    Stub
	id    int
	hits  int
	match stubMatcher
}

// view is the listed form of as.
func (as *activeStub) view() ActiveStub {
	v := ActiveStub{ID: as.id, Name: "stub#" + strconv.Itoa(as.id), Stub: as.st, Hits: as.hits}
	v.Headers = cloneMap(as.st.Headers)
	if as.st.Times > 0 {
		left := as.st.Times - as.hits
		v.Remaining = &left
	}
	return v
}

// stubSet holds the stubs in the order they were added. It belongs to
// the store's data: a data document's "stubs" load into it, the state
// export writes it, and Reset goes back to the seed's stubs.
type stubSet struct {
	mu     sync.Mutex
	nextID int
	stubs  []*activeStub
}

// newStubSet holds stubs that were validated already.
func newStubSet(stubs []Stub) *stubSet {
	ss := &stubSet{}
	for _, st := range stubs {
		ss.addValid(st)
	}
	return ss
}

// add validates and stores st and returns its id.
func (ss *stubSet) add(st Stub) (int, error) {
	if err := validateStub(st); err != nil {
		return 0, err
	}
	return ss.addValid(st), nil
}

// addValid stores a validated stub and returns its id.
func (ss *stubSet) addValid(st Stub) int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.nextID++
	st.Headers = cloneMap(st.Headers)
	ss.stubs = append(ss.stubs, &activeStub{st: st, id: ss.nextID, match: compileStubPath(st.Path)})
	return ss.nextID
}

// list returns every live stub in the order they were added.
func (ss *stubSet) list() []ActiveStub {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	out := make([]ActiveStub, 0, len(ss.stubs))
	for _, as := range ss.stubs {
		out = append(out, as.view())
	}
	return out
}

// Export is the live stubs as a data document keeps them: a stub with a
// count keeps the calls it has left; nil when there are none.
func (ss *stubSet) Export() []Stub {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	var out []Stub
	for _, as := range ss.stubs {
		st := as.st
		st.Headers = cloneMap(st.Headers)
		if st.Times > 0 {
			st.Times -= as.hits
		}
		out = append(out, st)
	}
	return out
}

// get returns the live stub with id.
func (ss *stubSet) get(id int) (ActiveStub, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, as := range ss.stubs {
		if as.id == id {
			return as.view(), true
		}
	}
	return ActiveStub{}, false
}

// remove deletes the live stub with id; false when there is none.
func (ss *stubSet) remove(id int) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for i, as := range ss.stubs {
		if as.id == id {
			ss.stubs = slices.Delete(ss.stubs, i, i+1)
			return true
		}
	}
	return false
}

// clear removes every stub; ids keep counting up.
func (ss *stubSet) clear() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.stubs = nil
}

// match returns the newest live stub that fits method and the escaped
// path below the base path, counts the call and names the stub for the
// journal; a stub whose count is reached is removed.
func (ss *stubSet) match(method, upstream string) (Stub, string, bool) {
	parts := splitPath(upstream)
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for i := len(ss.stubs) - 1; i >= 0; i-- {
		as := ss.stubs[i]
		if as.st.Method != "*" && !strings.EqualFold(as.st.Method, method) &&
			(method != http.MethodHead || !strings.EqualFold(as.st.Method, http.MethodGet)) {
			continue
		}
		if !as.match.fits(parts) {
			continue
		}
		as.hits++
		if as.st.Times > 0 && as.hits >= as.st.Times {
			ss.stubs = slices.Delete(ss.stubs, i, i+1)
		}
		return as.st, "stub#" + strconv.Itoa(as.id), true
	}
	return Stub{}, "", false
}

// serveStub writes a stub's answer.
func serveStub(w http.ResponseWriter, r *http.Request, st Stub) {
	h := w.Header()
	for k, v := range st.Headers {
		h.Set(k, v)
	}
	if h.Get("Content-Type") == "" && st.Body != "" {
		if json.Valid([]byte(st.Body)) {
			h.Set("Content-Type", "application/json; charset=utf-8")
		} else {
			h.Set("Content-Type", "text/plain; charset=utf-8")
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(st.Body)))
	w.WriteHeader(st.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(st.Body))
	}
}

// stubs is the stub set of the loaded state.
func (s *Server) stubs() *stubSet {
	var ss *stubSet
	s.store.Read(func(st *store) { ss, _ = st.Stubs.(*stubSet) })
	return ss
}

// AddStub adds a stub and returns its id (the N of the journal's
// "stub#N"); a malformed stub fails with a *StubError naming the field.
func (s *Server) AddStub(st Stub) (int, error) { return s.stubs().add(st) }

// Stubs lists the live stubs in the order they were added; spent ones
// are gone.
func (s *Server) Stubs() []ActiveStub { return s.stubs().list() }

// LookupStub returns the live stub with id.
func (s *Server) LookupStub(id int) (ActiveStub, bool) { return s.stubs().get(id) }

// RemoveStub removes the live stub with id; false when there is none.
func (s *Server) RemoveStub(id int) bool { return s.stubs().remove(id) }

// ClearStubs removes every stub.
func (s *Server) ClearStubs() { s.stubs().clear() }

// checkStub is validateStub as the store's data document check reads it.
func checkStub(st Stub) (field, problem string, ok bool) {
	var se *StubError
	if errors.As(validateStub(st), &se) {
		return se.Field, se.Problem, false
	}
	return "", "", true
}

// served is how the store checks and builds the recordings and stubs of a
// data document, which this package serves.
func served() db.Served {
	return db.Served{
		CheckStub:       checkStub,
		CheckRecordings: recordingProblems,
		NewReplay:       func(recs []Recording) db.Replay { return newReplaySet(recs) },
		NewStubs:        func(stubs []Stub) db.Stubs { return newStubSet(stubs) },
	}
}

// parseState validates a data document and turns it into seed files.
// extraLogins are the Options.Users that will be added to its users.
func parseState(b []byte, source string, extraLogins []User) (*db.StateDoc, error) {
	return db.ParseDoc(b, source, extraLogins, served(), true)
}
