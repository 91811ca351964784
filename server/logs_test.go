package server

import (
	"bufio"
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

func TestReadLogs_listThenReadIsSanitisedAndBounded(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	list := decodeData[logsResult](t, e.h.call(t, "read_logs", map[string]any{"action": "list"}))
	if len(list.Files) == 0 {
		t.Fatal("no log files listed")
	}
	canaries := canaryValues(e.m)
	for _, f := range list.Files {
		r, calls := e.do(t, "read_logs", map[string]any{"action": "read", "file_id": f.FileID, "lines": map[string]any{"limit": 500}})
		wantRoutes(t, calls, "GET /api/v2/System/logs", "GET /api/v2/System/logs/"+url.PathEscape(f.Name))
		got := decodeData[logsResult](t, r)
		if len(got.Lines) == 0 || len(got.Lines) > 500 {
			t.Errorf("%s: %d lines", f.Name, len(got.Lines))
		}
		for _, c := range canaries {
			if strings.Contains(string(r.raw), c) {
				t.Errorf("%s: output carries canary %s", f.Name, c)
			}
		}
	}
	r, _ := e.do(t, "read_logs", map[string]any{"action": "read", "file_id": list.Files[0].FileID, "lines": map[string]any{"offset": 10, "limit": 20}})
	w := decodeData[logsResult](t, r)
	if len(w.Lines) != 20 || w.NextOffset == nil || *w.NextOffset != 30 || !w.Truncated {
		t.Errorf("window 10+20: %d lines, next %v, truncated %v", len(w.Lines), w.NextOffset, w.Truncated)
	}
}

func TestReadLogs_largeFileIsStreamed(t *testing.T) {
	m := startMock(t, mockombi.Options{DataSet: "large"})
	h := newHarness(t, m, allBundles(jwtOptions(t, m)))
	list := decodeData[logsResult](t, h.call(t, "read_logs", map[string]any{"action": "list"}))
	if len(list.Files) == 0 {
		t.Fatal("no log files listed")
	}
	r := h.call(t, "read_logs", map[string]any{"action": "read", "file_id": list.Files[0].FileID, "lines": map[string]any{"offset": 99990, "limit": 500}})
	w := decodeData[logsResult](t, r)
	if len(w.Lines) != 10 || w.NextOffset != nil || w.Truncated {
		t.Errorf("the last window of a 100,000-line file: %d lines, next %v, truncated %v", len(w.Lines), w.NextOffset, w.Truncated)
	}
}

func TestSanitizeLogLine(t *testing.T) {
	tests := []struct {
		in      string
		gone    []string
		keep    string
		secrets []string
	}{
		{"Connection string: Server=db;User=ombi;Password=hunter2-xyz", []string{"hunter2-xyz"}, "Server=db", nil},
		{"GET https://plex.example.org:32400/lib?X-Plex-Token=abcDEF123", []string{"abcDEF123"}, "plex.example.org", nil},
		{"with header X-Api-Key: 0123456789abcdef0123456789abcdef", []string{"0123456789abcdef0123456789abcdef"}, "with header", nil},
		{"Authorization: Bearer eyJhbGciOi.eyJzdWIiOiIx.sig", []string{"eyJhbGciOi"}, "Authorization", nil},
		{"Authorization: Bearer opaque-tok-42 sent", []string{"opaque-tok-42"}, "sent", nil},
		{"authorization=Basic dXNlcjpwdw== sent", []string{"dXNlcjpwdw=="}, "sent", nil},
		{"proxy http://bob:pw@host:3128 failed", []string{"bob:pw@"}, "failed", nil},
		{"configured key k-777777 appears", []string{"k-777777"}, "appears", []string{"k-777777"}},
		{"tab\there\x1b[31m red", []string{"\t", "\x1b"}, "here", nil},
	}
	for _, tt := range tests {
		got := sanitizeLogLine(tt.in, tt.secrets)
		for _, g := range tt.gone {
			if strings.Contains(got, g) {
				t.Errorf("sanitizeLogLine(%q) = %q still holds %q", tt.in, got, g)
			}
		}
		if !strings.Contains(got, tt.keep) {
			t.Errorf("sanitizeLogLine(%q) = %q lost %q", tt.in, got, tt.keep)
		}
	}
	if n := len([]rune(sanitizeLogLine(strings.Repeat("a ", 3000), nil))); n > maxLogLineRunes {
		t.Errorf("a long line kept %d runes", n)
	}
}

func TestLogNamesAndIDs(t *testing.T) {
	tests := []struct {
		raw  string
		want []string
	}{
		{`["log20261129.txt","log20261128.txt"]`, []string{"log20261129.txt", "log20261128.txt"}},
		{`{"files":["a.txt"]}`, []string{"a.txt"}},
		{`[{"name":"b.txt"},{"fileName":"c.log"}]`, []string{"b.txt", "c.log"}},
		{`null`, nil},
	}
	for _, tt := range tests {
		got, err := logNames(json.RawMessage(tt.raw))
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("logNames(%s) = %v, %v; want %v", tt.raw, got, err, tt.want)
		}
	}
	for name, ok := range map[string]bool{"log20261129.txt": true, "../etc/passwd": false, "a/b.txt": false, ".hidden.txt": false, "x..txt": false, "app.exe": false} {
		if vettedLogName(name) != ok {
			t.Errorf("vettedLogName(%q) = %v", name, !ok)
		}
	}
	id := logFileID("log20261129.txt")
	if id != logFileID("log20261129.txt") || id == logFileID("log20261128.txt") || strings.Contains(id, "2026") {
		t.Errorf("logFileID is not a stable opaque id: %s", id)
	}
}

func TestScanWindow(t *testing.T) {
	text := "l0\r\nl1\nl2\n" + strings.Repeat("x", 10000) + "\nl4"
	tests := []struct {
		offset, limit int
		want          []string
		more          bool
	}{
		{0, 2, []string{"l0", "l1"}, true},
		{1, 2, []string{"l1", "l2"}, true},
		{4, 10, []string{"l4"}, false},
		{9, 10, nil, false},
	}
	for _, tt := range tests {
		w, err := ombi.ScanWindow(bufio.NewReaderSize(strings.NewReader(text), 16), "op", tt.offset, tt.limit)
		if err != nil || !reflect.DeepEqual(w.Lines, tt.want) || w.More != tt.more {
			t.Errorf("scanWindow(%d,%d) = %q more=%v err=%v; want %q more=%v", tt.offset, tt.limit, w.Lines, w.More, err, tt.want, tt.more)
		}
	}
	w, _ := ombi.ScanWindow(bufio.NewReaderSize(strings.NewReader(text), 16), "op", 3, 1)
	if len(w.Lines) != 1 || len(w.Lines[0]) != 4<<10 {
		t.Errorf("a 10,000 byte line kept %d bytes, want %d", len(w.Lines[0]), 4<<10)
	}
}
