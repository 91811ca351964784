package server

import (
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
