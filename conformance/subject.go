package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// A subject is an Ombi MCP server of another design, kept to test the
// suite itself: its own tools, its own language, and realistic bugs
// planted behind SUBJECT_BUG. The any profile must pass it clean and catch
// each bug with a check of the clause its bugs.json names.
type Subject struct {
	Name    string
	Dir     string
	Command []string // from subject.json: an interpreter, then a script relative to Dir
	Bugs    []SubjectBug
}

// SubjectBug is one entry of a subject's bugs.json.
type SubjectBug struct {
	Name     string `json:"name"`
	What     string `json:"what"`
	CaughtBy string `json:"caught_by"` // the clause whose check must fail
}

// subjectBugEnv switches a subject's planted bug on.
const subjectBugEnv = "SUBJECT_BUG"

// LoadSubjects reads every subject under dir: each subdirectory with a
// subject.json ({"command": ["python3", "server.py"]}, words relative to
// the subject's directory) and a bugs.json.
func LoadSubjects(dir string) ([]Subject, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("subjects: %w", err)
	}
	var out []Subject
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub := Subject{Name: e.Name(), Dir: filepath.Join(dir, e.Name())}
		var meta struct {
			Command []string `json:"command"`
		}
		if err := readJSONFile(filepath.Join(sub.Dir, "subject.json"), &meta); err != nil {
			return nil, err
		}
		if len(meta.Command) < 2 {
			return nil, fmt.Errorf("subjects: %s/subject.json: command wants an interpreter and a script, got %q", sub.Name, meta.Command)
		}
		sub.Command = meta.Command
		if err := readJSONFile(filepath.Join(sub.Dir, "bugs.json"), &sub.Bugs); err != nil {
			return nil, err
		}
		for _, b := range sub.Bugs {
			if _, ok := spec.LookupClause(b.CaughtBy); !ok || b.Name == "" {
				return nil, fmt.Errorf("subjects: %s/bugs.json: bug %q names %q, not a clause", sub.Name, b.Name, b.CaughtBy)
			}
		}
		out = append(out, sub)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("subjects: no subject (a directory with subject.json) under %s", dir)
	}
	return out, nil
}

func readJSONFile(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("subjects: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("subjects: %s: %w", path, err)
	}
	return nil
}

// ServerLine is the subject's --server: the interpreter, then the script
// as an absolute path, so the suite runs it from any directory.
func (s Subject) ServerLine() (string, error) {
	words := slices.Clone(s.Command)
	script, err := filepath.Abs(filepath.Join(s.Dir, words[len(words)-1]))
	if err != nil {
		return "", err
	}
	words[len(words)-1] = script
	for i, w := range words {
		words[i] = framework.ShellWord(w)
	}
	return strings.Join(words, " "), nil
}

// SubjectVerdict is the outcome of one judgment of a subject.
type SubjectVerdict struct {
	Exit int
	// Failed are the checks that failed; Caught those of the bug's clause
	// (a check of it, or a breach of it named in a failure).
	Failed, Caught []string
	Output         string
}

// Pass reports whether the judgment is right: clean (bug "") passes, a bug
// is caught.
func (v SubjectVerdict) Pass(bug string) bool {
	if bug == "" {
		return v.Exit == ExitPass && len(v.Failed) == 0
	}
	return v.Exit == ExitFail && len(v.Caught) > 0
}

// JudgeSubject runs the suite (self) on a subject with one bug switched on
// ("" = the clean subject) and seed, in the profile it picks (any).
func JudgeSubject(ctx context.Context, self string, sub Subject, bug SubjectBug, seed int64, extra ...string) (SubjectVerdict, error) {
	server, err := sub.ServerLine()
	if err != nil {
		return SubjectVerdict{}, err
	}
	args := append([]string{"--server", server, "--seed", fmt.Sprint(seed)}, extra...)
	rep, code, out, err := runReportEnv(ctx, self, []string{subjectBugEnv + "=" + bug.Name}, args)
	if err != nil {
		return SubjectVerdict{}, err
	}
	v := SubjectVerdict{Exit: code, Output: out}
	for _, c := range rep.Checks {
		if c.State != StateFailed {
			continue
		}
		v.Failed = append(v.Failed, c.ID)
		if bug.CaughtBy != "" && (c.Clause == bug.CaughtBy || strings.Contains(c.Failure, bug.CaughtBy+": ")) {
			v.Caught = append(v.Caught, c.ID)
		}
	}
	return v, nil
}
