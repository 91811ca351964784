package main

import (
	"strings"
	"testing"
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
