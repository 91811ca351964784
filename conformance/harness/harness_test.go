package harness

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr bool
	}{
		{"plain", "ombi-mcp --flag x", []string{"ombi-mcp", "--flag", "x"}, false},
		{"extra blanks", "  a \t b  ", []string{"a", "b"}, false},
		{"single quotes", "run 'a b' c", []string{"run", "a b", "c"}, false},
		{"double quotes with escape", `run "a \"b\"" c`, []string{"run", `a "b"`, "c"}, false},
		{"backslash space", `my\ server`, []string{"my server"}, false},
		{"empty quoted arg", `cmd ''`, []string{"cmd", ""}, false},
		{"unterminated", `cmd 'x`, nil, true},
		{"empty", "   ", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SplitCommand(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("SplitCommand(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SplitCommand(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestTarget_String_roundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   []string
	}{
		{"plain", []string{"ombi-mcp"}},
		{"spaces and quotes", []string{"/opt/my server/bin", "--name", "it's", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SplitCommand(Target{Command: tt.in}.String())
			if err != nil || !reflect.DeepEqual(got, tt.in) {
				t.Errorf("SplitCommand(Target.String()) = %q, %v; want %q", got, err, tt.in)
			}
		})
	}
}

func TestTailBuffer(t *testing.T) {
	b := &TailBuffer{Max: 10}
	for _, s := range []string{"line1\n", "line2\n", "line3\n"} {
		if _, err := b.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.String(); got != "ne2\nline3\n" {
		t.Errorf("String() = %q, want the last 10 bytes", got)
	}
	if b.Total() != 18 {
		t.Errorf("Total() = %d, want 18", b.Total())
	}
	if got := b.Tail(1); got != "line3" {
		t.Errorf("Tail(1) = %q, want line3", got)
	}
	if got := (&TailBuffer{}).Tail(3); got != "(empty)" {
		t.Errorf("empty Tail = %q", got)
	}
}

func TestHarnessError_namesWhatWasAwaited(t *testing.T) {
	e := &HarnessError{Action: "await initialize response", Err: errTest("no answer within 2s"), Stderr: "boom\nbang"}
	for _, want := range []string{"await initialize response", "no answer within 2s", "  | boom", "  | bang"} {
		if !strings.Contains(e.Error(), want) {
			t.Errorf("error %q lacks %q", e.Error(), want)
		}
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }

func TestSameJSON(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{"key order", `{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1}`, true},
		{"number form", `{"a":1}`, `{"a":1.0}`, true},
		{"array order", `[1,2]`, `[2,1]`, false},
		{"not json", `{}`, `nope`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SameJSON([]byte(tt.a), []byte(tt.b)); got != tt.want {
				t.Errorf("SameJSON(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

// TestUpstream_since: a call's journal is the calls recorded after its
// mark, whatever came before; no call gives an empty journal, a clear in
// between every call kept, and a live upstream none.
func TestUpstream_since(t *testing.T) {
	up, err := StartMock(mockombi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	get := func(path string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, up.URL()+path, nil)
		req.Header.Set("ApiKey", up.Credentials().APIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	paths := func(calls []mockombi.Call) []string {
		out := []string{}
		for _, c := range calls {
			out = append(out, c.Path)
		}
		return out
	}
	get("/api/v1/Status")
	m := up.mark()
	if got := up.since(m); got == nil || len(got) != 0 {
		t.Errorf("no call since the mark: got %v, want an empty journal", got)
	}
	get("/api/v1/Search/movie/a")
	get("/api/v1/Search/movie/b")
	if got, want := paths(up.since(m)), []string{"/api/v1/Search/movie/a", "/api/v1/Search/movie/b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("since the mark: %v, want %v", got, want)
	}
	if all := up.Journal(); len(all) != 3 {
		t.Errorf("the journal has %d calls, want 3", len(all))
	}
	m = up.mark()
	if err := up.ClearJournal(); err != nil {
		t.Fatal(err)
	}
	get("/api/v1/Search/movie/c")
	if got, want := paths(up.since(m)), []string{"/api/v1/Search/movie/c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("since a mark before a clear: %v, want %v", got, want)
	}
	live := Live("http://127.0.0.1:0", Credentials{})
	if got := live.since(live.mark()); got != nil {
		t.Errorf("live: %v, want nil", got)
	}
}
