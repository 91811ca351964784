package checks

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file holds the checks of the live-only sentences that record what a
// real Ombi answers on a route (the scalar health answer, the string array
// of log names, root folders without a name, the Plex server wrapper, the
// corrupted language labels, the statistics range, the cron verdict, the
// upstream page and its total): each reads through the server under test,
// then asks the Ombi the same call directly (the server's own request,
// replayed with the run's credentials, before and after), and judges that
// the result is the projection of that answer and nothing invented. They
// run against a live Ombi through the proxy and against the embedded mock
// alike, and only read (the replayed POST, the cron test, only reads).

// liveAnswer is one read whose result must agree with the Ombi's answer to
// the upstream call it makes.
type liveAnswer struct {
	name  string         // the check's qualifier after live.answer.
	tool  string         // the tool called
	args  map[string]any // its arguments
	route string         // METHOD and path template of the call judged, {x} a segment
	// failed, when not "", is the tool error an answer of 5xx to the route
	// must become (no data, no other route's answer in its place).
	failed string
	judge  func(a liveAnswerInput) error
}

// liveAnswerInput is what a liveAnswer judges: the call the server made,
// the Ombi's answer to it (replayed) and the server's result data.
type liveAnswerInput struct {
	call   mockombi.Call
	answer []byte
	data   []byte
	o      *harness.Outcome
}

// liveAnswers are the reads judged against the Ombi's own answer.
var liveAnswers = []liveAnswer{
	{name: "read_server.status", tool: "read_server", args: map[string]any{"action": "status"},
		route: "GET /api/v1/Status", judge: judgeStatusAnswer},
	{name: "read_settings.base_url", tool: "read_settings", args: map[string]any{"section": "base_url"},
		route: "GET /api/v1/Settings/baseurl", judge: judgeBaseURL},
	{name: "read_logs.list", tool: "read_logs", args: map[string]any{"action": "list"},
		route: "GET /api/v2/System/logs", judge: judgeLogsAnswer},
	{name: "read_integration.root_folders.sonarr", tool: "read_integration",
		args:  map[string]any{"action": "arr_options", "service": "sonarr", "kind": "root_folders"},
		route: "GET /api/v1/Sonarr/RootFolders", judge: judgeRootFolders},
	{name: "read_integration.root_folders.radarr", tool: "read_integration",
		args:  map[string]any{"action": "arr_options", "service": "radarr", "kind": "root_folders"},
		route: "GET /api/v1/Radarr/RootFolders", judge: judgeRootFolders},
	{name: "read_integration.root_folders.lidarr", tool: "read_integration",
		args:  map[string]any{"action": "arr_options", "service": "lidarr", "kind": "root_folders"},
		route: "GET /api/v1/Lidarr/RootFolders", judge: judgeRootFolders},
	{name: "read_integration.plex_servers", tool: "read_integration", args: map[string]any{"action": "plex_servers"},
		route: "GET /api/v1/Plex/servers", judge: judgePlexServers},
	{name: "read_reference.languages", tool: "read_reference", args: map[string]any{"action": "languages"},
		route: "GET /api/v2/Search/Languages", judge: judgeLanguages},
	{name: "read_server.stats", tool: "read_server",
		args:  map[string]any{"action": "stats", "from": "2000-01-01T00:00:00Z", "to": "2100-01-01T00:00:00Z"},
		route: "GET /api/v1/Stats", judge: judgeStats},
	{name: "read_server.cron_validate.quartz", tool: "read_server",
		args:  map[string]any{"action": "cron_validate", "expression": "0 0 0 * * ?"},
		route: "POST /api/v1/Settings/testcron", judge: judgeCron("0 0 0 * * ?")},
	{name: "read_server.cron_validate.five-field", tool: "read_server",
		args:  map[string]any{"action": "cron_validate", "expression": "0 0 * * *"},
		route: "POST /api/v1/Settings/testcron", judge: judgeCron("0 0 * * *")},
	{name: "read_server.cron_validate.both-days-star", tool: "read_server",
		args:  map[string]any{"action": "cron_validate", "expression": "0 0 0 * * *"},
		route: "POST /api/v1/Settings/testcron", judge: judgeCron("0 0 0 * * *")},
}

