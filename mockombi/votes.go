package mockombi

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Vote types (VoteType).
const (
	voteUp   = 0
	voteDown = 1
)

// Request types (RequestType).
const (
	voteMediaTV    = 0
	voteMediaMovie = 1
	voteMediaAlbum = 2
)

// vote is one Votes row; Voter is a user id or, in seed data, a user name.
type vote struct {
	ID          int            `json:"id"`
	RequestID   int            `json:"requestId"`
	VoteType    int            `json:"voteType"`
	RequestType int            `json:"requestType"`
	Voter       string         `json:"voter"`
	Date        time.Time      `json:"date"`
	Deleted     bool           `json:"deleted"`
	Extra       map[string]any `json:"-"`
}

// voteState holds the votes; the votable requests live in the request store.
type voteState struct {
	votes []*vote
}

// newVoteState loads votes.json.
func newVoteState(sd *seedSet) (voteState, error) {
	var seed struct {
		Votes []map[string]any `json:"votes"`
	}
	if err := sd.decode("votes.json", &seed); err != nil {
		return voteState{}, err
	}
	var vs voteState
	for _, raw := range seed.Votes {
		var v vote
		if err := seedRecord(raw, &v); err != nil {
			return voteState{}, fmt.Errorf("decode vote: %w", err)
		}
		v.Extra = undocumentedFields(raw, "id", "requestId", "voteType", "requestType", "voter", "date", "deleted")
		vs.votes = append(vs.votes, &v)
		sd.seenID("vote", v.ID)
	}
	return vs, nil
}

// voteRequestType maps a route media segment to a RequestType.
func voteRequestType(media string) int {
	switch strings.ToLower(media) {
	case "tv":
		return voteMediaTV
	case "album", "music":
		return voteMediaAlbum
	default:
		return voteMediaMovie
	}
}

// votable is one pending request as VoteViewModel shows it.
type votable struct {
	requestID, requestType          int
	title, image, background, descr string
}

// votables lists the requests that can be voted on (neither available,
// approved nor denied) in Ombi's order: movies, albums, then TV children.
func (st *store) votables() []votable {
	var out []votable
	pending := func(b *reqBase) bool { return !b.Available && !b.Approved && !b.isDenied() }
	for _, m := range st.requests.movies {
		if pending(&m.reqBase) {
			out = append(out, votable{m.ID, voteMediaMovie, m.Title, "https://image.tmdb.org/t/p/w500/" + m.PosterPath,
				"https://image.tmdb.org/t/p/w1280" + m.Background, m.Overview})
		}
	}
	for _, a := range st.requests.albums {
		if pending(&a.reqBase) {
			out = append(out, votable{a.ID, voteMediaAlbum, a.Title, a.Cover, a.Cover, a.ArtistName})
		}
	}
	for _, c := range st.requests.children {
		if !pending(&c.reqBase) {
			continue
		}
		v := votable{requestID: c.ID, requestType: voteMediaTV, title: c.Title}
		for _, p := range st.requests.tv {
			if p.ID == c.ParentRequestID {
				v.title, v.image, v.background = p.Title, p.PosterPath, p.Background
			}
		}
		seasons := slices.Clone(c.SeasonRequests)
		slices.SortFunc(seasons, func(a, b *seasonRequest) int { return a.SeasonNumber - b.SeasonNumber })
		var b strings.Builder
		for _, sr := range seasons {
			nums := make([]int, 0, len(sr.Episodes))
			for _, e := range sr.Episodes {
				nums = append(nums, e.EpisodeNumber)
			}
			slices.Sort(nums)
			fmt.Fprintf(&b, "Season: %d - Episodes: %s<br />", sr.SeasonNumber, episodeList(nums))
		}
		v.descr = b.String()
		out = append(out, v)
	}
	return out
}

