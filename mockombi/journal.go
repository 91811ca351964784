package mockombi

import (
	"encoding/json"
	"net/http"
	"sync"
)

// Call is one recorded upstream request. Control calls are never recorded.
type Call struct {
	Seq    int         `json:"seq"`
	Method string      `json:"method"`
	Path   string      `json:"path"` // escaped path as received, prefix included
	Query  string      `json:"query"`
	Header http.Header `json:"headers"`
	// Body is the raw request body when it is JSON text; any other body is
	// recorded as a JSON string holding its text; an empty body is omitted.
	Body   json.RawMessage `json:"body,omitempty"`
	Status int             `json:"status"` // 0 when a reset fault answered nothing
	Route  string          `json:"route"`  // matched pattern, "" if none
	Fault  string          `json:"fault,omitempty"`
}

// journal keeps every upstream call in arrival order.
type journal struct {
	mu    sync.Mutex
	seq   int
	calls []Call
}

// add appends c, numbering it.
func (j *journal) add(c Call) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seq++
	c.Seq = j.seq
	j.calls = append(j.calls, c)
}

// list hands out deep copies so callers cannot alter the record.
func (j *journal) list() []Call {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]Call, len(j.calls))
	for i, c := range j.calls {
		c.Header = c.Header.Clone()
		c.Body = append(json.RawMessage(nil), c.Body...)
		out[i] = c
	}
	return out
}

// clear forgets every call; numbering restarts at 1.
func (j *journal) clear() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.calls = nil
	j.seq = 0
}

// journalBody turns raw body bytes into what Call.Body holds.
func journalBody(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	if json.Valid(b) {
		return append(json.RawMessage(nil), b...)
	}
	s, _ := json.Marshal(string(b))
	return s
}