// livePages are the paged reads whose page must be the Ombi's page: the
// window sent as the route's own units (count/position, take/skip,
// position/take), zero-based, and the total the answer carries or none.
var livePages = []liveAnswer{
	{name: "read_requests.list.movie", tool: "read_requests",
		args:  map[string]any{"action": "list", "media": "movie", "page": map[string]any{"offset": 1, "limit": 2}},
		route: "GET /api/v2/Requests/movie/{count}/{position}/{sort}/{dir}", failed: "UPSTREAM_REJECTED",
		judge: judgeRequestPage("count", "position")},
	{name: "read_requests.list.tv", tool: "read_requests",
		args:  map[string]any{"action": "list", "media": "tv", "page": map[string]any{"offset": 1, "limit": 2}},
		route: "GET /api/v2/Requests/tv/{count}/{position}/{sort}/{dir}", failed: "UPSTREAM_REJECTED",
		judge: judgeRequestPage("count", "position")},
	{name: "read_requests.list.album", tool: "read_requests",
		args:  map[string]any{"action": "list", "media": "album", "page": map[string]any{"offset": 1, "limit": 2}},
		route: "GET /api/v2/Requests/album/{count}/{position}/{sort}/{dir}", failed: "UPSTREAM_REJECTED",
		judge: judgeRequestPage("count", "position")},
	{name: "read_issues.list", tool: "read_issues",
		args:  map[string]any{"action": "list", "status": "pending", "page": map[string]any{"offset": 1, "limit": 2}},
		route: "GET /api/v1/Issues/{take}/{skip}/{status}", judge: judgeArrayPage("take", "skip")},
	{name: "read_issues.summary", tool: "read_issues",
		args:  map[string]any{"action": "summary", "status": "pending", "page": map[string]any{"offset": 1, "limit": 2}},
		route: "GET /api/v2/Issues/{position}/{take}/{status}", judge: judgeArrayPage("take", "position")},
}

func (s *Suite) liveAnswerAreas() {
	ginkgo.Describe("wire", ginkgo.Label("wire", LabelReadOnly, LabelNeedsJournal), func() {
		ginkgo.BeforeEach(s.clean)
		for _, a := range liveAnswers {
			s.ClauseItFor("RESULTS-PROJECTION-001", "live.answer."+a.name, func(ctx ginkgo.SpecContext) {
				s.liveAnswer(ctx, a)
			})
		}
		for _, a := range livePages {
			s.ClauseItFor("RESULTS-PAGING-TOTAL-001", "live.page."+a.name, func(ctx ginkgo.SpecContext) {
				s.liveAnswer(ctx, a)
			})
		}
	})
}

// liveAnswer calls a.tool, finds the call of a.route it made, asks the Ombi
// the same (before and after the server did, so that an answer that moved
// meanwhile is not judged) and judges the result against that answer.
func (s *Suite) liveAnswer(ctx ginkgo.SpecContext, a liveAnswer) {
	srv := s.shared(ctx, s.allConfig())
	var before []byte
	var o *harness.Outcome
	var c mockombi.Call
	found := false
	// the call the server makes is only known once it made it; the first
	// call is made to learn it, the second is the one judged
	for round := range 2 {
		o = s.callUnchecked(ctx, srv, a.tool, a.args)
		c, found = routeCall(o, a.route)
		if !found {
			s.fail(o, "the server answered %s %v without calling %s, the route whose answer it projects", a.tool, a.args, a.route)
		}
		if round == 0 {
			if c.Status != http.StatusOK {
				break
			}
			before = s.replayCall(c)
		}
	}
	switch {
	case c.Status >= 500 && a.failed != "":
		s.wantCode(o, a.failed)
		s.expect(len(o.Envelope.Data) == 0 || string(o.Envelope.Data) == "null", o,
			"the Ombi answered %d to %s %s; the result must be that failure, with no data in its place", c.Status, c.Method, pathOnly(c.Path))
		return
	case c.Status != http.StatusOK:
		s.skipLive(fmt.Sprintf("the Ombi answered %s %s with %d (it has no such data, or the integration is not set up)", c.Method, pathOnly(c.Path), c.Status))
		s.fail(o, "the mock answered %s %s with %d; the check wants its data", c.Method, pathOnly(c.Path), c.Status)
	}
	after := s.replayCall(c)
	if !bytes.Equal(before, after) {
		skipAs(framework.StateSkipped, fmt.Sprintf("the Ombi's answer to %s %s changed while the check read it; nothing to judge against", c.Method, pathOnly(c.Path)))
	}
	if o.RPCError != nil || o.Envelope == nil {
		s.fail(o, "%s answered no envelope", a.tool)
	}
	if err := a.judge(liveAnswerInput{call: c, answer: after, data: o.Envelope.Data, o: o}); err != nil {
		s.fail(o, "the result is not the projection of the Ombi's answer to %s %s:\n%v\nthe Ombi answered: %.600s", c.Method, pathOnly(c.Path), err, after)
	}
}

