package server

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// maxMessageRunes bounds any upstream text quoted in an error or warning.
const maxMessageRunes = 200

// deniedFragments mark text that may carry secrets, markup, stack traces,
// connection strings or destinations. A message containing one is dropped.
var deniedFragments = []string{
	"<", ">", "://", "\\", "{", "}", "bearer", "authorization", "apikey", "api_key", "api-key", "api key",
	"password", "passwd", "pwd=", "secret", "token", "cookie", "server=", "data source",
	"connection", "user id=", "exception", " at ", "stack", "trace", ".cs:", "line ", "eyj",
	"=",
}

// sanitizeMessage keeps upstream text only when it is a short, single-line,
// plain sentence: the allowlist is letters, digits, spaces and ordinary
// punctuation, at most maxMessageRunes runes, with no fragment that could
// carry a secret, markup, a URL or a stack frame, and no long opaque token.
// Anything else yields "" and the caller uses its own fixed text. The
// secrets given (the configured credentials, the cached token) are never
// returned even when the text otherwise passes.
func sanitizeMessage(s string, secrets ...string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "\r\n\t") {
		return ""
	}
	if len([]rune(s)) > maxMessageRunes {
		return ""
	}
	lower := strings.ToLower(s)
	for _, f := range deniedFragments {
		if strings.Contains(lower, f) {
			return ""
		}
	}
	for _, sec := range secrets {
		if sec != "" && strings.Contains(lower, strings.ToLower(sec)) {
			return ""
		}
	}
	run := 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			run++
			if run > 24 { // opaque identifiers, keys and hashes
				return ""
			}
		case strings.ContainsRune("-_/#%+*", r):
			run++
		case r == ' ' || strings.ContainsRune(".,;:!?'\"()&", r):
			run = 0
		default:
			return ""
		}
	}
	return s
}

// ---- output hygiene (every result passes here, from fit) ----

// cleanText removes what must never reach a caller from an upstream
// string: ANSI/VT escape sequences (CSI, OSC, DCS and two-byte escapes,
// introduced by ESC or their C1 forms), every other C0 control but tab and
// newline (when keepLines), DEL, the C1 controls, and the bidi controls
// (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069). A string without
// any is returned as is.
func cleanText(s string, keepLines bool) string {
	if !needsCleaning(s, keepLines) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == 0x1b: // ESC
			i = skipEscape(rs, i+1)
		case r == 0x9b: // C1 CSI
			i = skipCSI(rs, i+1)
		case r == 0x9d, r == 0x90, r == 0x98, r == 0x9e, r == 0x9f: // C1 OSC, DCS, SOS, PM, APC
			i = skipString(rs, i+1)
		case dropRune(r, keepLines):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsCleaning(s string, keepLines bool) bool {
	for _, r := range s {
		if dropRune(r, keepLines) {
			return true
		}
	}
	return false
}

// dropRune reports a control or bidi character.
func dropRune(r rune, keepLines bool) bool {
	switch {
	case r == '\t' || r == '\n':
		return !keepLines
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// skipEscape skips the escape sequence whose ESC precedes rs[i] and
// returns the index of its last rune.
func skipEscape(rs []rune, i int) int {
	if i >= len(rs) {
		return i - 1
	}
	switch rs[i] {
	case '[':
		return skipCSI(rs, i+1)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: up to BEL or ST
		return skipString(rs, i+1)
	}
	// nF sequences: intermediates 0x20-0x2F, then one final byte.
	for i < len(rs) && rs[i] >= 0x20 && rs[i] <= 0x2f {
		i++
	}
	if i < len(rs) && rs[i] >= 0x30 && rs[i] <= 0x7e {
		return i
	}
	return i - 1
}

// skipCSI skips parameters (0x30-0x3F) and intermediates (0x20-0x2F) up
// to the final byte (0x40-0x7E) starting at rs[i].
func skipCSI(rs []rune, i int) int {
	for i < len(rs) && rs[i] >= 0x20 && rs[i] <= 0x3f {
		i++
	}
	if i < len(rs) && rs[i] >= 0x40 && rs[i] <= 0x7e {
		return i
	}
	return i - 1
}

// skipString skips a control string up to and including its terminator:
// BEL, ST (ESC \) or C1 ST; an unterminated one runs to the end.
func skipString(rs []rune, i int) int {
	for ; i < len(rs); i++ {
		switch {
		case rs[i] == 0x07 || rs[i] == 0x9c:
			return i
		case rs[i] == 0x1b && i+1 < len(rs) && rs[i+1] == '\\':
			return i + 1
		}
	}
	return len(rs) - 1
}

// Identifier validity (04-results $defs/identifier and the *_id fields).
var (
	mbidPattern     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)
	numericPattern  = regexp.MustCompile(`^[+-]?[0-9.]*[0-9][0-9.]*([eE][+-]?[0-9]+)?$`)
	positivePattern = regexp.MustCompile(`^[1-9][0-9]{0,9}$`)
)

// positiveID reports a canonical positive decimal int32: no sign, no
// leading zero, no fraction or exponent, at most 2147483647.
func positiveID(s string) bool {
	if !positivePattern.MatchString(s) {
		return false
	}
	n, err := strconv.ParseInt(s, 10, 32)
	return err == nil && n > 0
}

// numericLike reports text that reads as a number (sign, digits, point,
// exponent): such an id is valid only as a positive integer.
func numericLike(s string) bool { return numericPattern.MatchString(s) }

// validIdentifier reports whether value may be emitted as an identifier of
// namespace ns: numeric namespaces take positive integers only, imdb takes
// tt plus digits, musicbrainz and provider_unknown take a positive integer
// or a plain token that does not read as a number.
func validIdentifier(ns, value string) bool {
	switch ns {
	case nsIMDB:
		return imdbPattern.MatchString(value)
	case nsMusicBrainz, nsUnknown:
		if numericLike(value) {
			return positiveID(value)
		}
		return mbidPattern.MatchString(value)
	}
	return positiveID(value)
}

// validIDField reports whether an *_id field value may be emitted: a number
// must be a positive integer; a string that reads as a number must be one
// too (other strings, such as GUIDs and imdb ids, are vetted where they are
// projected).
func validIDField(v any) bool {
	switch t := v.(type) {
	case json.Number:
		return positiveID(t.String())
	case string:
		return !numericLike(strings.TrimSpace(t)) || positiveID(t)
	}
	return true
}
