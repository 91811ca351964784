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
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// The coverage run: the reference server built with -cover runs under the
// suite once, the checks split into groups (the checks of each tool, and
// the checks of no tool), each group in its own run of the suite with its
// own GOCOVERDIR. A mutant changes one operator; a group whose servers
// never executed the block holding it sees the reference server's
// behaviour, so a mutant is judged by the groups that executed its block
// only, and a site no group executed is not covered: a survivor, without
// a build or a run.

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

// coverage is what the coverage run found: the blocks of each group.
type coverage struct {
	groups []group
	blocks map[string][]block // by group name
	took   time.Duration
}

// measureCoverage builds the reference server with coverage of server/,
// runs every group of checks against it (jobs at once, each run with
// --parallel parallel) with its own GOCOVERDIR under tmp, and reads each
// group's blocks.
func measureCoverage(ctx context.Context, root, module, tmp, cli string, jobs, parallel int) (*coverage, error) {
	start := time.Now()
	bin := filepath.Join(tmp, "ombi-mcp-cover")
	cmd := exec.CommandContext(ctx, "go", "build", "-cover", "-coverpkg=./server/...,./cmd/ombi-mcp", "-o", bin, "./cmd/ombi-mcp")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build -cover ./cmd/ombi-mcp: %v\n%s", err, out)
	}
	cov := &coverage{groups: groups(), blocks: map[string][]block{}}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		errs []string
	)
	sem := make(chan struct{}, max(jobs, 1))
	for i, g := range cov.groups {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			dir := filepath.Join(tmp, "cover", strconv.Itoa(i))
			bs, err := groupCoverage(ctx, cli, bin, dir, module, g, parallel)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err.Error())
				return
			}
			cov.blocks[g.Name] = bs
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("coverage run: %s", strings.Join(errs, "; "))
	}
	cov.took = time.Since(start)
	return cov, nil
}

// groupCoverage runs group g of the suite against the covered server bin
// with GOCOVERDIR dir, and reads the blocks its servers executed.
func groupCoverage(ctx context.Context, cli, bin, dir, module string, g group, parallel int) ([]block, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, cli, "--server", framework.ShellWord(bin), "--seed", strconv.Itoa(suiteSeed),
		"--profile", framework.ProfileDesign, "--label-filter", g.Filter, "--parallel", strconv.Itoa(parallel), "--quiet")
	cmd.Env = append(os.Environ(), "GOCOVERDIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		// a failed check on the reference server does not make its
		// coverage wrong; a run that judged nothing does
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			return nil, fmt.Errorf("group %s: %v\n%s", g.Name, err, lastLines(string(out), 5))
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
		return nil, fmt.Errorf("group %s: %w", g.Name, err)
	}
	return bs, nil
}

// reaching is the groups whose servers executed the block of line:col in
// file, and whether any block holds it at all (false: judge it by every
// group).
func (c *coverage) reaching(file string, line, col int) (gs []group, known bool) {
	for _, g := range c.groups {
		switch reached(c.blocks[g.Name], file, line, col) {
		case ran:
			gs = append(gs, g)
			known = true
		case notRun:
			known = true
		}
	}
	return gs, known
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
