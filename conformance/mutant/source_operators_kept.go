package mutant

// operatorKept are operator mutants of a drawn sample (make mutation
// SAMPLE=200 SEED=20261205) that survived every check, kept once a new
// check killed them: each is the one swapped operator, written as a
// replacement of its whole line so it survives edits elsewhere in the
// file, and judged with the filter and focus of the check that kills it,
// so make mutants and make soak reject a regression. The sample's name of
// each is in its description.
var operatorKept = []Source{
	{
		Name: "op-kept-album-art-link-dropped", Domain: DomainAdmin, Clause: "RESOURCES-READ-001",
		Description: "op-resources-284-negation: artworkURI answers no URI for an album_art with a MusicBrainz id (mbid != \"\" becomes ==), so read_library's album art links no resource",
		File:        "server/resources.go",
		Old:         "\tcase action == \"album_art\" && mbid != \"\":",
		New:         "\tcase action == \"album_art\" && mbid == \"\":",
		Filter:      "resources", Focus: `artwork-links`,
	},
	{
		Name: "op-kept-artwork-tv-provider-any-media", Domain: DomainAdmin, Clause: "RESOURCES-URI-001",
		Description: "op-resources-265-logical: an artwork URI is read as tv_images when the media is tv or the provider is tmdb or tvdb (&& becomes ||), so ombi://artwork/movie/tvdb/... reads",
		File:        "server/resources.go",
		Old:         "\tcase media == \"tv\" && (provider == \"tmdb\" || provider == \"tvdb\"):",
		New:         "\tcase media == \"tv\" || (provider == \"tmdb\" || provider == \"tvdb\"):",
		Filter:      "resources", Focus: `artwork-unlisted`,
	},
	{
		Name: "op-kept-artwork-music-any-provider", Domain: DomainAdmin, Clause: "RESOURCES-URI-001",
		Description: "op-resources-268-logical: an artwork URI is read as album_art when the media is music or the provider is musicbrainz (the first && becomes ||), so ombi://artwork/music/tmdb/.../cover reads",
		File:        "server/resources.go",
		Old:         "\tcase media == \"music\" && provider == \"musicbrainz\" && kind == \"cover\":",
		New:         "\tcase media == \"music\" || provider == \"musicbrainz\" && kind == \"cover\":",
		Filter:      "resources", Focus: `artwork-unlisted`,
	},
	{
		Name: "op-kept-issue-pair-media-id-as-no-id", Domain: DomainUsers, Clause: "ROUTING-RULE8-RUNTIME-001",
		Description: "op-issues-320-negation: an issue's request media answer that carries only the media id is taken for an answer without ids (w.ID == \"\" becomes !=), and one without any id is taken for a mismatch",
		File:        "server/issues.go",
		Old:         "\tif w.TheMovieDbID == \"\" && w.ID == \"\" && w.TheTvDbID == \"\" && w.ImdbID == \"\" {",
		New:         "\tif w.TheMovieDbID == \"\" && w.ID != \"\" && w.TheTvDbID == \"\" && w.ImdbID == \"\" {",
		Filter:      "wire", Focus: `association-every-id-form`,
	},
	{
		Name: "op-kept-issue-pair-imdb-ignored", Domain: DomainUsers, Clause: "ROUTING-RULE8-RUNTIME-001",
		Description: "op-issues-330-negation: the IMDb id of an issue's request media matches only when it is empty (w.ImdbID != \"\" becomes ==), so a provider_id given as the IMDb id is refused as a mismatch",
		File:        "server/issues.go",
		Old:         "\tif w.ImdbID != \"\" && w.ImdbID == providerID {",
		New:         "\tif w.ImdbID == \"\" && w.ImdbID == providerID {",
		Filter:      "wire", Focus: `association-every-id-form`,
	},
	{
		Name: "op-kept-guard-echoes-any-id", Domain: DomainAdmin, Clause: "MCP-JSONRPC-CODES-001",
		Description: "op-transport_json-76-logical-2: usableID takes any value from '0' up for an id (raw[0] >= '0' && raw[0] <= '9' becomes ||), so the stdio guard echoes an oversize frame's id true, false, an object or an array",
		File:        "server/transport_json.go",
		Old:         "\treturn len(raw) > 0 && (raw[0] == '\"' || raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')",
		New:         "\treturn len(raw) > 0 && (raw[0] == '\"' || raw[0] == '-' || raw[0] >= '0' || raw[0] <= '9')",
		Filter:      "protocol", Focus: `oversize-unusable-id-null`,
	},
	{
		Name: "op-kept-server-info-needs-name-and-id", Domain: DomainAdmin, Clause: "RESULTS-PROJECTION-001",
		Description: "op-integration-328-logical: a media server's info is shown only when its answer carries both a name and an id (name != \"\" || id != \"\" becomes &&), so a server that answers only one of them is dropped",
		File:        "server/integration.go",
		Old:         "\tif name != \"\" || id != \"\" {",
		New:         "\tif name != \"\" && id != \"\" {",
		Filter:      "wire", Focus: `media-server-info-every-field`,
	},
	{
		Name: "op-kept-reference-media-on-any-catalogue", Domain: DomainAdmin, Clause: "RESOURCES-URI-001",
		Description: "op-resources-220-logical: a reference URI is refused only when its media part is both wrongly present or absent and not movie or tv (the second || becomes &&), so ombi://reference/languages/movie reads",
		File:        "server/resources.go",
		Old:         "\tif cat == nil || cat.media != (len(parts) == 2) || (cat.media && parts[1] != \"movie\" && parts[1] != \"tv\") {",
		New:         "\tif cat == nil || cat.media != (len(parts) == 2) && (cat.media && parts[1] != \"movie\" && parts[1] != \"tv\") {",
		Filter:      "resources", Focus: `reference-unlisted-refused`,
	},
	{
		Name: "op-kept-guard-no-method-as-response", Domain: DomainAdmin, Clause: "MCP-JSONRPC-CODES-001",
		Description: "op-transport-215-negation: the stdio guard takes a frame without a result for a response (m[\"result\"] != nil becomes ==), so a request without a method is not refused under its id",
		File:        "server/transport.go",
		Old:         "\tisResponse := !isCall && (m[\"result\"] != nil || m[\"error\"] != nil)",
		New:         "\tisResponse := !isCall && (m[\"result\"] == nil || m[\"error\"] != nil)",
		Filter:      "protocol", Focus: `method-missing-refused`,
	},
	{
		Name: "op-kept-template-one-label-enough", Domain: DomainNotifications, Clause: "ROUTING-RULE8-RUNTIME-001",
		Description: "op-settings-496-logical: a notification template change is refused only when both its notification_type and agent labels are unknown (!ok1 || !ok2 becomes &&), so an unknown type is written to the template of code 0",
		File:        "server/settings.go",
		Old:         "\t\tif !ok1 || !ok2 {",
		New:         "\t\tif !ok1 && !ok2 {",
		Filter:      "wire", Focus: `template-labels-exist`,
	},
	{
		Name: "op-kept-reprocess-target-kind-swapped", Domain: DomainRequests, Clause: "RESULTS-PROJECTION-001",
		Description: "op-requests_write-619-negation: write_request_reprocess names a movie request's target tv_child and a series request's movie (in.RequestType == \"tv\" becomes !=)",
		File:        "server/requests_write.go",
		Old:         "\t\tkind := kindMovie\n\t\tif in.RequestType == \"tv\" {\n\t\t\tkind = kindTVChild\n\t\t}\n\t\tm.RequestID, m.Target",
		New:         "\t\tkind := kindMovie\n\t\tif in.RequestType != \"tv\" {\n\t\t\tkind = kindTVChild\n\t\t}\n\t\tm.RequestID, m.Target",
		Filter:      "wire", Focus: `target-of-request`,
	},
	{
		Name: "op-kept-vote-media-test-inverted", Domain: DomainUsers, Clause: "RESULTS-PROJECTION-001",
		Description: "op-votes-72-negation: read_votes list labels a summary's media only when it has no request type (w.RequestType != nil becomes ==), so labelled summaries lose their media and one without a type fails the call",
		File:        "server/votes.go",
		Old:         "\t\t\t\tif w.RequestType != nil {\n\t\t\t\t\tif l, ok := enumLabel(c, enumRequestType, \"request_type\", *w.RequestType); ok {",
		New:         "\t\t\t\tif w.RequestType == nil {\n\t\t\t\t\tif l, ok := enumLabel(c, enumRequestType, \"request_type\", *w.RequestType); ok {",
		Filter:      "wire", Focus: `list-media-of-every-summary`,
	},
	{
		Name: "op-kept-recent-lost-rows-uncounted", Domain: DomainRequests, Clause: "RESULTS-PARTIAL-001",
		Description: "op-requests-399-increment: read_requests recent counts the TV rows a failed parent scan lost down instead of up (lost++ becomes --), so the answer looks complete instead of PARTIAL_FAILURE",
		File:        "server/requests.go",
		Old:         "\t\t\t\t\twhy = \"the TV parent scan failed\"\n\t\t\t\t\tlost++",
		New:         "\t\t\t\t\twhy = \"the TV parent scan failed\"\n\t\t\t\t\tlost--",
		Filter:      "wire", Focus: `recent-tv-scan-failed-partial`,
	},
	{
		Name: "op-kept-guard-any-frame-without-method-a-response", Domain: DomainAdmin, Clause: "MCP-JSONRPC-CODES-001",
		Description: "op-transport-215-logical: the stdio guard takes every frame without a method for a response (!isCall && (...) becomes ||), so a request without a method is not refused under its id",
		File:        "server/transport.go",
		Old:         "\tisResponse := !isCall && (m[\"result\"] != nil || m[\"error\"] != nil)",
		New:         "\tisResponse := !isCall || (m[\"result\"] != nil || m[\"error\"] != nil)",
		Filter:      "protocol", Focus: `method-missing-refused`,
	},
}
