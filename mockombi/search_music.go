package mockombi

import (
	"net/http"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// searchArtist is GET /api/v1/Search/music/artist/{searchTerm}.
func (s *Server) searchArtist(w http.ResponseWriter, r *http.Request) {
	term := r.PathValue("searchTerm")
	out := []*state.SearchArtistViewModel{}
	s.store.Read(func(st *store) {
		for _, a := range st.Search.Artists {
			if containsFold(a.ArtistName, term) {
				out = append(out, artistView(a))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchAlbum is GET /api/v1/Search/music/album/{searchTerm}.
func (s *Server) searchAlbum(w http.ResponseWriter, r *http.Request) {
	term := r.PathValue("searchTerm")
	out := []*state.SearchAlbumViewModel{}
	s.store.Read(func(st *store) {
		for _, a := range st.Search.Artists {
			for i := range a.Albums {
				if containsFold(a.Albums[i].Title, term) {
					out = append(out, st.albumView(a, &a.Albums[i]))
				}
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchAlbumInfo is GET /api/v1/Search/music/album/info/{foreignAlbumId}.
func (s *Server) searchAlbumInfo(w http.ResponseWriter, r *http.Request) {
	var out *state.SearchAlbumViewModel
	s.store.Read(func(st *store) {
		if a, al := st.Search.Album(r.PathValue("foreignAlbumId")); al != nil {
			out = st.albumView(a, al)
		}
	})
	writeRecord(w, out)
}

// searchArtistAlbums is GET /api/v1/Search/music/artist/album/{foreignArtistId}.
func (s *Server) searchArtistAlbums(w http.ResponseWriter, r *http.Request) {
	out := []*state.SearchAlbumViewModel{}
	s.store.Read(func(st *store) {
		if a := st.Search.Artist(r.PathValue("foreignArtistId")); a != nil {
			for i := range a.Albums {
				out = append(out, st.albumView(a, &a.Albums[i]))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchArtistInfo is GET /api/v2/Search/artist/{artistId}.
func (s *Server) searchArtistInfo(w http.ResponseWriter, r *http.Request) {
	var out *state.ArtistInformation
	s.store.Read(func(st *store) {
		if a := st.Search.Artist(r.PathValue("artistId")); a != nil {
			out = st.artistInformation(a)
		}
	})
	writeRecord(w, out)
}

// searchArtistByRequest is GET /api/v2/Search/artist/request/{requestId}: the
// artist of an album request.
func (s *Server) searchArtistByRequest(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "requestId")
	if !ok {
		return
	}
	var out *state.ArtistInformation
	found := false
	s.store.Read(func(st *store) {
		rq := st.Requests.AlbumByID(id)
		if rq == nil {
			return
		}
		found = true
		if a := st.Search.Artist(rq.ForeignArtistID); a != nil {
			out = st.artistInformation(a)
		}
	})
	switch {
	case !found:
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
	case out == nil:
		noContent(w)
	default:
		writeJSON(w, http.StatusOK, out)
	}
}

// searchReleaseGroup is GET /api/v2/Search/artist/album/{albumId}: the
// ReleaseGroup MusicSearchEngineV2.GetAlbum builds.
func (s *Server) searchReleaseGroup(w http.ResponseWriter, r *http.Request) {
	var out *state.ReleaseGroup
	s.store.Read(func(st *store) {
		if _, al := st.Search.Album(r.PathValue("albumId")); al != nil {
			out = st.releaseGroupView(al)
		}
	})
	writeRecord(w, out)
}

// searchAlbumArt is GET /api/v2/Search/releasegroupart/{musicBrainzId}.
func (s *Server) searchAlbumArt(w http.ResponseWriter, r *http.Request) {
	image := ""
	s.store.Read(func(st *store) {
		if _, al := st.Search.Album(r.PathValue("musicBrainzId")); al != nil {
			image = al.Cover
		}
	})
	writeJSON(w, http.StatusOK, &state.AlbumArt{Image: image})
}
