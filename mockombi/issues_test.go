package mockombi

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// actingAs returns the headers of an API-key call acting as a default
// account: "" is anonymous, "api" the API principal (Admin + ApiUser).
func actingAs(who string) map[string]string {
	switch who {
	case "":
		return nil
	case "api":
		return apiKey()
	default:
		h := apiKey()
		h["UserName"] = who
		return h
	}
}

// authCase is one route with the status each caller gets.
type authCase struct {
	method, path, body       string
	anon, user, power, admin int
}

// checkAuthLevels sends every case as anonymous, user, power and admin. The
// store is reset after every accepted write, so writes never leak between
// callers.
func checkAuthLevels(t *testing.T, cases []authCase) {
	t.Helper()
	s := newTestServer(t, Options{})
	for _, c := range cases {
		for _, who := range []struct {
			name string
			want int
		}{{"", c.anon}, {"user", c.user}, {"power", c.power}, {"admin", c.admin}} {
			res := do(t, s, call{method: c.method, path: c.path, header: actingAs(who.name), body: c.body})
			if res.status != who.want {
				t.Errorf("%s %s as %q: status %d, want %d (body %s)", c.method, c.path, who.name, res.status, who.want, truncate(string(res.body), 200))
			}
			if c.method != http.MethodGet && res.status < 300 {
				s.Reset()
			}
		}
	}
}

// canaryValueOf returns the planted value of a canary whose name is name or
// ends with "_"+name, failing the test when none was planted.
func canaryValueOf(t *testing.T, s *Server, name string) string {
	t.Helper()
	for _, c := range s.Canaries() {
		if c.Name == name || strings.HasSuffix(c.Name, "_"+name) {
			return c.Value
		}
	}
	t.Fatalf("canary %q not planted", name)
	return ""
}

// mustStatus fails unless res has the wanted status.
func mustStatus(t *testing.T, res result, want int) {
	t.Helper()
	if res.status != want {
		t.Fatalf("status %d, want %d (body %s)", res.status, want, truncate(string(res.body), 300))
	}
}

func TestIssuesAuthLevels(t *testing.T) {
	ok, created := http.StatusOK, http.StatusOK
	checkAuthLevels(t, []authCase{
		{"GET", "/api/v1/Issues/categories", "", 401, ok, ok, ok},
		{"POST", "/api/v1/Issues/categories", `{"value":"Bad Cut"}`, 401, 403, ok, ok},
		{"DELETE", "/api/v1/Issues/categories/5", "", 401, 403, ok, ok},
		{"GET", "/api/v1/Issues", "", 401, ok, ok, ok},
		{"GET", "/api/v1/Issues/10/0/0", "", 401, ok, ok, ok},
		{"GET", "/api/v1/Issues/count", "", 401, ok, ok, ok},
		{"POST", "/api/v1/Issues", `{"title":"T","requestType":1,"providerId":"1","subject":"s","description":"d","issueCategoryId":1}`, 401, created, created, created},
		{"GET", "/api/v1/Issues/1", "", 401, ok, ok, ok},
		{"GET", "/api/v1/Issues/1/comments", "", 401, ok, ok, ok},
		{"POST", "/api/v1/Issues/comments", `{"comment":"c","issueId":1}`, 401, ok, ok, ok},
		{"DELETE", "/api/v1/Issues/comments/1", "", 401, 403, ok, ok},
		{"DELETE", "/api/v1/Issues/1", "", 401, 403, ok, ok},
		{"POST", "/api/v1/Issues/status", `{"issueId":1,"status":1}`, 401, ok, ok, ok},
		{"GET", "/api/v2/Issues/0/10/0", "", 401, ok, ok, ok},
		{"GET", "/api/v2/Issues/details/693134", "", 401, ok, ok, ok},
	})
}

