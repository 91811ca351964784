package mockombi

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// uiCall is one line of testdata/ui-service-calls.txt.
type uiCall struct {
	method, path, origin string
	// ombi is false for calls Ombi's controllers do not route (404
	// upstream too); why says so.
	ombi bool
	why  string
}

// readUICalls reads the UI's service calls.
func readUICalls(t *testing.T) []uiCall {
	t.Helper()
	f, err := os.Open("testdata/ui-service-calls.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []uiCall
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			t.Fatalf("ui-service-calls.txt: want 4 tab-separated columns, got %q", line)
		}
		c := uiCall{method: cols[0], path: cols[1], origin: cols[2], ombi: cols[3] == "ombi"}
		if !c.ombi {
			why, ok := strings.CutPrefix(cols[3], "none: ")
			if !ok {
				t.Fatalf("ui-service-calls.txt: status %q is neither ombi nor none: <why>", cols[3])
			}
			c.why = why
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// uiParamValues fills the UI's path placeholders with values the seed
// holds, so a routed call reaches its handler with a record to work on.
var uiParamValues = map[string]string{
	"machineId": "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4", "media": "movie", "keywordId": "9715",
	"cat": "1", "requestId": "1", "providerId": "603", "take": "10", "skip": "0", "status": "0", "position": "0",
	"count": "10", "order": "0", "statusFilter": "0", "availabilityFilter": "0", "availability": "0",
	"sortProperty": "requestedDate", "type": "1", "is4K": "false", "collectionId": "2344", "failedId": "1",
	"searchTerm": "matrix", "search": "matrix", "theMovieDbId": "603", "imdbId": "tt0133093", "tvdbid": "81189",
	"movieDbId": "603", "theTvDbId": "81189", "foreignArtistId": "a74b1b7f-71a5-4011-9441-d0b5e4122711",
	"foreignAlbumId": "b1392450-e666-3926-a536-22c65f834433", "artistId": "a74b1b7f-71a5-4011-9441-d0b5e4122711",
	"mbid": "b1392450-e666-3926-a536-22c65f834433", "name": "The%20Matrix", "year": "1999", "actorId": "6384",
	"currentlyLoaded": "0", "toLoad": "10", "logName": "log20261129.txt", "childId": "1", "rootFolderId": "1",
	"qualityId": "1", "request": "1", "pin": "1", "id": "1",
}

var uiPlaceholder = regexp.MustCompile(`\{([^}]*)\}`)

// uiPath fills a call's placeholders; {id} and {userId} of Identity calls
// are the seeded admin's id.
func uiPath(c uiCall, adminID string) string {
	return uiPlaceholder.ReplaceAllStringFunc(c.path, func(m string) string {
		name := m[1 : len(m)-1]
		if name == "userId" || name == "id" && strings.Contains(c.path, "/Identity/") {
			return adminID
		}
		if v, ok := uiParamValues[name]; ok {
			return v
		}
		return "1"
	})
}

// TestUIServiceCalls_routed sends every API call of Ombi's web UI services
// (testdata/ui-service-calls.txt) as the admin: each call Ombi routes must
// reach a mock route and answer neither 404 nor 405; one the mock
// deliberately leaves out answers 501 with a JSON error naming it; one Ombi
// does not route answers 404, as Ombi does.
func TestUIServiceCalls_routed(t *testing.T) {
	calls := readUICalls(t)
	s := newTestServer(t, Options{})
	var adminID string
	s.store.Read(func(st *store) { adminID = st.Users.ByName("admin").ID })
	routed, omitted, notInOmbi := 0, 0, 0
	for _, c := range calls {
		path := uiPath(c, adminID)
		body := ""
		if c.method == http.MethodPost || c.method == http.MethodPut {
			body = "{}"
		}
		s.ClearJournal()
		res := do(t, s, call{method: c.method, path: path, header: actingAs("admin"), body: body})
		j := s.Journal()
		route := ""
		if len(j) > 0 {
			route = j[len(j)-1].Route
		}
		switch {
		case !c.ombi:
			notInOmbi++
			if res.status != http.StatusNotFound || route != "" {
				t.Errorf("%s %s (%s): Ombi has no route (%s), so want 404 unrouted; got %d via %q", c.method, path, c.origin, c.why, res.status, route)
			}
		case res.status == http.StatusNotImplemented:
			omitted++
			var e struct {
				Error string `json:"error"`
			}
			if json.Unmarshal(res.body, &e) != nil || !strings.Contains(e.Error, "mockombi does not model") {
				t.Errorf("%s %s (%s): 501 without a JSON error naming what is left out: %s", c.method, path, c.origin, truncate(string(res.body), 200))
			}
		case route == "" || res.status == http.StatusNotFound || res.status == http.StatusMethodNotAllowed:
			t.Errorf("%s %s (%s): Ombi routes it; the mock answered %d via route %q: %s", c.method, path, c.origin, res.status, route, truncate(string(res.body), 200))
		default:
			routed++
		}
		if c.method != http.MethodGet {
			s.Reset() // writes never leak into the next call
		}
	}
	t.Logf("UI service calls: %d routed, %d deliberately 501, %d not routed by Ombi either (404), %d in all", routed, omitted, notInOmbi, len(calls))
	if routed+omitted+notInOmbi != len(calls) {
		t.Errorf("only %d of %d UI calls behave as Ombi's routing does", routed+omitted+notInOmbi, len(calls))
	}
}
