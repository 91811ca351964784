package mutant

// Measured on f461fc7 (server/ as on b6dbfdd), seed 20261201, before any
// check was written for these mutants: 21 of 45 killed, each judged with
// its own filter (OMBI_SOURCE_MUTANTS=blind); 29 of 45 when the 24
// survivors are judged again with every area (OMBI_SOURCE_MUTANTS_FILTER=
// set empty; each kill confirmed alone on the mutant and the reference
// server). Per mutant: own filter, then every area (- when the own filter
// already killed). Judged again with every area after the checks of five
// rule classes were added (5f9caa8, seed 20261201): 30 of 45, the 16 every-
// area survivors but blind-artwork-userinfo-kept (now killed by
// RESULTS-ERRORS-SANITIZE-001.read_library.artwork-credential-url) surviving.
//
//	blind-browse-tv-tvmaze-labels                 killed    -
//	blind-multi-mediatype-case-sensitive          killed    -
//	blind-multi-people-sets-music                 killed    -
//	blind-search-total-claimed                    killed    -
//	blind-search-tv-tmdb-labels                   killed    -
//	blind-tv-by-request-tvmaze-labels             SURVIVED  SURVIVED
//	blind-upstream-page-has-more-guessed          SURVIVED  SURVIVED
//	blind-album-alias-with-login                  SURVIVED  killed
//	blind-engine-result-false-success             SURVIVED  SURVIVED
//	blind-episode-cap-per-season                  SURVIVED  killed
//	blind-first-season-sets-latest                killed    -
//	blind-movie-options-override-reset            killed    -
//	blind-recent-feed-total-claimed               killed    -
//	blind-request-list-all-segment                killed    -
//	blind-request-list-default-asc                killed    -
//	blind-request-list-has-more-at-end            SURVIVED  killed
//	blind-tv-root-post                            killed    -
//	blind-tvdb-language-profile-dropped           SURVIVED  killed
//	blind-issue-counts-in-progress-from-pending   SURVIVED  SURVIVED
//	blind-issue-list-take-skip-swapped            killed    -
//	blind-issue-status-admin-only                 SURVIVED  SURVIVED
//	blind-issue-summary-position-take-swapped     killed    -
//	blind-provider-summary-empty-array-mismatch   SURVIVED  SURVIVED
//	blind-streaming-country-field-misnamed        SURVIVED  SURVIVED
//	blind-user-dropdown-full-list-route           killed    -
//	blind-vote-write-music-segment                killed    -
//	blind-api-key-empty-username-header           killed    -
//	blind-artwork-userinfo-kept                   SURVIVED  SURVIVED
//	blind-budget-cut-has-more-missing             SURVIVED  SURVIVED
//	blind-conflict-mapped-rejected                SURVIVED  killed
//	blind-http-localhost-prefix-origin            SURVIVED  SURVIVED
//	blind-logs-url-credentials-kept               SURVIVED  SURVIVED
//	blind-plex-libraries-wrong-key                killed    -
//	blind-rate-limit-write-retryable              SURVIVED  SURVIVED
//	blind-relogin-replays-write                   killed    -
//	blind-settings-array-replaced                 SURVIVED  killed
//	blind-settings-noop-posted                    SURVIVED  killed
//	blind-settings-revision-readonly-section      killed    -
//	blind-write-classified-by-destructive         killed    -
//	blind-integration-test-default-unprovisioned  SURVIVED  SURVIVED
//	blind-job-allow-list-lowercased               SURVIVED  SURVIVED
//	blind-newsletter-job-default-allowed          SURVIVED  killed
//	blind-retry-remove-empty-answer-completed     SURVIVED  SURVIVED
//	blind-revalidate-unknown-answer-true          SURVIVED  SURVIVED
//	blind-tester-radarr-4k-tests-standard         killed    -
//
// The killing checks (own filter / every area), for the record:
//	blind-browse-tv-tvmaze-labels: RESULTS-PROJECTION-001.exact.read_discover.browse.tv.id-without-tmdb-field
//	blind-multi-mediatype-case-sensitive: RESULTS-PROJECTION-001.read_search.multi.media-type-case
//	blind-multi-people-sets-music: VERIFY-ROUTING-LEDGER-001.read_search.multi
//	blind-search-total-claimed: ROUTING-RULE7-LOCAL-SLICE-001.read_search
//	blind-search-tv-tmdb-labels: RESULTS-PROJECTION-001.read_search.text.tv.v1-namespaces
//	blind-album-alias-with-login: VERIFY-SCHEMA-DEFAULTS-001.write_request_create.alias-jwt
//	blind-episode-cap-per-season: VERIFY-SCHEMA-REJECT-BEFORE-UPSTREAM-001.write_request_create.over-2000-episodes
//	blind-first-season-sets-latest: VERIFY-ROUTING-CREATE-WIRE-001.exact.write_request_create.tv.tmdb.exact
//	blind-movie-options-override-reset: ROUTING-RULE8-RUNTIME-001.exact.write_request_options.movie_advanced.carry-over-root
//	blind-recent-feed-total-claimed: RESULTS-PAGING-TOTAL-001.exact.read_requests.recent.bounded-feed
//	blind-request-list-all-segment: VERIFY-ROUTING-REQUEST-LIST-001.exact.read_requests.list.album.all.exact
//	blind-request-list-default-asc: RESULTS-PAGING-TOTAL-001.exact.read_requests.list.missing-total
//	blind-request-list-has-more-at-end: RESULTS-PROJECTION-001.never-fabricate.read_requests
//	blind-tv-root-post: ROUTING-RULE2-LITERAL-001.write_request_options.tv_quality
//	blind-tvdb-language-profile-dropped: VERIFY-ROUTING-CREATE-WIRE-001.exact.write_request_create.tv.tvdb.override-language
//	blind-issue-list-take-skip-swapped: RESULTS-PROJECTION-001.exact.read_issues.list.resolved-date
//	blind-issue-summary-position-take-swapped: RESULTS-PROJECTION-001.exact.read_issues.summary.missing-count
//	blind-user-dropdown-full-list-route: VERIFY-ROUTING-LEDGER-001.exact.read_users.dropdown.exact
//	blind-vote-write-music-segment: ROUTING-RULE2-LITERAL-001.exact.write_vote.down.album.exact
//	blind-api-key-empty-username-header: VERIFY-AUTH-STARTUP-001.api_key.media-tools
//	blind-conflict-mapped-rejected: VERIFY-AUTHZ-SETTINGS-001.write_settings_patch.cycle
//	blind-plex-libraries-wrong-key: VERIFY-AUTHZ-NO-FALLBACK-001.exact.read_integration.plex_libraries.saved
//	blind-relogin-replays-write: VERIFY-AUTHZ-NO-REPLAY-001.write_request_create.401-once
//	blind-settings-array-replaced: VERIFY-AUTHZ-SETTINGS-001.write_settings_patch.rejects.array-replacement
//	blind-settings-noop-posted: VERIFY-AUTHZ-SETTINGS-001.write_settings_patch.no-op
//	blind-settings-revision-readonly-section: DECISION-D4-SETTINGS-001.read_settings.revisions
//	blind-write-classified-by-destructive: VERIFY-OUTPUT-UNKNOWN-OUTCOME-001.write_request_create.timeout
//	blind-newsletter-job-default-allowed: VERIFY-AUTHZ-EFFECTS-001.write_job_run.off-by-default.newsletter
//	blind-tester-radarr-4k-tests-standard: VERIFY-AUTHZ-NO-FALLBACK-001.exact.write_integration_test.radarr.4k
//
// The 15 every-area survivors above are killed since the class-wide checks
// written for them (each kill judged with the mutant's own area and again
// with the killing check alone on seeds 1 to 5; the mutants are kept in
// Sources with that check, see blindKept). Judged again with every area
// after them (seed 20261201, every kill confirmed alone on the mutant and
// the reference server): 45 of 45.
//	blind-budget-cut-has-more-missing: RESULTS-BUDGET-001.read_issues.comments.byte-cut-complete-page-truthful
//	blind-upstream-page-has-more-guessed: VERIFY-OUTPUT-PAGING-001.has-more-claims-hold
//	blind-tv-by-request-tvmaze-labels: RESULTS-PROJECTION-001.read_media.tv.tmdb-keyed-routes
//	blind-engine-result-false-success: VERIFY-OUTPUT-BUSINESS-FAILURE-001.write_request_create.unconfirmed-answer-not-done
//	blind-retry-remove-empty-answer-completed: VERIFY-OUTPUT-BUSINESS-FAILURE-001.write_retry_remove.unconfirmed-answer-not-done
//	blind-revalidate-unknown-answer-true: VERIFY-OUTPUT-BUSINESS-FAILURE-001.write_job_run.unconfirmed-answer-not-done
//	blind-issue-counts-in-progress-from-pending: RESULTS-PROJECTION-001.read_issues.counts-traceable
//	blind-streaming-country-field-misnamed: DECISION-D1-STRICT-001.write_user_preferences.unknown-country-field
//	blind-provider-summary-empty-array-mismatch: VERIFY-OUTPUT-BUSINESS-FAILURE-001.read_issues.provider_summary.empty-answers
//	blind-issue-status-admin-only: ROUTING-RULE9-PERMISSIONS-001.write_issue_manage.set_status.every-role
//	blind-integration-test-default-unprovisioned: VERIFY-AUTHZ-NO-FALLBACK-001.write_integration_test.every-unprovisioned-profile
//	blind-job-allow-list-lowercased: VERIFY-AUTHZ-EFFECTS-001.write_job_run.every-listed-job-runs
//	blind-logs-url-credentials-kept: VERIFY-OUTPUT-NESTED-SECRETS-001.read_logs.every-credential-form
//	blind-rate-limit-write-retryable: RESULTS-ERRORS-RETRYABLE-001.write_issue_comment.write-429-not-retryable
//	blind-http-localhost-prefix-origin: MCP-HTTP-ORIGIN-001

