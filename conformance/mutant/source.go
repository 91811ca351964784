package mutant

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Source is a source-level mutant of the reference server: one realistic
// bug, planted as an exact text replacement in a file under server/, that
// breaks one design rule. It is data: the runner copies the module, applies
// the replacement, builds ./cmd/ombi-mcp and runs the suite against that
// binary with Filter and Focus; the mutant is killed when the run exits 1
// with at least one failed check.
type Source struct {
	Name        string
	Domain      string // one of Domains
	Clause      string // the clause id of the rule the bug breaks
	Description string
	// File is the file the bug is planted in, relative to the module root
	// (always under server/); Old must occur in it exactly once and is
	// replaced by New.
	File, Old, New string
	// At, when above zero, is the byte offset of Old in File instead: Old
	// must be there, and only that occurrence is replaced (the generated
	// operator mutants, whose operator text occurs many times).
	At int
	// Also are further replacements the same bug needs (an import, say);
	// each must match exactly once too. Usually none.
	Also []Edit
	// Filter is the --label-filter of the judging run; "" = every area.
	Filter string
	// Focus is the --focus regexp (on check text) of the judging run; "" =
	// none.
	Focus string
	// Transport is the --transport of the judging run: "" (stdio), or
	// "http" for a bug of the Streamable HTTP endpoint (the server then
	// runs with --http {addr}).
	Transport string
}

// Edit is one exact text replacement in a file of the module.
type Edit struct {
	File, Old, New string
	At             int // see Source.At
}

// Domains are the server domains source mutants are spread over, in the
// order of the routing document's domain sections.
var Domains = []string{DomainSearch, DomainRequests, DomainUsers, DomainAdmin, DomainNotifications}

// Domain labels of Source.Domain.
const (
	DomainSearch        = "search"        // search, discovery, details, reference data
	DomainRequests      = "requests"      // requests and quotas
	DomainUsers         = "users"         // issues, votes, users
	DomainAdmin         = "admin"         // library, server, settings, integrations, logs
	DomainNotifications = "notifications" // notifications and jobs
)

// Edits returns every replacement of the mutant, the primary one first.
func (m Source) Edits() []Edit {
	return append([]Edit{{File: m.File, Old: m.Old, New: m.New, At: m.At}}, m.Also...)
}

// Sources returns every source mutant, sorted by domain then name.
func Sources() []Source {
	var out []Source
	for _, set := range [][]Source{searchSources, requestSources, userSources, adminSources, notificationSources} {
		out = append(out, set...)
	}
	out = append(out, wave3Sources...)
	out = append(out, gapsResultsSources...)
	out = append(out, gapsRoutingSources...)
	out = append(out, resourceSources...)
	out = append(out, transportSources...)
	out = append(out, catchSources...)
	out = append(out, upstreamSources...)
	out = append(out, liveSources...)
	out = append(out, keptBlindSources()...)
	out = append(out, operatorKept...)
	out = append(out, operatorOpen...)
	return byDomain(out)
}

