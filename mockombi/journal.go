package mockombi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
	"time"
	"unicode/utf8"
)

// Journal bounds used when the Options fields are 0.
const (
	// DefaultJournalSize is how many calls the journal keeps.
	DefaultJournalSize = 10_000
	// DefaultJournalBytes caps the bytes the journal holds (bodies, headers, paths).
	DefaultJournalBytes = 64 << 20
	// DefaultJournalBodyBytes is how much of each body a journaled call keeps.
	DefaultJournalBodyBytes = 64 << 10
)

// callOverhead approximates the fixed cost of one journaled call.
const callOverhead = 256

// Call is one recorded upstream request. Control calls are never recorded.
type Call struct {
	Seq    int         `json:"seq"`
	Time   time.Time   `json:"time"`
	Method string      `json:"method"`
	Path   string      `json:"path"` // escaped path as received, prefix included
	Query  string      `json:"query"`
	Header http.Header `json:"headers"`
	// Body is the raw request body when it is JSON text; any other body is
	// recorded as a JSON string holding its text; an empty body is omitted.
	// A body longer than the journal's body cap is cut, kept as a JSON string
	// and marked BodyTruncated; BodyBytes is then its full length.
	Body          json.RawMessage `json:"body,omitempty"`
	BodyBytes     int             `json:"body_bytes,omitempty"`
	BodyTruncated bool            `json:"body_truncated,omitempty"`
	Status        int             `json:"status"` // 0 when a reset fault answered nothing
	Route         string          `json:"route"`  // matched pattern, "" if none
	Fault         string          `json:"fault,omitempty"`
	DurationMS    float64         `json:"duration_ms"`
	// ResponseHeader and ResponseBody are the answer, recorded when
	// Options.JournalResponses is set (the mockombi binary sets it); the body
	// follows the same rules and cap as Body. ResponseBytes counts every byte
	// written.
	ResponseHeader    http.Header     `json:"response_headers,omitempty"`
	ResponseBody      json.RawMessage `json:"response_body,omitempty"`
	ResponseBytes     int64           `json:"response_bytes,omitempty"`
	ResponseTruncated bool            `json:"response_truncated,omitempty"`
}

// size approximates the memory a call holds.
func (c *Call) size() int64 {
	return int64(callOverhead + len(c.Method) + len(c.Path) + len(c.Query) + len(c.Route) + len(c.Fault) +
		len(c.Body) + len(c.ResponseBody) + headerSize(c.Header) + headerSize(c.ResponseHeader))
}

// headerSize is the byte count of a header's names and values.
func headerSize(h http.Header) int {
	n := 0
	for k, vs := range h {
		n += len(k) + 16
		for _, v := range vs {
			n += len(v) + 16
		}
	}
	return n
}

// journal keeps the latest upstream calls in arrival order, within a call
// count and a byte budget (a limit <= 0 means none); the oldest go first.
type journal struct {
	mu       sync.Mutex
	maxCalls int
	maxBytes int64
	seq      int
	// ring holds the kept calls, oldest first from head, n of them; it
	// wraps around, so adding and evicting a call copy no other. Evicted
	// slots are zeroed so their bodies can go.
	ring    []Call
	head, n int
	bytes   int64
	dropped int
	epoch   int // counts clears, so a poller can tell a cleared journal
}

// newJournal builds a journal with the given bounds.
func newJournal(maxCalls int, maxBytes int64) *journal {
	return &journal{maxCalls: maxCalls, maxBytes: maxBytes}
}

// add appends c, numbering it, and evicts the oldest calls beyond the bounds.
func (j *journal) add(c Call) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seq++
	c.Seq = j.seq
	if j.n == len(j.ring) {
		j.grow()
	}
	j.ring[(j.head+j.n)%len(j.ring)] = c
	j.n++
	j.bytes += c.size()
	for j.n > 1 && ((j.maxCalls > 0 && j.n > j.maxCalls) || (j.maxBytes > 0 && j.bytes > j.maxBytes)) {
		j.bytes -= j.ring[j.head].size()
		j.ring[j.head] = Call{} // let the evicted bodies go
		j.head = (j.head + 1) % len(j.ring)
		j.n--
		j.dropped++
	}
}

// grow doubles the ring (the first one holds 16 calls, or maxCalls+1
// when that is fewer), keeping the calls in order.
func (j *journal) grow() {
	size := max(2*len(j.ring), 16)
	if j.maxCalls > 0 {
		size = min(size, max(j.maxCalls+1, len(j.ring)+1)) // a call is added before the bound evicts
	}
	ring := make([]Call, size)
	j.copyTo(ring, 0)
	j.ring, j.head = ring, 0
}

