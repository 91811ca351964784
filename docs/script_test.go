package docs

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

var loopbackRe = regexp.MustCompile(`127\.0\.0\.1:(\d{2,5})\b`)

const errTrap = `trap 'echo "docs-test: block $BLOCK: a command failed (status $?)" >&2' ERR
`

// pageScript is the bash session of a page's blocks.
func pageScript(blocks []block, gobin, empty string) string {
	var s strings.Builder
	s.WriteString(`set -eo pipefail
__wait_port() {
  for __i in $(seq 3000); do (exec 3<>/dev/tcp/${1%:*}/${1#*:}) 2>/dev/null && return 0; sleep 0.1; done
  echo "docs-test: nothing listens on $1 after 5 minutes" >&2; return 1
}
__wait_free() {
  for __i in $(seq 600); do (exec 3<>/dev/tcp/${1%:*}/${1#*:}) 2>/dev/null || return 0; sleep 0.1; done
  echo "docs-test: $1 still taken after 60s" >&2; return 1
}
__kill_tree() {
  local c
  for c in $(pgrep -P "$1"); do __kill_tree "$c"; done
  kill "$1" 2>/dev/null || true
}
` + errTrap)
	for _, b := range blocks {
		fmt.Fprintf(&s, "\nBLOCK=%s:%d\necho \"=== $BLOCK\"\n", b.Page, b.Line)
		if b.Run.Ombi != "" {
			fmt.Fprintf(&s, "%s/mockombi --addr %s --quiet & __OMBI=$!\n__wait_port %s\n", gobin, b.Run.Ombi, b.Run.Ombi)
		}
		if b.Run.Fresh {
			s.WriteString("for __p in $(jobs -p); do __kill_tree $__p; wait $__p 2>/dev/null || true; done\n")
			for _, addr := range append(uniquePorts(b.Text), b.Run.Listens...) {
				fmt.Fprintf(&s, "__wait_free %s\n", addr)
			}
		}
		text := b.Text
		if b.Run.EmptyDir {
			text = "cd " + empty + "\n" + text + "cd - >/dev/null\n"
		}
		switch {
		case b.Run.Background:
			fmt.Fprintf(&s, "{\n%s} &\n", text)
			for _, addr := range append(uniquePorts(b.Text), b.Run.Listens...) {
				fmt.Fprintf(&s, "__wait_port %s\n", addr)
			}
		case b.Run.KeepGoing:
			fmt.Fprintf(&s, "set +e\ntrap - ERR\n%sset -e\n%s", text, errTrap)
		case b.Run.Exit != 0:
			fmt.Fprintf(&s, "set +e\n(\nset -e\n%s)\n__rc=$?\nset -e\n", text)
			fmt.Fprintf(&s, "if [ $__rc -ne %d ]; then echo \"docs-test: block $BLOCK ended with status $__rc, want %d\" >&2; exit 1; fi\n", b.Run.Exit, b.Run.Exit)
		case b.Run.Prints:
			fmt.Fprintf(&s, "__out=$(mktemp)\n{\n%s} 2>&1 | tee $__out\n", text)
			for _, line := range strings.Split(b.Prints, "\n") {
				if strings.TrimSpace(line) == "" {
					continue
				}
				q := shellQuote(line)
				fmt.Fprintf(&s, "grep -qF -- %s $__out || { printf 'docs-test: block %%s did not print: %%s\\n' \"$BLOCK\" %s >&2; exit 1; }\n", q, q)
			}
			s.WriteString("rm -f $__out\n")
		default:
			s.WriteString(text)
		}
		if b.Run.Ombi != "" {
			s.WriteString("kill $__OMBI; wait $__OMBI || true\n")
		}
	}
	s.WriteString("\nfor __p in $(jobs -p); do __kill_tree $__p; wait $__p 2>/dev/null || true; done\necho '=== page done'\n")
	return s.String()
}

// shellQuote quotes s for bash as one word.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func uniquePorts(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range loopbackRe.FindAllString(text, -1) {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// TestPageScript_prints: a block marked prints passes when each line of
// the text after it appears in its output, and fails the page when one
// does not (quotes and all).
func TestPageScript_prints(t *testing.T) {
	tests := []struct {
		name, text, prints string
		ok                 bool
	}{
		{"printed", "echo 'coverage: 299 of 299'\necho done\n", "coverage: 299 of 299\ndone\n", true},
		{"another figure", "echo 'coverage: 298 of 299'\n", "coverage: 299 of 299\n", false},
		{"a quote in the line", "echo \"it's 5\"\n", "it's 5\n", true},
		{"one line of two missing", "echo a\n", "a\nb\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := block{Page: "docs/x.md", Line: 1, Lang: "sh", Text: tt.text, Run: runSpec{Prints: true}, Prints: tt.prints}
			out, err := exec.Command("bash", "-c", pageScript([]block{b}, t.TempDir(), t.TempDir())).CombinedOutput()
			if (err == nil) != tt.ok {
				t.Errorf("page ok %v, want %v:\n%s", err == nil, tt.ok, out)
			}
			if !tt.ok && !strings.Contains(string(out), "did not print") {
				t.Errorf("the failure does not say what was not printed:\n%s", out)
			}
		})
	}
}
