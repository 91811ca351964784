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
package spec
