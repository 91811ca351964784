package mockombi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
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
	// Stub names the stub that answered instead of the route ("stub#3").
	Stub string `json:"stub,omitempty"`
	// Unmatched marks a call no route, stub, recording or file answered:
	// the mock answered it 404 (or 405) as Ombi does a path it lacks.
	Unmatched  bool    `json:"unmatched,omitempty"`
	DurationMS float64 `json:"duration_ms"`
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
	return int64(callOverhead + len(c.Method) + len(c.Path) + len(c.Query) + len(c.Route) + len(c.Fault) + len(c.Stub) +
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
	// tickets numbers the requests as they arrive; inflight holds those not
	// recorded yet, and wake, when a reader waits on them, is closed when
	// one is. A request's answer can reach its client before the handler
	// returns (a long body is flushed as it is written), so a reader waits
	// for the requests that began before it looked.
	tickets  uint64
	inflight map[uint64]arrival
	wake     chan struct{}
}

// settleTimeout bounds how long a reader waits for the requests in flight.
const settleTimeout = 5 * time.Second

// newJournal builds a journal with the given bounds.
func newJournal(maxCalls int, maxBytes int64) *journal {
	return &journal{maxCalls: maxCalls, maxBytes: maxBytes, inflight: map[uint64]arrival{}}
}

// arrival is a request's place in the journal, handed out when it arrives
// and taken by add when it is recorded: its ticket (for settle) and the
// number it gets unless a clear comes in between.
type arrival struct {
	ticket uint64
	epoch  int
	seq    int
	// what arrived, and when: a report of the requests in flight shows it
	method, path string
	at           time.Time
}

// begin notes a request that has arrived at time at and numbers it.
func (j *journal) begin(method, path string, at time.Time) arrival {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.tickets++
	j.seq++
	a := arrival{ticket: j.tickets, epoch: j.epoch, seq: j.seq, method: method, path: path, at: at}
	j.inflight[a.ticket] = a
	return a
}

// settle waits until every request that began before it was called is
// recorded, or until settleTimeout has passed.
func (j *journal) settle() {
	j.mu.Lock()
	last := j.tickets
	var timer *time.Timer
	for j.pendingLocked(last) {
		if j.wake == nil {
			j.wake = make(chan struct{})
		}
		wake := j.wake
		j.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(settleTimeout)
			defer timer.Stop()
		}
		select {
		case <-wake:
		case <-timer.C:
			return
		}
		j.mu.Lock()
	}
	j.mu.Unlock()
}

// pendingLocked reports whether a request with a ticket up to last is not
// recorded yet; j.mu is held.
func (j *journal) pendingLocked(last uint64) bool {
	for t := range j.inflight {
		if t <= last {
			return true
		}
	}
	return false
}

// add records c under the number it got on arrival (a is the zero
// arrival for a call that did not come through begin: it is numbered now),
// in arrival order, and evicts the oldest calls beyond the bounds. A call
// that arrived before a clear is numbered anew, after every call kept.
func (j *journal) add(c Call, a arrival) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if a.ticket != 0 {
		delete(j.inflight, a.ticket)
		if j.wake != nil {
			close(j.wake)
			j.wake = nil
		}
	}
	if a.ticket != 0 && a.epoch == j.epoch {
		c.Seq = a.seq
	} else {
		j.seq++
		c.Seq = j.seq
	}
	if j.n == len(j.ring) {
		j.grow()
	}
	// Answers can finish out of order: the call goes after the last one
	// that arrived before it.
	at := j.n
	for at > 0 && j.ring[(j.head+at-1)%len(j.ring)].Seq > c.Seq {
		j.ring[(j.head+at)%len(j.ring)] = j.ring[(j.head+at-1)%len(j.ring)]
		at--
	}
	j.ring[(j.head+at)%len(j.ring)] = c
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
	j.copyTo(ring, 0, j.n)
	j.ring, j.head = ring, 0
}

// copyTo copies the kept calls from the from-th oldest up to (not
// including) the to-th into dst, oldest first, and returns how many it
// copied.
func (j *journal) copyTo(dst []Call, from, to int) int {
	k := 0
	for i := from; i < to; {
		at := (j.head + i) % len(j.ring)
		run := min(to-i, len(j.ring)-at)
		k += copy(dst[k:], j.ring[at:at+run])
		i += run
	}
	return k
}

// list hands out deep copies so callers cannot alter the record, once
// the requests in flight are recorded.
func (j *journal) list() []Call {
	j.settle()
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
	return j.betweenLocked(seq, j.seq, limit)
}

// after returns the calls recorded after the position (epoch, seq): every
// kept call when a clear came in between. j.mu is taken once, so no clear
// can fall between the check and the copy. It first waits for the
// requests in flight.
func (j *journal) after(epoch, seq int) []Call {
	j.settle()
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.epoch != epoch {
		seq = 0
	}
	return j.betweenLocked(seq, j.seq, 0)
}

// betweenLocked returns the kept calls numbered above seq and up to upTo,
// at most the last limit of them (limit <= 0: all); j.mu is held.
func (j *journal) betweenLocked(seq, upTo, limit int) []Call {
	last := j.n
	for last > 0 && j.ring[(j.head+last-1)%len(j.ring)].Seq > upTo {
		last--
	}
	first := last
	for first > 0 && j.ring[(j.head+first-1)%len(j.ring)].Seq > seq {
		first--
	}
	if limit > 0 && last-first > limit {
		first = last - limit
	}
	out := make([]Call, last-first)
	j.copyTo(out, first, last)
	return out
}

// poll is what a poller of the control API reads: the calls numbered
// above seq (at most the last limit), the journal's state, and the number
// to poll from next. Calls that arrived but are not recorded (a request
// that began after settle) hold that number back, and no call past it is
// handed out: each poll from the number the previous one gave sees every
// call exactly once.
func (j *journal) poll(seq, limit int) ([]Call, journalStats, int) {
	j.settle()
	j.mu.Lock()
	defer j.mu.Unlock()
	next := j.seq
	for _, a := range j.inflight {
		if a.epoch == j.epoch {
			next = min(next, a.seq-1)
		}
	}
	return j.betweenLocked(seq, next, limit), j.statsLocked(), next
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
	return j.statsLocked()
}

// statsLocked is stats with j.mu held.
func (j *journal) statsLocked() journalStats {
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

// InFlight is a request the mock has received and not answered in full.
type InFlight struct {
	Seq    int       `json:"seq"` // the number its journal entry gets
	Method string    `json:"method"`
	Path   string    `json:"path"` // escaped path as received
	Since  time.Time `json:"since"`
}

// inFlight lists the requests not recorded yet, oldest first. It does not
// wait for them.
func (j *journal) inFlight() []InFlight {
	j.mu.Lock()
	out := make([]InFlight, 0, len(j.inflight))
	for _, a := range j.inflight {
		out = append(out, InFlight{Seq: a.seq, Method: a.method, Path: a.path, Since: a.at})
	}
	j.mu.Unlock()
	slices.SortFunc(out, func(a, b InFlight) int { return a.Seq - b.Seq })
	return out
}

// recent returns the last n calls recorded, without waiting for the
// requests in flight. The copies share headers and bodies with the
// journal: read only.
func (j *journal) recent(n int) []Call {
	j.mu.Lock()
	defer j.mu.Unlock()
	if n > j.n {
		n = j.n
	}
	out := make([]Call, n)
	j.copyTo(out, j.n-n, j.n)
	return out
}