// copyTo copies the kept calls from the skip-th oldest on into dst, oldest
// first, and returns how many it copied.
func (j *journal) copyTo(dst []Call, skip int) int {
	k := 0
	for i := skip; i < j.n; {
		at := (j.head + i) % len(j.ring)
		run := min(j.n-i, len(j.ring)-at)
		k += copy(dst[k:], j.ring[at:at+run])
		i += run
	}
	return k
}

// list hands out deep copies so callers cannot alter the record.
func (j *journal) list() []Call {
	out := j.since(0, 0)
	for i := range out {
		out[i].Header = out[i].Header.Clone()
		out[i].ResponseHeader = out[i].ResponseHeader.Clone()
		out[i].Body = append(json.RawMessage(nil), out[i].Body...)
		out[i].ResponseBody = append(json.RawMessage(nil), out[i].ResponseBody...)
	}
	return out
}

// since returns the calls numbered above seq, at most the last limit of
// them (limit <= 0: all). The copies share headers and bodies with the
// journal, which never changes them: callers must only read.
func (j *journal) since(seq, limit int) []Call {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.sinceLocked(seq, limit)
}

// after returns the calls recorded after the position (epoch, seq): every
// kept call when a clear came in between. j.mu is taken once, so no clear
// can fall between the check and the copy.
func (j *journal) after(epoch, seq int) []Call {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.epoch != epoch {
		seq = 0
	}
	return j.sinceLocked(seq, 0)
}

// sinceLocked is since with j.mu held.
func (j *journal) sinceLocked(seq, limit int) []Call {
	first := j.n
	for first > 0 && j.ring[(j.head+first-1)%len(j.ring)].Seq > seq {
		first--
	}
	if limit > 0 && j.n-first > limit {
		first = j.n - limit
	}
	out := make([]Call, j.n-first)
	j.copyTo(out, first)
	return out
}

// journalStats is the state of the journal.
type journalStats struct {
	Last     int   `json:"last_seq"` // the last number handed out
	Kept     int   `json:"kept"`
	Bytes    int64 `json:"bytes"`
	Dropped  int   `json:"dropped"` // calls the bounds dropped since the last clear
	Epoch    int   `json:"epoch"`   // how many clears (and resets) so far
	MaxCalls int   `json:"max_calls"`
	MaxBytes int64 `json:"max_bytes"`
}

// stats reports the journal's state.
func (j *journal) stats() journalStats {
	j.mu.Lock()
	defer j.mu.Unlock()
	return journalStats{Last: j.seq, Kept: j.n, Bytes: j.bytes, Dropped: j.dropped, Epoch: j.epoch, MaxCalls: j.maxCalls, MaxBytes: j.maxBytes}
}

// clear forgets every call; numbering restarts at 1.
func (j *journal) clear() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.ring, j.head, j.n = nil, 0, 0
	j.seq = 0
	j.bytes = 0
	j.dropped = 0
	j.epoch++
}

// journalBody turns raw body bytes into what Call.Body holds: limit bytes
// at most (limit < 0: all); a cut body is kept as a JSON string.
func journalBody(b []byte, limit int) (json.RawMessage, bool) {
	if len(b) == 0 {
		return nil, false
	}
	if limit >= 0 && len(b) > limit {
		cut := b[:limit]
		for len(cut) > 0 && len(b) > len(cut) && !utf8.RuneStart(b[len(cut)]) {
			cut = cut[:len(cut)-1] // do not split a UTF-8 sequence
		}
		s, _ := json.Marshal(string(cut))
		return s, true
	}
	if json.Valid(b) {
		return append(json.RawMessage(nil), b...), false
	}
	s, _ := json.Marshal(string(b))
	return s, false
}

// journalRequestBody is journalBody for the request body serve read: those
// bytes are the journal's from then on (handlers only read them), so JSON
// text within the cap is kept as it is rather than copied.
func journalRequestBody(b []byte, limit int) (json.RawMessage, bool) {
	if len(b) > 0 && (limit < 0 || len(b) <= limit) && json.Valid(b) {
		return b[:len(b):len(b)], false
	}
	return journalBody(b, limit)
}

// capture keeps the first limit bytes written through it (limit < 0: all)
// and counts them all.
type capture struct {
	limit int
	buf   bytes.Buffer
	n     int64
}

// write records p.
func (c *capture) write(p []byte) {
	c.n += int64(len(p))
	room := len(p)
	if c.limit >= 0 {
		room = min(room, c.limit+1-c.buf.Len()) // one byte more tells a cut body
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
}

// body is the captured body for Call.ResponseBody.
func (c *capture) body() (json.RawMessage, bool) {
	return journalBody(c.buf.Bytes(), c.limit)
}
