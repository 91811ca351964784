package mutant

// gapsRoutingSources are source mutants for routing rules whose checks
// came last: a redirect followed to another origin, a privileged refusal
// reported as something else, another user viewed without authorization,
// disagreeing arguments accepted, an album sent as another media's
// RequestType, an incomplete section saved, server ids hidden.
var gapsRoutingSources = []Source{
	{
		Name: "redirect-origin-port-ignored", Domain: DomainAdmin, Clause: "VERIFY-AUTHZ-HTTP-CLIENT-001",
		Description: "a redirect is judged by scheme and host only, so one to another port of the same host (another origin) is followed, carrying the login password, the API key or the bearer token there",
		File:        "server/internal/ombi/client.go",
		Old:         "\tif originKey(req.URL) != c.origin {\n\t\treturn &RedirectError{",
		New:         "\tif !strings.HasPrefix(c.origin, strings.ToLower(req.URL.Scheme)+\"://\"+strings.ToLower(req.URL.Hostname())+\":\") {\n\t\treturn &RedirectError{",
		Filter:      "wire", Focus: `redirect-cross-origin`,
	},
	{
		Name: "forbidden-reported-as-rejection", Domain: DomainAdmin, Clause: "ROUTING-RULE9-PERMISSIONS-001",
		Description: "an upstream 403 on a privileged branch (user listing, retry queue, saved servers, cron validation) is reported as a generic upstream rejection, not FORBIDDEN",
		File:        "server/errors.go",
		Old:         "\tcase e.Status == http.StatusForbidden:\n\t\to.Code = codeForbidden\n",
		New:         "",
		Filter:      "wire", Focus: `plain-user-refused`,
	},
	{
		Name: "has-requests-other-user-unchecked", Domain: DomainRequests, Clause: "VERIFY-AUTHZ-PRINCIPAL-001",
		Description: "has_requests trusts upstream's open route, so a plain user learns whether any other user has requests",
		File:        "server/stats.go",
		Old:         "\t\t\tif err := mayViewUser(ctx, cl, in.UserID); err != nil {\n\t\t\t\treturn nil, err\n\t\t\t}\n",
		New:         "",
		Filter:      "wire", Focus: `has_requests\.plain-user`,
	},
	{
		Name: "discover-decade-off-by-one", Domain: DomainSearch, Clause: "ROUTING-RULE8-RUNTIME-001",
		Description: "advanced_movie takes a decade as eleven years, so a release_year of the next decade's first year is sent with it",
		File:        "server/search.go",
		Old:         "*in.ReleaseYear > *in.Decade+9)",
		New:         "*in.ReleaseYear > *in.Decade+10)",
		Filter:      "wire", Focus: `read_discover\.advanced_movie\.year-`,
	},
	{
		Name: "issue-media-mismatch-accepted", Domain: DomainUsers, Clause: "ROUTING-RULE8-RUNTIME-001",
		Description: "an issue whose provider id names other media than its request id is created anyway, leaving the mismatch to upstream",
		File:        "server/issues.go",
		Old:         "\treturn &ombi.ArgumentError{Field: \"/provider_id\", Message: \"provider_id does not match the media of request_id\"}",
		New:         "\treturn nil // upstream sorts out the association",
		Filter:      "wire", Focus: `write_issue_create\.[a-z]+\.media-`,
	},
	{
		Name: "issue-album-request-type-positional", Domain: DomainUsers, Clause: "ROUTING-RULE4-ENUM-001",
		Description: "issue creation caps the RequestType at the movie code, so an album issue is filed as a movie (Album is 2)",
		File:        "server/issues.go",
		Old:         "IssueCategoryID: in.CategoryID, RequestType: rt,",
		New:         "IssueCategoryID: in.CategoryID, RequestType: min(rt, 1),",
		Filter:      "wire", Focus: `write_issue_create\.album`,
	},
	{
		Name: "retry-album-type-as-movie", Domain: DomainRequests, Clause: "ROUTING-RULE4-ENUM-001",
		Description: "a retry entry of RequestType 2 (album) is labelled with the movie code",
		File:        "server/retry.go",
		Old:         "enumLabel(c, enumRequestType, \"request_type\", *w.Type)",
		New:         "enumLabel(c, enumRequestType, \"request_type\", min(*w.Type, 1))",
		Filter:      "wire", Focus: `read_requests\.retry_queue\.album`,
	},
	{
		Name: "settings-empty-original-patched", Domain: DomainAdmin, Clause: "VERIFY-AUTHZ-SETTINGS-001",
		Description: "a patch goes on when the private read answered an empty section, instead of refusing an incomplete original as unsupported",
		File:        "server/settings.go",
		Old:         "if !ok || len(om) == 0 {",
		New:         "if !ok {",
		Filter:      "wire", Focus: `incomplete-original`,
	},
	{
		Name: "settings-server-ids-hidden", Domain: DomainAdmin, Clause: "VERIFY-AUTHZ-SETTINGS-001",
		Description: "read_settings omits every id leaf, the saved servers' /servers/<digits>/{id,serverId,machineIdentifier} too, so no saved server id can be discovered",
		File:        "server/settings.go",
		Old:         "\tif serverIdentityLeaf.MatchString(pointer) {\n\t\treturn true\n\t}\n\tif slices.Contains(identityKeys",
		New:         "\tif slices.Contains(identityKeys",
		Filter:      "wire", Focus: `id-from-settings`,
	},
}
