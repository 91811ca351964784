package mockombi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

// maxRecordedBody is the longest answer a recording keeps; a longer one
// passes through unrecorded.
const maxRecordedBody = 32 << 20

// recordingProblems checks what the types of a data document's recordings
// cannot.
func recordingProblems(rs []Recording) []string {
	var problems []string
	addf := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for i, rec := range rs {
		p := fmt.Sprintf("$.recordings[%d]", i)
		if !isToken(rec.Method) {
			addf("%s.method: required, an HTTP method such as GET", p)
		}
		if !strings.HasPrefix(rec.Path, "/") || strings.ContainsAny(rec.Path, "?#") {
			addf("%s.path: %q: want the escaped path below the base path, starting with / (the query goes in query)", p, rec.Path)
		}
		if rec.Status < 200 || rec.Status > 599 {
			addf("%s.status: %d is out of range; want 200-599", p, rec.Status)
		}
		if rec.ResponseBase64 != "" {
			if rec.Response != "" {
				addf("%s: response and response_base64 both given; give one", p)
			}
			if _, err := base64.StdEncoding.DecodeString(rec.ResponseBase64); err != nil {
				addf("%s.response_base64: not standard base64: %v", p, err)
			}
		}
		for _, k := range db.SortedKeys(rec.Headers) {
			if !isToken(k) || forbiddenFaultHeader(http.CanonicalHeaderKey(k)) {
				addf("%s.headers%s: not a header a recorded answer can carry", p, db.PathKey(k))
			}
		}
	}
	return problems
}

// replaySet is the recordings of the loaded data document, grouped by the
// calls they answer. The recordings of one call answer in the order they
// were recorded, the last one again and again: a session that read a list,
// changed it and read it again replays the same way. Reset starts over.
type replaySet struct {
	recs   []Recording
	groups map[string][]int // matchKey → indexes into recs
	mu     sync.Mutex
	next   map[string]int // matchKey → how many of its group answered
}

// newReplaySet groups recs; nil when there are none.
func newReplaySet(recs []Recording) *replaySet {
	if len(recs) == 0 {
		return nil
	}
	rs := &replaySet{recs: recs, groups: map[string][]int{}, next: map[string]int{}}
	for i, rec := range recs {
		k := matchKey(rec.Method, rec.Path, rec.Query, []byte(rec.Body))
		rs.groups[k] = append(rs.groups[k], i)
	}
	return rs
}

// List is the recordings for export; nil when there are none.
func (rs *replaySet) List() []Recording {
	if rs == nil {
		return nil
	}
	return rs.recs
}

// match returns the recording that answers a call, and moves on to the
// next one of its group.
func (rs *replaySet) match(method, path, query string, body []byte) (Recording, bool) {
	if rs == nil {
		return Recording{}, false
	}
	k := matchKey(method, path, query, body)
	group := rs.groups[k]
	if len(group) == 0 {
		return Recording{}, false
	}
	rs.mu.Lock()
	n := rs.next[k]
	if n < len(group)-1 {
		rs.next[k] = n + 1
	}
	rs.mu.Unlock()
	return rs.recs[group[n]], true
}

// matchKey is what two calls answered by the same recording share: the
// method, the unescaped path in lower case, the query and the canonical
// body, with secrets and e-mail addresses normalized away.
func matchKey(method, path, query string, body []byte) string {
	return strings.ToUpper(method) + " " + strings.ToLower(unescape(path)) + "?" + matchScrub.query(query) +
		"\n" + canonicalBody(matchScrub.body(body))
}

// canonicalBody is JSON text re-encoded with sorted keys and no spacing,
// any other body as it is.
func canonicalBody(b []byte) string {
	b = bytes.TrimSpace(b)
	var v any
	if len(b) == 0 || json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(b)
	}
	return string(out)
}

// replay answers a call from the loaded recordings; false when none
// matches.
func (s *Server) replay(w http.ResponseWriter, r *http.Request, upstream string, body []byte) bool {
	var rs *replaySet
	s.store.Read(func(st *store) { rs, _ = st.Replay.(*replaySet) })
	rec, ok := rs.match(r.Method, upstream, r.URL.RawQuery, body)
	if !ok {
		return false
	}
	answer := []byte(rec.Response)
	if rec.ResponseBase64 != "" {
		answer, _ = base64.StdEncoding.DecodeString(rec.ResponseBase64) // checked on load
	}
	for k, v := range rec.Headers {
		w.Header().Set(k, v)
	}
	keepContentType(w.Header())
	w.WriteHeader(rec.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(answer)
	}
	return true
}

// Placeholders a recording holds where it scrubbed a value.
const (
	// redactedValue replaces secrets: passwords, API keys, tokens, JWTs.
	redactedValue = "REDACTED"
	// emailDomain is the domain of the placeholder e-mail addresses
	// (user1@example.invalid, user2@...).
	emailDomain = "example.invalid"
)

