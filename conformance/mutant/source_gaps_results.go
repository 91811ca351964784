package mutant

// gapsResultsSources are source mutants of the 04-results projections:
// an identifier lost when theMovieDbId is absent, a title's streaming
// providers dropped, a request target taken from the wrong id, a TV
// child's provider ids dropped, a lifecycle status inferred from
// disagreeing booleans, comment text altered, a vote type remapped,
// corrupted reference labels kept or silently emitted, a calendar date
// given an invented time zone.
var gapsResultsSources = []Source{
	// ---- search ----
	{
		Name: "media-id-fallback-dropped", Domain: DomainSearch, Clause: "RESULTS-PROJECTION-001",
		Description: "a media record without theMovieDbId (v2 browse and collection members, MovieFullInfoViewModel) loses the TMDB id it carries in id",
		File:        "server/media.go",
		Old:         "\tif primary == \"\" {\n\t\tprimary = w.ID // browse/collection members and MovieFullInfoViewModel\n\t}\n",
		New:         "",
		Filter:      "wire", Focus: `exact\.read_(discover|media)\.[a-z._]+\.(id|members)-without-tmdb-field`,
	},
	{
		Name: "streaming-providers-dropped", Domain: DomainSearch, Clause: "RESULTS-PROJECTION-001",
		Description: "title streaming reads the upstream providers but emits none of them",
		File:        "server/media.go",
		Old:         "\t\tseen[name] = true\n\t\trec.Providers = append(rec.Providers, provider{Name: name})\n",
		New:         "\t\tseen[name] = true\n",
		Filter:      "wire", Focus: `exact\.read_media\.streaming\.movie\.providers`,
	},
	{
		Name: "reference-all-question-marks-clean", Domain: DomainSearch, Clause: "RESULTS-PROJECTION-001",
		Description: "an all-question-mark label is taken for a clean one: it is chosen over a clean candidate, and emitted without a degradation warning",
		File:        "server/reference.go",
		Old:         "\treturn strings.Trim(s, \"? \") == \"\"\n",
		New:         "\treturn false\n",
		Filter:      "wire", Focus: `exact\.read_reference\.languages\.(corrupted-label-skipped|only-corrupted-labels)`,
	},
	{
		Name: "reference-replacement-char-clean", Domain: DomainSearch, Clause: "RESULTS-PROJECTION-001",
		Description: "a label carrying U+FFFD inside other text is taken for a clean one (only a bare replacement character counts as corrupted), so it wins over a clean candidate",
		File:        "server/reference.go",
		Old:         "\tif strings.ContainsRune(s, utf8.RuneError) {\n",
		New:         "\tif s == string(utf8.RuneError) {\n",
		Filter:      "wire", Focus: `exact\.read_reference\.languages\.(corrupted-label-skipped|only-corrupted-labels)`,
	},
	{
		Name: "reference-corrupted-label-silent", Domain: DomainSearch, Clause: "RESULTS-PROJECTION-001",
		Description: "when only corrupted labels exist the corrupted string is emitted without the warnings[] note",
		File:        "server/reference.go",
		Old:         "\t\tc.warn(\"an upstream %s label (id %q) is corrupted (mojibake) and no clean alternative exists\", category, sanitizeMessage(r.ID))\n",
		New:         "",
		Filter:      "wire", Focus: `exact\.read_reference\.languages\.only-corrupted-labels`,
	},
	// ---- requests ----
	{
		Name: "request-id-before-request-id-field", Domain: DomainRequests, Clause: "RESULTS-PROJECTION-001",
		Description: "a request record carrying both ids targets id instead of requestId",
		File:        "server/requests.go",
		Old:         "\tif id := w.RequestID.Positive(); id > 0 {\n\t\treturn id\n\t}\n\treturn w.ID.Positive()",
		New:         "\tif id := w.ID.Positive(); id > 0 {\n\t\treturn id\n\t}\n\treturn w.RequestID.Positive()",
		Filter:      "wire", Focus: `exact\.read_requests\.list\.movie\.request-id-preferred`,
	},
	{
		Name: "tv-child-parent-provider-ids-dropped", Domain: DomainRequests, Clause: "ROUTING-RULE5-TV-PARENT-CHILD-001",
		Description: "a TV child keeps its parent's id and title but not the provider ids (tvdb, tmdb, imdb) of the embedded parentRequest",
		File:        "server/requests.go",
		Old:         "\t\t\tparentIDs(&ids, w.ParentRequest)\n",
		New:         "",
		Filter:      "wire", Focus: `exact\.read_requests\.list\.tv\.parent-provider-ids`,
	},
	{
		Name: "request-status-combined", Domain: DomainRequests, Clause: "RESULTS-PROJECTION-001",
		Description: "a request without upstream status text gets one status inferred from the standard and 4K booleans together",
		File:        "server/requests.go",
		Old:         "StatusText: w.RequestStatus, RequestedDate:",
		New:         "StatusText: combinedStatus(w), RequestedDate:",
		Also: []Edit{{
			File: "server/requests.go",
			Old:  "// parentIDs adds a TV parent's provider ids: tvDbId is TVDB,",
			New:  "func combinedStatus(w *ombi.Request) string {\n\tswitch {\n\tcase w.RequestStatus != \"\":\n\t\treturn w.RequestStatus\n\tcase w.Available != nil && *w.Available || w.Available4K != nil && *w.Available4K:\n\t\treturn \"Common.Available\"\n\tcase w.Approved != nil && *w.Approved || w.Approved4K != nil && *w.Approved4K:\n\t\treturn \"Common.ProcessingRequest\"\n\t}\n\treturn \"\"\n}\n\n// parentIDs adds a TV parent's provider ids: tvDbId is TVDB,",
		}},
		Filter: "wire", Focus: `exact\.read_requests\.list\.movie\.4k-disagrees`,
	},
	// ---- users ----
	{
		Name: "comment-text-trimmed", Domain: DomainUsers, Clause: "RESULTS-PROJECTION-001",
		Description: "issue comment text is trimmed instead of preserved as sent",
		File:        "server/issues.go",
		Old:         "r := commentRecord{IssueID: in.IssueID, Comment: w.Comment, CreatedDate: w.Date}",
		New:         "r := commentRecord{IssueID: in.IssueID, Comment: strings.TrimSpace(w.Comment), CreatedDate: w.Date}",
		Filter:      "wire", Focus: `exact\.read_issues\.comments\.text-preserved`,
	},
	{
		Name: "vote-code-inverted", Domain: DomainUsers, Clause: "RESULTS-PROJECTION-001",
		Description: "vote_code is remapped (1 - voteType) instead of the upstream numeric voteType",
		File:        "server/votes.go",
		Old:         "r.VoteCode = ptr(*w.VoteType)",
		New:         "r.VoteCode = ptr(1 - *w.VoteType)",
		Filter:      "wire", Focus: `exact\.read_votes\.by_request\.movie\.vote-code`,
	},
	// ---- admin ----
	{
		Name: "calendar-date-utc-invented", Domain: DomainAdmin, Clause: "RESULTS-PROJECTION-001",
		Description: "a calendar start without a time zone is given one (UTC) it never had",
		File:        "server/library.go",
		Old:         "e := calendarEntry{Title: w.Title, Date: w.Start, Media:",
		New:         "e := calendarEntry{Title: w.Title, Date: w.Start + \"Z\", Media:",
		Filter:      "wire", Focus: `exact\.read_library\.calendar\.known-values`,
	},
}