// byDomain sorts mutants by domain, in the order of Domains, then by name.
func byDomain(out []Source) []Source {
	rank := map[string]int{}
	for i, d := range Domains {
		rank[d] = i
	}
	sort.SliceStable(out, func(i, j int) bool {
		if rank[out[i].Domain] != rank[out[j].Domain] {
			return rank[out[i].Domain] < rank[out[j].Domain]
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// SourceNames returns every source mutant name, sorted.
func SourceNames() []string {
	var n []string
	for _, m := range Sources() {
		n = append(n, m.Name)
	}
	sort.Strings(n)
	return n
}

// LookupSource returns the named source mutant, of Sources or of the
// blind set (BlindSources).
func LookupSource(name string) (Source, bool) {
	for _, m := range append(Sources(), blindSources...) {
		if m.Name == name {
			return m, true
		}
	}
	return Source{}, false
}

// Apply plants the mutant in the module copy at root. It fails, changing
// nothing, when a replacement's old text does not occur exactly once or
// names a file outside server/.
func (m Source) Apply(root string) error {
	files := map[string][]byte{}
	var order []string
	for _, e := range m.Edits() {
		if !strings.HasPrefix(filepath.ToSlash(filepath.Clean(e.File)), "server/") {
			return fmt.Errorf("apply mutant %s: %s is not under server/", m.Name, e.File)
		}
		p := filepath.Join(root, filepath.FromSlash(e.File))
		text, seen := files[p]
		if !seen {
			b, err := os.ReadFile(p)
			if err != nil {
				return fmt.Errorf("apply mutant %s: %w", m.Name, err)
			}
			text = b
			order = append(order, p)
		}
		if e.At > 0 {
			if e.At+len(e.Old) > len(text) || string(text[e.At:e.At+len(e.Old)]) != e.Old {
				return fmt.Errorf("apply mutant %s: %s has no %q at byte %d", m.Name, e.File, clipText(e.Old), e.At)
			}
			files[p] = append(append(append([]byte{}, text[:e.At]...), e.New...), text[e.At+len(e.Old):]...)
			continue
		}
		if n := bytes.Count(text, []byte(e.Old)); n != 1 || e.Old == "" {
			return fmt.Errorf("apply mutant %s: the old text occurs %d times in %s (want exactly once): %q", m.Name, n, e.File, clipText(e.Old))
		}
		files[p] = bytes.Replace(text, []byte(e.Old), []byte(e.New), 1)
	}
	for _, p := range order {
		info, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("apply mutant %s: %w", m.Name, err)
		}
		if err := os.WriteFile(p, files[p], info.Mode().Perm()); err != nil {
			return fmt.Errorf("apply mutant %s: %w", m.Name, err)
		}
	}
	return nil
}

func clipText(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// ModuleRoot walks up from dir to the directory whose go.mod declares the
// ombi-mcp module.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find the module root: %w", err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && bytes.Contains(b, []byte("module github.com/ombi-mcp/ombi-mcp\n")) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("find the module root: no go.mod of github.com/ombi-mcp/ombi-mcp above %s", dir)
		}
	}
}

// CopyModule copies the module at root into dst as it is on disk: the
// files git lists (tracked and untracked, not ignored) with their working
// tree content; files deleted from the work tree are skipped. Without git
// it copies the tree, leaving out .git, bin and node_modules.
func CopyModule(ctx context.Context, root, dst string) error {
	files, err := moduleFiles(ctx, root)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := copyFile(filepath.Join(root, f), filepath.Join(dst, f)); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // deleted in the work tree
			}
			return fmt.Errorf("copy the module: %w", err)
		}
	}
	return nil
}

func moduleFiles(ctx context.Context, root string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	out, err := cmd.Output()
	if err == nil {
		var files []string
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				files = append(files, filepath.FromSlash(f))
			}
		}
		return files, nil
	}
	var files []string
	werr := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "bin", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			files = append(files, rel)
		}
		return nil
	})
	if werr != nil {
		return nil, fmt.Errorf("list the module files: %w", werr)
	}
	return files, nil
}

func copyFile(src, dst string) error {
	info, err := os.Lstat(src)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return nil // symlinks and the like are not part of the build
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Build copies the module at root into dir/src, plants the mutant and
// builds ./cmd/ombi-mcp there into dir/ombi-mcp, returning the binary (the
// copy is removed after a successful build). The build shares the Go build
// cache and uses -trimpath, so only the mutated package and its dependents
// compile again.
func (m Source) Build(ctx context.Context, root, dir string) (string, error) {
	src := filepath.Join(dir, "src")
	if err := CopyModule(ctx, root, src); err != nil {
		return "", fmt.Errorf("build mutant %s: %w", m.Name, err)
	}
	if err := m.Apply(src); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "ombi-mcp")
	cmd := exec.CommandContext(ctx, goTool(), "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", bin, "./cmd/ombi-mcp")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build mutant %s: go build ./cmd/ombi-mcp: %v\n%s", m.Name, err, firstLines(out.String(), 20))
	}
	_ = os.RemoveAll(src) // the binary is all a judge needs
	return bin, nil
}

// goTool is the go command: $GOROOT/bin/go when GOROOT is set, else go
// on PATH.
func goTool() string {
	if r := os.Getenv("GOROOT"); r != "" {
		if p := filepath.Join(r, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func firstLines(s string, n int) string {
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(s))
	for i := 0; sc.Scan() && i < n; i++ {
		b.WriteString(sc.Text())
		b.WriteByte('\n')
	}
	return b.String()
}
