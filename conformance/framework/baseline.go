package framework

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// Baseline is a set of check ids expected to fail. A listed check that
// fails does not fail the run; a listed check that passes is stale and
// fails the run.
type Baseline map[string]bool

// Has reports whether id is listed.
func (b Baseline) Has(id string) bool { return b[id] }

// ParseBaseline reads one check id per line; blank lines and text after '#'
// are ignored.
func ParseBaseline(r io.Reader) (Baseline, error) {
	b := Baseline{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.ContainsAny(line, " \t") {
			return nil, fmt.Errorf("parse baseline line %d: %q is not a single check id", n, line)
		}
		b[line] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("parse baseline: %w", err)
	}
	return b, nil
}

// LoadBaseline reads a baseline file.
func LoadBaseline(path string) (Baseline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load baseline: %w", err)
	}
	defer f.Close()
	return ParseBaseline(f)
}
