package mutant

// liveSources are the source mutants the checks of the live-only sentences
// kill (conformance/checks/area_live_*.go), one or more per family: a
// result that is not the projection of what the Ombi answered, a page
// whose window or total is not the Ombi's, TVDB details that trust the
// info route's request state, a failed TV search or ratings route passed
// on instead of its fallback, an invalid API key not reported as such; and
// the writes judged on a TV request the check made (the parent's id sent
// where the controller wants the child's, the child's where it wants the
// parent's, another controller), on an album request the check made (its
// moderation sent to the TV controller) and on a request made on behalf of
// another user (the user's name sent where Ombi wants the id); and a
// collection request (the same write sent twice, a count the Ombi never
// gave); and TV ids labelled with another provider's namespace.
// Those checks run against the embedded mock too, so make mutants and make
// soak judge these mutants there.
var liveSources = []Source{
	{
		Name: "stats-completed-tv-from-movies", Domain: DomainAdmin, Clause: "RESULTS-PROJECTION-001",
		Description: "the statistics report the completed movie requests as the completed TV requests",
		File:        "server/status.go",
		Old:         `appendIntMetric(ms, "completed_requests_tv", w.CompletedRequestsTv,`,
		New:         `appendIntMetric(ms, "completed_requests_tv", w.CompletedRequestsMovies,`,
		Filter:      "wire", Focus: `live\.answer\.read_server\.stats`,
	},
	{
		Name: "cron-both-days-star-corrected", Domain: DomainAdmin, Clause: "RESULTS-PROJECTION-001",
		Description: "cron_validate silently corrects an expression with both day fields * into Quartz form before Ombi validates it, so it reports valid what Ombi refuses",
		File:        "server/status.go",
		Old:         "w, err := cl.TestCron(ctx, in.Expression)",
		New:         `w, err := cl.TestCron(ctx, strings.Replace(in.Expression, " * * *", " * * ?", 1))`,
		Filter:      "wire", Focus: `live\.answer\.read_server\.cron_validate`,
	},
	{
		Name: "request-page-total-of-the-window", Domain: DomainRequests, Clause: "RESULTS-PAGING-TOTAL-001",
		Description: "a request list reports the size of its window as the total instead of the total Ombi answered",
		File:        "server/requests.go",
		Old:         "\t\tpg.Total = ptr(total)\n",
		New:         "\t\tpg.Total = ptr(len(items))\n",
		Filter:      "wire", Focus: `live\.page\.read_requests`,
	},
	{
		Name: "issue-page-total-invented", Domain: DomainUsers, Clause: "RESULTS-PAGING-TOTAL-001",
		Description: "the issue list, whose Ombi route answers no total, reports offset plus the returned count as one",
		File:        "server/issues.go",
		Old:         `return issuePage{Kind: "issue_page", Items: items, Page: upstreamPage(offset, limit, len(ws), unitIssues)}, nil`,
		New:         `pg := upstreamPage(offset, limit, len(ws), unitIssues); pg.Total = ptr(offset + len(ws)); return issuePage{Kind: "issue_page", Items: items, Page: pg}, nil`,
		Filter:      "wire", Focus: `live\.page\.read_issues\.list`,
	},
	{
		Name: "tvdb-info-request-state-trusted", Domain: DomainSearch, Clause: "RESULTS-PROJECTION-001",
		Description: "TVDB details keep the legacy info route's requested flag when it sends one and skip the scan of the TV requests, so a requested show reads requested: false",
		File:        "server/media.go",
		Old:         "\trec.Requested, rec.RequestTargets = nil, nil\n\tparents, err := d.client.TVRequests(ctx)\n",
		New:         "\tif rec.Requested != nil {\n\t\treturn rec, nil\n\t}\n\tparents, err := d.client.TVRequests(ctx)\n",
		Filter:      "wire", Focus: `live\.read_media\.details\.tv\.tvdb\.requested-show`,
	},
	{
		Name: "read-401-is-upstream-rejected", Domain: DomainAdmin, Clause: "VERIFY-OUTPUT-SAFE-ERRORS-001",
		Description: "a read answered 401 (an invalid API key, even on a route that needs none) is reported as an upstream rejection instead of AUTHENTICATION_FAILED",
		File:        "server/errors.go",
		Old:         "\tcase e.Status == http.StatusUnauthorized:\n",
		New:         "\tcase e.Status == http.StatusUnauthorized && write:\n",
		Filter:      "auth", Focus: `live\.invalid-api-key`,
	},
	{
		Name: "status-answer-read-as-object", Domain: DomainAdmin, Clause: "RESULTS-PROJECTION-001",
		Description: "the health read decodes Ombi's answer as an object, so the scalar 200 Ombi answers fails the read",
		File:        "server/internal/ombi/status.go",
		Old:         `return send[int](ctx, c, http.MethodGet, "api/v1/Status", nil)`,
		New:         `v, err := send[map[string]int](ctx, c, http.MethodGet, "api/v1/Status", nil); return v["status"], err`,
		Filter:      "wire", Focus: `live\.answer\.read_server\.status`,
	},
	{
		Name: "log-names-lose-extension", Domain: DomainAdmin, Clause: "RESULTS-PROJECTION-001",
		Description: "the log list strips the extension from Ombi's file names, so it lists names Ombi does not have",
		File:        "server/logs.go",
		Old:         "names = append(names, strings.TrimSpace(s))",
		New:         `names = append(names, strings.TrimSuffix(strings.TrimSpace(s), ".txt"))`,
		Filter:      "wire", Focus: `live\.answer\.read_logs\.list`,
	},
	{
		Name: "root-folder-path-not-a-name", Domain: DomainAdmin, Clause: "RESULTS-PROJECTION-001",
		Description: "root folders, which have no name on the wire, are not named by their path",
		File:        "server/integration.go",
		Old:         `optionNameKeys = []string{"name", "title", "label", "path", "serverName",`,
		New:         `optionNameKeys = []string{"name", "title", "label", "serverName",`,
		Filter:      "wire", Focus: `live\.answer\.read_integration\.root_folders`,
	},
	{
		Name: "tv-search-failure-passed-on", Domain: DomainRequests, Clause: "ROUTING-RULE5-TV-PARENT-CHILD-001",
		Description: "a TV request search Ombi fails with a 5xx (the LINQ translation fault of 4.53.10) is passed on as an error instead of falling back to the bounded parent scan",
		File:        "server/requests.go",
		Old:         "!errors.As(err, &api) || api.Status < 500 {",
		New:         "!errors.As(err, &api) || api.Status < 600 {",
		Filter:      "wire", Focus: `live\.read_requests\.search\.tv`,
	},
	{
		Name: "ratings-fallback-on-404-only", Domain: DomainSearch, Clause: "VERIFY-ERROR-BOUNDARIES-001",
		Description: "the ratings fallback runs on a 404 only, so the 500 Ombi 4.53.x answers (its Rotten Tomatoes endpoints are gone) is passed on instead of the exact title and year match of the movie search",
		File:        "server/media.go",
		Old:         "(api.Status == http.StatusNotFound || api.Status >= 500)",
		New:         "api.Status == http.StatusNotFound",
		Filter:      "errors", Focus: `live\.read_media\.ratings`,
	},
	{
		Name: "tv-moderation-names-the-parent", Domain: DomainRequests, Clause: "ROUTING-RULE5-TV-PARENT-CHILD-001",
		Description: "TV moderation resolves the child request to its parent and sends the parent's id, where Ombi's TV moderation controller wants the child's",
		File:        "server/requests_write.go",
		Old:         "body, kind = ombi.ModerationBody{ID: in.RequestID, Reason: in.Reason}, kindTVChild",
		New: "rid := in.RequestID; ps, _ := d.client.TVParentScan(ombi.ReadOnly(ctx)); for _, p := range ps { for _, ch := range p.ChildRequests { if ch.ID.Positive() == in.RequestID { rid = p.ID.Positive() } } }\n" +
			"\t\t\tbody, kind = ombi.ModerationBody{ID: rid, Reason: in.Reason}, kindTVChild",
		Filter: "wire", Focus: `live\.own-tv\.moderate`,
	},
	{
		Name: "tv-subscription-through-the-movie-controller", Domain: DomainRequests, Clause: "ROUTING-RULE5-TV-PARENT-CHILD-001",
		Description: "a TV subscription is sent to the movie controller with the TV child's id, so another request (or none) is followed",
		File:        "server/requests_write.go",
		Old:         "ok, err := d.client.SubscribeRequest(ctx, in.Media, in.Action, in.RequestID)",
		New:         `ok, err := d.client.SubscribeRequest(ctx, "movie", in.Action, in.RequestID)`,
		Filter:      "wire", Focus: `live\.own-tv\.subscribe`,
	},
	{
		Name: "tv-advanced-options-name-a-child", Domain: DomainRequests, Clause: "ROUTING-RULE5-TV-PARENT-CHILD-001",
		Description: "TV advanced options send the id of the parent's first child request, where Ombi's advanced-options controller wants the parent's",
		File:        "server/requests_write.go",
		Old:         "body := ombi.AdvancedOptionsBody{RequestID: in.ParentRequestID,",
		New: "rid := in.ParentRequestID; if kids, _ := cl.TVChildRequests(ombi.ReadOnly(ctx), in.ParentRequestID); len(kids) > 0 { rid = kids[0].ID.Positive() }\n" +
			"\t\t\tbody := ombi.AdvancedOptionsBody{RequestID: rid,",
		Filter: "wire", Focus: `live\.own-tv\.options`,
	},
	{
		Name: "tv-reprocess-names-the-parent", Domain: DomainRequests, Clause: "ROUTING-RULE5-TV-PARENT-CHILD-001",
		Description: "reprocessing a TV request sends its parent's id, where Ombi's reprocess route wants the child's",
		File:        "server/requests_write.go",
		Old:         "w, err := d.client.ReprocessRequest(ctx, typ, in.RequestID, in.Is4K)",
		New: "rid := in.RequestID; if in.RequestType == \"tv\" { ps, _ := d.client.TVParentScan(ombi.ReadOnly(ctx)); for _, p := range ps { for _, ch := range p.ChildRequests { if ch.ID.Positive() == in.RequestID { rid = p.ID.Positive() } } } }\n" +
			"\t\tw, err := d.client.ReprocessRequest(ctx, typ, rid, in.Is4K)",
		Filter: "wire", Focus: `live\.own-tv\.reprocess`,
	},
	{
		Name: "on-behalf-sends-the-user-name", Domain: DomainRequests, Clause: "VERIFY-ROUTING-CREATE-WIRE-001",
		Description: "a movie request on behalf of another user sends that user's name as requestOnBehalf, where Ombi wants the user's id",
		File:        "server/requests_write.go",
		Old:         "LanguageCode: in.Language, RequestOnBehalf: in.OnBehalfUserID,\n\t\t\t\tRootFolderOverride: in.RootFolderID,",
		New: "LanguageCode: in.Language, RequestOnBehalf: func() string { u, err := cl.User(ombi.ReadOnly(ctx), in.OnBehalfUserID); if in.OnBehalfUserID == \"\" || err != nil { return in.OnBehalfUserID }; return u.UserName }(),\n" +
			"\t\t\t\tRootFolderOverride: in.RootFolderID,",
		Filter: "wire", Focus: `live\.on-behalf`,
	},
	{
		Name: "season-expansion-one-episode-short", Domain: DomainRequests, Clause: "VERIFY-ROUTING-SEASON-NUMBERS-001",
		Description: "season mode expands a whole season to its episodes but the last one (an off-by-one on the details' episode list), so the Ombi's new request lacks an episode of the season asked for",
		File:        "server/requests_write.go",
		Old:         "for _, e := range eps {\n\t\t\tsw.Episodes = append(",
		New:         "for _, e := range eps[:len(eps)-1] {\n\t\t\tsw.Episodes = append(",
		Filter:      "wire", Focus: `live\.own-tv\.create`,
	},
	{
		Name: "album-moderation-through-the-tv-controller", Domain: DomainRequests, Clause: "VERIFY-ROUTING-LEDGER-001",
		Description: "album moderation is sent to the TV controller with the album request's id, so a TV child request (or none) is moderated instead",
		File:        "server/requests_write.go",
		Old:         "body, kind = ombi.ModerationBody{ID: in.RequestID, Reason: in.Reason}, kindAlbum",
		New:         `body, kind, in.Media = ombi.ModerationBody{ID: in.RequestID, Reason: in.Reason}, kindAlbum, "tv"`,
		Filter:      "wire", Focus: `live\.own-album\.moderate`,
	},
	{
		Name: "collection-sent-again", Domain: DomainRequests, Clause: "RESULTS-PARTIAL-001",
		Description: "a collection request that succeeds is posted a second time, to pick up titles the first left out, so one call sends the Ombi the same write twice",
		File:        "server/requests_write.go",
		Old:         "w, err := cl.CreateCollectionRequest(ctx, in.CollectionID)\n",
		New:         "w, err := cl.CreateCollectionRequest(ctx, in.CollectionID)\n\t\t\tif err == nil {\n\t\t\t\tw, err = cl.CreateCollectionRequest(ctx, in.CollectionID)\n\t\t\t}\n",
		Filter:      "wire", Focus: `live\.collection`,
	},
	{
		Name: "collection-one-result-counted-as-one-request", Domain: DomainRequests, Clause: "RESULTS-PARTIAL-001",
		Description: "a collection request reports the one result the Ombi gives for the collection as one affected request, whatever its titles' requests did",
		File:        "server/requests_write.go",
		Old:         "\t\t\tm.Outcome = mutationAccepted\n",
		New:         "\t\t\tm.Outcome, m.AffectedCount = mutationAccepted, ptr(1)\n",
		Filter:      "wire", Focus: `live\.collection`,
	},
	{
		Name: "tv-quality-sent-as-root-folder", Domain: DomainRequests, Clause: "ROUTING-RULE5-TV-PARENT-CHILD-001",
		Description: "a TV request's quality profile is sent to the root folder route, so the Ombi's parent request gets the profile id as its root folder and keeps its quality",
		File:        "server/requests_write.go",
		Old:         `which, value = "quality", in.QualityProfileID`,
		New:         `value = in.QualityProfileID`,
		Filter:      "wire", Focus: `live\.own-tv\.options\.tv_quality`,
	},
	{
		Name: "recent-tv-ids-read-the-other-way", Domain: DomainAdmin, Clause: "RESULTS-PROJECTION-001",
		Description: "a recently added TV item's TMDB and TVDB ids are labelled the other way round, so each names another show (or none) in its namespace",
		File:        "server/library.go",
		Old:         "\ts.add(nsTMDB, string(w.TheMovieDbID))\n\ts.add(nsTVDB, string(w.TvDbID))\n",
		New:         "\tif media == \"tv\" {\n\t\tw.TheMovieDbID, w.TvDbID = w.TvDbID, w.TheMovieDbID\n\t}\n\ts.add(nsTMDB, string(w.TheMovieDbID))\n\ts.add(nsTVDB, string(w.TvDbID))\n",
		Filter:      "wire", Focus: `live\.ids\.read_library`,
	},
	{
		Name: "multi-search-tv-id-as-tvdb", Domain: DomainSearch, Clause: "RESULTS-PROJECTION-001",
		Description: "a TV result of the multi-search labels its id TVDB, where Ombi's multi-search answers TMDB ids",
		File:        "server/search.go",
		Old:         "\t\tr.Media = \"tv\"\n\t\ts.add(nsTMDB, string(w.ID))\n",
		New:         "\t\tr.Media = \"tv\"\n\t\ts.add(nsTVDB, string(w.ID))\n",
		Filter:      "wire", Focus: `live\.ids\.read_search`,
	},
	{
		Name: "tvdb-details-ids-labelled-tmdb", Domain: DomainSearch, Clause: "RESULTS-PROJECTION-001",
		Description: "TV details read by TVDB id label the v1 info route's ids as the TMDB-keyed v2 routes' are, so the show's TVDB id is named a TMDB id",
		File:        "server/media.go",
		Old:         `rec := projectVideo(&w, "tv", originTVMaze)`,
		New:         `rec := projectVideo(&w, "tv", originTMDB)`,
		Filter:      "wire", Focus: `live\.ids\.read_media`,
	},
}
