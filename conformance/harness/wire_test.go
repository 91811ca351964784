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
		l.wrote([]byte(fmt.Sprintf(`{"id":%d,"method":"m%d"}`+"\n", i, i)), nil)
	}
	l.wrote([]byte(`{"id":12}`+"\n"), errors.New("broken pipe"))
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
