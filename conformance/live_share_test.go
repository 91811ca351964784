package conformance_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance"
	"github.com/ombi-mcp/ombi-mcp/conformance/mutant"
	"github.com/ombi-mcp/ombi-mcp/conformance/reports"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// LiveFullEnv, set to 1, makes TestLive_share run the whole live run
// docs/live-ombi.md quotes, and the embedded run it is compared with,
// instead of its short part.
const LiveFullEnv = "OMBI_LIVE_FULL"

// standInKey is the API key of the stand-in Ombi.
const standInKey = "standin-key-unseen-4d2a"

// startStandIn starts the stand-in for someone's Ombi: a mockombi with a
// data file the suite has never seen (testdata/standin-ombi.json: its own
// ids, titles and users), its own API key and its control API off, so the
// suite reaches it only by URL and key, as a black box.
func startStandIn(t *testing.T) *mockombi.Server {
	t.Helper()
	return startMock(t, mockombi.Options{DataFile: filepath.Join("testdata", "standin-ombi.json"), APIKey: standInKey, NoControl: true})
}

// liveArgs are the flags of a live run against the stand-in, writes
// allowed (it is disposable).
func liveArgs(m *mockombi.Server) []string {
	return []string{"--ombi-url", m.URL(), "--auth-mode", "api_key", "--api-key", standInKey, "--user-name", "admin", "--allow-mutations"}
}

// liveFigures are the counts of a run as its summary prints them.
type liveFigures struct {
	passed, failed, skipped, notApplicable int
}

func (f liveFigures) judged() int { return f.passed + f.failed }

// summaryTotal is the total line of the per-area table of a run's summary.
var summaryTotal = regexp.MustCompile(`(?m)^total +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$`)

// summaryArea is one area's line of the per-area table of a run's summary.
var summaryArea = regexp.MustCompile(`(?m)^([a-z]+) +(\d+) +(\d+) +\d+ +\d+ +\d+ +\d+ +\d+$`)

// printedJudged reads each area's judged checks (passed and failed) from
// a run's summary.
func printedJudged(out string) map[string]int {
	judged := map[string]int{}
	for _, m := range summaryArea.FindAllStringSubmatch(out, -1) {
		p, _ := strconv.Atoi(m[2])
		f, _ := strconv.Atoi(m[3])
		judged[m[1]] = p + f
	}
	return judged
}

// docAreaRow is a row of the per-area table of docs/live-ombi.md: area,
// judged live before, judged live now, judged embedded, share.
var docAreaRow = regexp.MustCompile(`(?m)^\| ([a-z]+) \| (\d+) \| (\d+) \| (\d+) \| \d+% \|$`)

// printedFigures reads the total line of a run's summary.
func printedFigures(out string) (liveFigures, error) {
	m := summaryTotal.FindStringSubmatch(out)
	if m == nil {
		return liveFigures{}, fmt.Errorf("no total line in the summary")
	}
	n := make([]int, 8)
	for i := 1; i < len(m); i++ {
		n[i], _ = strconv.Atoi(m[i])
	}
	return liveFigures{passed: n[1], failed: n[2], skipped: n[5], notApplicable: n[7]}, nil
}

// docFigures are the figures docs/live-ombi.md quotes for the live run and
// the embedded run it is compared with.
type docFigures struct {
	live     liveFigures
	embedded int    // checks an embedded run judges
	text     []byte // the page
}

// docSentence is the sentence of docs/live-ombi.md with the figures.
var docSentence = regexp.MustCompile(`(\d[\d,]*)\s+checks\s+passed,\s+(\d+)\s+failed,\s+(\d[\d,]*)\s+skipped\s+and\s+(\d+)\s+not\s+applicable,\s+in\s+about\s+\d+\s+s;\s+an\s+embedded\s+run\s+of\s+the\s+same\s+server\s+judges\s+(\d[\d,]*)\s+checks`)