// routeCall is the last unfaulted call of o matching route ("METHOD
// /path/{x}/..."), compared without regard to case.
func routeCall(o *harness.Outcome, route string) (mockombi.Call, bool) {
	method, tmpl, _ := strings.Cut(route, " ")
	want := strings.Split(strings.Trim(tmpl, "/"), "/")
	calls := upstreamCalls(o)
	for i := len(calls) - 1; i >= 0; i-- {
		c := calls[i]
		got := strings.Split(strings.Trim(pathOnly(c.Path), "/"), "/")
		if c.Method != method || len(got) != len(want) || c.Fault != "" || c.Stub != "" {
			continue
		}
		ok := true
		for j, w := range want {
			if !strings.HasPrefix(w, "{") && !strings.EqualFold(w, got[j]) {
				ok = false
			}
		}
		if ok {
			return c, true
		}
	}
	return mockombi.Call{}, false
}

// routeSegment is the segment of c's path at the place of {name} in route.
func routeSegment(c mockombi.Call, route, name string) string {
	_, tmpl, _ := strings.Cut(route, " ")
	want := strings.Split(strings.Trim(tmpl, "/"), "/")
	got := strings.Split(strings.Trim(pathOnly(c.Path), "/"), "/")
	for i, w := range want {
		if w == "{"+name+"}" && i < len(got) {
			return got[i]
		}
	}
	return ""
}

// replayCall makes c again, directly, with the run's credentials (through
// the proxy in a live run, where only reads pass) and returns the answer;
// an answer other than 200 skips a live check and fails an embedded one.
func (s *Suite) replayCall(c mockombi.Call) []byte {
	ginkgo.GinkgoHelper()
	target := c.Path
	if c.Query != "" {
		target += "?" + c.Query
	}
	var body io.Reader
	if len(c.Body) > 0 {
		body = bytes.NewReader(c.Body)
	}
	req := s.proxyRequest(c.Method, target, body)
	req.Header = s.directHeader()
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := s.serveProxy(req)
	if rec.Code != http.StatusOK {
		s.skipLive(fmt.Sprintf("asked directly, the Ombi answered %s %s with %d", c.Method, pathOnly(c.Path), rec.Code))
		s.fail(nil, "asked directly, the mock answered %s %s with %d: %.300s", c.Method, pathOnly(c.Path), rec.Code, rec.Body.String())
	}
	return bytes.TrimSpace(rec.Body.Bytes())
}

// metricValues decodes a metrics result into its values by name.
func metricValues(data []byte) (map[string]any, error) {
	var m struct {
		Kind   string `json:"kind"`
		Values []struct {
			Name  string `json:"name"`
			Value any    `json:"value"`
		} `json:"values"`
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Kind != "metrics" {
		return nil, fmt.Errorf("the result is not a metrics result: %.300s", data)
	}
	out := map[string]any{}
	for _, v := range m.Values {
		out[v.Name] = v.Value
	}
	return out, nil
}

// refItems decodes a reference_page result's items.
type refItem struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Value any    `json:"value"`
}

func refItems(data []byte) ([]refItem, error) {
	var p struct {
		Kind  string    `json:"kind"`
		Items []refItem `json:"items"`
	}
	if err := json.Unmarshal(data, &p); err != nil || p.Kind != "reference_page" {
		return nil, fmt.Errorf("the result is not a reference page: %.300s", data)
	}
	return p.Items, nil
}

