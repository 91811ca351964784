// Package gen holds the rapid generators of the conformance properties:
// tool arguments drawn from the strict input schemas of package spec
// (valid-leaning, near-valid and hostile), and upstream payloads made from
// a real mock answer (planted secrets, inflated collections and strings,
// error bodies).
//
// Generators never decide validity: the strict validator is the oracle, so
// a generator aimed at valid arguments may sometimes miss, and the property
// classifies each case by validating it.
//
//	g, err := gen.Args("read_search")
//	if err != nil { ... }
//	rapid.Check(t, func(t *rapid.T) {
//		args := g.Draw(t, "args") // json.RawMessage
//		...
//	})
package gen
