package spec

import (
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ecmaSpace is the ECMA-262 WhiteSpace and LineTerminator set that \s
// matches in the regex dialect JSON Schema 2020-12 prescribes. Go's RE2 \s
// covers only [\t\n\f\r ], so a whitespace-only string of no-break or
// ideographic spaces would pass a `\S` pattern.
const ecmaSpace = `\t\n\v\f\r \x{00a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// ecmaRegexp compiles a schema pattern with \s and \S given their ECMA-262
// meaning; everything else is RE2 syntax, which the schemas stay within.
func ecmaRegexp(pattern string) (jsonschema.Regexp, error) {
	return regexp.Compile(translateSpace(pattern))
}

var _ jsonschema.RegexpEngine = ecmaRegexp

// ECMAPattern returns a schema pattern in RE2 syntax with \s and \S given
// their ECMA-262 meaning: what the schemas' validator matches, for a
// generator that draws strings from a pattern.
func ECMAPattern(pattern string) string { return translateSpace(pattern) }

func translateSpace(p string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			n := p[i+1]
			i++
			switch {
			case n == 's' && inClass:
				b.WriteString(ecmaSpace)
			case n == 's':
				b.WriteString("[" + ecmaSpace + "]")
			case n == 'S' && !inClass:
				b.WriteString("[^" + ecmaSpace + "]")
			default:
				b.WriteByte(c)
				b.WriteByte(n)
			}
			continue
		}
		switch c {
		case '[':
			inClass = true
		case ']':
			inClass = false
		}
		b.WriteByte(c)
	}
	return b.String()
}