// okResult is an error unless the outcome is a success.
func okResult(o *harness.Outcome) error {
	if o.Envelope == nil || !o.Envelope.OK {
		return fmt.Errorf("the Ombi answered 200, yet the result is the error %q", o.ErrorCode())
	}
	return nil
}

// answerOf checks that the result is a success (the Ombi answered 200)
// and decodes the Ombi's answer, which the design says is what.
func answerOf[T any](a liveAnswerInput, what string) (T, error) {
	var v T
	if err := okResult(a.o); err != nil {
		return v, err
	}
	if err := json.Unmarshal(a.answer, &v); err != nil {
		return v, fmt.Errorf("the Ombi's answer is not %s: %v", what, err)
	}
	return v, nil
}

// judgeStatusAnswer: the health answer is the JSON number 200 (a scalar,
// no credentials needed); the result reports that number and health from
// it.
func judgeStatusAnswer(a liveAnswerInput) error {
	code, err := answerOf[float64](a, "the scalar number the design records")
	if err != nil {
		return err
	}
	m, err := metricValues(a.data)
	if err != nil {
		return err
	}
	if m["status_code"] != code {
		return fmt.Errorf("status_code is %v, the Ombi answered %v", m["status_code"], code)
	}
	if m["healthy"] != (code == http.StatusOK) {
		return fmt.Errorf("healthy is %v for the answer %v", m["healthy"], code)
	}
	return nil
}

// judgeBaseURL: the base URL route answers a JSON string (and needs no
// credentials); the result's one value is that string.
func judgeBaseURL(a liveAnswerInput) error {
	url, err := answerOf[string](a, "a JSON string")
	if err != nil {
		return err
	}
	var r struct {
		Values []struct {
			Name  string `json:"name"`
			Value any    `json:"value"`
		} `json:"values"`
	}
	if err := json.Unmarshal(a.data, &r); err != nil || len(r.Values) != 1 || r.Values[0].Name != "base_url" || r.Values[0].Value != url {
		return fmt.Errorf("the result's values are not the one base_url %q the Ombi answered: %.300s", url, a.data)
	}
	return nil
}

// judgeLogsAnswer: the log list is a string array of file names (or the
// legacy object form); the result lists those names, each once, and all
// of them up to its page.
func judgeLogsAnswer(a liveAnswerInput) error {
	if err := okResult(a.o); err != nil {
		return err
	}
	raw := a.answer
	if len(raw) > 0 && raw[0] == '{' {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return fmt.Errorf("the Ombi's answer is neither a string array nor an object: %v", err)
		}
		for _, k := range []string{"files", "logs", "fileNames", "names"} {
			if v, ok := obj[k]; ok {
				raw = v
				break
			}
		}
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return fmt.Errorf("the Ombi's answer holds no list of names: %v", err)
	}
	var names []string
	for _, it := range items {
		var n string
		if json.Unmarshal(it, &n) != nil {
			var o struct {
				Name     string `json:"name"`
				FileName string `json:"fileName"`
			}
			_ = json.Unmarshal(it, &o)
			n = cmp.Or(o.Name, o.FileName)
		}
		names = append(names, strings.TrimSpace(n))
	}
	var r struct {
		Files []struct {
			Name string `json:"name"`
		} `json:"files"`
		Truncated bool `json:"truncated"`
	}
	if err := json.Unmarshal(a.data, &r); err != nil {
		return fmt.Errorf("decode the log list: %v", err)
	}
	var got []string
	for _, f := range r.Files {
		got = append(got, f.Name)
	}
	seen := map[string]bool{}
	for _, g := range got {
		if !slices.Contains(names, g) || seen[g] {
			return fmt.Errorf("the result lists %q; the Ombi's names are %q", got, names)
		}
		seen[g] = true
	}
	if len(got) < min(len(names), 25) && !r.Truncated {
		return fmt.Errorf("the result lists %d of the Ombi's %d names and says nothing is left out", len(got), len(names))
	}
	return nil
}

// rootFolder is a root folder record of an *arr integration.
type rootFolder struct {
	ID   json.Number `json:"id"`
	Path string      `json:"path"`
	Name *string     `json:"name"`
}

