package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
)

// TestReached: a site is reached when a block that ran holds its line and
// column (start inclusive, end exclusive), not reached when only blocks
// that did not run hold it, and unknown when no block of its file does.
func TestReached(t *testing.T) {
	const profile = `mode: set
example.com/m/server/a.go:10.20,12.3 2 1
example.com/m/server/a.go:12.3,14.10 1 0
example.com/m/server/a.go:20.1,20.40 1 0
example.com/m/server/b.go:5.1,9.2 3 1
example.com/other/server/a.go:1.1,100.1 9 1
`
	blocks, err := parseProfile(strings.NewReader(profile), "example.com/m")
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 4 {
		t.Fatalf("kept %d blocks of the module, want 4: %+v", len(blocks), blocks)
	}
	for _, c := range []struct {
		name      string
		file      string
		line, col int
		want      reach
	}{
		{"at a ran block's start", "server/a.go", 10, 20, ran},
		{"inside a ran block, first line", "server/a.go", 10, 80, ran},
		{"inside a ran block, middle line", "server/a.go", 11, 1, ran},
		{"last byte of a ran block", "server/a.go", 12, 2, ran},
		{"a ran block's end is the next block's start", "server/a.go", 12, 3, notRun},
		{"inside a block that did not run", "server/a.go", 13, 5, notRun},
		{"past the end of the last block of a line", "server/a.go", 14, 10, unknown},
		{"before the first block", "server/a.go", 10, 19, unknown},
		{"a one-line block that did not run", "server/a.go", 20, 39, notRun},
		{"between blocks", "server/a.go", 17, 1, unknown},
		{"another file's block", "server/b.go", 7, 100, ran},
		{"another module's file of the same name", "server/c.go", 50, 1, unknown},
	} {
		if got := reached(blocks, c.file, c.line, c.col); got != c.want {
			t.Errorf("%s: %s:%d:%d is %d, want %d", c.name, c.file, c.line, c.col, got, c.want)
		}
	}
}

// TestParseProfile_malformed: a line that is not a block is an error.
func TestParseProfile_malformed(t *testing.T) {
	if _, err := parseProfile(strings.NewReader("mode: set\nexample.com/m/a.go:1.1,2 1 1\n"), "example.com/m"); err == nil {
		t.Fatal("a block without an end column parsed")
	}
}

// TestPosition: the line and byte column of an offset, 1-based, bytes
// not runes.
func TestPosition(t *testing.T) {
	src := []byte("ab\n\tx < y\né z\n")
	for _, c := range []struct {
		at, line, col int
	}{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {6, 2, 4}, {13, 3, 4},
	} {
		if l, col := position(src, c.at); l != c.line || col != c.col {
			t.Errorf("offset %d is %d:%d, want %d:%d", c.at, l, col, c.line, c.col)
		}
	}
}

// TestGroups: the groups together select every check, one per tool and
// one for the checks of no tool, and their filter is the union.
func TestGroups(t *testing.T) {
	gs := groups()
	if gs[len(gs)-1].Name != noTool || !strings.HasPrefix(gs[len(gs)-1].Filter, "!") {
		t.Fatalf("the last group is %+v, want the checks of no tool", gs[len(gs)-1])
	}
	if got := filterOf(gs[:2]); got != "("+gs[0].Filter+") || ("+gs[1].Filter+")" {
		t.Fatalf("filter of two groups: %s", got)
	}
}

// TestPlan: a site a stdio run reaches is judged over stdio by the groups
// that reached it; one only Streamable HTTP runs reach is judged over HTTP
// by those groups; one in no block of either run by every group over
// stdio; one in blocks no run executed is not covered.
func TestPlan(t *testing.T) {
	gs := []group{{Name: "read_search", Filter: "a"}, {Name: "read_logs", Filter: "b"}, {Name: noTool, Filter: "c"}}
	hit := func(line int) block {
		return block{File: "server/x.go", StartLine: line, StartCol: 1, EndLine: line, EndCol: 80, Hit: true}
	}
	miss := func(line int) block {
		return block{File: "server/x.go", StartLine: line, StartCol: 1, EndLine: line, EndCol: 80}
	}
	// line 1: stdio reaches it by read_search, HTTP by every group;
	// line 2: only HTTP reaches it, by the checks of no tool;
	// line 3: every group over both transports;
	// line 4: no run executes it; line 5: in no block
	c := &coverage{groups: gs,
		blocks: map[string][]block{
			"read_search": {hit(1), miss(2), hit(3), miss(4)},
			"read_logs":   {miss(1), miss(2), hit(3), miss(4)},
			noTool:        {miss(1), miss(2), hit(3), miss(4)},
		},
		http: map[string][]block{
			"read_search": {hit(1), miss(2), hit(3), miss(4)},
			"read_logs":   {hit(1), miss(2), hit(3), miss(4)},
			noTool:        {hit(1), hit(2), hit(3), miss(4)},
		},
	}
	stdioOnly := &coverage{groups: gs, blocks: c.blocks} // a coverage run without HTTP
	for _, tc := range []struct {
		name      string
		cov       *coverage
		line      int
		transport string
		groups    []string
		every     bool
	}{
		{"stdio reaches it: stdio, its groups, though HTTP reaches more", c, 1, harness.TransportStdio, []string{"read_search"}, false},
		{"only HTTP reaches it: HTTP, its groups", c, 2, harness.TransportHTTP, []string{noTool}, false},
		{"every group over stdio", c, 3, harness.TransportStdio, []string{"read_search", "read_logs", noTool}, true},
		{"no run executes it: not covered", c, 4, harness.TransportStdio, nil, false},
		{"in no block: every group over stdio", c, 5, harness.TransportStdio, []string{"read_search", "read_logs", noTool}, true},
		{"without an HTTP run, a site only HTTP reaches is not covered", stdioOnly, 2, harness.TransportStdio, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.cov.plan("server/x.go", tc.line, 10)
			var names []string
			for _, g := range p.Groups {
				names = append(names, g.Name)
			}
			if p.Transport != tc.transport || !slices.Equal(names, tc.groups) || p.Every != tc.every {
				t.Fatalf("plan of line %d: %s by %v (every %v), want %s by %v (every %v)", tc.line, p.Transport, names, p.Every, tc.transport, tc.groups, tc.every)
			}
		})
	}
}

// TestGroupArgs: a group's coverage run over HTTP starts the server with
// --http {addr} and says --transport http; over stdio it starts it bare.
func TestGroupArgs(t *testing.T) {
	g := group{Name: "read_search", Filter: "/^tool:read_search$/"}
	for _, tc := range []struct {
		transport, server string
	}{
		{harness.TransportStdio, "/bin/ombi-mcp"},
		{harness.TransportHTTP, "/bin/ombi-mcp --http " + harness.AddrPlaceholder},
	} {
		args := groupArgs("/bin/ombi-mcp", g, tc.transport, 1)
		if i := slices.Index(args, "--server"); i < 0 || args[i+1] != tc.server {
			t.Errorf("%s: --server is not %q: %q", tc.transport, tc.server, args)
		}
		if i := slices.Index(args, "--transport"); i < 0 || args[i+1] != tc.transport {
			t.Errorf("%s: --transport is not %s: %q", tc.transport, tc.transport, args)
		}
		if i := slices.Index(args, "--label-filter"); i < 0 || args[i+1] != g.Filter {
			t.Errorf("%s: --label-filter is not the group's: %q", tc.transport, args)
		}
	}
}
