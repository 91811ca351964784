package db

import (
	"fmt"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// Sizes of the generated large data set.
const (
	largeMovies        = 3000
	largeShows         = 120
	largeArtists       = 100
	largeAlbumsEach    = 12
	largeMovieRequests = 2500
	largeTVChildren    = 600
	largeAlbumRequests = 900
	largeRetry         = 400
	HugeSeasons        = 400 // seasons of the one huge show
	hugeEpisodes       = 60  // episodes per season of the huge show
)

// lcg is a tiny deterministic generator so the large set never changes.
type lcg uint64

// next returns a pseudo-random number in [0, n).
func (g *lcg) next(n int) int {
	*g = *g*6364136223846793005 + 1442695040888963407
	return int(uint64(*g>>33) % uint64(n))
}

// longText builds a deterministic text of about n bytes.
func longText(seed string, n int) string {
	words := []string{"archive", "broadcast", "cinema", "director", "episode", "festival", "genre", "heist",
		"interlude", "journey", "kingdom", "legend", "montage", "narrator", "odyssey", "premiere", "quest",
		"reel", "sequel", "trilogy", "universe", "voyage", "western", "xenon", "yesterday", "zenith"}
	var b strings.Builder
	b.Grow(n + 16)
	b.WriteString(seed)
	g := lcg(len(seed) * 7919)
	for b.Len() < n {
		b.WriteByte(' ')
		b.WriteString(words[g.next(len(words))])
	}
	return b.String()
}

// largeMovieID is the TMDB id of generated movie i.
func largeMovieID(i int) int { return 5_000_000 + i }

// LargeShowID is the TMDB id of generated show i; its TVDB id adds 1,000,000.
func LargeShowID(i int) int { return 6_000_000 + i }

// generateLarge appends the generated catalogue: thousands of movies with
// very long overviews, shows with deep episode trees (one with hundreds of
// seasons) and artists with many albums.
func (ss *SearchState) generateLarge() {
	g := lcg(42)
	lists := []string{"popular", "toprated", "nowplaying", "upcoming", "seasonal"}
	base := time.Date(1950, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 1; i <= largeMovies; i++ {
		rel := base.AddDate(0, 0, g.next(27000))
		n := 200
		if i%50 == 0 {
			n = 20000
		}
		genre := []int{28, 12, 35, 18, 878, 53}[g.next(6)]
		ss.Movies = append(ss.Movies, &CatalogMovie{
			TheMovieDbID: largeMovieID(i), ImdbID: fmt.Sprintf("tt9%07d", i), Title: fmt.Sprintf("Generated Feature %04d", i),
			OriginalTitle: fmt.Sprintf("Generated Feature %04d", i), Overview: longText(fmt.Sprintf("Feature %d:", i), n),
			ReleaseDate: &rel, PosterPath: fmt.Sprintf("/gen%07d.jpg", i), BackdropPath: fmt.Sprintf("/genb%07d.jpg", i),
			GenreIDs: []int{genre}, OriginalLanguage: "en", Popularity: float64(g.next(100000)) / 100, VoteAverage: float64(g.next(100)) / 10,
			VoteCount: g.next(20000), Runtime: 80 + g.next(100), Status: "Released", Lists: []string{lists[i%len(lists)]},
			Similar: []int{largeMovieID(i%largeMovies + 1)}, Extra: map[string]any{"generated": true, "batch": i / 100,
				"tags": []string{"large", lists[i%len(lists)]}, "origin": map[string]any{"seed": 42, "index": i}},
		})
	}
	for i := 1; i <= largeShows; i++ {
		seasons, eps := 1+g.next(12), 6+g.next(20)
		if i == 1 {
			seasons, eps = HugeSeasons, hugeEpisodes
		}
		sh := &CatalogShow{TheMovieDbID: LargeShowID(i), TvDbID: LargeShowID(i) + 1_000_000, TvMazeID: 900_000 + i,
			ImdbID: fmt.Sprintf("tt8%07d", i), Title: fmt.Sprintf("Generated Series %03d", i), Overview: longText(fmt.Sprintf("Series %d:", i), 2000),
			FirstAired: "1990-01-07", Network: &state.NetworkViewModel{ID: i, Name: NilIfEmpty("Generated Network"), Country: NilIfEmpty("US")}, NetworkID: fmt.Sprint(i),
			Status: "Returning Series", Runtime: "45", GenreIDs: []int{18}, Lists: []string{[]string{"popular", "trending", "anticipated"}[i%3]},
			SiteRating: 5 + g.next(5), PosterPath: fmt.Sprintf("/gentv%05d.jpg", i), BackdropPath: fmt.Sprintf("/gentvb%05d.jpg", i),
			Extra: map[string]any{"generated": true, "episodeTree": map[string]any{"seasons": seasons, "perSeason": eps}}}
		if i == 1 {
			sh.Title = "The Endless Saga"
		}
		for s := 1; s <= seasons; s++ {
			season := CatalogSeason{SeasonNumber: s, Overview: fmt.Sprintf("Season %d.", s)}
			for e := 1; e <= eps; e++ {
				air := time.Date(1990+s%35, time.Month(1+e%12), 1+e%28, 0, 0, 0, 0, time.UTC)
				season.Episodes = append(season.Episodes, catalogEpisode{EpisodeNumber: e, Title: fmt.Sprintf("S%02dE%02d %s", s, e, longText("", 40)),
					AirDate: air.Format(time.RFC3339), URL: fmt.Sprintf("https://www.tvmaze.com/episodes/%d", i*100000+s*100+e)})
			}
			sh.Seasons = append(sh.Seasons, season)
		}
		ss.Shows = append(ss.Shows, sh)
	}
	for i := 1; i <= largeArtists; i++ {
		a := &CatalogArtist{ForeignArtistID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), ArtistName: fmt.Sprintf("Generated Artist %03d", i),
			Type: "Group", Country: "US", StartYear: "1990", Overview: longText("Artist:", 1000), Extra: map[string]any{"generated": true}}
		for j := 1; j <= largeAlbumsEach; j++ {
			a.Albums = append(a.Albums, CatalogAlbum{ForeignAlbumID: fmt.Sprintf("00000000-0000-4000-9000-%06d%06d", i, j),
				Title: fmt.Sprintf("Generated Album %03d-%02d", i, j), ReleaseDate: time.Date(1990+j, 1, 1, 0, 0, 0, 0, time.UTC),
				AlbumType: "Album", TrackCount: 10, Rating: 7.5, Extra: map[string]any{"generated": true}})
		}
		ss.Artists = append(ss.Artists, a)
	}
}

// generateLarge appends thousands of requests over the generated catalogue,
// spread over every user and state, and a long retry queue.
func (rs *RequestState) generateLarge(users *UserState, catalog *SearchState, now time.Time) {
	g := lcg(7)
	var ids []string
	for _, a := range users.Accounts {
		ids = append(ids, a.ID)
	}
	date := func(i int) time.Time {
		return now.UTC().Add(-time.Duration(i) * 37 * time.Minute).Truncate(time.Second)
	}
	state := func(b *ReqBase, i int) {
		switch i % 5 {
		case 1:
			b.Approved, b.MarkedAsApproved = true, b.RequestedDate
		case 2:
			t := b.RequestedDate
			b.Approved, b.Available, b.MarkedAsApproved, b.MarkedAsAvailable = true, true, t, &t
		case 3:
			d := true
			b.Denied, b.DeniedReason, b.MarkedAsDenied = &d, longText("Denied because", 300), b.RequestedDate
		}
	}
	nextMovie, nextChild, nextSeason, nextEpisode, nextParent := 100_000, 100_000, 100_000, 1_000_000, 100_000
	for i := 1; i <= largeMovieRequests; i++ {
		mv := catalog.Movie(largeMovieID(i))
		nextMovie++
		m := &MovieRequest{ReqBase: ReqBase{ID: nextMovie, Title: mv.Title, RequestedDate: date(i), RequestedUserID: ids[g.next(len(ids))],
			Extra: map[string]any{"generated": true, "history": []any{map[string]any{"at": date(i), "event": "created"}}}},
			TheMovieDbID: mv.TheMovieDbID, ImdbID: mv.ImdbID, Overview: mv.Overview, PosterPath: mv.PosterPath,
			Background: mv.BackdropPath, ReleaseDate: *mv.ReleaseDate, Status: mv.Status, LangCode: "en"}
		state(&m.ReqBase, i)
		rs.Movies = append(rs.Movies, m)
	}
	for i := 1; i <= largeTVChildren; i++ {
		show := catalog.ShowByTMDB(LargeShowID(1 + i%largeShows))
		var parent *TvParent
		for _, p := range rs.Tv {
			if p.ExternalProviderID == show.TheMovieDbID {
				parent = p
			}
		}
		if parent == nil {
			nextParent++
			parent = &TvParent{ID: nextParent, TvDbID: show.TvDbID, ExternalProviderID: show.TheMovieDbID, ImdbID: show.ImdbID,
				Overview: show.Overview, Title: show.Title, PosterPath: show.PosterPath, Background: show.BackdropPath,
				Status: show.Status, TotalSeasons: len(show.Seasons), Extra: map[string]any{"generated": true}}
			rs.Tv = append(rs.Tv, parent)
		}
		nextChild++
		c := &ChildRequest{ReqBase: ReqBase{ID: nextChild, Title: show.Title, RequestedDate: date(i), RequestedUserID: ids[g.next(len(ids))],
			Extra: map[string]any{"generated": true}}, ReleaseYear: parent.ReleaseDate}
		state(&c.ReqBase, i)
		// each child of a parent takes its own season, so episodes never overlap
		season := show.Seasons[(i/largeShows)%len(show.Seasons)]
		if show.TheMovieDbID == LargeShowID(1) && i/largeShows == 0 {
			// the huge show's first child requests every episode of every season
			for _, s := range show.Seasons {
				nextSeason++
				c.SeasonRequests = append(c.SeasonRequests, genSeason(&nextSeason, &nextEpisode, c, s))
			}
		} else {
			nextSeason++
			c.SeasonRequests = append(c.SeasonRequests, genSeason(&nextSeason, &nextEpisode, c, season))
		}
		parent.ChildRequests = append(parent.ChildRequests, c)
	}
	for i := 1; i <= largeAlbumRequests; i++ {
		a := catalog.Artists[len(catalog.Artists)-largeArtists+(i-1)/largeAlbumsEach%largeArtists]
		al := a.Albums[(i-1)%largeAlbumsEach]
		r := &AlbumRequest{ReqBase: ReqBase{ID: 100_000 + i, Title: al.Title, RequestedDate: date(i), RequestedUserID: ids[g.next(len(ids))]},
			ForeignAlbumID: al.ForeignAlbumID, ForeignArtistID: a.ForeignArtistID, ArtistName: a.ArtistName, Rating: al.Rating, ReleaseDate: al.ReleaseDate}
		state(&r.ReqBase, i)
		rs.Albums = append(rs.Albums, r)
	}
	for i := 1; i <= largeRetry; i++ {
		rs.Retry = append(rs.Retry, &RetryItem{ID: 100_000 + i, Title: fmt.Sprintf("Generated Feature %04d", i), ReleaseYear: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC),
			RequestID: 100_000 + i, Type: RequestTypeMovie, Dts: date(i), Error: longText("Radarr returned 500:", 4000), RetryCount: i % 9})
	}
}

// genSeason builds a requested season with every episode of a catalogue season.
func genSeason(nextSeason, nextEpisode *int, c *ChildRequest, s CatalogSeason) *SeasonRequest {
	sr := &SeasonRequest{ID: *nextSeason, SeasonNumber: s.SeasonNumber, Overview: s.Overview, ChildRequestID: c.ID, SeasonAvailable: c.Available}
	for _, e := range s.Episodes {
		*nextEpisode++
		air, _ := time.Parse(time.RFC3339, e.AirDate)
		sr.Episodes = append(sr.Episodes, &EpisodeRequest{ID: *nextEpisode, EpisodeNumber: e.EpisodeNumber, Title: e.Title, AirDate: air,
			URL: e.URL, Requested: true, Approved: c.Approved, Available: c.Available, Denied: c.Denied, SeasonID: sr.ID})
	}
	return sr
}
