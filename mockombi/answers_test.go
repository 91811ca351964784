package mockombi

import (
	"bytes"
	"strconv"
	"testing"
)

// TestAnswerCache_followsStateCallerAndQuirks: a reused search answer is
// never stale. A request made between two identical searches shows in the
// second; two callers get their own flags; a quirk switched between two
// identical searches changes the second.
func TestAnswerCache_followsStateCallerAndQuirks(t *testing.T) {
	s := newTestServer(t, Options{})
	admin, user := asAdmin(t, s), asUser(t, s)
	search := call{method: "GET", path: "/api/v1/Search/movie/the", header: admin}
	type hit struct {
		ID            string `json:"theMovieDbId"`
		Requested     bool   `json:"requested"`
		ShowSubscribe bool   `json:"showSubscribe"`
	}
	var before []hit
	getJSON(t, s, search, &before)
	var target string
	for _, h := range before {
		if !h.Requested {
			target = h.ID
			break
		}
	}
	if target == "" {
		t.Fatalf("no unrequested movie among %d hits of %s", len(before), search.path)
	}
	again := do(t, s, search)
	if first := do(t, s, search); !bytes.Equal(first.body, again.body) {
		t.Fatalf("two identical searches with no change between them differ")
	}
	res := do(t, s, call{method: "POST", path: "/api/v1/Request/movie", header: admin, body: `{"theMovieDbId":` + target + `}`})
	if res.status != 200 {
		t.Fatalf("request movie %s: %d %s", target, res.status, truncate(string(res.body), 300))
	}
	flags := func(h map[string]string) hit {
		t.Helper()
		var after []hit
		getJSON(t, s, call{method: "GET", path: search.path, header: h}, &after)
		for _, h := range after {
			if h.ID == target {
				return h
			}
		}
		t.Fatalf("movie %s missing from the second search", target)
		return hit{}
	}
	if h := flags(admin); !h.Requested || h.ShowSubscribe {
		t.Errorf("after the admin requested %s, the admin's search shows requested=%v showSubscribe=%v, want true false", target, h.Requested, h.ShowSubscribe)
	}
	if h := flags(user); !h.Requested || !h.ShowSubscribe {
		t.Errorf("after the admin requested %s, another user's search shows requested=%v showSubscribe=%v, want true true", target, h.Requested, h.ShowSubscribe)
	}

	tv := call{method: "GET", path: "/api/v1/Search/tv/breaking", header: admin}
	on := do(t, s, tv)
	if err := s.SetQuirk(QuirkV1TVTVDBInMovieDBID, false); err != nil {
		t.Fatal(err)
	}
	off := do(t, s, tv)
	if on.status != 200 || off.status != 200 || bytes.Equal(on.body, off.body) {
		t.Errorf("switching %s off left the v1 TV search answer as it was (%d, %d): %s", QuirkV1TVTVDBInMovieDBID, on.status, off.status, truncate(string(off.body), 200))
	}
}

// TestAnswerCache_bounded: the cache holds at most answerCacheEntries
// answers.
func TestAnswerCache_bounded(t *testing.T) {
	var c answerCache
	for i := range answerCacheEntries + 10 {
		c.put(strconv.Itoa(i), 1, 1, []byte("x"))
	}
	if n := len(c.entries); n > answerCacheEntries {
		t.Fatalf("%d entries, want at most %d", n, answerCacheEntries)
	}
	if _, ok := c.get(strconv.Itoa(answerCacheEntries+9), 1, 1); !ok {
		t.Fatalf("the newest answer is gone")
	}
	if _, ok := c.get(strconv.Itoa(answerCacheEntries+9), 2, 1); ok {
		t.Fatalf("an answer built at another state revision was served")
	}
}
