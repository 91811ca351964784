// Command mutation measures the suite on bugs nobody chose: it lists every
// operator of the reference server's code that can be swapped for its
// neighbour (package mutant, OperatorSites), draws a seeded sample, builds
// each mutant and judges it with the whole suite (every area, profile
// design, a fixed seed, --fail-fast). A kill counts only when the failed
// checks fail again alone on the mutant and pass alone on the reference
// server. It prints the kill score per package and every survivor with its
// change, and exits 0: it measures, it does not gate (make mutation).
//
//	go run ./conformance/internal/mutation -sample 20 -seed 1
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance"
	"github.com/ombi-mcp/ombi-mcp/conformance/mutant"
)

// suiteSeed is the seed every judging run uses, so a verdict replays.
const suiteSeed = 20261203

func main() {
	sample := flag.Int("sample", 20, "how many operator sites to draw")
	seed := flag.Uint64("seed", 1, "the seed of the draw")
	jobs := flag.Int("jobs", 2, "mutants judged at once")
	flag.Parse()
	if err := run(context.Background(), *sample, *seed, *jobs); err != nil {
		fmt.Fprintln(os.Stderr, "mutation:", err)
		os.Exit(2)
	}
}

type verdict struct {
	m        mutant.Source
	pkg      string
	state    string // killed, survived, not-viable
	by       []string
	note     string
	duration time.Duration
}

func run(ctx context.Context, sample int, seed uint64, jobs int) error {
	root, err := mutant.ModuleRoot(".")
	if err != nil {
		return err
	}
	sites, err := mutant.OperatorSites(root)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "ombi-mutation-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cli, ref := filepath.Join(tmp, "ombi-conformance"), filepath.Join(tmp, "ombi-mcp")
	for bin, pkg := range map[string]string{cli: "./cmd/ombi-conformance", ref: "./cmd/ombi-mcp"} {
		cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	ms := mutant.SampleOperators(sites, sample, seed)
	fmt.Printf("operator mutation: %d sites in server/, %d drawn with seed %d, judged with suite seed %d\n", len(sites), len(ms), seed, suiteSeed)
	builds := &conformance.SourceBuilds{Root: root}
	defer builds.Close()

	var (
		mu  sync.Mutex
		out []verdict
		wg  sync.WaitGroup
	)
	sem := make(chan struct{}, max(jobs, 1))
	for _, m := range ms {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			v := judge(ctx, builds, cli, ref, m)
			mu.Lock()
			out = append(out, v)
			fmt.Printf("  %-10s %s: %s%s\n", v.state, m.Name, m.Description, detail(v))
			mu.Unlock()
		}()
	}
	wg.Wait()
	report(out)
	return nil
}

func judge(ctx context.Context, builds *conformance.SourceBuilds, cli, ref string, m mutant.Source) verdict {
	start := time.Now()
	v := verdict{m: m, pkg: filepath.ToSlash(filepath.Dir(m.File))}
	bin, err := builds.Binary(ctx, m)
	if err != nil {
		v.state, v.duration = "not-viable", time.Since(start)
		return v
	}
	r, err := conformance.JudgeSource(ctx, cli, bin, m, suiteSeed)
	switch {
	case err != nil:
		v.state, v.note, v.duration = "survived", "the judge did not run: "+err.Error(), time.Since(start)
		return v
	case r.Exit == conformance.ExitHarness:
		// the server did not start or broke its session: any run of the
		// suite stops on it (the reference server passes the same run)
		v.state, v.by, v.duration = "killed", []string{"harness error"}, time.Since(start)
		return v
	case !r.Killed:
		v.state, v.note, v.duration = "survived", fmt.Sprintf("exit %d, no check failed", r.Exit), time.Since(start)
		return v
	}
	// a whole run on a busy machine can fail a check by timing: the kill
	// counts for the checks that fail alone on the mutant and pass alone
	// on the reference server
	if by, err := conformance.ConfirmKill(ctx, cli, bin, ref, "", r.Failed, suiteSeed); err == nil {
		v.by = by
	}
	v.state, v.note = "survived", "the failed checks did not fail alone on the mutant, or failed on the reference server too: "+strings.Join(r.Failed, ", ")
	if len(v.by) > 0 {
		v.state = "killed"
	}
	v.duration = time.Since(start)
	return v
}

func report(out []verdict) {
	sort.Slice(out, func(i, j int) bool { return out[i].m.Name < out[j].m.Name })
	type score struct{ killed, viable, notViable int }
	per := map[string]*score{}
	var pkgs []string
	for _, v := range out {
		s := per[v.pkg]
		if s == nil {
			s = &score{}
			per[v.pkg] = s
			pkgs = append(pkgs, v.pkg)
		}
		switch v.state {
		case "not-viable":
			s.notViable++
		case "killed":
			s.killed++
			s.viable++
		default:
			s.viable++
		}
	}
	sort.Strings(pkgs)
	var all score
	fmt.Println("kill score per package (not-viable mutants do not compile and do not count):")
	for _, p := range pkgs {
		s := per[p]
		fmt.Printf("  %-24s %d/%d killed (%s), %d not viable\n", p, s.killed, s.viable, pct(s.killed, s.viable), s.notViable)
		all.killed += s.killed
		all.viable += s.viable
		all.notViable += s.notViable
	}
	fmt.Printf("  %-24s %d/%d killed (%s), %d not viable\n", "all", all.killed, all.viable, pct(all.killed, all.viable), all.notViable)
	fmt.Println("survivors:")
	n := 0
	for _, v := range out {
		if v.state == "survived" {
			n++
			fmt.Printf("  %s: %s%s\n", v.m.Name, v.m.Description, detail(v))
		}
	}
	if n == 0 {
		fmt.Println("  none")
	}
}

func detail(v verdict) string {
	switch {
	case len(v.by) > 0:
		return " (by " + strings.Join(v.by, ", ") + ")"
	case v.note != "":
		return " (" + v.note + ")"
	}
	return ""
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}
