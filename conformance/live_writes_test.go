package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance/reports"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// standinKey is the API key of the stand-in Ombi: not the embedded mock's.
const standinKey = "standin-key-5e81c0d94a7b"

// startStandin starts a stand-in for someone's Ombi: a mockombi with the
// large data set, a key of its own and no control API, reached by the run
// only through Ombi's API. The test reads its state through the Go API,
// as a backup of the Ombi's databases would.
func startStandin(t *testing.T) *mockombi.Server {
	t.Helper()
	return startMock(t, mockombi.Options{DataSet: mockombi.DataSetLarge, APIKey: standinKey, NoControl: true})
}

// standinState is the stand-in's whole state, decoded by top-level member.
func standinState(t *testing.T, m *mockombi.Server) map[string]any {
	t.Helper()
	var b bytes.Buffer
	if err := m.WriteState(&b); err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(b.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// liveWriteArgs are the flags of a live run with --allow-mutations against
// the stand-in, on the checks that write: the any area and the schema
// examples.
func liveWriteArgs(t *testing.T, m *mockombi.Server, report string) []string {
	return []string{"--server", serverBinary(t), "--ombi-url", m.URL(), "--auth-mode", "api_key", "--api-key", standinKey,
		"--user-name", "admin", "--allow-mutations", "--seed", "5", "--label-filter", "any || schema", "--quiet", "--json", report}
}

// newVotes are the requests of the votes cast between two states, as
// "kind/id" ("movie/12").
func newVotes(before, after map[string]any) []string {
	key := func(v any) string {
		o, _ := v.(map[string]any)
		return fmt.Sprint(o["id"])
	}
	old := map[string]bool{}
	for _, v := range asList(before["votes"]) {
		old[key(v)] = true
	}
	var out []string
	for _, v := range asList(after["votes"]) {
		if o, _ := v.(map[string]any); !old[key(v)] {
			out = append(out, fmt.Sprintf("%v/%v", voteKind(o["requestType"]), o["requestId"]))
		}
	}
	return out
}

// voteKind is the route segment of a vote's request type.
func voteKind(t any) string {
	switch fmt.Sprint(t) {
	case "0":
		return "tv"
	case "2":
		return "album"
	}
	return "movie"
}

func asList(v any) []any { l, _ := v.([]any); return l }

// TestCLI_liveWritesUndone runs the write checks of a live run against the
// stand-in: afterwards its state is what it was, but for the effects the
// run lists as ones nothing can undo (votes on the requests it created).
func TestCLI_liveWritesUndone(t *testing.T) {
	m := startStandin(t)
	before := standinState(t, m)
	report := filepath.Join(t.TempDir(), "report.json")
	r := runCLI(t, nil, liveWriteArgs(t, m, report)...)
	if r.code != 0 {
		t.Fatalf("live run with --allow-mutations: exit %d\n%s\n%s", r.code, clipText(r.stdout), clipText(r.stderr))
	}
	rep, err := reports.ReadJSON(report)
	if err != nil {
		t.Fatal(err)
	}
	w := rep.Writes
	if w == nil || !w.Allowed || len(w.Undone) == 0 || len(w.Left) != 0 || w.Interrupted {
		t.Fatalf("the report's writes: %+v, want some taken back and none left", w)
	}
	if !strings.Contains(r.stdout, "taken back: ") {
		t.Errorf("the run does not say what it took back:\n%s", clipText(r.stdout))
	}
	after := standinState(t, m)
	var listed []string
	for _, e := range w.Irreversible {
		if rest, ok := strings.CutPrefix(e.Call, "POST /api/v1/Vote/"); ok {
			_, kindID, _ := strings.Cut(rest, "/")
			listed = append(listed, kindID)
		}
	}
	for _, v := range newVotes(before, after) {
		if !slices.Contains(listed, v) {
			t.Errorf("a vote on %s is on the Ombi after the run, and the run does not list it among the writes it could not undo (%q)", v, listed)
		}
	}
	delete(before, "votes")
	delete(after, "votes")
	for _, st := range []map[string]any{before, after} {
		for _, u := range asList(st["users"]) {
			if o, ok := u.(map[string]any); ok {
				delete(o, "lastLoggedIn") // Ombi notes every use of an account, reads too
			}
		}
	}
	for k := range before {
		if !reflect.DeepEqual(before[k], after[k]) {
			a, _ := json.Marshal(before[k])
			b, _ := json.Marshal(after[k])
			t.Errorf("the stand-in's %s changed in the run: %s", k, firstDifference(string(a), string(b)))
		}
	}
}

// firstDifference shows where two texts part.
func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-200)
	return fmt.Sprintf("before …%s… after …%s…", a[from:min(len(a), i+200)], b[from:min(len(b), i+200)])
}

