package server

import "bytes"

// This file holds the allocation-light JSON scanning the stdio transport
// does on every frame.

// jsonDepth returns the maximum nesting depth of arrays and objects in a JSON
// text, ignoring brackets inside strings.
func jsonDepth(b []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// topLevelID returns the raw JSON of the "id" member of the top-level object,
// when it is a number or a string. It works on a truncated frame too: it
// reads no further than the member.
func topLevelID(b []byte) (string, bool) {
	depth := 0
	inString, escaped := false, false
	keyStart := -1
	var lastKey string
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if depth == 1 && keyStart >= 0 {
					lastKey = string(b[keyStart:i])
					keyStart = -1
				}
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			if depth == 1 && expectingKey(b, i) {
				keyStart = i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ':':
			if depth == 1 && lastKey == "id" {
				return scanScalar(b[i+1:])
			}
		}
	}
	return "", false
}

// expectingKey reports whether the string starting at i is an object key:
// the previous significant byte is '{' or ','.
func expectingKey(b []byte, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch b[j] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', ',':
			return true
		default:
			return false
		}
	}
	return false
}

// scanScalar reads a JSON number or string value at the start of b.
func scanScalar(b []byte) (string, bool) {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return "", false
	}
	if b[0] == '"' {
		for i := 1; i < len(b); i++ {
			switch b[i] {
			case '\\':
				i++
			case '"':
				return string(b[:i+1]), true
			}
		}
		return "", false
	}
	end := bytes.IndexAny(b, ",} \t\r\n")
	if end <= 0 {
		return "", false
	}
	tok := b[:end]
	for _, c := range tok {
		if !(c >= '0' && c <= '9' || c == '-' || c == '.' || c == 'e' || c == 'E' || c == '+') {
			return "", false
		}
	}
	return string(tok), true
}

// objectMembers calls visit with the decoded key and the byte range of the
// raw value of each member of the JSON object b, in order. b should be valid
// JSON; objectMembers reports false when b is not an object or is cut short,
// without reading past its end.
func objectMembers(b []byte, visit func(key string, start, end int)) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipSpace(b, i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		kEnd := stringEnd(b, i)
		if kEnd < 0 {
			return false
		}
		key := decodeString(b[i:kEnd])
		i = skipSpace(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		vEnd := valueEnd(b, i)
		if vEnd < 0 {
			return false
		}
		visit(key, i, vEnd)
		i = skipSpace(b, vEnd)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return skipSpace(b, i+1) == len(b)
		default:
			return false
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// stringEnd returns the index just past the JSON string starting at b[i],
// or -1.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// valueEnd returns the index just past the JSON value starting at b[i], or
// -1.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := stringEnd(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
scalar:
	for ; j < len(b); j++ {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			break scalar
		}
	}
	if j == i {
		return -1
	}
	return j
}
