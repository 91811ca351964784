package mockombi

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// Vote and request types, from the state.
const (
	voteUp         = state.VoteUp
	voteDown       = state.VoteDown
	voteMediaTV    = state.VoteMediaTV
	voteMediaMovie = state.VoteMediaMovie
	voteMediaAlbum = state.VoteMediaAlbum
)

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
	pending := func(b *db.ReqBase) bool { return !b.Available && !b.Approved && !b.IsDenied() }
	for _, m := range st.Requests.Movies {
		if pending(&m.ReqBase) {
			out = append(out, votable{m.ID, voteMediaMovie, m.Title, "https://image.tmdb.org/t/p/w500/" + m.PosterPath,
				"https://image.tmdb.org/t/p/w1280" + m.Background, m.Overview})
		}
	}
	for _, a := range st.Requests.Albums {
		if pending(&a.ReqBase) {
			out = append(out, votable{a.ID, voteMediaAlbum, a.Title, a.Cover, a.Cover, a.ArtistName})
		}
	}
	for _, c := range st.Requests.Children {
		if !pending(&c.ReqBase) {
			continue
		}
		v := votable{requestID: c.ID, requestType: voteMediaTV, title: c.Title}
		for _, p := range st.Requests.Tv {
			if p.ID == c.ParentRequestID {
				v.title, v.image, v.background = p.Title, p.PosterPath, p.Background
			}
		}
		seasons := slices.Clone(c.SeasonRequests)
		slices.SortFunc(seasons, func(a, b *db.SeasonRequest) int { return a.SeasonNumber - b.SeasonNumber })
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
	var out []state.VoteViewModel
	s.store.Read(func(st *store) {
		out = []state.VoteViewModel{}
		for _, c := range st.votables() {
			up, down := 0, 0
			var mine *state.Vote
			for _, v := range st.Votes.List {
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
			out = append(out, state.VoteViewModel{
				RequestID: c.requestID, RequestType: c.requestType, Image: c.image, Background: c.background,
				Upvotes: up, Downvotes: down, Title: c.title, Description: c.descr,
				AlreadyVoted: mine != nil, MyVote: myVote,
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
	res := state.VoteEngineResult{Result: true}
	s.store.Write(func(st *store) {
		if !db.Or(st.Settings.Vote).Enabled {
			return
		}
		var current *state.Vote
		for _, v := range st.Votes.List {
			if a := st.lookupUser(v.Voter); v.RequestID == id && a != nil && a.ID == p.id {
				current = v
			}
		}
		if current != nil && current.VoteType == dir {
			msg := "You have already voted!"
			res = state.VoteEngineResult{IsError: true, ErrorMessage: &msg}
			return
		}
		if current != nil {
			st.Votes.Delete(current)
		}
		st.Votes.List = append(st.Votes.List, &state.Vote{ID: st.NextID("vote"), RequestID: id, VoteType: dir,
			RequestType: media, Voter: p.id, Date: s.now().UTC(), Extra: state.Extra{}})
		if dir == voteUp {
			st.approveByVotes(id, media, s.now().UTC())
		}
	})
	writeJSON(w, http.StatusOK, res)
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
	var out []*state.VoteRecord
	s.store.Read(func(st *store) {
		out = []*state.VoteRecord{}
		for _, v := range st.Votes.List {
			if v.RequestID != id || v.RequestType != media {
				continue
			}
			uid := v.Voter
			if a := st.lookupUser(v.Voter); a != nil {
				uid = a.ID
			}
			out = append(out, v.Record(uid))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// approveByVotes approves a request once its upvotes minus downvotes reach
// the section's maximum (VoteSettings movieVoteMax, tvShowVoteMax, musicVoteMax).
func (st *store) approveByVotes(id, media int, now time.Time) {
	total := 0
	for _, v := range st.Votes.List {
		if v.RequestID == id && v.RequestType == media {
			if v.VoteType == voteUp {
				total++
			} else {
				total--
			}
		}
	}
	field := map[int]string{voteMediaMovie: "movieVoteMax", voteMediaTV: "tvShowVoteMax", voteMediaAlbum: "musicVoteMax"}[media]
	vote := st.Settings.Vote
	if field == "" || vote == nil || !vote.HasMember(field) {
		return
	}
	limit := map[int]int{voteMediaMovie: vote.MovieVoteMax, voteMediaTV: vote.TvShowVoteMax, voteMediaAlbum: vote.MusicVoteMax}[media]
	if total < limit {
		return
	}
	// media is a RequestType value, as a mediaKind is; approving a TV child
	// approves its episodes too
	if rq, ok := st.Requests.RequestOf(db.MediaKind(media), id); ok && !rq.Base().Approved {
		rq.Moderate(db.ModApprove, "", now.UTC())
	}
}
