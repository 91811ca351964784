// Package subjects_test judges the subjects of this directory, Ombi MCP
// servers of other designs and languages with planted bugs, in the any
// profile of the suite. It is a package of its own so that go test runs it
// beside the suite's own tests.
package subjects_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// subjectSeed is the seed the subjects are judged with here; make soak
// judges them over many seeds.
const subjectSeed = 20261203

// subjectJobs is how many judgments of subjects run at once: each spends
// much of its time waiting on a hung upstream or a starting interpreter.
const subjectJobs = 3

// TestSubjects judges each subject (a directory here: an Ombi MCP server of
// another design and language) in the profile the suite picks for a
// server that lists no catalogue tool: clean, no check fails; with each of
// its planted bugs switched on, a check of the clause its bugs.json names
// fails.
func TestSubjects(t *testing.T) {
	subs, err := conformance.LoadSubjects(".")
	if err != nil {
		t.Fatal(err)
	}
	type judgment struct {
		sub conformance.Subject
		bug conformance.SubjectBug // zero for the clean subject
		v   conformance.SubjectVerdict
		err error
	}
	var jobs []*judgment
	for _, sub := range subs {
		if _, err := exec.LookPath(sub.Command[0]); err != nil {
			t.Fatalf("%s is needed to run the subject %s (make test installs it): %v", sub.Command[0], sub.Name, err)
		}
		if _, err := os.Stat(filepath.Join(sub.Dir, "package.json")); err == nil {
			if _, err := os.Stat(filepath.Join(sub.Dir, "node_modules")); err != nil {
				t.Fatalf("the packages of %s are not installed (make subject-deps): %v", sub.Name, err)
			}
		}
		if len(sub.Bugs) < 12 {
			t.Errorf("%s plants %d bugs, want at least 12", sub.Name, len(sub.Bugs))
		}
		jobs = append(jobs, &judgment{sub: sub})
		for _, bug := range sub.Bugs {
			jobs = append(jobs, &judgment{sub: sub, bug: bug})
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	sem := make(chan struct{}, subjectJobs)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			j.v, j.err = conformance.JudgeSubject(ctx, cli, j.sub, j.bug, subjectSeed)
		})
	}
	wg.Wait()
	for _, j := range jobs {
		t.Run(j.sub.Name+"/"+cmp.Or(j.bug.Name, "clean"), func(t *testing.T) {
			if j.err != nil {
				t.Fatal(j.err)
			}
			if j.v.Pass(j.bug.Name) {
				if j.bug.Name != "" {
					t.Logf("%s caught by %s", j.bug.Name, strings.Join(j.v.Caught, ", "))
				} else if !strings.Contains(j.v.Output, "profile any (the server lists no catalogue tool") {
					t.Errorf("the suite did not pick profile any for a server of its own design:\n%s", clipText(j.v.Output))
				}
				return
			}
			if j.bug.Name == "" {
				t.Errorf("the clean subject fails: exit %d, failed %v\n%s", j.v.Exit, j.v.Failed, clipText(j.v.Output))
				return
			}
			t.Errorf("SUBJECT_BUG=%s (%s) was not caught: exit %d, failed %v, none of %s\n%s", j.bug.Name, j.bug.What, j.v.Exit, j.v.Failed, j.bug.CaughtBy, clipText(j.v.Output))
		})
	}
}

// cli is the suite's command, built once for the package's tests.
var cli string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ombi-subjects-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	cli = filepath.Join(dir, "ombi-conformance")
	out, err := exec.Command("go", "build", "-o", cli, "github.com/ombi-mcp/ombi-mcp/cmd/ombi-conformance").CombinedOutput()
	code := 2
	if err != nil {
		fmt.Fprintf(os.Stderr, "go build ombi-conformance: %v\n%s", err, out)
	} else {
		code = m.Run()
	}
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// clipText keeps the end of a long output, where the failures are.
func clipText(s string) string {
	const keep = 6000
	if len(s) <= keep {
		return s
	}
	return "…" + s[len(s)-keep:]
}

// TestSubjects_live judges a subject against "your own Ombi": a stand-in
// the suite reaches only by URL and API key (a mockombi with the large
// data set, an API key of its own and its control API off: a black box),
// through the proxy a live run puts in front of it. Clean, the read-only
// checks of the any profile pass; planted bugs in read tools are caught
// against the stand-in's answers, with ids the run discovered from it.
func TestSubjects_live(t *testing.T) {
	const key = "stand-in-key-5d41402abc4b2a76"
	standIn, err := mockombi.New(mockombi.Options{DataSet: mockombi.DataSetLarge, APIKey: key, NoControl: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := standIn.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = standIn.Close() })
	subs, err := conformance.LoadSubjects(".")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(subs, func(s conformance.Subject) bool { return s.Name == "pyombi" })
	if i < 0 {
		t.Fatal("no pyombi subject")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	live := []string{"--ombi-url", standIn.URL(), "--auth-mode", "api_key", "--api-key", key}
	tests := []struct {
		bug    conformance.SubjectBug
		caught string // a check that must fail; "" = none may
	}{
		{conformance.SubjectBug{}, ""},
		{conformance.SubjectBug{Name: "readonly-write", CaughtBy: "ANY-EFFECTS-001"}, "ANY-EXPLORE-001.get_media_details"},
		{conformance.SubjectBug{Name: "key-in-error", CaughtBy: "ANY-LEAK-001"}, "ANY-FAULTS-001.list_requests"},
		{conformance.SubjectBug{Name: "stray-query", CaughtBy: "ANY-UPSTREAM-001"}, "ANY-EXPLORE-001.search_media"},
	}
	for _, tt := range tests {
		t.Run(cmp.Or(tt.bug.Name, "clean"), func(t *testing.T) {
			v, err := conformance.JudgeSubject(ctx, cli, subs[i], tt.bug, subjectSeed, live...)
			if err != nil {
				t.Fatal(err)
			}
			if !v.Pass(tt.bug.Name) {
				t.Fatalf("exit %d, failed %v, caught %v\n%s", v.Exit, v.Failed, v.Caught, clipText(v.Output))
			}
			if tt.caught != "" && !slices.Contains(v.Caught, tt.caught) {
				t.Errorf("%s was caught by %v, want among them %s", tt.bug.Name, v.Caught, tt.caught)
			}
			if tt.bug.Name == "" && !strings.Contains(v.Output, "-- area any ") {
				t.Errorf("the any area did not run against the stand-in:\n%s", clipText(v.Output))
			}
		})
	}
}