// The blind set: realistic source mutants of the reference server written
// from the design documents (output contract, tool catalogue and routing
// rules, verification notes) and the server code alone, without reading
// the suite's checks, so that their kill score measures how well the
// suite catches bugs nobody aimed it at. Each breaks one design rule the
// way a careful developer plausibly would: a wrong route, parameter or
// default, a missing or misplaced validation, a stale paging figure, a
// credential or markup leak, a wrong error mapping or auth-mode behaviour,
// a bound not enforced. Clause is "" (the rule is named in Description);
// Focus is "" and Filter the coarse area expected to catch the bug.
//
// The set is kept out of Sources (and so out of make test, make mutants
// and make soak, which must stay green): judge it alone with
//
//	OMBI_SOURCE_MUTANTS=blind go test -count=1 -run '^TestSourceMutants$' -v ./conformance/
//
// where every survivor fails its subtest and the closing table gives the
// kill score. Single mutants are judged by name as usual.
var blindSources = []Source{
	// ---- search, discovery, details, reference data ----
	{
		Name: "blind-multi-people-sets-music", Domain: DomainSearch,
		Description: "read_search multi maps the include value people to the Music flag: the multi-search body asks for music and never for people (routing: include all four booleans, each from its own category)",
		File:        "server/search.go",
		Old:         "f.People = true",
		New:         "f.Music = true",
		Filter:      "wire",
	},
	{
		Name: "blind-multi-mediatype-case-sensitive", Domain: DomainSearch,
		Description: "multi-search mediaType is matched case-sensitively, so Ombi's \"Artist\" (and \"Movie\", \"Tv\") fall to media unknown / provider_unknown instead of artist/musicbrainz",
		File:        "server/search.go",
		Old:         "switch strings.ToLower(strings.TrimSpace(w.MediaType)) {",
		New:         "switch strings.TrimSpace(w.MediaType) {",
		Filter:      "wire",
	},
	{
		Name: "blind-search-total-claimed", Domain: DomainSearch,
		Description: "read_search treats Ombi's one bounded search answer as the complete collection: the local page claims a total and has_more:false although the total is unknown",
		File:        "server/search.go",
		Old:         "localPage(items, in.Page, false, unitMedia)\n\t\treturn newMediaPage(window, pg), nil\n\t}}",
		New:         "localPage(items, in.Page, true, unitMedia)\n\t\treturn newMediaPage(window, pg), nil\n\t}}",
		Filter:      "wire",
	},
	{
		Name: "blind-tv-by-request-tvmaze-labels", Domain: DomainSearch,
		Description: "read_media by_request for TV labels its ids as the TVMaze-backed v1 routes do (theMovieDbId as tvdb, seriesId as tvmaze), though the v2 tv/request route is TMDB-keyed",
		File:        "server/media.go",
		Old:         "w, err := cl.TVByRequest(ctx, in.RequestID)\n\t\treturn projectVideo(&w, \"tv\", originTMDB), err",
		New:         "w, err := cl.TVByRequest(ctx, in.RequestID)\n\t\treturn projectVideo(&w, \"tv\", originTVMaze), err",
		Filter:      "wire",
	},
	{
		Name: "blind-search-tv-tmdb-labels", Domain: DomainSearch,
		Description: "read_search text for TV labels theMovieDbId as tmdb, though the TVMaze-backed v1 Search/tv/{term} route carries the TVDB id there (and the TVMaze id in seriesId)",
		File:        "server/search.go",
		Old:         "return videos(cl.SearchTV(ctx, in.Query))(\"tv\", originTVMaze)",
		New:         "return videos(cl.SearchTV(ctx, in.Query))(\"tv\", originTMDB)",
		Filter:      "wire",
	},
	{
		Name: "blind-browse-tv-tvmaze-labels", Domain: DomainSearch,
		Description: "read_discover browse for TV labels its ids as the v1 TVMaze routes do (tvdb and tvmaze), though the v2 browse routes are TMDB-keyed",
		File:        "server/search.go",
		Old:         "videos(cl.BrowseTV(ctx, list, offset, limit))(\"tv\", originTMDB)",
		New:         "videos(cl.BrowseTV(ctx, list, offset, limit))(\"tv\", originTVMaze)",
		Filter:      "wire",
	},
	{
		Name: "blind-upstream-page-has-more-guessed", Domain: DomainSearch,
		Description: "an upstream-paged window that came back full claims has_more:true, though a full window only allows a continuation offset: has_more stays null when uncertain",
		File:        "server/page.go",
		Old:         "\t\tpg.NextOffset = ptr(offset + returned)\n",
		New:         "\t\tpg.NextOffset = ptr(offset + returned)\n\t\tpg.HasMore = ptr(true)\n",
		Filter:      "wire",
	},

	// ---- requests and quotas ----
	{
		Name: "blind-request-list-default-asc", Domain: DomainRequests,
		Description: "read_requests list without sort_direction sends sortOrder asc instead of the documented default desc",
		File:        "server/requests.go",
		Old:         "order = \"desc\"",
		New:         "order = \"asc\"",
		Filter:      "wire",
	},
	{
		Name: "blind-request-list-has-more-at-end", Domain: DomainRequests,
		Description: "a v2 request page that ends exactly at the upstream total still claims has_more:true and a next_offset past the end",
		File:        "server/requests.go",
		Old:         "more := offset+len(items) < total",
		New:         "more := offset+len(items) <= total",
		Filter:      "wire",
	},
	{
		Name: "blind-engine-result-false-success", Domain: DomainRequests,
		Description: "a RequestEngineResult with result:false but no isError is reported as a completed mutation (HTTP 200 with result=false is a tool failure)",
		File:        "server/requests_write.go",
		Old:         "failed := (w.IsError != nil && *w.IsError) || (w.Result != nil && !*w.Result) || code != \"\"",
		New:         "failed := (w.IsError != nil && *w.IsError) || code != \"\"",
		Filter:      "errors",
	},
	{
		Name: "blind-episode-cap-per-season", Domain: DomainRequests,
		Description: "the 2,000-episode cap of an episodes selection is counted per season instead of per call, so 21 seasons of 100 episodes are sent",
		File:        "server/requests_write.go",
		Old:         "total += len(s.Episodes)",
		New:         "total = len(s.Episodes)",
		Filter:      "errors",
	},
	{
		Name: "blind-first-season-sets-latest", Domain: DomainRequests,
		Description: "TV selection first_season sets latestSeason:true on the wire instead of firstSeason",
		File:        "server/requests_write.go",
		Old:         "body.FirstSeason = true",
		New:         "body.LatestSeason = true",
		Filter:      "wire",
	},
	{
		Name: "blind-tvdb-language-profile-dropped", Domain: DomainRequests,
		Description: "a TVDB TV request with language_profile_id is sent to the v1 route, which silently drops it, instead of being refused (never silently ignore unavailable options)",
		File:        "server/requests_write.go",
		Old:         "{\"language_profile_id\", \"language profile\", in.LanguageProfile != nil, false},\n",
		New:         "",
		Filter:      "errors",
	},
	{
		Name: "blind-request-list-all-segment", Domain: DomainRequests,
		Description: "read_requests list with status all sends an /all/ segment instead of the base route (all means the base route)",
		File:        "server/internal/ombi/requests.go",
		Old:         "if status != \"\" && status != \"all\" {",
		New:         "if status != \"\" {",
		Filter:      "wire",
	},
	{
		Name: "blind-tv-root-post", Domain: DomainRequests,
		Description: "write_request_options tv_root and tv_quality are sent as POST instead of PUT",
		File:        "server/internal/ombi/requests.go",
		Old:         "http.MethodPut, \"api/v1/Request/tv/\"+seg(which)",
		New:         "http.MethodPost, \"api/v1/Request/tv/\"+seg(which)",
		Filter:      "wire",
	},
	{
		Name: "blind-recent-feed-total-claimed", Domain: DomainRequests,
		Description: "read_requests recent treats Ombi's bounded recently-requested feed as the complete collection: a known total and has_more:false",
		File:        "server/requests.go",
		Old:         "window, pg := localPage(recs, in.Page, false, unitRequests)",
		New:         "window, pg := localPage(recs, in.Page, true, unitRequests)",
		Filter:      "wire",
	},
	{
		Name: "blind-movie-options-override-reset", Domain: DomainRequests,
		Description: "movie_advanced without root_folder_id sends rootPathOverride 0 instead of carrying the request's current value over, so upstream resets it",
		File:        "server/requests_write.go",
		Old:         "RootPathOverride: carryOver(in.RootFolderID, cur.RootPathOverride)",
		New:         "RootPathOverride: carryOver(in.RootFolderID, nil)",
		Filter:      "wire",
	},
	{
		Name: "blind-album-alias-with-login", Domain: DomainRequests,
		Description: "requested_by_alias is sent in JWT mode too, where upstream drops it (the alias is honoured only with an API key), instead of being refused",
		File:        "server/requests_write.go",
		Old:         "if cl.AuthMode() != AuthAPIKey {",
		New:         "if cl.AuthMode() != AuthAPIKey && cl.ActsAs() != \"\" {",
		Filter:      "auth",
	},

	// ---- issues, votes, users ----
	{
		Name: "blind-issue-summary-position-take-swapped", Domain: DomainUsers,
		Description: "read_issues summary sends take then position (the v2 summary route is position then take: do not reverse these pairs)",
		File:        "server/issues.go",
		Old:         "cl.IssueSummaries(ctx, offset, limit, status)",
		New:         "cl.IssueSummaries(ctx, limit, offset, status)",
		Filter:      "wire",
	},
	{
		Name: "blind-provider-summary-empty-array-mismatch", Domain: DomainUsers,
		Description: "a [] body from provider_summary is reported as UPSTREAM_SCHEMA_MISMATCH instead of an empty page",
		File:        "server/issues.go",
		Old:         "if t == \"\" || t == \"null\" || t == \"[]\" {",
		New:         "if t == \"\" || t == \"null\" {",
		Filter:      "wire",
	},
	{
		Name: "blind-issue-status-admin-only", Domain: DomainUsers,
		Description: "changing an issue's status is refused to PowerUser callers: the policy admits PowerUser or Admin",
		File:        "server/issues.go",
		Old:         "cl.CallerHas(&me, ombi.RoleAdmin, ombi.RolePowerUser) {\n\t\t\t\treturn nil, forbidden(\"changing",
		New:         "cl.CallerHas(&me, ombi.RoleAdmin) {\n\t\t\t\treturn nil, forbidden(\"changing",
		Filter:      "auth",
	},
	{
		Name: "blind-issue-counts-in-progress-from-pending", Domain: DomainUsers,
		Description: "read_issues counts reports the pending figure under in_progress (a copy-paste of the metric source)",
		File:        "server/issues.go",
		Old:         "appendIntMetric(ms, \"in_progress\", w.InProgress",
		New:         "appendIntMetric(ms, \"in_progress\", w.Pending",
		Filter:      "wire",
	},
	{
		Name: "blind-user-dropdown-full-list-route", Domain: DomainUsers,
		Description: "read_users dropdown reads the full user list route instead of its own dropdown route (each user read has its exact separate route)",
		File:        "server/users.go",
		Old:         "if in.Action == \"list\" {",
		New:         "if in.Action == \"list\" || in.Action == \"dropdown\" {",
		Filter:      "wire",
	},
	{
		Name: "blind-issue-list-take-skip-swapped", Domain: DomainUsers,
		Description: "read_issues list sends skip then take (the v1 issue list route is take then skip: do not reverse these pairs)",
		File:        "server/issues.go",
		Old:         "cl.Issues(ctx, limit, offset, status)",
		New:         "cl.Issues(ctx, offset, limit, status)",
		Filter:      "wire",
	},
	{
		Name: "blind-streaming-country-field-misnamed", Domain: DomainUsers,
		Description: "an unknown streaming country is refused with field /streaming_country, a property the input does not have, instead of /country",
		File:        "server/users.go",
		Old:         "Field: \"/country\"",
		New:         "Field: \"/streaming_country\"",
		Filter:      "errors",
	},
	{
		Name: "blind-vote-write-music-segment", Domain: DomainUsers,
		Description: "album votes are written to Vote/{up|down}/music/{requestId}, the read spelling, instead of Vote/{up|down}/album/{requestId}",
		File:        "server/votes.go",
		Old:         "d.client.Vote(ctx, in.Action, in.Media, in.RequestID)",
		New:         "d.client.Vote(ctx, in.Action, voteReadSegment[in.Media], in.RequestID)",
		Filter:      "wire",
	},

	// ---- library, server, settings, integrations, logs; client, transport, envelope ----
	{
		Name: "blind-settings-revision-readonly-section", Domain: DomainAdmin,
		Description: "read_settings emits a revision for every section, read-only ones included: revision appears only when a safe corresponding patch can be offered",
		File:        "server/settings.go",
		Old:         "if ombi.WritableSection(in.Section) {\n\t\t\tres.Revision = revisionOf(raw)\n\t\t}",
		New:         "res.Revision = revisionOf(raw)",
		Filter:      "wire",
	},
	{
		Name: "blind-settings-array-replaced", Domain: DomainAdmin,
		Description: "write_settings_patch replaces a whole array setting with the given value instead of refusing it (reject unsafe array replacements)",
		File:        "server/settings.go",
		Old:         "return nil, &ombi.ArgumentError{Field: f, Message: \"arrays cannot be replaced by a patch\"}",
		New:         "out[k] = cv\n\t\t\t\tcontinue",
		Filter:      "errors",
	},
	{
		Name: "blind-logs-url-credentials-kept", Domain: DomainAdmin,
		Description: "log lines keep the user:password@ part of URLs: the redaction of URL credentials is missing",
		File:        "server/logs.go",
		Old:         "\tregexp.MustCompile(`(?i)\\b[a-z][a-z0-9+.-]*://[^\\s/@]+@`),\n",
		New:         "",
		Filter:      "leak",
	},
	{
		Name: "blind-artwork-userinfo-kept", Domain: DomainAdmin,
		Description: "an artwork URL carrying user:password@ is returned as a resource URI (no credential-bearing URLs)",
		File:        "server/library.go",
		Old:         "u.Host == \"\" || u.User != nil || u.Fragment != \"\"",
		New:         "u.Host == \"\" || u.Fragment != \"\"",
		Filter:      "leak",
	},
	{
		Name: "blind-plex-libraries-wrong-key", Domain: DomainAdmin,
		Description: "plex_libraries resolves machine_id against the saved servers' serverId/id (the Emby/Jellyfin keys) instead of machineIdentifier, so a known Plex server is not found",
		File:        "server/integration.go",
		Old:         "savedServer(settings, in.MachineID, plexServerKeys)",
		New:         "savedServer(settings, in.MachineID, mediaServerKeys)",
		Filter:      "wire",
	},
	{
		Name: "blind-write-classified-by-destructive", Domain: DomainAdmin,
		Description: "a call counts as a write only when its tool is destructive, so non-destructive writes (request create, issue create and comment, mass e-mail, integration test) get read semantics: a lost answer is a retryable TIMEOUT/UPSTREAM_REJECTED instead of UNKNOWN_OUTCOME",
		File:        "server/tools.go",
		Old:         "write := !t.Annotations.ReadOnlyHint",
		New:         "write := t.Annotations.DestructiveHint",
		Filter:      "errors",
	},
	{
		Name: "blind-relogin-replays-write", Domain: DomainAdmin,
		Description: "in JWT mode a write answered 401 is sent again after a re-login: authentication recovery must never replay a write",
		File:        "server/internal/ombi/client.go",
		Old:         "c.mode == AuthJWT && !write {",
		New:         "c.mode == AuthJWT {",
		Filter:      "auth",
	},
	{
		Name: "blind-api-key-empty-username-header", Domain: DomainAdmin,
		Description: "api_key mode always sends a UserName header, empty when none is configured (UserName only when configured)",
		File:        "server/internal/ombi/client.go",
		Old:         "if c.userName != \"\" {\n\t\t\treq.Header.Set(\"UserName\", c.userName)\n\t\t}",
		New:         "req.Header.Set(\"UserName\", c.userName)",
		Filter:      "auth",
	},
	{
		Name: "blind-http-localhost-prefix-origin", Domain: DomainAdmin,
		Description: "the loopback Origin test accepts any host starting with localhost (http://localhost.attacker.example), defeating the DNS-rebinding guard",
		File:        "server/http.go",
		Old:         "if strings.EqualFold(host, \"localhost\") {",
		New:         "if strings.HasPrefix(strings.ToLower(host), \"localhost\") {",
		Filter:      "protocol", Transport: "http",
	},
	{
		Name: "blind-rate-limit-write-retryable", Domain: DomainAdmin,
		Description: "an upstream 429 is retryable for writes too (only mark 429 retryable where replay is safe)",
		File:        "server/errors.go",
		Old:         "Retryable: !write, HTTPStatus: http.StatusTooManyRequests}",
		New:         "Retryable: true, HTTPStatus: http.StatusTooManyRequests}",
		Filter:      "errors",
	},
	{
		Name: "blind-conflict-mapped-rejected", Domain: DomainAdmin,
		Description: "HTTP 409 (and the stale settings revision built on it) maps to UPSTREAM_REJECTED instead of CONFLICT",
		File:        "server/errors.go",
		Old:         "\tcase e.Status == http.StatusConflict:\n\t\to.Code = codeConflict\n",
		New:         "",
		Filter:      "errors",
	},
	{
		Name: "blind-budget-cut-has-more-missing", Domain: DomainAdmin,
		Description: "after the byte budget drops records, the page's returned and next_offset are fixed but has_more keeps its old value (false on a complete local page)",
		File:        "server/budget.go",
		Old:         "page[\"has_more\"] = true\n",
		New:         "",
		Filter:      "budget",
	},
	{
		Name: "blind-settings-noop-posted", Domain: DomainAdmin,
		Description: "the no-op test compares the merged section with the changes instead of the saved section, so a patch that changes nothing is posted (a no-op patch is INVALID_ARGUMENT)",
		File:        "server/settings.go",
		Old:         "reflect.DeepEqual(merged, om)",
		New:         "reflect.DeepEqual(merged, cm)",
		Filter:      "errors",
	},

	// ---- notifications and jobs ----
	{
		Name: "blind-tester-radarr-4k-tests-standard", Domain: DomainNotifications,
		Description: "write_integration_test radarr profile 4k sends the standard Radarr settings to the tester instead of the saved 4K part",
		File:        "server/integration.go",
		Old:         "return part(\"radarr4K\", \"radarr4k\")",
		New:         "return part(\"radarr\")",
		Filter:      "wire",
	},
	{
		Name: "blind-newsletter-job-default-allowed", Domain: DomainNotifications,
		Description: "the newsletter job runs without the deployment opting in (update, clear-media-server-data, auto-delete and newsletter need an explicit opt-in)",
		File:        "server/jobs.go",
		Old:         "\"autodeleterequests\", \"newsletter\"}",
		New:         "\"autodeleterequests\"}",
		Filter:      "auth",
	},
	{
		Name: "blind-integration-test-default-unprovisioned", Domain: DomainNotifications,
		Description: "write_integration_test runs the default profile of any tester service even when the deployment did not provision it (profile_id must match a provisioned profile)",
		File:        "server/integration.go",
		Old:         "if !profiles[in.Service+\":\"+in.ProfileID] {",
		New:         "if !profiles[in.Service+\":\"+in.ProfileID] && in.ProfileID != \"default\" {",
		Filter:      "auth",
	},
	{
		Name: "blind-job-allow-list-lowercased", Domain: DomainNotifications,
		Description: "the deployment's job allow-list is lower-cased, so the case-sensitive arrAvailability job can never be enabled",
		File:        "server/jobs.go",
		Old:         "if j = strings.TrimSpace(j); slices.Contains(all, j) {",
		New:         "if j = strings.ToLower(strings.TrimSpace(j)); slices.Contains(all, j) {",
		Filter:      "auth",
	},
	{
		Name: "blind-revalidate-unknown-answer-true", Domain: DomainNotifications,
		Description: "a watchlist revalidation answer that is neither true nor false is reported as upstream_result true (an unknown answer is not a confirmed result)",
		File:        "server/jobs.go",
		Old:         "\t\t\tcase \"true\":\n\t\t\t\tm.UpstreamResult = ptr(true)\n\t\t\t}",
		New:         "\t\t\tdefault:\n\t\t\t\tm.UpstreamResult = ptr(true)\n\t\t\t}",
		Filter:      "wire",
	},
	{
		Name: "blind-retry-remove-empty-answer-completed", Domain: DomainNotifications,
		Description: "a retry-queue removal answered without a boolean is reported as completed (HTTP success without a body is not a confirmed outcome)",
		File:        "server/retry.go",
		Old:         "if err := trueAnswer(ok, \"DELETE /api/v1/RequestRetry/{queueId}\"); err != nil {",
		New:         "if err := trueAnswer(ok, \"DELETE /api/v1/RequestRetry/{queueId}\"); err != nil && ok != nil {",
		Filter:      "errors",
	},
}

// BlindSet is the OMBI_SOURCE_MUTANTS value that selects the blind set.
const BlindSet = "blind"

// BlindSources returns the blind set, sorted by domain then name. It is
// not part of Sources.
func BlindSources() []Source {
	return byDomain(append([]Source(nil), blindSources...))
}
