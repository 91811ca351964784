package docs

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A block is one fenced block of a page.
type block struct {
	Page string // relative to the repository root
	Line int    // the line of its opening fence
	Lang string // sh, text, json, go, nginx, caddyfile
	Text string
	// Prints is, for an sh block marked prints, the text block that follows
	// it: each of its lines must appear in what the block printed.
	Prints string
	Run    runSpec // for sh blocks: how it runs, from its docs-test comment
}

// runSpec is what the comment `<!-- docs-test: ... -->` on the line before a
// shell block says about it: clauses separated by ";", or needs alone.
//
//	needs REASON       not run: it needs something a test machine lacks
//	background [ADDR]  it starts a server that stays: run it in the
//	                   background and wait for the loopback ports it names
//	                   (and ADDR, where the server listens by default)
//	exit N             it ends with status N (default 0)
//	ombi ADDR          a stand-in for the reader's own Ombi (a mockombi with
//	                   its defaults) listens on ADDR while the block runs
//	empty-dir          it runs from an empty directory (holding only the
//	                   reader's server), not from the clone
//	fresh              the servers earlier blocks left running are stopped
//	                   first (the block starts another on the same port)
//	keep-going         each command runs whatever the one before returned
//	                   (the block shows a command that fails)
//	prints             the text block that follows is what it prints: each
//	                   of its lines must appear in its output (so a figure
//	                   the page quotes is the one the tool gives)
type runSpec struct {
	Needs      string
	Background bool
	Listens    []string // background ADDR
	Exit       int
	Ombi       string
	EmptyDir   bool
	Fresh      bool
	KeepGoing  bool
	Prints     bool
}

var (
	fenceRe        = regexp.MustCompile("^```([a-z]*)\\s*$")
	directiveRe    = regexp.MustCompile(`^<!-- docs-test: (.*) -->$`)
	loopbackAddrRe = regexp.MustCompile(`^127\.0\.0\.1:\d+$`)
	knownLangs     = map[string]bool{"sh": true, "text": true, "json": true, "go": true, "nginx": true, "caddyfile": true}
)

// pages lists the documentation the tests read: README.md and docs/*.md.
func pages(t testing.TB) []string {
	t.Helper()
	ps, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../README.md"}, ps...)
}

// readBlocks returns the fenced blocks of a page.
func readBlocks(path string) ([]block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	page := strings.TrimPrefix(filepath.ToSlash(path), "../")
	if !strings.Contains(page, "/") && page != "README.md" {
		page = "docs/" + page
	}
	var (
		out       []block
		cur       *block
		prev      string
		lines     []string
		n         int
		directive string
	)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case cur == nil && fenceRe.MatchString(line):
			cur = &block{Page: page, Line: n, Lang: fenceRe.FindStringSubmatch(line)[1]}
			directive = ""
			if m := directiveRe.FindStringSubmatch(strings.TrimSpace(prev)); m != nil {
				directive = m[1]
			}
			lines = nil
		case cur != nil && strings.TrimSpace(line) == "```":
			cur.Text = strings.Join(lines, "\n") + "\n"
			spec, err := parseRunSpec(directive)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", page, cur.Line, err)
			}
			if directive != "" && cur.Lang != "sh" {
				return nil, fmt.Errorf("%s:%d: a docs-test comment on a %q block; only sh blocks run", page, cur.Line, cur.Lang)
			}
			cur.Run = spec
			if len(out) > 0 && out[len(out)-1].Run.Prints && out[len(out)-1].Prints == "" {
				if cur.Lang != "text" {
					return nil, fmt.Errorf("%s:%d: docs-test prints: the next block (line %d) is %q, want the text it prints", page, out[len(out)-1].Line, cur.Line, cur.Lang)
				}
				out[len(out)-1].Prints = cur.Text
			}
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			lines = append(lines, line)
		}
		prev = line
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: fence never closed", page, cur.Line)
	}
	if len(out) > 0 && out[len(out)-1].Run.Prints && out[len(out)-1].Prints == "" {
		return nil, fmt.Errorf("%s:%d: docs-test prints: no text block follows", page, out[len(out)-1].Line)
	}
	return out, sc.Err()
}

