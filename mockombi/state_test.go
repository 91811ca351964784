package mockombi

import (
	"bytes"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/fixtures"
)

// exampleData is the data file shipped as the documented example.
const exampleData = "testdata/example-data.json"

// newDataServer builds a mock from a data file with the fixed test clock.
func newDataServer(t *testing.T, file string) *Server {
	t.Helper()
	s, err := New(Options{DataFile: file, Clock: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// stateOf is the exported data document of s.
func stateOf(t *testing.T, s *Server) []byte {
	t.Helper()
	res := do(t, s, call{method: "GET", path: "/_mock/state"})
	if res.status != 200 {
		t.Fatalf("GET /_mock/state = %d %s", res.status, res.body)
	}
	var b bytes.Buffer
	if err := s.WriteState(&b); err != nil || !bytes.Equal(b.Bytes(), res.body) {
		t.Fatalf("WriteState differs from GET /_mock/state (%v)", err)
	}
	return res.body
}

func TestState_exampleFileServesItsData(t *testing.T) {
	s := newDataServer(t, exampleData)
	c := s.Credentials()
	var logins []string
	for _, u := range c.Users {
		logins = append(logins, u.Username+":"+u.Password+":"+u.Role)
	}
	if got := strings.Join(logins, " "); got != "admin:ExampleAdmin1!:admin alice:ExampleAlice1!:power_user bob:ExampleBob1!:user" {
		t.Fatalf("logins = %s", got)
	}
	alice := login(t, s, "alice", "ExampleAlice1!")
	admin := login(t, s, "admin", "ExampleAdmin1!")
	if res := do(t, s, call{method: "POST", path: "/api/v1/Token", body: `{"username":"user","password":"OmbiUser1!"}`}); res.status != 401 {
		t.Errorf("a default account still logs in: %d", res.status)
	}
	var movies []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Search/movie/arrival", header: alice}).json(t, &movies)
	if len(movies) != 1 || movies[0]["title"] != "Arrival" || movies[0]["requested"] != true || movies[0]["available"] != true {
		t.Errorf("search arrival = %v", movies)
	}
	var page struct {
		Collection []map[string]any `json:"collection"`
		Total      int              `json:"total"`
	}
	do(t, s, call{method: "GET", path: "/api/v2/Requests/movie/10/0/requestedDate/desc", header: admin}).json(t, &page)
	if page.Total != 2 || page.Collection[0]["title"] != "Blade Runner 2049" {
		t.Errorf("movie requests = %d %v", page.Total, page.Collection)
	}
	users := do(t, s, call{method: "GET", path: "/api/v1/Identity/Users", header: admin})
	if users.status != 200 || !strings.Contains(string(users.body), `"carol"`) || strings.Contains(string(users.body), "ExampleBob1!") {
		t.Errorf("users = %d %s", users.status, truncate(string(users.body), 300))
	}
	var cust map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Settings/customization"}).json(t, &cust)
	if cust["applicationName"] != "Example Ombi" {
		t.Errorf("customization = %v", cust)
	}
	var about map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Settings/about", header: admin}).json(t, &about)
	if about["version"] == nil {
		t.Errorf("a section the file leaves out is not the built-in one: %v", about)
	}
	var in mockInfo
	do(t, s, call{method: "GET", path: "/_mock/info"}).json(t, &in)
	if in.DataSet != "data file "+exampleData || in.Counts["movies"] != 4 || in.Counts["shows"] != 2 || in.Counts["tv_child_requests"] != 1 {
		t.Errorf("info = %+v", in)
	}
	// Reset goes back to the file
	do(t, s, call{method: "POST", path: "/api/v1/Request/movie", header: alice, body: `{"theMovieDbId":438631}`})
	s.Reset()
	do(t, s, call{method: "GET", path: "/_mock/info"}).json(t, &in)
	if in.Counts["movie_requests"] != 2 {
		t.Errorf("after reset %d movie requests, want the file's 2", in.Counts["movie_requests"])
	}
}

func TestState_roundTrip(t *testing.T) {
	s := newDataServer(t, exampleData)
	admin := login(t, s, "admin", "ExampleAdmin1!")
	alice := login(t, s, "alice", "ExampleAlice1!")
	bob := login(t, s, "bob", "ExampleBob1!")
	changes := []struct {
		c    call
		want string
	}{
		{call{method: "POST", path: "/api/v1/Request/movie", header: alice, body: `{"theMovieDbId":438631}`}, `"result":true`},
		{call{method: "POST", path: "/api/v1/Request/movie/approve", header: admin, body: `{"id":2}`}, `"result":true`},
		{call{method: "POST", path: "/api/v2/Requests/tv", header: bob, body: `{"theMovieDbId":63639,"requestAll":true}`}, `"result":true`},
		{call{method: "POST", path: "/api/v1/request/music", header: bob, body: `{"foreignAlbumId":"00000000-0000-4000-9000-000000000102"}`}, `"result":true`},
		{call{method: "POST", path: "/api/v1/Identity", header: admin, body: `{"userName":"dave","password":"DavePass1!","emailAddress":"dave@example.test",` +
			`"claims":[{"value":"RequestMovie","enabled":true}]}`}, `"successful":true`},
		{call{method: "PUT", path: "/api/v1/Identity", header: admin, body: `{"id":"9b1c7d0e-0000-4000-8000-000000000003","alias":"Bobby","emailAddress":"bob@example.test",` +
			`"movieRequestLimit":7,"claims":[{"value":"RequestMovie","enabled":true},{"value":"RequestTv","enabled":true}]}`}, `"successful":true`},
		{call{method: "POST", path: "/api/v1/Issues/comments", header: bob, body: `{"comment":"Still missing.","issueId":1}`}, `"comment"`},
		{call{method: "POST", path: "/api/v1/Vote/up/movie/3", header: bob}, `"result":true`},
		{call{method: "POST", path: "/api/v1/Settings/customization", header: admin, body: `{"applicationName":"Renamed","applicationUrl":"http://127.0.0.1:5000"}`}, `true`},
	}
	for _, ch := range changes {
		res := do(t, s, ch.c)
		if res.status != 200 || !strings.Contains(string(res.body), ch.want) {
			t.Fatalf("%s %s = %d %s", ch.c.method, ch.c.path, res.status, truncate(string(res.body), 300))
		}
	}
	exported := stateOf(t, s)
	for _, want := range []string{`"theMovieDbId": 438631`, `"userName": "dave"`, `"password": "DavePass1!"`, `"alias": "Bobby"`,
		`"movieRequestLimit": 7`, `"Still missing."`, `"applicationName": "Renamed"`, `"The Expanse"`, `"Random Access Memories"`} {
		if !bytes.Contains(exported, []byte(want)) {
			t.Errorf("export lacks %s", want)
		}
	}

	// reload from a file: same state, same answers, the new login works
	file := filepath.Join(t.TempDir(), "exported.json")
	if err := os.WriteFile(file, exported, 0o600); err != nil {
		t.Fatal(err)
	}
	r := newDataServer(t, file)
	if again := stateOf(t, r); !bytes.Equal(again, exported) {
		t.Fatalf("reloaded state differs:\n%s", firstDiff(exported, again))
	}
	rAdmin := login(t, r, "admin", "ExampleAdmin1!")
	for _, p := range []string{"/api/v2/Requests/movie/10/0/requestedDate/desc", "/api/v2/Requests/tv/10/0/requestedDate/desc",
		"/api/v1/request/music", "/api/v1/Identity/Users", "/api/v1/Issues", "/api/v1/Vote", "/api/v1/Settings/customization"} {
		a, b := do(t, s, call{method: "GET", path: p, header: admin}), do(t, r, call{method: "GET", path: p, header: rAdmin})
		if a.status != 200 || a.status != b.status || !bytes.Equal(a.body, b.body) {
			t.Errorf("GET %s differs after the round trip: %d vs %d\n%s", p, a.status, b.status, firstDiff(a.body, b.body))
		}
	}
	login(t, r, "dave", "DavePass1!")
	// and through POST /_mock/state onto a server started with the default set
	d := newTestServer(t, Options{})
	res := do(t, d, call{method: "POST", path: "/_mock/state", body: string(exported)})
	var in mockInfo
	res.json(t, &in)
	if res.status != 200 || in.DataSet != "state" || in.Counts["users"] != 6 {
		t.Fatalf("POST /_mock/state = %d %s", res.status, res.body)
	}
	if again := stateOf(t, d); !bytes.Equal(again, exported) {
		t.Fatalf("posted state differs:\n%s", firstDiff(exported, again))
	}
	if c := d.Credentials(); len(c.Users) != 4 || c.Users[3].Username != "dave" {
		t.Errorf("credentials after POST /_mock/state = %+v", c.Users)
	}
}

func TestState_builtInSetsRoundTrip(t *testing.T) {
	s := newTestServer(t, Options{})
	exported := stateOf(t, s)
	if err := s.ReplaceState(exported); err != nil {
		t.Fatal(err)
	}
	if again := stateOf(t, s); !bytes.Equal(again, exported) {
		t.Fatalf("default set differs after a round trip:\n%s", firstDiff(exported, again))
	}
	if c := s.Credentials(); len(c.Users) != 3 || c.Users[0] != (CredentialUser{Username: "admin", Password: "OmbiAdmin1!", Role: RoleAdmin}) {
		t.Errorf("credentials = %+v", c.Users)
	}
	if testing.Short() || raceEnabled {
		return // the large set takes seconds to export and check, a minute under -race
	}
	l := newTestServer(t, Options{DataSet: DataSetLarge})
	var b bytes.Buffer
	if err := l.WriteState(&b); err != nil {
		t.Fatal(err)
	}
	if _, err := parseState(b.Bytes(), "large", nil); err != nil {
		t.Fatalf("the large set does not validate: %v", err)
	}
}

func TestState_validationNamesThePath(t *testing.T) {
	user := `{"id":"u1","userName":"ann","roles":["Admin"],"password":"pw"}`
	tests := []struct {
		name, doc, want string
	}{
		{"not an object", `[]`, "$: want an object with version, movies"},
		{"syntax", "{\n  \"movies\": [,]\n}", "$: invalid JSON at line 2, column 14"},
		{"cut short", `{"movies": [`, "$: the document ends early"},
		{"two values", `{} {}`, "$: more than one JSON value"},
		{"unknown section", `{"moviez": []}`, "$.moviez: unknown section; want one of version, movies"},
		{"version", `{"version": 2}`, "$.version: 2 is not supported; want 1"},
		{"id as text", `{"movies":[{"theMovieDbId":"603","title":"The Matrix"}]}`, `$.movies[0].theMovieDbId: want an integer, got the string "603"`},
		{"fractional id", `{"movies":[{"theMovieDbId":6.5,"title":"x"}]}`, `$.movies[0].theMovieDbId: want an integer, got the number 6.5`},
		{"missing title", `{"movies":[{"theMovieDbId":603}]}`, "$.movies[0].title: required"},
		{"duplicate movie", `{"movies":[{"theMovieDbId":603,"title":"a"},{"theMovieDbId":603,"title":"b"}]}`, "$.movies[1].theMovieDbId: 603 is already used by $.movies[0]"},
		{"typo", `{"movies":[{"theMovieDbId":603,"title":"a","tittle":"b"}]}`, `$.movies[0].tittle: unknown field; put undocumented fields under "extra"`},
		{"bad date", `{"movies":[{"theMovieDbId":603,"title":"a","releaseDate":"31/03/1999"}]}`, `$.movies[0].releaseDate: want an RFC 3339 date-time`},
		{"dangling collection", `{"movies":[{"theMovieDbId":603,"title":"a","collectionId":9}]}`, "$.movies[0].collectionId: no collection 9 in $.collections"},
		{"dangling cast", `{"movies":[{"theMovieDbId":603,"title":"a","cast":[1]}]}`, "$.movies[0].cast[0]: no person 1 in $.people"},
		{"episode number", `{"shows":[{"theMovieDbId":1,"tvDbId":2,"title":"s","seasons":[{"seasonNumber":1,"episodes":[{"episodeNumber":1},{"episodeNumber":"2"}]}]}]}`,
			`$.shows[0].seasons[0].episodes[1].episodeNumber: want an integer, got the string "2"`},
		{"duplicate episode", `{"shows":[{"theMovieDbId":1,"tvDbId":2,"title":"s","seasons":[{"seasonNumber":1,"episodes":[{"episodeNumber":1},{"episodeNumber":1}]}]}]}`,
			"$.shows[0].seasons[0].episodes[1].episodeNumber: 1 is already used by $.shows[0].seasons[0].episodes[0]"},
		{"show without tvdb", `{"shows":[{"theMovieDbId":1,"title":"s"}]}`, "$.shows[0].tvDbId: required"},
		{"album id", `{"artists":[{"foreignArtistId":"a","artistName":"A","albums":[{"title":"x"}]}]}`, "$.artists[0].albums[0].foreignAlbumId: required"},
		{"unknown role", `{"users":[{"id":"u1","userName":"ann","roles":["Root"]}]}`, `$.users[0].roles[0]: unknown role "Root"`},
		{"duplicate user name", `{"users":[` + user + `,{"id":"u2","userName":"ANN"}]}`, `$.users[1].userName: ann is already used by $.users[0]`},
		{"password as number", `{"users":[{"id":"u1","userName":"ann","password":1234}]}`, "$.users[0].password: want a string, got the number 1234"},
		{"unknown requester", `{"users":[` + user + `],"requests":{"movies":[{"id":1,"theMovieDbId":603,"requestedUserId":"nobody"}]}}`,
			`$.requests.movies[0].requestedUserId: no user with id "nobody" in $.users`},
		{"child request", `{"requests":{"tv":[{"id":1,"tvDbId":2,"childRequests":[{"id":0}]}]}}`, "$.requests.tv[0].childRequests[0].id: required"},
		{"requests as list", `{"requests":[]}`, "$.requests: want an object, got an array"},
		{"issue category", `{"issues":{"categories":[{"id":1,"value":"a"}],"issues":[{"id":1,"issueCategoryId":2}]}}`, "$.issues.issues[0].issueCategoryId: no category 2"},
		{"vote id", `{"votes":[{"requestId":1}]}`, "$.votes[0].id: required"},
		{"settings section", `{"settings":{"ombi":3}}`, "$.settings.ombi: want an object, got the number 3"},
		{"features as object", `{"settings":{"features":{}}}`, "$.settings.features: want an array, got an object"},
		{"settings member typo", `{"settings":{"vote":{"enabled":true,"movieVoteMaxx":2}}}`, "$.settings.vote.movieVoteMaxx: unknown field"},
		{"settings member type", `{"settings":{"vote":{"movieVoteMax":"2"}}}`, `$.settings.vote.movieVoteMax: want an integer, got the string "2"`},
		{"nested settings member", `{"settings":{"plex":{"servers":[{"name":"a","plexAuthTokn":"t"}]}}}`, "$.settings.plex.servers[0].plexAuthTokn: unknown field"},
		{"template member", `{"settings":{"notifications/slack":{"notificationTemplates":[{"agent":5,"mesage":"m"}]}}}`,
			`$.settings["notifications/slack"].notificationTemplates[0].mesage: unknown field`},
		{"ratings member", `{"movies":[{"theMovieDbId":603,"title":"a","ratings":{"critics_scor":90}}]}`, "$.movies[0].ratings.critics_scor: unknown field"},
		{"streaming order", `{"movies":[{"theMovieDbId":603,"title":"a","streaming":[{"order":"1"}]}]}`, `$.movies[0].streaming[0].order: want an integer, got the string "1"`},
		{"network member", `{"shows":[{"theMovieDbId":1,"tvDbId":2,"title":"s","network":{"id":1,"origin_country":"US"}}]}`, "$.shows[0].network.origin_country: unknown field"},
		{"artist member", `{"artists":[{"foreignArtistId":"a","artistName":"A","members":[{"name":"x","isActiv":true}]}]}`, "$.artists[0].members[0].isActiv: unknown field"},
		{"unknown settings section", `{"settings":{"notifications/sms":{}}}`, `$.settings["notifications/sms"]: unknown field`},
		{"odd settings key", `{"settings":{"notifications/email":"x"}}`, `$.settings["notifications/email"]: want an object`},
		{"many problems", `{"movies":[{},{},{}]}`, "(and 5 more problems)"},
		{"shape and semantics together", `{"movies":[{"theMovieDbId":"603"}],"users":[{"id":"u1","userName":"ann","roles":["Root"]}]}`,
			`$.movies[0].theMovieDbId: want an integer, got the string "603" (and 1 more problem)`},
		{"no references into a broken section", `{"users":[{"id":1}],"requests":{"movies":[{"id":1,"theMovieDbId":603,"requestedUserId":"u1"}]}}`,
			`$.users[0].id: want a string, got the number 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseState([]byte(tt.doc), "test", nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				var se *StateError
				if errors.As(err, &se) {
					t.Fatalf("problems = %q, want one containing %q", se.Problems, tt.want)
				}
				t.Fatalf("parseState = %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := parseState([]byte(`{"users":[{"id":1}],"requests":{"movies":[{"id":1,"theMovieDbId":603,"requestedUserId":"u1"}]}}`), "test", nil); err == nil ||
		err.Error() != "test: $.users[0].id: want a string, got the number 1" {
		t.Errorf("a broken users section also failed the references into it: %v", err)
	}
	// a minimal document is enough
	if _, err := parseState([]byte(`{"users":[`+user+`]}`), "test", nil); err != nil {
		t.Errorf("minimal document: %v", err)
	}
}

func TestState_badDocumentsLeaveTheStoreAlone(t *testing.T) {
	s := newTestServer(t, Options{})
	before := stateOf(t, s)
	res := do(t, s, call{method: "POST", path: "/_mock/state", body: `{"movies":[{"theMovieDbId":"x"}]}`})
	var e struct {
		Error    string   `json:"error"`
		Problems []string `json:"problems"`
	}
	res.json(t, &e)
	if res.status != 400 || len(e.Problems) != 1 || !strings.HasPrefix(e.Error, "state: $.movies[0].theMovieDbId") {
		t.Fatalf("POST bad state = %d %+v", res.status, e)
	}
	if after := stateOf(t, s); !bytes.Equal(before, after) {
		t.Fatal("a refused document changed the store")
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"shows":[{"theMovieDbId":1,"tvDbId":2,"title":"s","seasons":{}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := New(Options{DataFile: bad})
	if err == nil || !strings.Contains(err.Error(), "bad.json: $.shows[0].seasons: want an array, got an object") {
		t.Fatalf("New(bad file) = %v", err)
	}
}

// firstDiff shows where two byte strings part.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-200)
	return "want ..." + string(a[from:min(len(a), i+200)]) + "\ngot  ..." + string(b[from:min(len(b), i+200)])
}

// TestState_builtInSettingsAreOmbis: the built-in settings, given as a
// data document's settings section, pass its check member by member: every
// member of every section is one of Ombi's models (or one of the two the
// types declare as planted: ombi's legacyTelemetry, customization's
// themeHints), with a value of the model's type.
func TestState_builtInSettingsAreOmbis(t *testing.T) {
	b, err := fs.ReadFile(fixtures.Ombi(), "ombi/settings.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := append(append([]byte(`{"settings":`), b...), '}')
	if _, err := parseState(doc, "built-in settings", nil); err != nil {
		t.Fatal(err)
	}
}

// TestState_restoreKeepsPostedSettings: a settings body a client posted is
// saved as posted, members Ombi's model lacks among them; RestoreState takes
// the mock's own export back with them, while a data file may not carry
// them.
func TestState_restoreKeepsPostedSettings(t *testing.T) {
	s := newTestServer(t, Options{})
	admin := actingAs("admin")
	body := `{"enabled":true,"movieVoteMax":"3","title":"T"}`
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Settings/vote", header: admin, body: body}), http.StatusOK)
	if res := do(t, s, call{method: "GET", path: "/api/v1/Settings/vote", header: admin}); string(res.body) != `{"enabled":true,"id":6,"movieVoteMax":"3","title":"T"}` {
		t.Errorf("GET Settings/vote = %s", res.body)
	}
	exported := stateOf(t, s)
	if err := s.RestoreState(exported); err != nil {
		t.Fatalf("RestoreState of the export: %v", err)
	}
	if again := stateOf(t, s); !bytes.Equal(again, exported) {
		t.Fatalf("restored state differs:\n%s", firstDiff(exported, again))
	}
	_, err := parseState(exported, "exported", nil)
	if err == nil || !strings.Contains(err.Error(), "$.settings.vote.movieVoteMax: want an integer") {
		t.Errorf("as a data file: %v", err)
	}
}