var (
	// emailPattern finds e-mail addresses.
	emailPattern = regexp.MustCompile(`(?i)[a-z0-9._%+\-]+@(?:[a-z0-9\-]+\.)+[a-z]{2,}`)
	// jwtPattern finds JSON Web Tokens (header and payload are base64url
	// JSON objects, so both start eyJ).
	jwtPattern = regexp.MustCompile(`eyJ[A-Za-z0-9_\-]{4,}\.eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]*`)
)

// secretWords are the parts of a JSON member or query parameter name that
// make its value a secret (compared ignoring case, "_" and "-").
var secretWords = []string{"password", "passwd", "apikey", "token", "secret", "authorization", "webhook", "botapi", "connectionstring"}

// secretName reports whether a member or parameter named name holds a secret.
func secretName(name string) bool {
	n := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
	return slices.ContainsFunc(secretWords, func(w string) bool { return strings.Contains(n, w) })
}

// minLiteral is the shortest credential scrubbed wherever it appears.
const minLiteral = 6

// scrubber removes credentials and e-mail addresses from what a recording
// keeps. The recording's scrubber numbers the addresses it meets and
// remembers the credentials the calls carried; matchScrub, used to compare
// calls, maps every address to one placeholder.
type scrubber struct {
	mu       sync.Mutex
	emails   map[string]string // address in lower case → placeholder; nil: one placeholder for all
	literals []string          // credentials seen, longest first
}

// matchScrub normalizes calls for matching.
var matchScrub = &scrubber{}

// newScrubber is a recording's scrubber.
func newScrubber() *scrubber { return &scrubber{emails: map[string]string{}} }

// learn remembers the credentials a call carries (ApiKey, the bearer or
// user access token, apikey in the query, secret members of its body), to
// scrub them wherever they appear.
func (sc *scrubber) learn(r *http.Request, body []byte) {
	found := []string{r.Header.Get("ApiKey"), r.Header.Get("UserAccessToken")}
	if auth := r.Header.Get("Authorization"); auth != "" {
		_, cred, _ := strings.Cut(auth, " ")
		found = append(found, auth, strings.TrimSpace(cred))
	}
	for k, vs := range r.URL.Query() {
		if secretName(k) {
			found = append(found, vs...)
		}
	}
	found = append(found, secretValues(body)...)
	sc.mu.Lock()
	defer sc.mu.Unlock()
	for _, v := range found {
		if len(v) >= minLiteral && v != redactedValue && !slices.Contains(sc.literals, v) {
			sc.literals = append(sc.literals, v)
		}
	}
	slices.SortFunc(sc.literals, func(a, b string) int { return len(b) - len(a) })
}

// body scrubs a request or answer body. In JSON text the string values
// of secret members become "REDACTED" and every other string is scrubbed
// as text, so the JSON stays valid and every other byte as it was; any
// other body is scrubbed as text.
func (sc *scrubber) body(b []byte) []byte {
	spans, ok := jsonStrings(b)
	if !ok {
		return sc.text(b)
	}
	out := make([]byte, 0, len(b))
	last := 0
	for _, s := range spans {
		out = append(out, b[last:s.start]...)
		if s.secret && s.value != "" {
			out = append(out, `"`+redactedValue+`"`...)
		} else {
			out = append(out, sc.text(b[s.start:s.end])...)
		}
		last = s.end
	}
	return append(out, b[last:]...)
}

// text replaces the credentials learnt and JWTs with REDACTED, and e-mail
// addresses with placeholders.
func (sc *scrubber) text(b []byte) []byte {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	for _, lit := range sc.literals {
		b = bytes.ReplaceAll(b, []byte(lit), []byte(redactedValue))
	}
	b = jwtPattern.ReplaceAll(b, []byte(redactedValue))
	return emailPattern.ReplaceAllFunc(b, func(addr []byte) []byte {
		if sc.emails == nil {
			return []byte("user@" + emailDomain)
		}
		key := strings.ToLower(string(addr))
		p, ok := sc.emails[key]
		if !ok {
			p = fmt.Sprintf("user%d@%s", len(sc.emails)+1, emailDomain)
			sc.emails[key] = p
		}
		return []byte(p)
	})
}

// query scrubs a raw query: secret parameters' values become REDACTED, a
// value holding an e-mail address, a credential or a JWT is scrubbed as
// text. Every other byte stays.
func (sc *scrubber) query(q string) string {
	return mapQuery(q, func(v string) string { return string(sc.text([]byte(v))) })
}

// redactQuery is a raw query with the values of secret parameters
// (apikey, ...) redacted: what the request log prints.
func redactQuery(q string) string { return mapQuery(q, nil) }

// mapQuery redacts the values of a raw query's secret parameters and
// passes the others, unescaped, through text (when not nil), escaping
// again only a value text changed.
func mapQuery(q string, text func(string) string) string {
	if q == "" {
		return q
	}
	parts := strings.Split(q, "&")
	for i, part := range parts {
		name, value, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		if n, err := url.QueryUnescape(name); err == nil && secretName(n) {
			parts[i] = name + "=" + redactedValue
			continue
		}
		if v, err := url.QueryUnescape(value); err == nil && text != nil {
			if s := text(v); s != v {
				parts[i] = name + "=" + url.QueryEscape(s)
			}
		}
	}
	return strings.Join(parts, "&")
}

