package mutant

// catchSources are source mutants of rule classes whose bugs slipped
// through checks written for one case each: settings leaves that are
// destinations or secrets (04-results: settings carry no credentials or
// destination URLs; a patch never writes one), success answers passed
// through unsanitised, runtime rules JSON Schema cannot express,
// provenance of emitted ids and truthful paging.
var catchSources = []Source{
	{
		Name: "settings-chat-id-shown", Domain: DomainNotifications, Clause: "VERIFY-AUTHZ-SETTINGS-001",
		Description: "read_settings shows the Telegram chatId (a chat id is a number in a string, so it is taken for a plain setting, not a destination)",
		File:        "server/settings.go",
		Old:         "\t\"webhook\", \"chatid\", \"channel\", \"topic\",",
		New:         "\t\"webhook\", \"channel\", \"topic\",",
		Filter:      "wire || leak || errors", Focus: `settings`,
	},
	{
		Name: "settings-destination-patch-accepted", Domain: DomainNotifications, Clause: "VERIFY-AUTHZ-SETTINGS-001",
		Description: "write_settings_patch refuses secrets and URL-like values but accepts a new destination that looks plain (an SMTP host, a chat id, a topic)",
		File:        "server/settings.go",
		Old:         "\t\tcase secretKey(k) || destinationLeaf(k, ov) || unsafeValue(ov):",
		New:         "\t\tcase secretKey(k) || unsafeValue(ov):",
		Filter:      "wire || leak || errors", Focus: `settings`,
	},
	{
		Name: "settings-secret-refusal-echoes", Domain: DomainAdmin, Clause: "VERIFY-AUTHZ-SETTINGS-001",
		Description: "a patch of a secret or destination is refused, but the refusal quotes the saved value to say what would have been replaced",
		File:        "server/settings.go",
		Old:         "return nil, &ombi.ArgumentError{Field: f, Message: \"secret, redacted or destination fields are not writable through a patch\"}",
		New:         "return nil, &ombi.ArgumentError{Field: f, Message: fmt.Sprintf(\"secret, redacted or destination fields are not writable through a patch (saved: %v)\", ov)}",
		Filter:      "wire || leak || errors", Focus: `settings`,
	},
	{
		Name: "engine-success-message-raw", Domain: DomainRequests, Clause: "RESULTS-ERRORS-SANITIZE-001",
		Description: "a successful request engine answer's message is passed to the client as upstream wrote it (only failures were thought to need sanitising), URLs, keys and markup included",
		File:        "server/requests_write.go",
		Old:         "\t\tMessage: sanitizeMessage(w.Message, secrets...)}",
		New:         "\t\tMessage: w.Message}",
		Filter:      "wire || leak || errors", Focus: `write_request|sanitis|upstream-text`,
	},
	{
		Name: "artwork-api-key-query-kept", Domain: DomainAdmin, Clause: "RESULTS-ERRORS-SANITIZE-001",
		Description: "an artwork URL whose query carries api_key is returned: the credential-parameter list names apikey, not the api_key TMDB and fanart.tv use",
		File:        "server/library.go",
		Old:         "[]string{\"key\", \"token\", \"password\", \"auth\", \"sig\", \"secret\", \"credential\"}",
		New:         "[]string{\"apikey\", \"token\", \"password\", \"auth\", \"sig\", \"secret\", \"credential\"}",
		Filter:      "wire || leak || errors", Focus: `read_library|artwork|sanitis|upstream-text`,
	},
	{
		Name: "season-expansion-repeats-episodes", Domain: DomainRequests, Clause: "ROUTING-RULE8-RUNTIME-001",
		Description: "season mode expands a season from the details without dropping an episode upstream lists twice, so the POST carries the same episode number twice in one season",
		File:        "server/requests_write.go",
		Old:         "if e.EpisodeNumber >= 1 && !seen[[2]int{s.SeasonNumber, e.EpisodeNumber}] {",
		New:         "if e.EpisodeNumber >= 1 {",
		Filter:      "wire || errors || leak", Focus: `write_request_create|read_media|season|episode`,
	},
	{
		Name: "tvdb-overlay-appends-requested-episodes", Domain: DomainSearch, Clause: "ROUTING-RULE8-RUNTIME-001",
		Description: "the TVDB request overlay adds each requested episode to its season so episodes TVMaze does not list yet still show, without looking whether the season already lists it: listed episodes appear twice",
		File:        "server/media.go",
		Old:         "\t\t\t\tstate[k] = have\n\t\t\t}\n\t\t}\n\t}\n",
		New:         "\t\t\t\tstate[k] = have\n\t\t\t}\n\t\t}\n\t}\n\tfor k, st := range state {\n\t\tfor i := range seasons {\n\t\t\tif seasons[i].SeasonNumber == k.s && len(seasons[i].Episodes) < maxNested {\n\t\t\t\tseasons[i].Episodes = append(seasons[i].Episodes, episode{EpisodeNumber: k.e, Requested: st.Requested, Available: st.Available})\n\t\t\t}\n\t\t}\n\t}\n",
		Filter:      "wire || errors || leak", Focus: `read_media|season|episode`,
	},
	{
		Name: "crew-credit-carries-title-id", Domain: DomainSearch, Clause: "RESULTS-PROJECTION-001",
		Description: "a person's crew credits carry the credited title's id as person_id (the cast lines carry the caller's person, the crew line was written from the entry)",
		File:        "server/search.go",
		Old:         "add(e, credit{Name: in.PersonName, PersonID: in.PersonID, Role: e.Job, Department: e.Department})",
		New:         "add(e, credit{Name: in.PersonName, PersonID: e.ID.Positive(), Role: e.Job, Department: e.Department})",
		Filter:      "wire || errors || leak", Focus: `read_discover|credit|provenance`,
	},
	{
		Name: "tvdb-overlay-tvdb-id-required", Domain: DomainSearch, Clause: "RESULTS-PROJECTION-001",
		Description: "the TVDB request overlay takes a TV parent only when its tvDbId matches (and its imdbId, when the show has one, agrees), so a parent stored with the show's imdbId but no or another tvDbId is missed and the show reads as not requested",
		File:        "server/media.go",
		Old:         "if p.TvDbID.Positive() != tvdbID && (imdb == \"\" || p.ImdbID != imdb) {",
		New:         "if p.TvDbID.Positive() != tvdbID || (imdb != \"\" && p.ImdbID != imdb) {",
		Filter:      "wire || errors || leak", Focus: `read_media|overlay|provenance`,
	},
	{
		Name: "byte-cut-returned-stale", Domain: DomainSearch, Clause: "RESULTS-BUDGET-001",
		Description: "when records are dropped to fit the byte budget the page says has_more and the next offset, but returned still counts the records before the cut",
		File:        "server/budget.go",
		Old:         "\tpage[\"returned\"] = n\n",
		New:         "",
		Filter:      "wire || budget", Focus: `page|budget|large`,
	},
	{
		Name: "local-page-last-record-hidden", Domain: DomainUsers, Clause: "VERIFY-OUTPUT-PAGING-001",
		Description: "a locally paged list claims more only when two records follow the window, so a page that stops one short of the end says has_more false and the last record is never offered",
		File:        "server/page.go",
		Old:         "more := end < len(all)",
		New:         "more := end+1 < len(all)",
		Filter:      "wire || budget", Focus: `page|paging`,
	},
	{
		Name: "season-cut-not-truncated", Domain: DomainSearch, Clause: "VERIFY-OUTPUT-PAGING-001",
		Description: "a season with more than 100 episodes is cut to 100 without saying truncated",
		File:        "server/media.go",
		Old:         "\t\t\tif len(se.Episodes) == maxNested {\n\t\t\t\tse.Truncated = true\n\t\t\t\tbreak\n",
		New:         "\t\t\tif len(se.Episodes) == maxNested {\n\t\t\t\tbreak\n",
		Filter:      "wire || budget", Focus: `page|paging|season`,
	},
	{
		Name: "tvdb-bounded-scan-says-not-requested", Domain: DomainSearch, Clause: "VERIFY-OUTPUT-PAGING-001",
		Description: "read_media tvdb details say requested false when none of the first 1000 TV requests of the bounded scan matched though more exist unread (the result is marked truncated, but the request state is claimed instead of left unknown)",
		File:        "server/media.go",
		Old:         "\tif rec.Requested == nil {\n\t\tif complete {\n\t\t\trec.Requested = ptr(false)\n\t\t} else {\n",
		New:         "\tif rec.Requested == nil {\n\t\trec.Requested = ptr(false)\n\t\tif !complete {\n",
		Filter:      "wire", Focus: `tvdb`,
	},
}