func parseRunSpec(s string) (runSpec, error) {
	var r runSpec
	s = strings.TrimSpace(s)
	if s == "" {
		return r, nil
	}
	if reason, ok := strings.CutPrefix(s, "needs "); ok { // the reason is the rest, semicolons and all
		r.Needs = strings.TrimSpace(reason)
		return r, nil
	}
	for _, part := range strings.Split(s, ";") {
		word, arg, _ := strings.Cut(strings.TrimSpace(part), " ")
		arg = strings.TrimSpace(arg)
		switch word {
		case "needs":
			if arg == "" {
				return r, fmt.Errorf("docs-test: needs without a reason")
			}
			r.Needs = arg
		case "background":
			r.Background = true
			if arg != "" {
				if !loopbackAddrRe.MatchString(arg) {
					return r, fmt.Errorf("docs-test: background %q: want a loopback address 127.0.0.1:PORT", arg)
				}
				r.Listens = append(r.Listens, arg)
			}
		case "exit":
			n, err := strconv.Atoi(arg)
			if err != nil || n < 0 || n > 255 {
				return r, fmt.Errorf("docs-test: exit %q: want a status 0-255", arg)
			}
			r.Exit = n
		case "ombi":
			if !loopbackAddrRe.MatchString(arg) {
				return r, fmt.Errorf("docs-test: ombi %q: want a loopback address 127.0.0.1:PORT", arg)
			}
			r.Ombi = arg
		case "empty-dir":
			r.EmptyDir = true
		case "fresh":
			r.Fresh = true
		case "keep-going":
			r.KeepGoing = true
		case "prints":
			r.Prints = true
		default:
			return r, fmt.Errorf("docs-test: unknown clause %q (want needs, background, exit, ombi, empty-dir, fresh, keep-going or prints)", word)
		}
	}
	if r.KeepGoing && (r.Exit != 0 || r.Background) {
		return r, fmt.Errorf("docs-test: keep-going takes neither exit nor background")
	}
	if r.Prints && (r.Background || r.KeepGoing || r.Exit != 0) {
		return r, fmt.Errorf("docs-test: prints takes neither background, keep-going nor exit")
	}
	if r.Needs != "" {
		return r, fmt.Errorf("docs-test: needs comes alone, first: a block that is not run takes no other clause")
	}
	return r, nil
}

// allBlocks reads every page's blocks.
func allBlocks(t testing.TB) []block {
	t.Helper()
	var out []block
	for _, p := range pages(t) {
		bs, err := readBlocks(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, bs...)
	}
	return out
}

// TestBlocks_sayWhatTheyAre: every fenced block names its language (sh for
// what a reader types, text for what a program prints), and every sh block
// is either run by make docs or says what it needs.
func TestBlocks_sayWhatTheyAre(t *testing.T) {
	var run, needs int
	for _, b := range allBlocks(t) {
		if !knownLangs[b.Lang] {
			t.Errorf("%s:%d: fenced block with language %q; want one of sh (commands), text (output), json, go, nginx, caddyfile", b.Page, b.Line, b.Lang)
			continue
		}
		if b.Lang != "sh" {
			continue
		}
		if b.Run.Needs != "" {
			needs++
			continue
		}
		run++
	}
	t.Logf("%d shell blocks run by make docs, %d marked with what they need", run, needs)
	if run == 0 {
		t.Error("no shell block is run")
	}
}

// TestParseRunSpec: the docs-test comment's clauses.
func TestParseRunSpec(t *testing.T) {
	tests := []struct {
		in      string
		want    runSpec
		wantErr bool
	}{
		{"", runSpec{}, false},
		{"needs a desktop MCP client", runSpec{Needs: "a desktop MCP client"}, false},
		{"background", runSpec{Background: true}, false},
		{"exit 1; ombi 127.0.0.1:5000", runSpec{Exit: 1, Ombi: "127.0.0.1:5000"}, false},
		{"empty-dir", runSpec{EmptyDir: true}, false},
		{"fresh; background", runSpec{Fresh: true, Background: true}, false},
		{"background 127.0.0.1:5000", runSpec{Background: true, Listens: []string{"127.0.0.1:5000"}}, false},
		{"background :5000", runSpec{}, true},
		{"keep-going", runSpec{KeepGoing: true}, false},
		{"keep-going; exit 1", runSpec{}, true},
		{"prints", runSpec{Prints: true}, false},
		{"prints; ombi 127.0.0.1:5000", runSpec{Prints: true, Ombi: "127.0.0.1:5000"}, false},
		{"prints; background", runSpec{}, true},
		{"needs", runSpec{}, true},
		{"needs x; exit 1", runSpec{Needs: "x; exit 1"}, false},
		{"exit 1; needs x", runSpec{}, true},
		{"exit two", runSpec{}, true},
		{"ombi media.example:5000", runSpec{}, true},
		{"skip", runSpec{}, true},
	}
	for _, tt := range tests {
		got, err := parseRunSpec(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("parseRunSpec(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if err == nil && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseRunSpec(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}
