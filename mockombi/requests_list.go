package mockombi

import (
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// statusFilter returns the predicate of a v2 list status segment.
func statusFilter(media, status string) (func(b *db.ReqBase, fourK fourKFlags) bool, bool) {
	switch status {
	case "":
		return func(*db.ReqBase, fourKFlags) bool { return true }, true
	case "pending":
		return func(b *db.ReqBase, k fourKFlags) bool {
			return !b.RequestedDate.IsZero() && !b.Approved && !b.Available && !b.IsDenied() ||
				k.has && !k.approved && !k.available && !k.denied
		}, true
	case "processing":
		return func(b *db.ReqBase, k fourKFlags) bool {
			return !b.RequestedDate.IsZero() && b.Approved && !b.Available && !b.IsDenied() ||
				k.has && k.approved && !k.available && !k.denied
		}, true
	case "available", "availble":
		if status == "availble" && media != "movie" {
			return nil, false
		}
		return func(b *db.ReqBase, k fourKFlags) bool { return b.Available || k.available }, true
	case "denied":
		return func(b *db.ReqBase, k fourKFlags) bool {
			return b.IsDenied() && !b.Available || k.has && k.denied && !k.available
		}, true
	case "unavailable":
		if media == "album" {
			return nil, false
		}
		return func(b *db.ReqBase, k fourKFlags) bool { return !b.Available && b.Approved }, true
	}
	return nil, false
}

// fourKFlags are a movie request's 4K flags (zero for other media).
type fourKFlags struct{ has, approved, available, denied bool }

// fourK extracts a movie request's 4K flags.
func fourK(m *db.MovieRequest) fourKFlags {
	return fourKFlags{has: m.Has4KRequest, approved: m.Approved4K, available: m.Available4K, denied: m.Denied4K != nil && *m.Denied4K}
}

// requestsListV2 is GET /api/v2/Requests/{movie|tv|album}[/{status}]/{count}/{position}/{sort}/{sortOrder}.
// Implements S-ROUTING-0140, S-ROUTING-0144 and S-VERIFY-0153 (the v2_list_null_reference quirk).
func (s *Server) requestsListV2(w http.ResponseWriter, r *http.Request) {
	media := segmentAfter(r, "requests")
	keep, ok := statusFilter(media, strings.ToLower(r.PathValue("status")))
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	count, ok := intParam(w, r, "count")
	if !ok {
		return
	}
	position, ok := intParam(w, r, "position")
	if !ok {
		return
	}
	sortProp, asc := r.PathValue("sort"), strings.EqualFold(r.PathValue("sortOrder"), "asc")
	if strings.Contains(sortProp, ".") {
		sortProp = "requestedDate"
		if media == "tv" {
			sortProp = "title"
		}
	}
	p := principalOf(r)
	switch media {
	case "movie":
		var items []*state.MovieRequests
		s.store.Read(func(st *store) {
			for _, m := range st.Requests.Movies {
				if keep(&m.ReqBase, fourK(m)) && st.visibleTo(p, m.RequestedUserID) {
					items = append(items, st.movieRequestView(m, p))
				}
			}
		})
		writePageV2(s, w, items, sortProp, asc, position, count)
	case "tv":
		var items []*state.ChildRequests
		s.store.Read(func(st *store) {
			for _, c := range st.Requests.Children {
				if keep(&c.ReqBase, fourKFlags{}) && st.visibleTo(p, c.RequestedUserID) {
					items = append(items, st.childView(c, p, childViewOpts{Parent: true, Seasons: true}))
				}
			}
		})
		writePageV2(s, w, items, sortProp, asc, position, count)
	case "album":
		var items []*state.AlbumRequest
		s.store.Read(func(st *store) {
			for _, a := range st.Requests.Albums {
				if keep(&a.ReqBase, fourKFlags{}) && st.visibleTo(p, a.RequestedUserID) {
					items = append(items, st.albumRequestView(a, p))
				}
			}
		})
		writePageV2(s, w, items, sortProp, asc, position, count)
	}
}

// writePageV2 answers one page of a v2 list sorted by sortProp, or the
// error Ombi answers when it cannot sort by it or the
// v2_list_null_reference quirk fails a page that is not empty.
func writePageV2[T any](s *Server, w http.ResponseWriter, items []T, sortProp string, asc bool, position, count int) {
	if err := sortByProperty(items, viewMembers, sortProp, asc); err != "" {
		writeOmbiError(w, http.StatusInternalServerError, err)
		return
	}
	if len(window(items, position, count)) > 0 && s.quirk(QuirkV2ListNullReference) {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writePage(w, items, position, count)
}

// v1Filter applies the v1 FilterType ints (status and availability).
func v1Filter(b *db.ReqBase, status, availability int) bool {
	switch status {
	case 3: // Approved
		if !b.Approved {
			return false
		}
	case 4: // Processing
		if !b.Approved || b.Available {
			return false
		}
	case 5: // PendingApproval
		if b.Approved || b.Available || b.IsDenied() {
			return false
		}
	}
	switch availability {
	case 1:
		return b.Available
	case 2:
		return !b.Available
	}
	return true
}

// v1Order sorts by the v1 OrderType int, reading the items' members.
func v1Order[T any](items []T, members func(T) map[string]any, order int) {
	switch order {
	case 1:
		_ = sortByProperty(items, members, "requestedDate", true)
	case 2:
		_ = sortByProperty(items, members, "requestedDate", false)
	case 3:
		_ = sortByProperty(items, members, "title", true)
	case 4:
		_ = sortByProperty(items, members, "title", false)
	case 5:
		_ = sortByProperty(items, members, "requestStatus", true)
	case 6:
		_ = sortByProperty(items, members, "requestStatus", false)
	}
}

// pagedV1Args reads {count}/{position}/{orderType} (int-constrained).
func pagedV1Args(w http.ResponseWriter, r *http.Request) (count, position, order int, ok bool) {
	if count, ok = intParam(w, r, "count"); !ok {
		return
	}
	if position, ok = intParam(w, r, "position"); !ok {
		return
	}
	order, ok = intParam(w, r, "orderType")
	return
}

// pagedV1FilterArgs reads pagedV1Args plus the {statusType} and
// {availabilityType} segments, which the movie and album routes honour.
func pagedV1FilterArgs(w http.ResponseWriter, r *http.Request) (count, position, order, status, avail int, ok bool) {
	if count, position, order, ok = pagedV1Args(w, r); !ok {
		return
	}
	if status, ok = intParam(w, r, "statusType"); !ok {
		return
	}
	avail, ok = intParam(w, r, "availabilityType")
	return
}

// requestMoviePagedV1 is GET /api/v1/Request/movie/{count}/{position}/{orderType}/{statusType}/{availabilityType}.
func (s *Server) requestMoviePagedV1(w http.ResponseWriter, r *http.Request) {
	count, position, order, status, avail, ok := pagedV1FilterArgs(w, r)
	if !ok {
		return
	}
	p := principalOf(r)
	var items []*state.MovieRequests
	s.store.Read(func(st *store) {
		for _, m := range st.Requests.Movies {
			if v1Filter(&m.ReqBase, status, avail) && st.visibleTo(p, m.RequestedUserID) {
				items = append(items, st.movieRequestView(m, p))
			}
		}
	})
	v1Order(items, viewMembers, order)
	writePage(w, items, position, count)
}

// writePage answers RequestsViewModel {collection, total}.
func writePage[T any](w http.ResponseWriter, items []T, position, count int) {
	page := window(items, position, count)
	if page == nil {
		page = []T{}
	}
	writeJSON(w, http.StatusOK, &state.RequestsViewModel[T]{Collection: page, Total: len(items)})
}

// requestTVPagedV1 is GET /api/v1/Request/tv[lite]/{count}/{position}/{orderType}/{statusFilterType}/{availabilityFilterType}.
// Upstream binds status and availability from the query string (parameter
// name mismatch), so the path values are ignored.
func (s *Server) requestTVPagedV1(w http.ResponseWriter, r *http.Request) {
	count, position, order, ok := pagedV1Args(w, r)
	if !ok {
		return
	}
	if _, ok := intParam(w, r, "statusFilterType"); !ok {
		return
	}
	if _, ok := intParam(w, r, "availabilityFilterType"); !ok {
		return
	}
	status, _ := strconv.Atoi(queryFold(r, "statusType"))
	avail, _ := strconv.Atoi(queryFold(r, "availabilityType"))
	lite := segmentAfter(r, "request") == "tvlite"
	p := principalOf(r)
	var items []*state.TvRequests
	// a parent is ordered by its first child's requestedDate and
	// requestStatus; a parent with no children has neither
	firstChild := map[*state.TvRequests]*db.ChildRequest{}
	s.store.Read(func(st *store) {
		for _, pr := range st.Requests.Tv {
			kids := st.Requests.ChildrenOf(pr.ID)
			if !st.parentVisibleTo(p, pr) {
				continue
			}
			if !slices.ContainsFunc(kids, func(c *db.ChildRequest) bool { return v1Filter(&c.ReqBase, status, avail) }) && (status != 0 || avail != 0) {
				continue
			}
			v := st.parentView(pr, p, lite)
			if len(kids) > 0 {
				firstChild[v] = kids[0]
			}
			items = append(items, v)
		}
	})
	v1Order(items, func(v *state.TvRequests) map[string]any {
		m := state.Members(v)
		if c := firstChild[v]; c != nil {
			m["requestedDate"], m["requestStatus"] = c.RequestedDate, c.Status()
		}
		return m
	}, order)
	for _, v := range items { // nor does the page write members of their names
		_, date := v.Extra["requestedDate"]
		_, status := v.Extra["requestStatus"]
		if date || status {
			v.Extra = maps.Clone(v.Extra)
			delete(v.Extra, "requestedDate")
			delete(v.Extra, "requestStatus")
		}
	}
	writePage(w, items, position, count)
}

// requestAlbumPagedV1 is GET /api/v1/request/music/{count}/{position}/{orderType}/{statusType}/{availabilityType}.
func (s *Server) requestAlbumPagedV1(w http.ResponseWriter, r *http.Request) {
	count, position, order, status, avail, ok := pagedV1FilterArgs(w, r)
	if !ok {
		return
	}
	p := principalOf(r)
	var items []*state.AlbumRequest
	s.store.Read(func(st *store) {
		for _, a := range st.Requests.Albums {
			if v1Filter(&a.ReqBase, status, avail) && st.visibleTo(p, a.RequestedUserID) {
				items = append(items, st.albumRequestView(a, p))
			}
		}
	})
	v1Order(items, viewMembers, order)
	writePage(w, items, position, count)
}

// requestMovieAll is GET /api/v1/Request/movie.
func (s *Server) requestMovieAll(w http.ResponseWriter, r *http.Request) {
	s.writeMovieRequests(w, r, func(*db.MovieRequest) bool { return true })
}

// requestMovieSearch is GET /api/v1/Request/movie/search/{searchTerm}.
func (s *Server) requestMovieSearch(w http.ResponseWriter, r *http.Request) {
	term := r.PathValue("searchTerm")
	s.writeMovieRequests(w, r, func(m *db.MovieRequest) bool { return containsFold(m.Title, term) })
}

// writeMovieRequests answers MovieRequests[] filtered by keep.
func (s *Server) writeMovieRequests(w http.ResponseWriter, r *http.Request, keep func(*db.MovieRequest) bool) {
	out := []*state.MovieRequests{}
	s.store.Read(func(st *store) {
		for _, m := range st.Requests.Movies {
			if keep(m) && st.visibleTo(principalOf(r), m.RequestedUserID) {
				out = append(out, st.movieRequestView(m, principalOf(r)))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// requestMovieGet is GET /api/v1/Request/movie/info/{requestId}.
func (s *Server) requestMovieGet(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "requestId")
	if !ok {
		return
	}
	var out *state.MovieRequests
	s.store.Read(func(st *store) {
		if m := st.Requests.MovieByID(id); m != nil {
			out = st.movieRequestView(m, principalOf(r))
		}
	})
	writeRecord(w, out)
}

// requestMovieTotal is GET /api/v1/Request/movie/total.
func (s *Server) requestMovieTotal(w http.ResponseWriter, r *http.Request) {
	n := 0
	s.store.Read(func(st *store) { n = len(st.Requests.Movies) })
	writeJSON(w, http.StatusOK, n)
}

// requestTVTotal is GET /api/v1/Request/tv/total.
func (s *Server) requestTVTotal(w http.ResponseWriter, r *http.Request) {
	n := 0
	s.store.Read(func(st *store) { n = len(st.Requests.Tv) })
	writeJSON(w, http.StatusOK, n)
}

// requestAlbumTotal is GET /api/v1/request/music/total.
func (s *Server) requestAlbumTotal(w http.ResponseWriter, r *http.Request) {
	n := 0
	s.store.Read(func(st *store) { n = len(st.Requests.Albums) })
	writeJSON(w, http.StatusOK, n)
}

// requestTVAll is GET /api/v1/Request/tv and tvlite.
func (s *Server) requestTVAll(w http.ResponseWriter, r *http.Request) {
	lite := segmentAfter(r, "request") == "tvlite"
	out := []*state.TvRequests{}
	s.store.Read(func(st *store) {
		for _, pr := range st.Requests.Tv {
			if st.parentVisibleTo(principalOf(r), pr) {
				out = append(out, st.parentView(pr, principalOf(r), lite))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// requestTVGet is GET /api/v1/Request/tv/{requestId} (parent id).
func (s *Server) requestTVGet(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	var out *state.TvRequests
	s.store.Read(func(st *store) {
		if pr := st.Requests.ParentByID(id); pr != nil {
			out = st.parentView(pr, principalOf(r), false)
		}
	})
	writeRecord(w, out)
}

// requestTVSearch is GET /api/v1/Request/tv/search/{searchTerm}. Ombi's
// TvRequestEngine.SearchTvRequest filters the query with the
// StringHelper.Contains(CompareOptions) extension, which EF Core cannot
// translate: the tv_search_linq quirk (on by default) answers that 500;
// off answers the matching requests.
// Implements S-VERIFY-0155 (the tv_search_linq quirk).
func (s *Server) requestTVSearch(w http.ResponseWriter, r *http.Request) {
	term := r.PathValue("searchTerm")
	if s.quirk(QuirkTVSearchLINQ) {
		var trace string
		s.store.Read(func(st *store) { trace = st.Requests.LinqTrace })
		writeOmbiError(w, http.StatusInternalServerError, "System.InvalidOperationException: The LINQ expression 'DbSet<TvRequests>()\n"+
			"    .Where(t => t.Title.Contains(\n        word: __search_0, \n        opts: IgnoreCase))' could not be translated. "+
			"Additional information: Translation of method 'Ombi.Helpers.StringHelper.Contains' failed. "+
			"Either rewrite the query in a form that can be translated, or switch to client evaluation explicitly by inserting a call to "+
			"'AsEnumerable', 'AsAsyncEnumerable', 'ToList', or 'ToListAsync'. See https://go.microsoft.com/fwlink/?linkid=2101038 for more information.\n"+trace)
		return
	}
	out := []*state.TvRequests{}
	s.store.Read(func(st *store) {
		for _, pr := range st.Requests.Tv {
			if containsFold(pr.Title, term) && st.parentVisibleTo(principalOf(r), pr) {
				out = append(out, st.parentView(pr, principalOf(r), false))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// requestTVChildren is GET /api/v1/Request/tv/{requestId}/child: the
// children with parentRequest, as TvRequestEngine.GetAllChldren loads them
// through TvRequestRepository.GetChild (Include ParentRequest); with
// hideRequestsUsers only the caller's children are loaded.
func (s *Server) requestTVChildren(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	p := principalOf(r)
	out := []*state.ChildRequests{}
	s.store.Read(func(st *store) {
		visible := func(c *db.ChildRequest) bool { return st.visibleTo(p, c.RequestedUserID) }
		for _, c := range st.Requests.ChildrenOf(id) {
			if visible(c) {
				out = append(out, st.childView(c, p, childViewOpts{Parent: true, Seasons: true, Loaded: visible}))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// requestAlbumAll is GET /api/v1/request/music.
func (s *Server) requestAlbumAll(w http.ResponseWriter, r *http.Request) {
	s.writeAlbumRequests(w, r, "")
}

// requestAlbumSearch is GET /api/v1/request/music/search/{searchTerm}.
func (s *Server) requestAlbumSearch(w http.ResponseWriter, r *http.Request) {
	s.writeAlbumRequests(w, r, r.PathValue("searchTerm"))
}

// writeAlbumRequests answers AlbumRequest[] whose title or artist matches term.
func (s *Server) writeAlbumRequests(w http.ResponseWriter, r *http.Request, term string) {
	out := []*state.AlbumRequest{}
	s.store.Read(func(st *store) {
		for _, a := range st.Requests.Albums {
			if (containsFold(a.Title, term) || containsFold(a.ArtistName, term)) && st.visibleTo(principalOf(r), a.RequestedUserID) {
				out = append(out, st.albumRequestView(a, principalOf(r)))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// requestsRecentlyRequested is GET /api/v2/Requests/recentlyRequested: up to
// seven movies, TV children and albums, newest first.
// Implements S-RESULTS-0045 (TV rows carry child request ids).
func (s *Server) requestsRecentlyRequested(w http.ResponseWriter, r *http.Request) {
	var rows []*state.RecentlyRequestedModel
	s.store.Read(func(st *store) {
		row := func(b *db.ReqBase, typ int) *state.RecentlyRequestedModel {
			v := &state.RecentlyRequestedModel{RequestID: b.ID, Type: typ, UserID: b.RequestedUserID,
				Available: b.Available, RequestDate: b.RequestedDate, Title: b.Title, Approved: b.Approved, Denied: b.IsDenied()}
			if acc := st.Users.ByID(b.RequestedUserID); acc != nil {
				v.Username = ref(acc.DisplayName())
			}
			return v
		}
		newest := func(n int, dates []time.Time) []int {
			idx := make([]int, len(dates))
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int { return dates[b].Compare(dates[a]) })
			return idx[:min(n, len(idx))]
		}
		var dates []time.Time
		for _, m := range st.Requests.Movies {
			dates = append(dates, m.RequestedDate)
		}
		for _, i := range newest(7, dates) {
			m := st.Requests.Movies[i]
			v := row(&m.ReqBase, db.RequestTypeMovie)
			v.Overview, v.ReleaseDate, v.MediaID = ref(m.Overview), m.ReleaseDate, ref(strconv.Itoa(m.TheMovieDbID))
			v.PosterPath, v.Background = ref(m.PosterPath), ref(m.Background)
			rows = append(rows, v)
		}
		dates = dates[:0]
		for _, c := range st.Requests.Children {
			dates = append(dates, c.RequestedDate)
		}
		for _, i := range newest(7, dates) {
			c := st.Requests.Children[i]
			v := row(&c.ReqBase, db.RequestTypeTV)
			v.TvPartiallyAvailable, v.ReleaseDate = partlyAvailable(c), c.ReleaseYear
			if pr := st.Requests.ParentByID(c.ParentRequestID); pr != nil {
				v.Overview, v.MediaID = ref(pr.Overview), ref(strconv.Itoa(pr.ExternalProviderID))
				v.PosterPath, v.Background = ref(pr.PosterPath), ref(pr.Background)
			}
			rows = append(rows, v)
		}
		dates = dates[:0]
		for _, a := range st.Requests.Albums {
			dates = append(dates, a.RequestedDate)
		}
		for _, i := range newest(7, dates) {
			a := st.Requests.Albums[i]
			v := row(&a.ReqBase, db.RequestTypeAlbum)
			v.Overview, v.ReleaseDate, v.MediaID = ref(a.ArtistName), a.ReleaseDate, ref(a.ForeignAlbumID)
			rows = append(rows, v)
		}
	})
	slices.SortStableFunc(rows, func(a, b *state.RecentlyRequestedModel) int { return b.RequestDate.Compare(a.RequestDate) })
	out := make([]*state.RecentlyRequestedModel, 0, len(rows))
	p := principalOf(r)
	s.store.Read(func(st *store) {
		for _, row := range rows {
			// upstream takes seven of each, then skips other users' rows when hiding
			if st.visibleTo(p, row.UserID) {
				out = append(out, row)
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// partlyAvailable reports some but not all episodes of a child available.
func partlyAvailable(c *db.ChildRequest) bool {
	some, all := false, true
	for _, s := range c.SeasonRequests {
		for _, e := range s.Episodes {
			some = some || e.Available
			all = all && e.Available
		}
	}
	return some && !all
}

// requestCount is GET /api/v1/Request/count (anonymous).
func (s *Server) requestCount(w http.ResponseWriter, r *http.Request) {
	var pending, approved, available, denied int
	tally := func(b *db.ReqBase) { // the buckets overlap, as upstream counts them
		if !b.Approved && !b.Available && !b.IsDenied() {
			pending++
		}
		if b.Approved && !b.Available {
			approved++
		}
		if b.Available {
			available++
		}
		if b.IsDenied() {
			denied++
		}
	}
	s.store.Read(func(st *store) {
		for _, m := range st.Requests.Movies {
			tally(&m.ReqBase)
		}
		for _, c := range st.Requests.Children {
			tally(&c.ReqBase)
		}
	})
	writeJSON(w, http.StatusOK, map[string]int{"pending": pending, "approved": approved, "available": available, "denied": denied})
}

// requestUserHasRequest is GET /api/v1/Request/userhasrequest?userId=.
func (s *Server) requestUserHasRequest(w http.ResponseWriter, r *http.Request) {
	id := queryFold(r, "userId")
	has := false
	s.store.Read(func(st *store) {
		for _, m := range st.Requests.Movies {
			has = has || m.RequestedUserID == id
		}
		for _, c := range st.Requests.Children {
			has = has || c.RequestedUserID == id
		}
		for _, a := range st.Requests.Albums {
			has = has || a.RequestedUserID == id
		}
	})
	writeJSON(w, http.StatusOK, has)
}

// visibleTo applies OmbiSettings.hideRequestsUsers: when it is on, callers
// other than Admin, PowerUser and the system user see only their own requests.
func (st *store) visibleTo(p *principal, owner string) bool {
	if p == nil || p.isPrivileged() || !db.Or(st.Settings.Ombi).HideRequestsUsers {
		return true
	}
	if acc := st.Users.ByID(p.id); acc != nil && acc.UserType == 0 {
		return true
	}
	return owner == p.id
}

// parentVisibleTo shows a TV parent when any of its children is visible.
func (st *store) parentVisibleTo(p *principal, pr *db.TvParent) bool {
	kids := st.Requests.ChildrenOf(pr.ID)
	if len(kids) == 0 {
		return st.visibleTo(p, "")
	}
	return slices.ContainsFunc(kids, func(c *db.ChildRequest) bool { return st.visibleTo(p, c.RequestedUserID) })
}