func TestIssuesListPagingAndReporter(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		path string
		ids  []int
	}{
		{"/api/v1/Issues/10/0/0", []int{1, 4, 5}},
		{"/api/v1/Issues/1/1/0", []int{4}},
		{"/api/v1/Issues/10/3/0", []int{}},
		{"/api/v1/Issues/10/0/1", []int{2}},
		{"/api/v1/Issues/10/0/Resolved", []int{3}},
	}
	for _, tc := range tests {
		res := do(t, s, call{method: "GET", path: tc.path, header: actingAs("user")})
		mustStatus(t, res, http.StatusOK)
		var got []map[string]any
		res.json(t, &got)
		if len(got) != len(tc.ids) {
			t.Fatalf("%s: %d issues, want %v", tc.path, len(got), tc.ids)
		}
		for i, is := range got {
			if int(is["id"].(float64)) != tc.ids[i] {
				t.Errorf("%s: item %d id %v, want %d", tc.path, i, is["id"], tc.ids[i])
			}
			if is["issueCategory"] == nil || is["userReported"] == nil {
				t.Errorf("%s: issue %v lacks issueCategory or userReported", tc.path, is["id"])
			}
			if is["severityHint"] == nil && is["id"].(float64) == 1 {
				t.Errorf("%s: undocumented field severityHint dropped", tc.path)
			}
		}
	}
	res := do(t, s, call{method: "GET", path: "/api/v1/Issues/10/0/0", header: actingAs("user")})
	for _, name := range []string{"access_token_user", "email_user", "access_token_admin", "media_server_token_plexfan"} {
		if v := canaryValueOf(t, s, name); !strings.Contains(string(res.body), v) {
			t.Errorf("issue list lacks canary %s in userReported", name)
		}
	}
	bad := do(t, s, call{method: "GET", path: "/api/v1/Issues/10/0/bogus", header: actingAs("user")})
	mustStatus(t, bad, http.StatusBadRequest)
}

func TestIssuesLifecycle(t *testing.T) {
	s := newTestServer(t, Options{})
	res := do(t, s, call{method: "POST", path: "/api/v1/Issues", header: actingAs("user"),
		body: `{"title":"Dune: Part Two","requestType":1,"providerId":"693134","requestId":6,"subject":"Wrong language","description":"German audio","issueCategoryId":1}`})
	mustStatus(t, res, http.StatusOK)
	if got := strings.TrimSpace(string(res.body)); got != "6" {
		t.Fatalf("create answered %q, want bare id 6", got)
	}

	var is map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Issues/6", header: actingAs("power")}).json(t, &is)
	reporter, _ := is["userReported"].(map[string]any)
	if reporter == nil || reporter["userName"] != "user" || is["status"].(float64) != 0 || is["resovledDate"] != nil {
		t.Fatalf("new issue = %v", is)
	}

	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Issues/comments", header: actingAs("admin"), body: `{"comment":"On it","issueId":6}`}), http.StatusOK)
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Issues/comments", header: actingAs("admin"), body: `{"comment":"x","issueId":999}`}), http.StatusNoContent)
	var comments []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Issues/6/comments", header: actingAs("user")}).json(t, &comments)
	if len(comments) != 1 || comments[0]["comment"] != "On it" || comments[0]["username"] != "admin" || comments[0]["adminComment"] != true {
		t.Fatalf("comments = %v", comments)
	}

	var count map[string]int
	do(t, s, call{method: "GET", path: "/api/v1/Issues/count", header: actingAs("user")}).json(t, &count)
	if count["pending"] != 4 || count["inProgress"] != 1 || count["resolved"] != 1 {
		t.Fatalf("count = %v", count)
	}
	res = do(t, s, call{method: "POST", path: "/api/v1/Issues/status", header: actingAs("user"), body: `{"issueId":6,"status":2}`})
	if strings.TrimSpace(string(res.body)) != "true" {
		t.Fatalf("status answered %s", res.body)
	}
	do(t, s, call{method: "GET", path: "/api/v1/Issues/6", header: actingAs("user")}).json(t, &is)
	if is["resovledDate"] != testNow.Format(time.RFC3339) || is["status"].(float64) != 2 {
		t.Fatalf("resolved issue = %v", is)
	}
	do(t, s, call{method: "GET", path: "/api/v1/Issues/count", header: actingAs("user")}).json(t, &count)
	if count["pending"] != 3 || count["resolved"] != 2 {
		t.Fatalf("count after resolve = %v", count)
	}
	res = do(t, s, call{method: "POST", path: "/api/v1/Issues/status", header: actingAs("user"), body: `{"issueId":404,"status":2}`})
	if strings.TrimSpace(string(res.body)) != "false" {
		t.Fatalf("status of missing issue answered %s", res.body)
	}

	for _, want := range []string{"true", "false"} {
		res = do(t, s, call{method: "DELETE", path: "/api/v1/Issues/6", header: actingAs("power")})
		if strings.TrimSpace(string(res.body)) != want {
			t.Fatalf("delete answered %s, want %s", res.body, want)
		}
	}
	mustStatus(t, do(t, s, call{method: "GET", path: "/api/v1/Issues/6", header: actingAs("user")}), http.StatusNoContent)
}

