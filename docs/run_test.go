//go:build docs

package docs

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The mock's default API key: the reader's "$OMBI_API_KEY" when a block
// talks to a stand-in of their Ombi.
const standInAPIKey = "0b6d0e2c4f8a4d1e9c3b7a5f2e1d4c6b"

// TestBlocks_run runs every shell block of every page as written, the
// blocks of a page in order in one bash session (so a block may use a
// variable or a process an earlier one set up), from a copy of the clone
// where make build has run, with the commands go install would put on the
// PATH. What a reader brings is there too: ./my-server (the reference
// server; --listen ADDR serves Streamable HTTP on ADDR), ./my_server.py and
// ./server.mjs (the Python and Node example servers), OMBI_API_KEY, and,
// for a block that names it, a stand-in Ombi. Pages run one after another:
// the docs use fixed loopback ports.
func TestBlocks_run(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	gobin := filepath.Join(work, "gobin")
	build := exec.Command("go", "build", "-o", gobin+"/", "./cmd/...")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/...: %v\n%s", err, out)
	}
	byPage := map[string][]block{}
	var order []string
	for _, b := range allBlocks(t) {
		if b.Lang != "sh" {
			continue
		}
		if _, ok := byPage[b.Page]; !ok {
			order = append(order, b.Page)
		}
		byPage[b.Page] = append(byPage[b.Page], b)
	}
	sort.Strings(order)
	for _, page := range order {
		t.Run(page, func(t *testing.T) {
			var run []block
			for _, b := range byPage[page] {
				if b.Run.Needs != "" {
					t.Logf("%s:%d not run: needs %s", b.Page, b.Line, b.Run.Needs)
					continue
				}
				run = append(run, b)
			}
			if len(run) == 0 {
				return
			}
			runPage(t, root, gobin, filepath.Join(work, strings.NewReplacer("/", "_", ".", "_").Replace(page)), run)
		})
	}
}

func runPage(t *testing.T, root, gobin, dir string, blocks []block) {
	clone := filepath.Join(dir, "clone")
	copyClone(t, root, clone, gobin)
	if usesNode(blocks) {
		deps := exec.Command("make", "subject-deps") // the Node example server's packages
		deps.Dir = clone
		if out, err := deps.CombinedOutput(); err != nil {
			t.Fatalf("make subject-deps: %v\n%s", err, out)
		}
	}
	for _, addr := range pagePorts(blocks) {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			t.Fatalf("%s is taken before the page runs; the docs use it", addr)
		}
	}
	home := filepath.Join(dir, "home")
	empty := filepath.Join(dir, "empty")
	for _, d := range []string{home, empty} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	readerFiles(t, clone, clone)
	readerFiles(t, clone, empty)
	script := pageScript(blocks, gobin, empty)
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = clone
	cmd.Env = append(os.Environ(),
		"HOME="+home,
		"PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"OMBI_API_KEY="+standInAPIKey,
	)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 5 * time.Second // servers left running hold the output open
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what the page left running
	}
	if err != nil {
		t.Errorf("%s: %v after %s; the end of its output:\n%s", blocks[0].Page, err, time.Since(start).Round(time.Second), tail(out.String(), 80))
		return
	}
	t.Logf("%d blocks ran in %s", len(blocks), time.Since(start).Round(time.Second))
}

// usesNode says whether a page's blocks run the Node example server.
func usesNode(blocks []block) bool {
	for _, b := range blocks {
		if strings.Contains(b.Text, "server.mjs") {
			return true
		}
	}
	return false
}

func pagePorts(blocks []block) []string {
	var all strings.Builder
	for _, b := range blocks {
		all.WriteString(b.Text)
		all.WriteString(b.Run.Ombi + " " + strings.Join(b.Run.Listens, " ") + "\n")
	}
	return uniquePorts(all.String())
}

// copyClone copies the tracked files of the checkout to dir, puts the built
// commands in bin/ (a clone where make build has run) and adds what a
// reader brings (readerFiles).
func copyClone(t *testing.T, root, dir, gobin string) {
	t.Helper()
	ls := exec.Command("git", "ls-files", "-z")
	ls.Dir = root
	out, err := ls.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, name)
		info, err := os.Lstat(src)
		if err != nil {
			continue // deleted in the work tree
		}
		copyFile(t, src, filepath.Join(dir, name), info.Mode())
	}
	entries, err := os.ReadDir(gobin)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		copyFile(t, filepath.Join(gobin, e.Name()), filepath.Join(dir, "bin", e.Name()), 0o755)
	}
}

// readerFiles puts what a reader brings into dir: their server, as
// ./my-server (the reference server of the clone; --listen ADDR serves
// Streamable HTTP on ADDR, other flags are the reader's own), ./my_server.py
// and ./server.mjs (the example servers in Python and Node).
func readerFiles(t *testing.T, clone, dir string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, "my-server"), `#!/bin/sh
while [ $# -gt 0 ]; do
  case "$1" in
    --listen) exec `+clone+`/bin/ombi-mcp --http "$2" ;;
  esac
  shift
done
exec `+clone+`/bin/ombi-mcp
`, 0o755)
	copyFile(t, filepath.Join(clone, "conformance/subjects/pyombi/server.py"), filepath.Join(dir, "my_server.py"), 0o644)
	if err := os.Symlink(filepath.Join(clone, "conformance/subjects/nodeombi/server.mjs"), filepath.Join(dir, "server.mjs")); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, src, dst string, mode os.FileMode) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dst, string(data), mode.Perm())
}

func writeFile(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