func readDocFigures(t *testing.T) docFigures {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "live-ombi.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := docSentence.FindSubmatch(b)
	if m == nil {
		t.Fatalf("docs/live-ombi.md: no sentence matching %s", docSentence)
	}
	num := func(i int) int {
		n, err := strconv.Atoi(string(bytes.ReplaceAll(m[i], []byte(","), nil)))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	return docFigures{live: liveFigures{passed: num(1), failed: num(2), skipped: num(3), notApplicable: num(4)}, embedded: num(5), text: b}
}

// runLive runs the suite with args (and a JSON report) within limit.
func runLive(t *testing.T, limit time.Duration, args ...string) (cliRun, *reports.JSON) {
	t.Helper()
	report := filepath.Join(t.TempDir(), "report.json")
	r := runCLIWithin(t, limit, nil, append(args, "--json", report)...)
	rep, err := reports.ReadJSON(report)
	if err != nil {
		t.Fatalf("%v\nexit %d\n%s\n%s", err, r.code, clipText(r.stdout), clipText(r.stderr))
	}
	return r, rep
}

// TestLive_share judges the reference server in a live run against the
// stand-in: the run fails nothing and judges at least 85% of what an
// embedded run judges. By default it runs the wire, errors, auth and leak
// areas, whose checks reach a live Ombi only through the proxy (journal,
// faults), and compares them with the checks those areas declare (an
// embedded run judges each of them); with OMBI_LIVE_FULL=1 it runs the
// whole suite, and an embedded run of the same server, and checks the
// figures docs/live-ombi.md quotes against what the tool prints (about
// ten minutes on two busy cores).
func TestLive_share(t *testing.T) {
	srv := serverBinary(t)
	standIn := startStandIn(t)
	args := append([]string{"--server", srv, "--seed", "5"}, liveArgs(standIn)...)
	full := os.Getenv(LiveFullEnv) == "1"
	if !full {
		args = append(args, "--label-filter", "wire || errors || auth || leak")
	}
	r, rep := runLive(t, 8*time.Minute, args...)
	got, err := printedFigures(r.stdout)
	if err != nil {
		t.Fatalf("%v\n%s", err, clipText(r.stdout))
	}
	var failed []string
	counted := 0
	for _, c := range rep.Checks {
		if c.State == conformance.StateFailed {
			failed = append(failed, c.ID+":\n"+c.Failure)
		}
		if full || c.Area == "wire" || c.Area == "errors" || c.Area == "auth" || c.Area == "leak" {
			counted++
		}
	}
	if r.code != 0 || got.failed != 0 {
		t.Fatalf("the live run failed the reference server: exit %d, %d failed\n%s", r.code, got.failed, clipText(fmt.Sprint(failed)))
	}
	if !full {
		// every check of these areas is judged in an embedded run
		if share := float64(got.judged()) / float64(counted); share < 0.85 {
			t.Errorf("the live run judged %d of the %d checks of the wire, errors, auth and leak areas (%.0f%%), want at least 85%%", got.judged(), counted, 100*share)
		}
		t.Logf("live run of wire, errors, auth and leak: %d judged of %d (%.1f%%), %d skipped", got.judged(), counted, 100*float64(got.judged())/float64(counted), got.skipped)
		return
	}
	doc := readDocFigures(t)
	if got != doc.live {
		t.Errorf("docs/live-ombi.md quotes %+v for the live run; the tool printed %+v", doc.live, got)
	}
	er, _ := runLive(t, 20*time.Minute, "--server", srv, "--seed", "5")
	embedded, err := printedFigures(er.stdout)
	if err != nil || er.code != 0 {
		t.Fatalf("embedded run: exit %d, %v\n%s", er.code, err, clipText(er.stdout))
	}
	if doc.embedded != embedded.judged() {
		t.Errorf("docs/live-ombi.md says an embedded run judges %d checks; it judged %d", doc.embedded, embedded.judged())
	}
	liveAreas, embeddedAreas := printedJudged(r.stdout), printedJudged(er.stdout)
	rows := docAreaRow.FindAllStringSubmatch(string(doc.text), -1)
	if len(rows) != len(liveAreas) {
		t.Errorf("docs/live-ombi.md's table has %d rows; the run printed %d areas and a total", len(rows), len(liveAreas))
	}
	for _, row := range rows {
		now, _ := strconv.Atoi(row[3])
		emb, _ := strconv.Atoi(row[4])
		if now != liveAreas[row[1]] || emb != embeddedAreas[row[1]] {
			t.Errorf("docs/live-ombi.md: %s judged live %d of %d embedded; the runs printed %d of %d", row[1], now, emb, liveAreas[row[1]], embeddedAreas[row[1]])
		}
	}
	if share := float64(got.judged()) / float64(doc.embedded); share < 0.85 {
		t.Errorf("the live run judged %d of the %d checks an embedded run judges (%.0f%%), want at least 85%%", got.judged(), doc.embedded, 100*share)
	}
}

// TestLive_mutants judges two of the suite's mutants in a live run against
// the stand-in: a wire mutant (read_settings forwarding a section's API
// key) and a fault mutant (a write whose answer the proxy delays past the
// deadline, reported as a retryable TIMEOUT instead of UNKNOWN_OUTCOME).
func TestLive_mutants(t *testing.T) {
	srv := serverBinary(t)
	cli := cliBinary(t)
	standIn := startStandIn(t)
	byName := map[string]mutant.Mutant{}
	for _, m := range mutant.All() {
		byName[m.Name] = m
	}
	for _, name := range []string{"settings-forwards-secret", "lost-write-retryable"} {
		t.Run(name, func(t *testing.T) {
			m, ok := byName[name]
			if !ok {
				t.Fatalf("no mutant %s", name)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			v, err := conformance.JudgeMutant(ctx, cli, srv, m, mutantSeed, liveArgs(standIn)...)
			if err != nil {
				t.Fatal(err)
			}
			if !v.Killed {
				t.Fatalf("mutant %s (%s) survived a live run: exit %d, %d %s checks failed\n%s", m.Name, m.Description, v.Exit, len(v.Failed), m.Area, clipText(v.Output))
			}
			t.Logf("mutant %s killed live by %s", m.Name, v.Failed[0])
		})
	}
}
