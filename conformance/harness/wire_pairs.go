package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// This file pairs the requests a wireLog sees written with the answers it
// sees read, by JSON-RPC id.

// wireRequest is a request written.
type wireRequest struct {
	id, method string
	at         time.Duration
}

// wireLate is a request answered after the suite cancelled it.
type wireLate struct {
	wireRequest
	cancelled, answered time.Duration
}

// wireMessage is what the log reads of a JSON-RPC frame.
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// track notes the JSON-RPC messages of a frame written: requests become
// pending, cancellations are remembered. A frame that is not JSON (a check
// may send one on purpose) is not tracked. Called with l.mu held.
func (l *wireLog) track(frame []byte, at time.Duration) {
	msgs, ok := decodeFrame(frame)
	if !ok {
		l.lastAsk = at
		return
	}
	for _, m := range msgs {
		if m.Method == "notifications/cancelled" {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(m.Params, &p) == nil && len(p.RequestID) > 0 {
				if l.cancelled == nil {
					l.cancelled = map[string]time.Duration{}
				}
				l.cancelled[string(compactID(p.RequestID))] = at
			}
			continue
		}
		l.lastAsk = at
		if m.Method == "" || len(m.ID) == 0 || string(m.ID) == "null" {
			continue
		}
		if l.pending == nil {
			l.pending = map[string]wireRequest{}
		}
		l.pending[string(m.ID)] = wireRequest{id: string(m.ID), method: m.Method, at: at}
	}
}

// answered notes the JSON-RPC messages of a frame read: an answer (an id
// and no method) ends its request's wait.
func (l *wireLog) answered(frame []byte) {
	msgs, ok := decodeFrame(frame)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	at := time.Since(l.start)
	for _, m := range msgs {
		if m.Method != "" || len(m.ID) == 0 {
			continue
		}
		id := string(m.ID)
		req, ok := l.pending[id]
		if !ok {
			continue
		}
		delete(l.pending, id)
		if c, ok := l.cancelled[id]; ok {
			delete(l.cancelled, id)
			l.late = append(l.late, wireLate{wireRequest: req, cancelled: c, answered: at})
			if len(l.late) > wireShown {
				l.late = l.late[1:]
			}
		}
	}
}

// decodeFrame reads the messages of one frame: an object, or a batch.
func decodeFrame(frame []byte) ([]wireMessage, bool) {
	frame = bytes.TrimSpace(frame)
	if len(frame) == 0 {
		return nil, false
	}
	if frame[0] == '[' {
		var batch []wireMessage
		if json.Unmarshal(frame, &batch) != nil {
			return nil, false
		}
		for i := range batch {
			batch[i].ID = compactID(batch[i].ID)
		}
		return batch, true
	}
	var m wireMessage
	if json.Unmarshal(frame, &m) != nil {
		return nil, false
	}
	m.ID = compactID(m.ID)
	return []wireMessage{m}, true
}

// compactID drops the spaces a server may write around an id.
func compactID(id json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if len(id) == 0 || json.Compact(&b, id) != nil {
		return id
	}
	return b.Bytes()
}

// waitingOn tells which side the session waits on: the requests written
// and never answered, the answers that came only after the suite cancelled
// their request, or, when every request was answered, the suite. Called
// with l.mu held.
func (l *wireLog) waitingOn(b *strings.Builder, now time.Duration, read int64) {
	if l.sentN == 0 {
		return
	}
	pending := slices.SortedFunc(func(yield func(wireRequest) bool) {
		for _, r := range l.pending {
			if !yield(r) {
				return
			}
		}
	}, func(a, b wireRequest) int { return int(a.at - b.at) })
	for _, r := range l.late {
		fmt.Fprintf(b, "\nanswered late: id %s (%s, written at +%s) was answered at +%s, after the suite cancelled it at +%s", r.id, r.method, secs(r.at), secs(r.answered), secs(r.cancelled))
	}
	switch {
	case len(pending) > 0:
		fmt.Fprintf(b, "\nwaiting on the server: %d requests written have no answer:", len(pending))
		for _, r := range pending[:min(len(pending), wireShown)] {
			fmt.Fprintf(b, "\n  id %s %s, written at +%s (%s ago)", r.id, r.method, secs(r.at), secs(now-r.at))
			if c, ok := l.cancelled[r.id]; ok {
				fmt.Fprintf(b, ", cancelled at +%s", secs(c))
			}
		}
	case len(l.late) > 0 && l.late[len(l.late)-1].answered >= l.lastAsk:
		r := l.late[len(l.late)-1]
		fmt.Fprintf(b, "\nwaiting on the server: id %s was answered only after the suite gave up on it, %s after it was written", r.id, secs(r.answered-r.at))
	case read == 0:
		fmt.Fprintf(b, "\nwaiting on the server: nothing came back at all; the suite wrote last at +%s", secs(l.lastWrite))
	case l.lastAsk >= l.lastRead:
		fmt.Fprintf(b, "\nwaiting on the server: nothing came back for %s (since +%s), though the suite wrote after that, last at +%s", secs(now-l.lastRead), secs(l.lastRead), secs(l.lastAsk))
	default:
		fmt.Fprintf(b, "\nwaiting on the suite: every request written was answered, the last read at +%s, and the suite wrote nothing after it for %s", secs(l.lastRead), secs(now-l.lastRead))
	}
}
