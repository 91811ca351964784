package mockombi

import (
	"net/http"
	"testing"
)

func TestVotesAuthLevels(t *testing.T) {
	ok := http.StatusOK
	cases := []authCase{{"GET", "/api/v1/Vote", "", 401, ok, ok, ok}}
	for _, p := range []string{"up/movie/3", "up/tv/5", "up/album/2", "down/movie/3", "down/tv/5", "down/album/2"} {
		cases = append(cases, authCase{"POST", "/api/v1/Vote/" + p, "", 401, ok, ok, ok})
	}
	for _, p := range []string{"movie/3", "tv/5", "music/2"} {
		cases = append(cases, authCase{"GET", "/api/v1/Vote/" + p, "", 401, ok, ok, ok})
	}
	checkAuthLevels(t, cases)
}

// voteSummary finds one VoteViewModel in the list.
func voteSummary(t *testing.T, s *Server, who string, requestType, requestID int) map[string]any {
	t.Helper()
	var list []map[string]any
	res := do(t, s, call{method: "GET", path: "/api/v1/Vote", header: actingAs(who)})
	mustStatus(t, res, http.StatusOK)
	res.json(t, &list)
	for _, v := range list {
		if int(v["requestType"].(float64)) == requestType && int(v["requestId"].(float64)) == requestID {
			return v
		}
	}
	t.Fatalf("no vote model for type %d request %d in %v", requestType, requestID, list)
	return nil
}

func TestVotesCastAndRead(t *testing.T) {
	s := newTestServer(t, Options{})
	v := voteSummary(t, s, "user", 1, 3)
	if v["upvotes"].(float64) != 2 || v["downvotes"].(float64) != 0 || v["alreadyVoted"] != false || v["title"] != "Fight Club" ||
		v["image"] != "https://image.tmdb.org/t/p/w500//20bc56630593bf90b9bfd135808.jpg" {
		t.Fatalf("seeded vote model = %v", v)
	}
	tv := voteSummary(t, s, "user", 0, 5)
	if tv["title"] != "The Mandalorian" || tv["description"] != "Season: 1 - Episodes: 1-2<br />Season: 2 - Episodes: 1<br />" ||
		tv["alreadyVoted"] != true || tv["myVote"].(float64) != 0 {
		t.Fatalf("seeded tv vote model = %v", tv)
	}

	steps := []struct {
		path      string
		wantError any
	}{
		{"/api/v1/Vote/up/movie/3", nil},
		{"/api/v1/Vote/up/movie/3", "You have already voted!"},
		{"/api/v1/Vote/down/movie/3", nil},
		{"/api/v1/Vote/down/movie/3", "You have already voted!"},
	}
	for i, st := range steps {
		var res map[string]any
		do(t, s, call{method: "POST", path: st.path, header: actingAs("user")}).json(t, &res)
		if res["errorMessage"] != st.wantError || res["result"] != (st.wantError == nil) || res["isError"] != (st.wantError != nil) {
			t.Fatalf("step %d %s = %v, want errorMessage %v", i, st.path, res, st.wantError)
		}
	}
	v = voteSummary(t, s, "user", 1, 3)
	if v["upvotes"].(float64) != 2 || v["downvotes"].(float64) != 1 || v["alreadyVoted"] != true || v["myVote"].(float64) != 1 {
		t.Fatalf("vote model after switching = %v", v)
	}

	var votes []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Vote/movie/3", header: actingAs("user")}).json(t, &votes)
	if len(votes) != 3 || votes[2]["voteType"].(float64) != 1 || votes[2]["userId"] == nil {
		t.Fatalf("movie votes = %v", votes)
	}
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Vote/up/album/2", header: actingAs("power")}), http.StatusOK)
	do(t, s, call{method: "GET", path: "/api/v1/Vote/music/2", header: actingAs("user")}).json(t, &votes)
	if len(votes) != 1 || votes[0]["requestType"].(float64) != 2 {
		t.Fatalf("album votes = %v", votes)
	}
}

func TestVotesDisabledRecordsNothing(t *testing.T) {
	s := newTestServer(t, Options{})
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Settings/vote", header: actingAs("admin"),
		body: `{"enabled":false,"movieVoteMax":10,"musicVoteMax":10,"tvShowVoteMax":10}`}), http.StatusOK)
	for range 2 {
		var res map[string]any
		do(t, s, call{method: "POST", path: "/api/v1/Vote/up/movie/8", header: actingAs("user")}).json(t, &res)
		if res["result"] != true {
			t.Fatalf("vote with voting off = %v", res)
		}
	}
	var votes []any
	do(t, s, call{method: "GET", path: "/api/v1/Vote/movie/8", header: actingAs("user")}).json(t, &votes)
	if len(votes) != 0 {
		t.Fatalf("votes recorded while voting is off: %v", votes)
	}
}

func TestVotesReadQuirk(t *testing.T) {
	s := newTestServer(t, Options{})
	if err := s.SetQuirk(QuirkVoteRead500, true); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want int
	}{
		{"/api/v1/Vote", 500},
		{"/api/v1/Vote/movie/3", 500},
		{"/api/v1/Vote/tv/5", 200},
	}
	for _, tc := range tests {
		if res := do(t, s, call{method: "GET", path: tc.path, header: actingAs("user")}); res.status != tc.want {
			t.Errorf("%s with vote_read_500: status %d, want %d", tc.path, res.status, tc.want)
		}
	}
}

func TestVotesAutoApprove(t *testing.T) {
	s := newTestServer(t, Options{})
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Settings/vote", header: actingAs("admin"),
		body: `{"enabled":true,"movieVoteMax":3,"musicVoteMax":1,"tvShowVoteMax":10}`}), http.StatusOK)
	approved := func(id int) bool {
		var ok bool
		s.store.Read(func(st *store) { ok = st.Requests.MovieByID(id).Approved })
		return ok
	}
	if approved(3) {
		t.Fatal("movie 3 approved before voting")
	}
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Vote/up/movie/3", header: actingAs("user")}), http.StatusOK)
	if !approved(3) {
		t.Fatal("movie 3 not approved after reaching movieVoteMax")
	}
	var list []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Vote", header: actingAs("user")}).json(t, &list)
	for _, v := range list {
		if v["requestType"].(float64) == 1 && v["requestId"].(float64) == 3 {
			t.Fatal("approved movie still listed for voting")
		}
	}
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Vote/up/album/2", header: actingAs("user")}), http.StatusOK)
	s.store.Read(func(st *store) {
		if !st.Requests.AlbumByID(2).Approved {
			t.Error("album 2 not approved at musicVoteMax 1")
		}
	})
}