// createdIDs are the ids of the entities of a state the run may create, as
// "kind id" in the ledger's words ("issue 7").
func createdIDs(st map[string]any) map[string]bool {
	out := map[string]bool{}
	ids := func(kind string, l []any) {
		for _, v := range l {
			if o, ok := v.(map[string]any); ok {
				out[fmt.Sprintf("%s %v", kind, o["id"])] = true
			}
		}
	}
	rq, _ := st["requests"].(map[string]any)
	ids("movie request", asList(rq["movies"]))
	ids("album request", asList(rq["albums"]))
	for _, p := range asList(rq["tv"]) {
		o, _ := p.(map[string]any)
		ids("tv request", asList(o["childRequests"]))
	}
	is, _ := st["issues"].(map[string]any)
	ids("issue category", asList(is["categories"]))
	ids("issue", asList(is["issues"]))
	for _, x := range asList(is["issues"]) {
		o, _ := x.(map[string]any)
		ids("issue comment", asList(o["comments"]))
	}
	return out
}

// TestCLI_liveWritesStopped interrupts a live run with --allow-mutations
// once it has created something: it takes nothing back, and the entities
// it lists as left are exactly those the stand-in holds that it did not
// hold before.
func TestCLI_liveWritesStopped(t *testing.T) {
	m := startStandin(t)
	before := standinState(t, m)
	report := filepath.Join(t.TempDir(), "report.json")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cliBinary(t), liveWriteArgs(t, m, report)...)
	cmd.WaitDelay = 10 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	created := func() bool {
		for _, c := range m.Journal() {
			if c.Method == "POST" && c.Status == 200 && strings.EqualFold(c.Path, "/api/v1/Issues") {
				return true
			}
		}
		return false
	}
	for !created() {
		if ctx.Err() != nil || cmd.ProcessState != nil {
			t.Fatalf("the run created no issue\n%s\n%s", clipText(out.String()), clipText(errb.String()))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if ctx.Err() != nil {
		t.Fatal("the interrupted run did not end")
	}
	rep, err := reports.ReadJSON(report)
	if err != nil {
		t.Fatalf("no report after the interrupt: %v\n%s\n%s", err, clipText(out.String()), clipText(errb.String()))
	}
	w := rep.Writes
	if w == nil || !w.Interrupted || len(w.Undone) != 0 || len(w.Left) == 0 {
		t.Fatalf("the report's writes: %+v, want an interrupted run that took nothing back and left something", w)
	}
	if !strings.Contains(out.String()+errb.String(), "LEFT on the Ombi (the run was stopped)") {
		t.Errorf("the run does not say what it left:\n%s\n%s", clipText(out.String()), clipText(errb.String()))
	}
	after := standinState(t, m)
	was, is := createdIDs(before), createdIDs(after)
	var added []string
	for id := range is {
		if !was[id] {
			added = append(added, id)
		}
	}
	var left []string
	for _, u := range w.Left {
		if _, err := fmt.Sscanf(u.Path[strings.LastIndex(u.Path, "/")+1:], "%d", new(int)); err == nil && u.Method == "DELETE" {
			left = append(left, u.What)
		}
	}
	slices.Sort(added)
	slices.Sort(left)
	if !slices.Equal(added, left) {
		t.Errorf("the run left %q on the Ombi, and says it left %q", added, left)
	}
}
