package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// The coverage run: the reference server built with -cover runs under the
// suite, the checks split into groups (the checks of each tool, and the
// checks of no tool), each group in its own run of the suite with its own
// GOCOVERDIR, once over stdio and once over Streamable HTTP (--transport
// http). A mutant changes one operator; a group whose servers never
// executed the block holding it sees the reference server's behaviour, so
// a mutant is judged by the groups that executed its block only (see
// plan), and a site no group executed over either transport is not
// covered: a survivor, without a build or a run.

// group is one share of the checks: a tool's checks, or those of no tool.
type group struct {
	Name   string // the tool, or noTool
	Filter string // its --label-filter
}

// noTool names the group of the checks that judge no tool.
const noTool = "(no tool)"

// groups is every tool's group and the group of no tool, in that order.
func groups() []group {
	var out []group
	for _, t := range spec.ToolNames() {
		out = append(out, group{Name: t, Filter: "/^" + framework.ToolLabelPrefix + regexp.QuoteMeta(t) + "$/"})
	}
	return append(out, group{Name: noTool, Filter: "!/^" + framework.ToolLabelPrefix + "/"})
}

// filterOf is the label filter that selects every check of gs.
func filterOf(gs []group) string {
	terms := make([]string, len(gs))
	for i, g := range gs {
		terms[i] = "(" + g.Filter + ")"
	}
	return strings.Join(terms, " || ")
}

// block is one block of a coverage profile: its file (relative to the
// module root), its range from start (inclusive) to end (exclusive), as
// line and byte column, and whether it ran.
type block struct {
	File                string
	StartLine, StartCol int
	EndLine, EndCol     int
	Hit                 bool
}

// profileLine is a line of `go tool covdata textfmt`:
// import/path/file.go:SL.SC,EL.EC STATEMENTS COUNT.
var profileLine = regexp.MustCompile(`^(.+):(\d+)\.(\d+),(\d+)\.(\d+) \d+ (\d+)$`)

// parseProfile reads a text coverage profile and keeps the blocks of the
// files under module (the module path), named relative to its root.
func parseProfile(r io.Reader, module string) ([]block, error) {
	var out []block
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 && strings.HasPrefix(line, "mode: ") {
			continue
		}
		m := profileLine.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("coverage profile line %d: %q is not FILE:SL.SC,EL.EC N COUNT", n, line)
		}
		rel, ok := strings.CutPrefix(m[1], module+"/")
		if !ok {
			continue
		}
		var v [5]int
		for i := range v {
			v[i], _ = strconv.Atoi(m[2+i]) // the pattern admits digits only
		}
		out = append(out, block{File: rel, StartLine: v[0], StartCol: v[1], EndLine: v[2], EndCol: v[3], Hit: v[4] > 0})
	}
	return out, sc.Err()
}

// reach says what a profile knows of a position.
type reach int

const (
	unknown reach = iota // in no block (a package-level initialiser, say): it must be judged
	notRun               // in blocks none of which ran
	ran                  // in a block that ran
)

// reached is what blocks say of the position line:col of file.
func reached(blocks []block, file string, line, col int) reach {
	r := unknown
	for _, b := range blocks {
		if b.File != file || !inside(b, line, col) {
			continue
		}
		if b.Hit {
			return ran
		}
		r = notRun
	}
	return r
}

func inside(b block, line, col int) bool {
	after := line > b.StartLine || line == b.StartLine && col >= b.StartCol
	before := line < b.EndLine || line == b.EndLine && col < b.EndCol
	return after && before
}

// position is the line and byte column (1-based) of byte offset at of
// src.
func position(src []byte, at int) (line, col int) {
	line, col = 1, 1
	for _, c := range src[:at] {
		if c == '\n' {
			line, col = line+1, 1
			continue
		}
		col++
	}
	return line, col
}

// coverage is what the coverage run found: the blocks of each group, over
// each transport.
type coverage struct {
	groups []group
	blocks map[string][]block // over stdio, by group name
	http   map[string][]block // over Streamable HTTP, by group name
	took   time.Duration
}

// transports are the transports of the coverage run, stdio first.
var transports = []string{harness.TransportStdio, harness.TransportHTTP}

// plan is how one mutant is judged: over which transport, and by which
// groups of checks.
type plan struct {
	Transport string  // harness.TransportStdio or harness.TransportHTTP
	Groups    []group // none: not covered
	Every     bool    // every group: the run has no label filter
}

