package mutant

// Source mutants of the resources (04-results "Resources"): served beside
// a disabled bundle, a refusal served as contents, a size limit declared
// and not kept, a link that names nothing.
var resourceSources = []Source{
	{
		Name: "resource-bundle-ignored", Domain: DomainAdmin, Clause: "RESOURCES-AUTHZ-001",
		Description: "the resources are registered for every tool of the catalogue, so ombi://logs/{file_id} reads without the administration bundle",
		File:        "server/server.go",
		Old:         "\t\tif !enabled[t.Bundle] {\n\t\t\tdisabled[t.Name] = t.Bundle",
		New:         "\t\tserved[t.Name] = registered{tool: t, h: h}\n\t\tif !enabled[t.Bundle] {\n\t\t\tdisabled[t.Name] = t.Bundle",
		Filter:      "resources",
	},
	{
		Name: "resource-refusal-as-contents", Domain: DomainAdmin, Clause: "RESOURCES-AUTHZ-001",
		Description: "a resource read Ombi refuses (FORBIDDEN, AUTHENTICATION_FAILED) answers empty contents instead of an error",
		File:        "server/resources.go",
		Old:         "\tcase codeInvalidArgument, codeNotFound:\n\t\treturn \"\", mcp.ResourceNotFoundError(uri)\n\t}",
		New:         "\tcase codeInvalidArgument, codeNotFound:\n\t\treturn \"\", mcp.ResourceNotFoundError(uri)\n\tcase codeForbidden, codeAuthenticationFailed:\n\t\treturn \"{}\", nil\n\t}",
		Filter:      "resources",
	},
	{
		Name: "resource-limit-understated", Domain: DomainSearch, Clause: "RESOURCES-READ-001",
		Description: "the resources declare a 4 KiB limit (_meta.maxBytes) and serve up to the 64 KiB result budget",
		File:        "server/resources.go",
		Old:         "meta := mcp.Meta{\"maxBytes\": maxResultBytes}",
		New:         "meta := mcp.Meta{\"maxBytes\": maxResultBytes >> 4}",
		Filter:      "resources",
	},
	{
		Name: "resource-log-link-by-name", Domain: DomainAdmin, Clause: "RESOURCES-READ-001",
		Description: "read_logs links each file by its name instead of its opaque file_id, so the link names no resource",
		File:        "server/logs.go",
		Old:         "c.link(\"ombi://logs/\"+f.FileID, \"logs/\"+f.FileID, f.Name)",
		New:         "c.link(\"ombi://logs/\"+f.Name, \"logs/\"+f.Name, f.Name)",
		Filter:      "resources",
	},
}
