package harness

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestWireLog_keepsTheEndOfTheTraffic(t *testing.T) {
	l := newWireLog()
	if got := l.String(); !strings.Contains(got, "0 frames written") || !strings.Contains(got, "nothing read from stdout") {
		t.Fatalf("empty log:\n%s", got)
	}
	for i := 1; i <= 11; i++ {
		l.wrote([]byte(fmt.Sprintf(`{"id":%d,"method":"m%d"}`+"\n", i, i)))
	}
	l.failed(l.wrote([]byte(`{"id":12}`+"\n")), errors.New("broken pipe"))
	l.failed(0, errors.New("no longer kept"))
	r := l.reader(strings.NewReader(strings.Repeat("x", 1000) + `{"id":11,"result":{}}` + "\n"))
	if _, err := io.Copy(io.Discard, r); err != nil {
		t.Fatal(err)
	}
	got := l.String()
	for _, want := range []string{"12 frames written to stdin, the last 8:", `"method":"m5"}`, `"method":"m11"}`, "(write failed: broken pipe)", "1022 B read from stdout", `{"id":11,"result":{}}`} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"method":"m4"}`) || strings.Index(got, `"m5"`) > strings.Index(got, `"m11"`) {
		t.Errorf("report keeps more than the last 8 frames, or not oldest first:\n%s", got)
	}
	if n := strings.Count(got, "x"); n > wireReadTail {
		t.Errorf("report keeps %d bytes of the read side, want at most %d", n, wireReadTail)
	}
}

// The log pairs requests with answers by id, so the report names the
// request the session waits on, tells an answer that came only after the
// suite cancelled its request, and blames the suite only when every
// request was answered.
func TestWireLog_namesTheSideItWaitsOn(t *testing.T) {
	tests := []struct {
		name        string
		writes      []string
		reads       string
		whole, sse  bool
		wants, nots []string
	}{
		{
			name:   "a request never answered",
			writes: []string{`{"jsonrpc":"2.0","id":1,"method":"initialize"}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, `{"jsonrpc":"2.0","id":2,"method":"tools/call"}`},
			reads:  `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n",
			wants:  []string{"waiting on the server: 1 requests written have no answer:", "id 2 tools/call, written at +"},
			nots:   []string{"id 1 initialize"},
		},
		{
			name:   "answered only after the cancellation",
			writes: []string{`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"deadline"}}`},
			reads:  `{"result":{"content":[]},"jsonrpc":"2.0","id": 7 }` + "\n",
			wants:  []string{"answered late: id 7 (tools/call, written at +", "after the suite cancelled it at +", "waiting on the server: id 7 was answered only after the suite gave up on it"},
			nots:   []string{"waiting on the suite"},
		},
		{
			name:   "a cancelled request still unanswered",
			writes: []string{`{"jsonrpc":"2.0","id":"a","method":"tools/call"}`, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}`},
			wants:  []string{`id "a" tools/call, written at +`, ", cancelled at +"},
		},
		{
			name:   "every request answered",
			writes: []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
			reads:  `{"jsonrpc":"2.0","id":9,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n",
			wants:  []string{"waiting on the suite: every request written was answered"},
		},
		{
			name:   "a server's request is not an answer",
			writes: []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
			reads:  `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n",
			wants:  []string{"id 1 tools/list, written at +"},
		},
		{
			name:   "a JSON body over HTTP, on several lines",
			writes: []string{`{"jsonrpc":"2.0","id":3,"method":"tools/call"}`},
			reads:  "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 3,\n  \"result\": {}\n}",
			whole:  true,
			wants:  []string{"waiting on the suite"},
		},
		{
			name:   "an event stream over HTTP",
			writes: []string{`[{"jsonrpc":"2.0","id":4,"method":"tools/call"},{"jsonrpc":"2.0","id":5,"method":"tools/call"}]`},
			reads:  "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}\n\n",
			sse:    true,
			wants:  []string{"1 requests written have no answer:", "id 5 tools/call"},
			nots:   []string{"id 4 tools/call"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newWireLog()
			for _, w := range tt.writes {
				l.wrote([]byte(w + "\n"))
			}
			r := &wireReader{r: strings.NewReader(tt.reads), log: l, whole: tt.whole, events: tt.sse}
			if _, err := io.Copy(io.Discard, r); err != nil {
				t.Fatal(err)
			}
			got := l.String()
			for _, want := range tt.wants {
				if !strings.Contains(got, want) {
					t.Errorf("report lacks %q:\n%s", want, got)
				}
			}
			for _, not := range tt.nots {
				if strings.Contains(got, not) {
					t.Errorf("report has %q:\n%s", not, got)
				}
			}
		})
	}
}
