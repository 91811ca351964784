package mockombi

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// transcriptOut, when set, is the file TestTranscript_everyRoute writes its
// transcript to: run it before and after a change to the mock and diff the
// two files to show the answers did not move.
//
//	go test -count=1 -run TestTranscript_everyRoute ./mockombi/ -args -transcript=/path/answers.txt
var transcriptOut = flag.String("transcript", "", "file the answers of TestTranscript_everyRoute are written to")

// transcriptBodyLimit is the longest body the transcript holds whole; a
// longer one is written as its length and SHA-256.
const transcriptBodyLimit = 64 << 10

// transcriptRandom are the parts of an answer that differ run to run on
// the same code: ProblemDetails trace ids and signed tokens.
var transcriptRandom = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`00-[0-9a-f]{32}-[0-9a-f]{16}-00`), "TRACE"},
	{regexp.MustCompile(`eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*`), "JWT"},
}

// TestTranscript_everyRoute walks a fixed script over every route of the
// route table on each built-in data set and the example data file: for
// each route, reads and writes with values taken from the data, with
// unknown values, with an empty and a malformed body, without credentials
// and as a plain user; then the state export. It fails when a route is
// never reached (every call answered 404 by the router or 405). With
// -transcript it writes status, headers and body of every answer.
func TestTranscript_everyRoute(t *testing.T) {
	var out bytes.Buffer
	for _, set := range []struct {
		name string
		opts Options
	}{
		{"default", Options{}},
		{"large", Options{DataSet: DataSetLarge}},
		{"example-data.json", Options{DataFile: "testdata/example-data.json"}},
	} {
		fmt.Fprintf(&out, "=== data set %s\n", set.name)
		s := newTestServer(t, set.opts)
		reached := transcribe(t, s, &out)
		for _, rt := range s.routes() {
			if !reached[rt.pattern] {
				t.Errorf("%s: route %s never reached", set.name, rt.pattern)
			}
		}
	}
	if *transcriptOut != "" {
		if err := os.WriteFile(*transcriptOut, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// transcribe runs the script on s, writing each answer to out, and returns
// the route patterns some call reached (answered other than the router's
// bare 404 or 405).
func transcribe(t *testing.T, s *Server, out *bytes.Buffer) map[string]bool {
	t.Helper()
	var doc struct {
		Movies []struct {
			TheMovieDBID int    `json:"theMovieDbId"`
			IMDbID       string `json:"imdbId"`
		} `json:"movies"`
		Collections []struct {
			ID int `json:"id"`
		} `json:"collections"`
		People []struct {
			ID int `json:"id"`
		} `json:"people"`
		Shows []struct {
			TheMovieDBID int `json:"theMovieDbId"`
			TvDBID       int `json:"tvDbId"`
		} `json:"shows"`
		Artists []struct {
			ForeignArtistID string `json:"foreignArtistId"`
			Albums          []struct {
				ForeignAlbumID string `json:"foreignAlbumId"`
			} `json:"albums"`
		} `json:"artists"`
		Users []struct {
			ID string `json:"id"`
		} `json:"users"`
		Requests struct {
			Movies []struct {
				ID int `json:"id"`
			} `json:"movies"`
			TV []struct {
				ID int `json:"id"`
			} `json:"tv"`
		} `json:"requests"`
		Issues struct {
			Issues []struct {
				ID int `json:"id"`
			} `json:"issues"`
		} `json:"issues"`
	}
	getJSON(t, s, call{method: "GET", path: "/_mock/state"}, &doc)
	first := func(n int, f func(int) string) string {
		if n == 0 {
			return "1"
		}
		return f(0)
	}
	movie := first(len(doc.Movies), func(i int) string { return strconv.Itoa(doc.Movies[i].TheMovieDBID) })
	imdb := "tt0000001"
	if len(doc.Movies) > 0 && doc.Movies[0].IMDbID != "" {
		imdb = doc.Movies[0].IMDbID
	}
	show := first(len(doc.Shows), func(i int) string { return strconv.Itoa(doc.Shows[i].TvDBID) })
	showTMDB := first(len(doc.Shows), func(i int) string { return strconv.Itoa(doc.Shows[i].TheMovieDBID) })
	collection := first(len(doc.Collections), func(i int) string { return strconv.Itoa(doc.Collections[i].ID) })
	person := first(len(doc.People), func(i int) string { return strconv.Itoa(doc.People[i].ID) })
	artist, album := "unknown-artist", "unknown-album"
	if len(doc.Artists) > 0 {
		artist = doc.Artists[0].ForeignArtistID
		if len(doc.Artists[0].Albums) > 0 {
			album = doc.Artists[0].Albums[0].ForeignAlbumID
		}
	}
	userID := "unknown-user"
	if len(doc.Users) > 0 {
		userID = doc.Users[len(doc.Users)-1].ID
	}
	movieRequest := first(len(doc.Requests.Movies), func(i int) string { return strconv.Itoa(doc.Requests.Movies[i].ID) })
	tvRequest := first(len(doc.Requests.TV), func(i int) string { return strconv.Itoa(doc.Requests.TV[i].ID) })
	issue := first(len(doc.Issues.Issues), func(i int) string { return strconv.Itoa(doc.Issues.Issues[i].ID) })

	known := map[string]string{
		"requestId": movieRequest, "id": issue, "userId": userID,
		"searchTerm": "the", "currentPosition": "0", "amountToLoad": "5",
		"position": "0", "count": "5", "sort": "requestedDate", "sortOrder": "desc",
		"movieDbId": movie, "theMovieDbId": movie, "tmdbId": movie, "moviedbid": showTMDB,
		"tvdbid": show, "tvdbId": show, "imdbid": imdb, "collectionId": collection,
		"actorId": person, "foreignArtistId": artist, "artistId": artist,
		"foreignAlbumId": album, "albumId": album, "musicBrainzId": artist,
		"status": "1", "statusType": "1", "statusFilterType": "1",
		"availabilityType": "1", "availabilityFilterType": "1", "orderType": "1",
		"year": "2024", "take": "5", "skip": "0", "media": "movie",
		"type": "1", "catId": "1", "providerId": movie, "name": "x",
		"agent": "web", "pinId": "1", "logFileName": "log.txt", "service": "radarr",
		"rootFolderId": "1", "queueId": "1", "qualityId": "1", "machineId": "m",
		"keywordId": "1", "job": "x",
	}
	unknown := func(name string) string {
		switch known[name] {
		case userID, artist, album, imdb, "the", "x", "m", "web", "log.txt", "radarr", "movie":
			return "unknown-" + name
		}
		return "999999"
	}
	body := func(vals func(string) string) string {
		m := map[string]any{}
		for _, k := range []string{"theMovieDbId", "requestId", "id", "providerId"} {
			if n, err := strconv.Atoi(vals(k)); err == nil {
				m[k] = n
			}
		}
		if n, err := strconv.Atoi(vals("id")); err == nil {
			m["issueId"] = n // comments and status changes
		}
		m["tvDbId"], _ = strconv.Atoi(vals("tvdbId"))
		m["userId"] = vals("userId")
		m["foreignAlbumId"] = vals("foreignAlbumId")
		m["foreignArtistId"] = vals("foreignArtistId")
		m["requestAll"] = true
		m["languageCode"] = "en"
		m["title"], m["subject"], m["description"], m["comment"], m["reason"] = "T", "S", "D", "C", "R"
		m["issueCategoryId"] = 1
		m["requestType"] = 1
		m["username"], m["password"] = "user", "OmbiUser1!"
		b, _ := json.Marshal(m)
		return string(b)
	}
	// a plain user's token; a data set without the account gets a bearer
	// the mock refuses, and the user's calls are refused
	userAuth := map[string]string{"Authorization": "Bearer none"}
	res := do(t, s, call{method: "POST", path: "/api/v1/Token", body: `{"username":"user","password":"OmbiUser1!","rememberMe":false}`})
	fmt.Fprintf(out, "--- login user\n")
	writeAnswer(out, res, nil)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if res.status == http.StatusOK {
		res.json(t, &tok)
		userAuth["Authorization"] = "Bearer " + tok.AccessToken
	}
	reached := map[string]bool{}
	var newKeys []string // pairs: a random key the mock made, its name
	for _, rt := range s.routes() {
		method, path, _ := strings.Cut(rt.pattern, " ")
		hasBody := method == "POST" || method == "PUT" || method == "PATCH"
		fill := func(vals func(string) string) string {
			return regexp.MustCompile(`\{(\w+)\}`).ReplaceAllStringFunc(path, func(p string) string {
				return vals(p[1 : len(p)-1])
			})
		}
		valid := func(n string) string {
			if n == "requestId" && strings.Contains(strings.ToLower(path), "tv") {
				return tvRequest
			}
			return known[n]
		}
		type variant struct {
			what   string
			path   string
			header map[string]string
			body   string
		}
		vs := []variant{
			{"no credentials", fill(valid), nil, ""},
			{"user", fill(valid), userAuth, ""},
			{"admin, unknown values", fill(unknown), apiKey(), ""},
		}
		if hasBody {
			vs = append(vs,
				variant{"admin, empty body", fill(valid), apiKey(), ""},
				variant{"admin, malformed body", fill(valid), apiKey(), "{"},
				variant{"admin, empty object", fill(valid), apiKey(), "{}"},
				variant{"admin, unknown values in body", fill(unknown), apiKey(), body(unknown)},
				variant{"user, body", fill(valid), userAuth, body(valid)},
				variant{"admin, body", fill(valid), apiKey(), body(valid)},
			)
			vs[1].body, vs[0].body = body(valid), body(valid)
		} else {
			vs = append(vs,
				variant{"admin, paged", fill(valid) + "?count=3&position=1&take=3&skip=1", apiKey(), ""},
				variant{"admin", fill(valid), apiKey(), ""},
			)
		}
		for _, v := range vs {
			res := do(t, s, call{method: method, path: v.path, header: v.header, body: v.body})
			if !(len(res.body) == 0 && (res.status == 404 || res.status == 405)) {
				reached[rt.pattern] = true
			}
			if strings.HasSuffix(rt.pattern, "/resetApi") && res.status == http.StatusOK {
				// a fresh random key: named by its place in the script
				var key string
				res.json(t, &key)
				newKeys = append(newKeys, key, "APIKEY"+strconv.Itoa(len(newKeys)/2))
			}
			fmt.Fprintf(out, "--- %s | %s | %s %s\n", rt.pattern, v.what, method, v.path)
			writeAnswer(out, res, newKeys)
		}
	}
	// state the walk leaves empty: devices, registered after their removal
	for _, c := range []call{
		{method: "POST", path: "/api/v2/Mobile/Notification", header: userAuth, body: `{"token":"device-1"}`},
		{method: "POST", path: "/api/v1/Mobile/Notification", header: userAuth, body: `{"playerId":"player-1"}`},
		{method: "POST", path: "/api/v2/Mobile/Notification", header: apiKey(), body: `{"token":"device-2"}`},
		{method: "GET", path: "/api/v2/Mobile/Users", header: apiKey()},
		{method: "GET", path: "/api/v1/Mobile/Notification", header: apiKey()},
	} {
		fmt.Fprintf(out, "--- %s %s %s\n", c.method, c.path, c.body)
		writeAnswer(out, do(t, s, c), newKeys)
	}
	fmt.Fprintf(out, "--- state export\n")
	writeAnswer(out, do(t, s, call{method: "GET", path: "/_mock/state"}), newKeys)
	return reached
}

// writeAnswer writes status, headers (sorted) and body of res, with the
// parts that differ from run to run replaced: trace ids, tokens and the
// random keys in newKeys (pairs of a key and its name).
func writeAnswer(out *bytes.Buffer, res result, newKeys []string) {
	fmt.Fprintf(out, "%d\n", res.status)
	names := make([]string, 0, len(res.header))
	for k := range res.header {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if k == "Content-Length" && len(res.body) > transcriptBodyLimit {
			continue
		}
		fmt.Fprintf(out, "%s: %s\n", k, strings.Join(res.header[k], ", "))
	}
	b := res.body
	for _, r := range transcriptRandom {
		b = r.re.ReplaceAll(b, []byte(r.with))
	}
	if len(newKeys) > 0 {
		b = []byte(strings.NewReplacer(newKeys...).Replace(string(b)))
	}
	if len(b) > transcriptBodyLimit {
		fmt.Fprintf(out, "body: %d bytes, sha256 %x\n", len(b), sha256.Sum256(b))
		return
	}
	fmt.Fprintf(out, "body: %s\n", b)
}