// episodeList renders sorted episode numbers with runs collapsed ("1-3, 5").
func episodeList(nums []int) string {
	var parts []string
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", nums[i], nums[j]))
		} else {
			parts = append(parts, fmt.Sprint(nums[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// votesList answers GET Vote: VoteViewModel[] over the pending requests.
// Implements S-ROUTING-0216 and S-VERIFY-0185 (the vote_read_500 quirk).
func (s *Server) votesList(w http.ResponseWriter, r *http.Request) {
	if s.quirk(QuirkVoteRead500) {
		writeOmbiError(w, http.StatusInternalServerError, nullReference)
		return
	}
	p := principalOf(r)
	var out []map[string]any
	s.store.Read(func(st *store) {
		out = []map[string]any{}
		for _, c := range st.votables() {
			up, down := 0, 0
			var mine *vote
			for _, v := range st.votes.votes {
				if v.RequestID != c.requestID || v.RequestType != c.requestType {
					continue
				}
				if v.VoteType == voteUp {
					up++
				} else {
					down++
				}
				if a := st.lookupUser(v.Voter); a != nil && a.ID == p.id && !v.Deleted {
					mine = v
				}
			}
			myVote := voteDown
			if mine != nil {
				myVote = mine.VoteType
			}
			out = append(out, map[string]any{
				"requestId": c.requestID, "requestType": c.requestType, "image": c.image, "background": c.background,
				"upvotes": up, "downvotes": down, "title": c.title, "description": c.descr,
				"alreadyVoted": mine != nil, "myVote": myVote,
			})
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// votesCast answers POST Vote/{up|down}/{movie|tv|album}/{requestId} with a
// VoteEngineResult; a repeat vote of the same direction is refused.
func (s *Server) votesCast(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	segs := strings.Split(strings.Trim(strings.ToLower(r.URL.Path), "/"), "/")
	dir, media := voteUp, voteMediaMovie
	for i, seg := range segs {
		if seg == "vote" && i+2 < len(segs) {
			if segs[i+1] == "down" {
				dir = voteDown
			}
			media = voteRequestType(segs[i+2])
		}
	}
	p := principalOf(r)
	res := map[string]any{"result": true, "message": nil, "isError": false, "errorMessage": nil}
	s.store.Write(func(st *store) {
		if !st.settings.flag("vote", "enabled") {
			return
		}
		var current *vote
		for _, v := range st.votes.votes {
			if a := st.lookupUser(v.Voter); v.RequestID == id && a != nil && a.ID == p.id {
				current = v
			}
		}
		if current != nil && current.VoteType == dir {
			res = map[string]any{"result": false, "message": nil, "isError": true, "errorMessage": "You have already voted!"}
			return
		}
		if current != nil {
			st.votes.votes = deleteVote(st.votes.votes, current)
		}
		st.votes.votes = append(st.votes.votes, &vote{ID: st.nextID("vote"), RequestID: id, VoteType: dir,
			RequestType: media, Voter: p.id, Date: s.now().UTC(), Extra: map[string]any{}})
		if dir == voteUp {
			st.approveByVotes(id, media, s.now().UTC())
		}
	})
	writeJSON(w, http.StatusOK, res)
}

// deleteVote removes one vote.
func deleteVote(vs []*vote, target *vote) []*vote {
	out := vs[:0]
	for _, v := range vs {
		if v != target {
			out = append(out, v)
		}
	}
	return out
}

// votesByRequest answers GET Vote/{movie|tv|music}/{requestId}: Votes[].
func (s *Server) votesByRequest(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	segs := strings.Split(strings.Trim(strings.ToLower(r.URL.Path), "/"), "/")
	media := voteRequestType(segs[len(segs)-2])
	if media == voteMediaMovie && s.quirk(QuirkVoteRead500) {
		writeOmbiError(w, http.StatusInternalServerError, nullReference)
		return
	}
	var out []map[string]any
	s.store.Read(func(st *store) {
		out = []map[string]any{}
		for _, v := range st.votes.votes {
			if v.RequestID != id || v.RequestType != media {
				continue
			}
			uid := v.Voter
			if a := st.lookupUser(v.Voter); a != nil {
				uid = a.ID
			}
			out = append(out, withUndocumented(map[string]any{
				"id": v.ID, "requestId": v.RequestID, "voteType": v.VoteType, "requestType": v.RequestType,
				"userId": uid, "date": v.Date, "deleted": v.Deleted, "user": nil,
			}, v.Extra))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// approveByVotes approves a request once its upvotes minus downvotes reach
// the section's maximum (VoteSettings movieVoteMax, tvShowVoteMax, musicVoteMax).
func (st *store) approveByVotes(id, media int, now time.Time) {
	total := 0
	for _, v := range st.votes.votes {
		if v.RequestID == id && v.RequestType == media {
			if v.VoteType == voteUp {
				total++
			} else {
				total--
			}
		}
	}
	field := map[int]string{voteMediaMovie: "movieVoteMax", voteMediaTV: "tvShowVoteMax", voteMediaAlbum: "musicVoteMax"}[media]
	limit, ok := jsonNumber(st.settings.doc("vote")[field])
	if !ok || total < limit {
		return
	}
	// media is a RequestType value, as a mediaKind is; approving a TV child
	// approves its episodes too
	if rq, ok := st.requests.requestOf(mediaKind(media), id); ok && !rq.base().Approved {
		rq.moderate(modApprove, "", now.UTC())
	}
}
