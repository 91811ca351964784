// Package mutant corrupts the stdio traffic of an MCP server in one named
// way, to prove that the conformance suite notices. Proxy sits between the
// suite and any server binary: frames from the client are forwarded to the
// child (or answered by the mutant itself), frames from the child are
// decoded, corrupted and passed on.
//
//	m, _ := mutant.Lookup("flip-is-error")
//	err := mutant.Proxy(ctx, m, []string{"./ombi-mcp"}, os.Stdin, os.Stdout, os.Stderr)
//
// The ombi-conformance command exposes it as the hidden subcommand
// "ombi-conformance mutate --mutant NAME -- CMD ARGS...".
package mutant