func TestIssueCategoriesAndComments(t *testing.T) {
	s := newTestServer(t, Options{})
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Issues/categories", header: actingAs("power"), body: `{"value":"Bad Cut"}`}), http.StatusOK)
	var cats []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Issues/categories", header: actingAs("user")}).json(t, &cats)
	if len(cats) != 6 || cats[5]["value"] != "Bad Cut" || cats[5]["id"].(float64) != 6 {
		t.Fatalf("categories = %v", cats)
	}
	mustStatus(t, do(t, s, call{method: "DELETE", path: "/api/v1/Issues/categories/6", header: actingAs("power")}), http.StatusOK)
	mustStatus(t, do(t, s, call{method: "DELETE", path: "/api/v1/Issues/categories/6", header: actingAs("power")}), http.StatusInternalServerError)
	mustStatus(t, do(t, s, call{method: "DELETE", path: "/api/v1/Issues/comments/1", header: actingAs("power")}), http.StatusOK)
	var comments []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Issues/1/comments", header: actingAs("user")}).json(t, &comments)
	if len(comments) != 1 || comments[0]["id"].(float64) != 2 {
		t.Fatalf("comments after delete = %v", comments)
	}
}

func TestIssuesV2SummaryAndDetails(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		path string
		want []string // title:count:providerId
	}{
		{"/api/v2/Issues/0/10/0", []string{"Dune: Part Two:1:693134", "The Mandalorian:1:82856"}},
		{"/api/v2/Issues/1/10/0", []string{"The Mandalorian:1:82856"}},
		{"/api/v2/Issues/0/1/0", []string{"Dune: Part Two:1:693134"}},
		{"/api/v2/Issues/0/10/2", []string{"Severance:1:95396"}},
	}
	for _, tc := range tests {
		var got []map[string]any
		do(t, s, call{method: "GET", path: tc.path, header: actingAs("user")}).json(t, &got)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %v, want %v", tc.path, got, tc.want)
		}
		for i, g := range got {
			key := fmt.Sprintf("%v:%v:%v", g["title"], g["count"], g["providerId"])
			if key != tc.want[i] || g["issues"] != nil {
				t.Errorf("%s: item %d = %v, want %s with issues null", tc.path, i, g, tc.want[i])
			}
		}
	}
	var details map[string]any
	res := do(t, s, call{method: "GET", path: "/api/v2/Issues/details/693134", header: actingAs("user")})
	res.json(t, &details)
	list, _ := details["issues"].([]any)
	if len(list) != 2 || details["count"].(float64) != 2 {
		t.Fatalf("details = %v", details)
	}
	first := list[0].(map[string]any)
	if cs, _ := first["comments"].([]any); len(cs) != 2 || cs[0].(map[string]any)["user"] == nil {
		t.Fatalf("details comments = %v", first["comments"])
	}
	if !strings.Contains(string(res.body), canaryValueOf(t, s, "access_token_power")) {
		t.Error("details lack the reporter's access token canary")
	}
	mustStatus(t, do(t, s, call{method: "GET", path: "/api/v2/Issues/details/0000", header: actingAs("user")}), http.StatusNoContent)
}

func TestIssuesLargeDataSet(t *testing.T) {
	s := newTestServer(t, Options{DataSet: DataSetLarge})
	var count map[string]int
	do(t, s, call{method: "GET", path: "/api/v1/Issues/count", header: actingAs("user")}).json(t, &count)
	if total := count["pending"] + count["inProgress"] + count["resolved"]; total < 2000 {
		t.Fatalf("large set has %d issues, want at least 2000", total)
	}
	var page []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Issues/50/100/0", header: actingAs("user")}).json(t, &page)
	if len(page) != 50 {
		t.Fatalf("large page has %d issues, want 50", len(page))
	}
}