// plan decides how the mutant whose operator is at line:col of file is
// judged. By the groups whose servers executed its block over stdio, over
// stdio (every mutant stdio reaches is judged as before, and a stdio run
// is the cheaper); when no stdio run did, by the groups whose servers
// executed it over Streamable HTTP, over HTTP: a site only that transport
// reaches (the HTTP endpoint's handler, start-up and shutdown) is judged
// by the checks that reach it there. A site in no block of either run (a
// package-level initialiser, say) is judged by every group over stdio; a
// site in blocks no run executed is not covered.
func (c *coverage) plan(file string, line, col int) plan {
	gs, known := reachingIn(c.groups, c.blocks, file, line, col)
	if len(gs) > 0 {
		return plan{Transport: harness.TransportStdio, Groups: gs, Every: len(gs) == len(c.groups)}
	}
	hs, hknown := reachingIn(c.groups, c.http, file, line, col)
	switch {
	case len(hs) > 0:
		return plan{Transport: harness.TransportHTTP, Groups: hs, Every: len(hs) == len(c.groups)}
	case !known && !hknown:
		return plan{Transport: harness.TransportStdio, Groups: c.groups, Every: true}
	}
	return plan{Transport: harness.TransportStdio}
}

// measureCoverage builds the reference server with coverage of server/,
// runs every group of checks against it over each transport (jobs at
// once, each run with --parallel parallel) with its own GOCOVERDIR under
// tmp, and reads each group's blocks.
func measureCoverage(ctx context.Context, root, module, tmp, cli string, jobs, parallel int) (*coverage, error) {
	start := time.Now()
	bin := filepath.Join(tmp, "ombi-mcp-cover")
	cmd := exec.CommandContext(ctx, "go", "build", "-cover", "-coverpkg=./server/...,./cmd/ombi-mcp", "-o", bin, "./cmd/ombi-mcp")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build -cover ./cmd/ombi-mcp: %v\n%s", err, out)
	}
	cov := &coverage{groups: groups(), blocks: map[string][]block{}, http: map[string][]block{}}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		errs []string
	)
	sem := make(chan struct{}, max(jobs, 1))
	for _, transport := range transports {
		into := cov.blocks
		if transport == harness.TransportHTTP {
			into = cov.http
		}
		for i, g := range cov.groups {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				dir := filepath.Join(tmp, "cover", transport, strconv.Itoa(i))
				bs, err := groupCoverage(ctx, cli, bin, dir, module, g, transport, parallel)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, err.Error())
					return
				}
				into[g.Name] = bs
			}()
		}
	}
	wg.Wait()
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("coverage run: %s", strings.Join(errs, "; "))
	}
	cov.took = time.Since(start)
	return cov, nil
}

// groupCoverage runs group g of the suite over transport against the
// covered server bin with GOCOVERDIR dir, and reads the blocks its servers
// executed. A server over HTTP writes its counters when SIGTERM ends it
// cleanly, as the suite stops it.
func groupCoverage(ctx context.Context, cli, bin, dir, module string, g group, transport string, parallel int) ([]block, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, cli, groupArgs(bin, g, transport, parallel)...)
	cmd.Env = append(os.Environ(), "GOCOVERDIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		// a failed check on the reference server does not make its
		// coverage wrong; a run that judged nothing does
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			return nil, fmt.Errorf("group %s over %s: %v\n%s", g.Name, transport, err, lastLines(string(out), 5))
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return nil, nil // no server started: the group executed nothing
	}
	text := dir + ".txt"
	tf := exec.CommandContext(ctx, "go", "tool", "covdata", "textfmt", "-i="+dir, "-o="+text)
	if out, err := tf.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("group %s: go tool covdata textfmt: %v\n%s", g.Name, err, out)
	}
	f, err := os.Open(text)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	bs, err := parseProfile(f, module)
	if err != nil {
		return nil, fmt.Errorf("group %s over %s: %w", g.Name, transport, err)
	}
	return bs, nil
}

// groupArgs are the suite flags of group g's coverage run over transport
// against the covered server bin.
func groupArgs(bin string, g group, transport string, parallel int) []string {
	server := framework.ShellWord(bin)
	if transport == harness.TransportHTTP {
		server += " --http " + harness.AddrPlaceholder
	}
	return []string{"--server", server, "--transport", transport, "--seed", strconv.Itoa(suiteSeed),
		"--profile", framework.ProfileDesign, "--label-filter", g.Filter, "--parallel", strconv.Itoa(parallel), "--quiet"}
}

// reachingIn is the groups of gs whose servers executed the block of
// line:col in file by blocks (a group's blocks over one transport), and
// whether any block holds it at all.
func reachingIn(gs []group, blocks map[string][]block, file string, line, col int) (out []group, known bool) {
	for _, g := range gs {
		switch reached(blocks[g.Name], file, line, col) {
		case ran:
			out = append(out, g)
			known = true
		case notRun:
			known = true
		}
	}
	return out, known
}

// moduleOf is the module path go.mod at root declares.
func moduleOf(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			return strings.TrimSpace(m), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", filepath.Join(root, "go.mod"))
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], "\n")
}
