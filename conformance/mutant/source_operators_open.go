package mutant

// operatorOpen are operator mutants of the same drawn sample (make
// mutation SAMPLE=200 SEED=20261205) that the triage first left open or
// found no check reaching, kept once a new check killed them. Each is
// written, judged and named as operatorKept's are.
var operatorOpen = []Source{
	{
		Name: "op-kept-csi-parameters-kept", Domain: DomainSearch, Clause: "RESULTS-PROJECTION-001",
		Description: "op-sanitize-148-increment: skipCSI walks back instead of over a control sequence's parameters (i++ becomes i--), so an upstream title wrapped in ESC [1;31m keeps \"1;31m\", and one wrapped in C1 CSI loops",
		File:        "server/sanitize.go",
		Old:         "\tfor i < len(rs) && rs[i] >= 0x20 && rs[i] <= 0x3f {\n\t\ti++\n\t}",
		New:         "\tfor i < len(rs) && rs[i] >= 0x20 && rs[i] <= 0x3f {\n\t\ti--\n\t}",
		Filter:      "wire", Focus: `escape-sequences-removed-whole`,
	},
	{
		Name: "op-kept-reference-value-number-as-text", Domain: DomainAdmin, Clause: "RESULTS-PROJECTION-001",
		Description: "op-integration-134-negation: a reference whose id upstream gave as a JSON number takes the id's text for its value, and one that does not parse as an integer takes 0 (err == nil becomes !=)",
		File:        "server/integration.go",
		Old:         "\t\tif n, err := strconv.ParseInt(r.ID, 10, 64); err == nil {",
		New:         "\t\tif n, err := strconv.ParseInt(r.ID, 10, 64); err != nil {",
		Filter:      "wire", Focus: `reference-value-native-type`,
	},
	{
		Name: "op-kept-tester-null-part-posted", Domain: DomainAdmin, Clause: "VERIFY-AUTHZ-NO-FALLBACK-001",
		Description: "op-integration-423-logical: a tester takes the first named part of its saved settings even when it is null or absent (ok && ... becomes ||), so a Radarr 4K or WhatsApp test whose part is saved as null posts null to the tester",
		File:        "server/integration.go",
		Old:         "\t\t\tif v, ok := m[k]; ok && strings.TrimSpace(string(v)) != \"null\" {",
		New:         "\t\t\tif v, ok := m[k]; ok || strings.TrimSpace(string(v)) != \"null\" {",
		Filter:      "wire", Focus: `unsaved-part-not-posted`,
	},
	{
		Name: "op-kept-origin-list-opens-any", Domain: DomainAdmin, Clause: "MCP-HTTP-ORIGIN-001",
		Description: "op-http-238-negation: every origin OMBI_MCP_ALLOWED_ORIGINS lists but \"*\" switches the Origin check off (origin == \"*\" becomes !=), so a list of one origin lets any origin in",
		File:        "server/http.go",
		Old:         "\t\tif origin == \"*\" {\n\t\t\th.anyOrigin = true",
		New:         "\t\tif origin != \"*\" {\n\t\t\th.anyOrigin = true",
		Filter:      "protocol", Focus: `allowed-origins-listed`, Transport: "http",
	},
	{
		Name: "op-kept-origin-valid-refused", Domain: DomainAdmin, Clause: "MCP-HTTP-ORIGIN-001",
		Description: "op-http-311-not: originAllowed refuses every origin that is an http(s) origin (!ok becomes ok), so an origin OMBI_MCP_ALLOWED_ORIGINS lists, and every loopback one, gets 403",
		File:        "server/http.go",
		Old:         "\tif !ok {\n\t\treturn false // \"null\"",
		New:         "\tif ok {\n\t\treturn false // \"null\"",
		Filter:      "protocol", Focus: `allowed-origins-listed`, Transport: "http",
	},
	{
		Name: "op-kept-short-token-accepted", Domain: DomainAdmin, Clause: "MCP-HTTP-AUTH-001",
		Description: "op-http-171-logical: validateHTTP refuses an MCP token only when it is short and has a blank (|| becomes &&), so a server starts over HTTP with an 11-character bearer token",
		File:        "server/http.go",
		Old:         "\t\tif len(o.MCPToken) < minTokenLen || strings.ContainsAny(o.MCPToken, \" \\t\\r\\n\") {",
		New:         "\t\tif len(o.MCPToken) < minTokenLen && strings.ContainsAny(o.MCPToken, \" \\t\\r\\n\") {",
		Filter:      "protocol", Focus: `weak-token-refused`, Transport: "http",
	},
	{
		Name: "op-kept-token-error-unnamed", Domain: DomainAdmin, Clause: "MCP-HTTP-AUTH-001",
		Description: "op-http-173-negation: a refused MCP token read from OMBI_MCP_TOKEN is reported under the name of the variable it was not read from, empty (mcpTokenFrom != \"\" becomes ==), so the start-up error names no setting",
		File:        "server/http.go",
		Old:         "\t\t\tif o.mcpTokenFrom != \"\" {",
		New:         "\t\t\tif o.mcpTokenFrom == \"\" {",
		Filter:      "protocol", Focus: `weak-token-refused`, Transport: "http",
	},
	{
		Name: "op-kept-token-file-held-empty", Domain: DomainAdmin, Clause: "MCP-HTTP-AUTH-001",
		Description: "op-http-160-negation: readTokenFile takes a file that holds a token for an empty one and an empty one for a token (t == \"\" becomes !=), so a server given OMBI_MCP_TOKEN_FILE with the token refuses to start",
		File:        "server/http.go",
		Old:         "\tif t == \"\" {",
		New:         "\tif t != \"\" {",
		Filter:      "protocol", Focus: `token-file`, Transport: "http",
	},
	{
		Name: "op-kept-log-cut-next-offset-back", Domain: DomainAdmin, Clause: "RESULTS-BUDGET-001",
		Description: "op-budget-309-arithmetic: a read_logs line window cut to the byte budget continues at its offset minus the lines it kept (off + lo becomes off - lo), so next_offset points back before the page",
		File:        "server/budget.go",
		Old:         "\t\t\t\tobj[\"next_offset\"] = off + lo",
		New:         "\t\t\t\tobj[\"next_offset\"] = off - lo",
		Filter:      "wire", Focus: `byte-cut-lines-truthful`,
	},
	{
		Name: "op-kept-env-validation-dropped", Domain: DomainAdmin, Clause: "VERIFY-AUTH-STARTUP-001",
		Description: "op-config-175-negation: OptionsFromEnv drops Validate's problems (err != nil becomes ==), so a server whose OMBI_TIMEOUT is no duration and whose jwt password is missing names only OMBI_TIMEOUT, and an operator learns of the password on the next start",
		File:        "server/config.go",
		Old:         "\tif err := o.Validate(); err != nil {",
		New:         "\tif err := o.Validate(); err == nil {",
		Filter:      "auth", Focus: `broken-environment-refused`,
	},
}