func TestDomainsConcurrentWrites(t *testing.T) {
	s := newTestServer(t, Options{})
	uid := userID(t, s, "user")
	const workers = 8
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			who := []string{"user", "power", "admin"}[i%3]
			steps := []call{
				{method: "POST", path: "/api/v1/Issues", header: actingAs(who), body: `{"title":"T","requestType":1,"providerId":"9","subject":"s","description":"d","issueCategoryId":1}`},
				{method: "POST", path: "/api/v1/Issues/comments", header: actingAs(who), body: `{"comment":"c","issueId":1}`},
				{method: "POST", path: "/api/v1/Vote/up/movie/10", header: actingAs(who)},
				{method: "GET", path: "/api/v1/Identity/notificationpreferences/" + uid},
				{method: "POST", path: "/api/v1/Settings/customization", header: actingAs("admin"), body: `{"applicationName":"Ombi ` + fmt.Sprint(i) + `"}`},
				{method: "GET", path: "/api/v1/Settings/customization"},
				{method: "GET", path: "/api/v2/Issues/0/50/0", header: actingAs(who)},
			}
			for _, c := range steps {
				if res := do(t, s, c); res.status != http.StatusOK {
					t.Errorf("%s %s: status %d", c.method, c.path, res.status)
				}
			}
		}()
	}
	wg.Wait()
	var count map[string]int
	do(t, s, call{method: "GET", path: "/api/v1/Issues/count", header: actingAs("user")}).json(t, &count)
	if count["pending"] != 3+workers {
		t.Errorf("pending issues = %d, want %d", count["pending"], 3+workers)
	}
	var comments []any
	do(t, s, call{method: "GET", path: "/api/v1/Issues/1/comments", header: actingAs("user")}).json(t, &comments)
	if len(comments) != 2+workers {
		t.Errorf("comments on issue 1 = %d, want %d", len(comments), 2+workers)
	}
	var votes []any
	do(t, s, call{method: "GET", path: "/api/v1/Vote/movie/10", header: actingAs("user")}).json(t, &votes)
	if len(votes) != 3 {
		t.Errorf("votes on movie 10 = %d, want one per distinct user (3)", len(votes))
	}
}

func TestIssuesV2SummaryPagesIssuesThenGroups(t *testing.T) {
	s := newTestServer(t, Options{})
	for _, body := range []string{
		`{"title":"Alien","requestType":1,"providerId":"348","subject":"s","description":"d","issueCategoryId":1}`,
		`{"title":"Dune: Part Two","requestType":1,"providerId":"693134","subject":"s","description":"d","issueCategoryId":1}`,
	} {
		mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Issues", header: actingAs("user"), body: body}), http.StatusOK)
	}
	tests := []struct {
		path string
		want string
	}{
		{"/api/v2/Issues/0/10/0", "Alien:1:348,Dune: Part Two:2:693134,The Mandalorian:1:82856"},
		{"/api/v2/Issues/2/2/0", "Alien:1:348,Dune: Part Two:1:693134"},
		{"/api/v2/Issues/0/1/Pending", "Dune: Part Two:1:693134"},
		{"/api/v2/Issues/9/10/0", ""},
	}
	for _, tc := range tests {
		var got []map[string]any
		do(t, s, call{method: "GET", path: tc.path, header: actingAs("user")}).json(t, &got)
		var keys []string
		for _, g := range got {
			keys = append(keys, fmt.Sprintf("%v:%v:%v", g["title"], g["count"], g["providerId"]))
		}
		if strings.Join(keys, ",") != tc.want {
			t.Errorf("%s = %v, want %s", tc.path, keys, tc.want)
		}
	}
}

// TestIssues_addCommentAnswersUser models IssuesController.AddComment
// (src/Ombi/Controllers/V1/IssuesController.cs): the new IssueComments row
// comes back after _issueComments.Add with its navigations fixed up by EF to
// the tracked caller (user) and issue (issues, loaded with UserReported and
// IssueCategory); the issue's comments hold only the new row, a loop
// Newtonsoft drops ([]). The issue chat reads comment.user.
func TestIssues_addCommentAnswersUser(t *testing.T) {
	s := newTestServer(t, Options{})
	var c map[string]any
	getJSON(t, s, call{method: "POST", path: "/api/v1/Issues/comments", header: asPower(t, s), body: `{"comment":"on it","issueId":1}`}, &c)
	user, ok := c["user"].(map[string]any)
	if !ok || user["userName"] != "power" || user["id"] != c["userId"] {
		t.Fatalf("comment user = %v (userId %v), want the caller's OmbiUser", c["user"], c["userId"])
	}
	issue, ok := c["issues"].(map[string]any)
	if !ok || issue["id"] != float64(1) || issue["userReported"] == nil || issue["issueCategory"] == nil {
		t.Fatalf("comment issues = %v, want issue 1 with userReported and issueCategory", c["issues"])
	}
	if cs, ok := issue["comments"].([]any); !ok || len(cs) != 0 {
		t.Errorf("issues.comments = %v, want [] (the new comment is a reference loop)", issue["comments"])
	}
	if c["comment"] != "on it" || c["issuesId"] != float64(1) {
		t.Errorf("comment = %v", c)
	}
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Issues/comments", header: asPower(t, s), body: `{"comment":"x","issueId":999}`}), http.StatusNoContent)
}