// matchRefs judges a reference page against the records of the Ombi's
// answer: each item is the record with its id (key), judged by judge (a
// finding, or ""), and the page holds every record up to its default limit.
func matchRefs[T any](data []byte, recs []T, what string, key func(T) string, judge func(refItem, T) string) error {
	items, err := refItems(data)
	if err != nil {
		return err
	}
	var e []string
	for _, it := range items {
		i := slices.IndexFunc(recs, func(r T) bool { return key(r) == it.ID })
		if i < 0 {
			e = append(e, fmt.Sprintf("item %q is no %s of the answer", it.ID, what))
			continue
		}
		if msg := judge(it, recs[i]); msg != "" {
			e = append(e, msg)
		}
	}
	if len(items) != min(len(recs), 25) {
		e = append(e, fmt.Sprintf("the result has %d items for the Ombi's %d (%s)", len(items), len(recs), what))
	}
	return joinErrs(e)
}

// judgeRootFolders: a root folder record has an id and a path (no name on
// the wire); the result names each by its path (a name only where the
// record has one) and keeps its id.
func judgeRootFolders(a liveAnswerInput) error {
	recs, err := answerOf[[]rootFolder](a, "a list of root folders")
	if err != nil {
		return err
	}
	return matchRefs(a.data, recs, "root folder", func(r rootFolder) string { return r.ID.String() }, func(it refItem, r rootFolder) string {
		if it.Name != strings.TrimSpace(r.Path) && (r.Name == nil || it.Name != strings.TrimSpace(*r.Name)) {
			return fmt.Sprintf("item %q is named %q; the Ombi's record has the path %q and no such name", it.ID, it.Name, r.Path)
		}
		return ""
	})
}

// plexServer is a server of Ombi's Plex server list.
type plexServer struct {
	MachineID  string `json:"machineId"`
	ServerName string `json:"serverName"`
}

// judgePlexServers: the Plex servers come in an object wrapper
// {success, servers} (or, on older instances, a bare array); the result
// holds each server (machineId as id, serverName as name), and a wrapper
// saying success: false is an upstream refusal.
func judgePlexServers(a liveAnswerInput) error {
	var servers []plexServer
	if len(a.answer) > 0 && a.answer[0] == '{' {
		var w struct {
			Success *bool        `json:"success"`
			Servers []plexServer `json:"servers"`
		}
		if err := json.Unmarshal(a.answer, &w); err != nil {
			return fmt.Errorf("the Ombi's wrapper does not decode: %v", err)
		}
		if w.Success != nil && !*w.Success {
			if a.o.ErrorCode() != "UPSTREAM_REJECTED" {
				return fmt.Errorf("the Ombi's wrapper says success: false; the result must be UPSTREAM_REJECTED, got %q", a.o.ErrorCode())
			}
			return nil
		}
		servers = w.Servers
	} else if err := json.Unmarshal(a.answer, &servers); err != nil {
		return fmt.Errorf("the Ombi's answer is neither the wrapper nor a bare array: %v", err)
	}
	if err := okResult(a.o); err != nil {
		return err
	}
	return matchRefs(a.data, servers, "Plex server", func(s plexServer) string { return s.MachineID }, func(it refItem, s plexServer) string {
		if n := strings.TrimSpace(s.ServerName); n != "" && it.Name != n {
			return fmt.Sprintf("server %q is named %q; the Ombi names it %q", it.ID, it.Name, s.ServerName)
		}
		return ""
	})
}

// corrupted reports the mojibake Ombi's language routes can answer: the
// replacement character, or nothing but question marks.
func corrupted(s string) bool {
	return strings.ContainsRune(s, utf8.RuneError) || (s != "" && strings.Trim(s, "? ") == "")
}

// language is a record of Ombi's language list.
type language struct {
	ISO         string `json:"iso_639_1"`
	EnglishName string `json:"english_name"`
	Name        string `json:"name"`
}