// jsonString is a string value of a JSON text: where it starts and ends,
// and whether the member holding it has a secret name.
type jsonString struct {
	start, end int
	value      string
	secret     bool
}

// jsonStrings lists the string values (not member names) of a JSON text;
// false when b is not JSON.
func jsonStrings(b []byte) ([]jsonString, bool) {
	if !json.Valid(b) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	type level struct{ object, wantName bool }
	var levels []level
	var out []jsonString
	member := ""
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return out, true // io.EOF: the text is valid
		}
		top := len(levels) - 1
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				levels = append(levels, level{object: d == '{', wantName: d == '{'})
				continue
			}
			levels = levels[:top]
			top--
		} else if top >= 0 && levels[top].wantName {
			member, levels[top].wantName = tok.(string), false
			continue
		} else if s, ok := tok.(string); ok {
			end := int(dec.InputOffset())
			start := before + bytes.IndexByte(b[before:end], '"')
			out = append(out, jsonString{start: start, end: end, value: s, secret: top >= 0 && levels[top].object && secretName(member)})
		}
		// a value is done: an object's next token is a name
		if top >= 0 && levels[top].object {
			levels[top].wantName = true
		}
	}
}

// secretValues are the values of the secret members of a JSON text.
func secretValues(b []byte) []string {
	var out []string
	spans, _ := jsonStrings(b)
	for _, s := range spans {
		if s.secret {
			out = append(out, s.value)
		}
	}
	return out
}

// tape writes the calls a proxy passes through to a data file: at once
// when the first one comes, then at most once a second, and on close.
type tape struct {
	path  string
	scrub *scrubber

	mu      sync.Mutex
	recs    []Recording
	last    map[string]int // matchKey → index of its latest recording
	dirty   bool
	closed  bool
	written time.Time
	timer   *time.Timer
	err     error

	writeMu sync.Mutex // one write at a time, newest last
}

// newTape writes an empty recording to path, so a path that cannot be
// written fails at once.
func newTape(path string) (*tape, error) {
	t := &tape{path: path, scrub: newScrubber(), last: map[string]int{}, dirty: true}
	if err := t.flush(); err != nil {
		return nil, err
	}
	return t, nil
}

// record scrubs one call that passed through and keeps it, unless the
// latest recording of the same call answered the same.
func (t *tape) record(r *http.Request, upstream string, body []byte, status int, header http.Header, answer []byte) {
	t.scrub.learn(r, body)
	rec := Recording{Method: r.Method, Path: upstream, Query: t.scrub.query(r.URL.RawQuery),
		Body: string(t.scrub.body(body)), Status: status}
	if ct := header.Get("Content-Type"); ct != "" {
		rec.Headers = map[string]string{"Content-Type": ct}
	}
	if utf8.Valid(answer) {
		rec.Response = string(t.scrub.body(answer))
	} else {
		rec.ResponseBase64 = base64.StdEncoding.EncodeToString(answer)
	}
	k := matchKey(rec.Method, rec.Path, rec.Query, []byte(rec.Body))
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.last[k]; ok && sameAnswer(t.recs[i], rec) {
		return
	}
	t.last[k] = len(t.recs)
	t.recs = append(t.recs, rec)
	t.dirty = true
	if t.timer == nil && !t.closed {
		t.timer = time.AfterFunc(max(time.Until(t.written.Add(time.Second)), 0), func() { _ = t.flush() })
	}
}

// sameAnswer reports whether two recordings answer alike.
func sameAnswer(a, b Recording) bool {
	return a.Status == b.Status && a.Response == b.Response && a.ResponseBase64 == b.ResponseBase64 &&
		a.Headers["Content-Type"] == b.Headers["Content-Type"]
}

// recordFile is the data document a tape writes.
type recordFile struct {
	Version    int         `json:"version"`
	Recordings []Recording `json:"recordings"`
}

// flush writes the recordings when there are new ones; it returns the
// error of the last write.
func (t *tape) flush() error {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	t.mu.Lock()
	t.timer = nil
	if !t.dirty {
		err := t.err
		t.mu.Unlock()
		return err
	}
	t.dirty = false
	doc := recordFile{Version: db.StateVersion, Recordings: append([]Recording{}, t.recs...)}
	t.mu.Unlock()
	err := writeJSONFile(t.path, doc)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.written, t.err = time.Now(), err
	if err != nil {
		t.dirty = true
	}
	return err
}

// close stops the timer and writes what is left.
func (t *tape) close() error {
	t.mu.Lock()
	t.closed = true
	if t.timer != nil {
		t.timer.Stop()
	}
	t.mu.Unlock()
	return t.flush()
}

// writeJSONFile writes v as indented JSON to path atomically: a
// temporary file in the same directory, renamed over path.
func writeJSONFile(path string, v any) (err error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write recording %s: %w", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write recording: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
			err = fmt.Errorf("write recording %s: %w", path, err)
		}
	}()
	_, err = f.Write(buf.Bytes())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	return err
}
