package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/conformance/mutant"
)

// SourceMutantArgs are the suite flags that judge source mutant m, built
// as the server binary bin: that binary, the mutant's filter and focus,
// and seed. The run stops at the first failed check: one is enough to
// kill the mutant.
func SourceMutantArgs(bin string, m mutant.Source, seed int64) []string {
	server := framework.ShellWord(bin)
	if m.Transport == harness.TransportHTTP {
		server += " --http " + harness.AddrPlaceholder
	}
	args := []string{"--server", server, "--seed", fmt.Sprint(seed), "--fail-fast", "--profile", framework.ProfileDesign}
	if m.Transport != "" {
		args = append(args, "--transport", m.Transport)
	}
	if m.Filter != "" {
		args = append(args, "--label-filter", m.Filter)
	}
	if m.Focus != "" {
		args = append(args, "--focus", m.Focus)
	}
	return args
}

// JudgeSource runs the suite (self) against bin, the build of source
// mutant m, with seed: the mutant is killed when the run exits 1 with at
// least one failed check. Failed lists every failed check.
func JudgeSource(ctx context.Context, self, bin string, m mutant.Source, seed int64, extra ...string) (MutantVerdict, error) {
	args := append(SourceMutantArgs(bin, m, seed), extra...)
	rep, code, out, err := runReport(ctx, self, args)
	if err != nil {
		return MutantVerdict{}, err
	}
	v := MutantVerdict{Exit: code, Output: out}
	for _, c := range rep.Checks {
		if c.State == StateFailed {
			v.Failed = append(v.Failed, c.ID)
		}
	}
	v.Killed = code == ExitFail && len(v.Failed) > 0
	return v, nil
}

// SourceBuilds builds each source mutant of the module at Root once, on
// first use, into one temporary directory; Close removes it. It is safe
// for concurrent use.
type SourceBuilds struct {
	Root string // module root the mutants are copied from

	mu    sync.Mutex
	dir   string
	built map[string]*sourceBuild
}

type sourceBuild struct {
	once sync.Once
	bin  string
	err  error
}

// Binary returns the server binary of source mutant m, building it the
// first time.
func (b *SourceBuilds) Binary(ctx context.Context, m mutant.Source) (string, error) {
	b.mu.Lock()
	if b.built == nil {
		b.built = map[string]*sourceBuild{}
	}
	if b.dir == "" {
		d, err := os.MkdirTemp("", "ombi-source-mutants-")
		if err != nil {
			b.mu.Unlock()
			return "", fmt.Errorf("build source mutant %s: %w", m.Name, err)
		}
		b.dir = d
	}
	sb := b.built[m.Name]
	if sb == nil {
		sb = &sourceBuild{}
		b.built[m.Name] = sb
	}
	dir := filepath.Join(b.dir, m.Name)
	b.mu.Unlock()
	sb.once.Do(func() { sb.bin, sb.err = m.Build(ctx, b.Root, dir) })
	return sb.bin, sb.err
}

// Close removes every build.
func (b *SourceBuilds) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dir == "" {
		return nil
	}
	err := os.RemoveAll(b.dir)
	b.dir, b.built = "", nil
	return err
}

// ConfirmKill reruns the failed checks alone, with seed and over
// transport (the mutant's: "" for stdio, or http), against the mutant's
// binary and the reference server's, and returns those that fail on the
// first and pass on the second: a whole run on a busy machine can fail a
// check by timing, and only these count as the mutant's kill. A rerun on
// another transport than the run's would skip the checks of that
// transport and drop their kills.
func ConfirmKill(ctx context.Context, self, mutantBin, refBin, transport string, failed []string, seed int64) ([]string, error) {
	var ids []string
	for _, id := range failed {
		ids = append(ids, regexp.QuoteMeta(id))
	}
	alone := mutant.Source{Name: "confirm", Focus: `\[(?:` + strings.Join(ids, "|") + `)\] `, Transport: transport}
	again, err := JudgeSource(ctx, self, mutantBin, alone, seed)
	if err != nil {
		return nil, err
	}
	ref, err := JudgeSource(ctx, self, refBin, alone, seed)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range again.Failed {
		if !slices.Contains(ref.Failed, id) {
			out = append(out, id)
		}
	}
	return out, nil
}