// judgeLanguages: a language label may arrive corrupted ("??????", or with
// U+FFFD); the result names each language by a clean label of the
// Ombi's record when it has one, and says so in a warning when it has
// none.
func judgeLanguages(a liveAnswerInput) error {
	recs, err := answerOf[[]language](a, "a list of languages")
	if err != nil {
		return err
	}
	return matchRefs(a.data, recs, "language", func(l language) string { return l.ISO }, func(it refItem, l language) string {
		var clean, all []string
		for _, c := range []string{l.EnglishName, l.Name} {
			if c = strings.TrimSpace(c); c != "" {
				all = append(all, c)
				if !corrupted(c) {
					clean = append(clean, c)
				}
			}
		}
		switch {
		case len(clean) > 0 && !slices.Contains(clean, it.Name):
			return fmt.Sprintf("language %q is labelled %q; the Ombi's clean labels are %q", it.ID, it.Name, clean)
		case len(clean) == 0 && len(all) > 0 && len(a.o.Envelope.Warnings) == 0:
			return fmt.Sprintf("language %q has only corrupted labels %q and the result carries no warning", it.ID, all)
		}
		return ""
	})
}

// statsFields are the members of Ombi's statistics answer and the metric
// each becomes.
var statsFields = map[string]string{
	"totalRequests":           "total_requests",
	"totalMovieRequests":      "total_movie_requests",
	"totalTvRequests":         "total_tv_requests",
	"totalIssues":             "total_issues",
	"completedRequestsMovies": "completed_requests_movies",
	"completedRequestsTv":     "completed_requests_tv",
	"completedRequests":       "completed_requests",
}

// judgeStats: Ombi binds from and to as non-nullable dates (an empty range
// fails upstream), so both are always sent; each total of the result is
// the answer's, and a total the answer lacks is not reported.
func judgeStats(a liveAnswerInput) error {
	q := a.call.Query
	var e []string
	for _, k := range []string{"from", "to"} {
		v := ""
		for p := range strings.SplitSeq(q, "&") {
			if name, val, _ := strings.Cut(p, "="); strings.EqualFold(name, k) {
				v = val
			}
		}
		if v == "" {
			e = append(e, fmt.Sprintf("the statistics call sent no %s (query %q); Ombi's range is not nullable", k, q))
		}
	}
	ans, err := answerOf[map[string]any](a, "an object")
	if err != nil {
		return errors.Join(joinErrs(e), err)
	}
	m, err := metricValues(a.data)
	if err != nil {
		return err
	}
	for field, metric := range statsFields {
		v, ok := ans[field].(float64)
		got, has := m[metric]
		switch {
		case ok && got != v:
			e = append(e, fmt.Sprintf("%s is %v; the Ombi's %s is %v", metric, got, field, v))
		case !ok && has:
			e = append(e, fmt.Sprintf("%s is %v; the Ombi sent no %s", metric, got, field))
		}
	}
	slices.Sort(e)
	return joinErrs(e)
}

// judgeCron: Ombi validates Quartz cron expressions itself (six or seven
// fields, ? in one day field); the server sends the expression as given
// and reports the Ombi's verdict, whichever it is.
func judgeCron(expr string) func(a liveAnswerInput) error {
	return func(a liveAnswerInput) error {
		var sent struct {
			Expression string `json:"expression"`
		}
		if json.Unmarshal(a.call.Body, &sent) != nil || sent.Expression != expr {
			return fmt.Errorf("the server sent %s, not the expression %q as given", a.call.Body, expr)
		}
		if err := okResult(a.o); err != nil {
			return err
		}
		var ans struct {
			Success *bool `json:"success"`
		}
		if err := json.Unmarshal(a.answer, &ans); err != nil || ans.Success == nil {
			return fmt.Errorf("the Ombi's answer carries no success flag")
		}
		m, err := metricValues(a.data)
		if err != nil {
			return err
		}
		if m["valid"] != *ans.Success {
			return fmt.Errorf("valid is %v; the Ombi answered success: %v for %q", m["valid"], *ans.Success, expr)
		}
		return nil
	}
}

// pageOf decodes a paged result's items and page.
type resultPage struct {
	Items []json.RawMessage `json:"items"`
	Page  struct {
		Offset   int   `json:"offset"`
		Limit    int   `json:"limit"`
		Returned int   `json:"returned"`
		Total    *int  `json:"total"`
		HasMore  *bool `json:"has_more"`
	} `json:"page"`
}

