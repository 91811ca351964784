// Package spec holds the ombi-mcp contract as data: the shared output $defs
// library, the per-tool output envelope, the catalogue of the 31 tools, the
// strict input schemas and their portable published projections, the enum
// label maps T1-T4, the upstream route ledger, the runtime rules that JSON
// Schema cannot express, and the contract clauses the conformance suite cites.
//
// Every file is plain JSON under this directory so other implementations can
// load it; this package embeds them and adds a small Go API:
//
//	v, err := spec.NewValidator()
//	if err != nil { ... }
//	if err := v.ValidateInput("read_search", args); err != nil {
//		var ve *spec.ValidationError
//		errors.As(err, &ve) // ve.Pointer names the failing field
//	}
//	out, _ := spec.OutputSchema("read_search") // composed per-tool outputSchema
//
// # Strict and published input schemas
//
// spec/input/<tool>.json is the strict contract (JSON Schema 2020-12, a root
// oneOf of closed branches keyed by const discriminators, each branch titled
// e.g. "list/movie"); the server validates every call against it. What
// tools/list advertises is the portable projection of DECISIONS D1, made by
// Project and kept in spec/published/<tool>.json. After editing an input
// schema, regenerate the projections with
//
//	go generate ./spec
//
// which runs spec/internal/genpublished; TestPublished_notStale fails while a
// published file differs from the projection of its input. A projection
// types every property whose values share one JSON type and keeps the
// per-action rules a root without a conditional can hold (dependentSchemas,
// dependentRequired). CheckPortable states the portability rules, and
// Description renders the per-branch required/allowed fields that
// tools/list carries as the tool description.
//
// spec/independent/check.sh compiles every input, published and composed
// output schema a second time with Ajv (draft 2020-12), independently of the
// Go validator; it needs node, npm and go.
package spec