// pageWindow checks the window the call sent in the route's own units:
// size (count or take) the page's limit, start (position or skip) its
// zero-based offset.
func pageWindow(a liveAnswerInput, route, size, start string) (resultPage, []string, error) {
	var p resultPage
	if err := json.Unmarshal(a.data, &p); err != nil {
		return p, nil, fmt.Errorf("decode the page: %v", err)
	}
	var e []string
	if got := routeSegment(a.call, route, size); got != fmt.Sprint(p.Page.Limit) {
		e = append(e, fmt.Sprintf("the call's {%s} is %q; the page's limit is %d", size, got, p.Page.Limit))
	}
	if got := routeSegment(a.call, route, start); got != fmt.Sprint(p.Page.Offset) {
		e = append(e, fmt.Sprintf("the call's {%s} is %q; the page's zero-based offset is %d", start, got, p.Page.Offset))
	}
	if p.Page.Returned != len(p.Items) {
		e = append(e, fmt.Sprintf("page.returned is %d for %d items", p.Page.Returned, len(p.Items)))
	}
	return p, e, nil
}

// judgeRequestPage: the v2 request lists answer {collection, total}; the
// page is that collection (the same requests, in order) and that total.
func judgeRequestPage(size, start string) func(a liveAnswerInput) error {
	return func(a liveAnswerInput) error {
		if err := okResult(a.o); err != nil {
			return err
		}
		route := "GET /api/v2/Requests/x/{count}/{position}/{sort}/{dir}"
		p, e, err := pageWindow(a, route, size, start)
		if err != nil {
			return err
		}
		var ans struct {
			Collection []struct {
				ID int `json:"id"`
			} `json:"collection"`
			Total *int `json:"total"`
		}
		if err := json.Unmarshal(a.answer, &ans); err != nil {
			return fmt.Errorf("the Ombi's answer is not {collection, total}: %v", err)
		}
		switch {
		case ans.Total == nil && p.Page.Total != nil:
			e = append(e, fmt.Sprintf("page.total is %d; the Ombi's answer has no total", *p.Page.Total))
		case ans.Total != nil && (p.Page.Total == nil || *p.Page.Total != *ans.Total):
			e = append(e, fmt.Sprintf("page.total is %s; the Ombi's total is %d", intText(p.Page.Total), *ans.Total))
		}
		if len(p.Items) != len(ans.Collection) {
			e = append(e, fmt.Sprintf("the page has %d items; the Ombi's page has %d requests", len(p.Items), len(ans.Collection)))
		}
		for i := range min(len(p.Items), len(ans.Collection)) {
			var it struct {
				Target struct {
					ID int `json:"id"`
				} `json:"target"`
			}
			_ = json.Unmarshal(p.Items[i], &it)
			if it.Target.ID != ans.Collection[i].ID {
				e = append(e, fmt.Sprintf("item %d is request %d; the Ombi's is %d", i, it.Target.ID, ans.Collection[i].ID))
			}
		}
		return joinErrs(e)
	}
}

// judgeArrayPage: the issue routes answer a bare array, with no total; the
// page holds as many entries and invents no total.
func judgeArrayPage(size, start string) func(a liveAnswerInput) error {
	return func(a liveAnswerInput) error {
		if err := okResult(a.o); err != nil {
			return err
		}
		route := "GET /api/v1/Issues/{take}/{skip}/{status}"
		if start == "position" {
			route = "GET /api/v2/Issues/{position}/{take}/{status}"
		}
		p, e, err := pageWindow(a, route, size, start)
		if err != nil {
			return err
		}
		var ans []json.RawMessage
		if err := json.Unmarshal(a.answer, &ans); err != nil {
			return fmt.Errorf("the Ombi's answer is not an array: %v", err)
		}
		if p.Page.Total != nil {
			e = append(e, fmt.Sprintf("page.total is %d; the Ombi's answer carries no total", *p.Page.Total))
		}
		if len(p.Items) != len(ans) {
			e = append(e, fmt.Sprintf("the page has %d items; the Ombi's page has %d entries", len(p.Items), len(ans)))
		}
		return joinErrs(e)
	}
}

func intText(n *int) string {
	if n == nil {
		return "null"
	}
	return fmt.Sprint(*n)
}

// joinErrs joins findings into one error (nil when none).
func joinErrs(e []string) error {
	if len(e) == 0 {
		return nil
	}
	return errors.New(strings.Join(e, "\n"))
}
