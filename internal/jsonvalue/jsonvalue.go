// Package jsonvalue encodes dynamic JSON values (the maps, slices and
// scalars encoding/json decodes into, and the few concrete types the mock's
// views are built from, and values it encoded before: Encoded) without
// reflection, byte for byte as encoding/json
// encodes them: object members sorted by key, the same string escaping and
// the same number formatting. Any other type is handed to encoding/json.
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Options select encoding/json's two spellings of a string.
type Options struct {
	// EscapeHTML escapes <, > and & as json.Marshal does; off, they are
	// kept as json.Encoder.SetEscapeHTML(false) keeps them.
	EscapeHTML bool
}

// Append appends the JSON encoding of v to dst.
func Append(dst []byte, v any, o Options) ([]byte, error) {
	e := encoder{b: dst, html: o.EscapeHTML}
	if err := e.value(v); err != nil {
		return dst, err
	}
	return e.b, nil
}

// An Encoder is Append with a memory of the member orders it sorted:
// objects that share a set of names (a view's records) are sorted once.
// It is safe for concurrent use; the zero value is ready.
type Encoder struct {
	seed   maphash.Seed
	once   sync.Once
	orders sync.Map // key-set fingerprint -> []string sorted
	count  atomic.Int64
}

// maxOrders bounds the remembered orders; past it, objects are sorted
// afresh.
const maxOrders = 4096

// Append appends the JSON encoding of v to dst.
func (c *Encoder) Append(dst []byte, v any, o Options) ([]byte, error) {
	c.once.Do(func() { c.seed = maphash.MakeSeed() })
	e := encoder{b: dst, html: o.EscapeHTML, orders: c}
	if err := e.value(v); err != nil {
		return dst, err
	}
	return e.b, nil
}

// order returns m's names sorted, from memory when a map with the same
// names was sorted before.
func (c *Encoder) order(m map[string]any) []string {
	var fp uint64
	for k := range m {
		fp ^= maphash.String(c.seed, k) // order-free
	}
	fp ^= uint64(len(m)) * 0x9e3779b97f4a7c15
	if v, ok := c.orders.Load(fp); ok {
		keys := v.([]string)
		if len(keys) == len(m) && hasAll(m, keys) {
			return keys
		}
		return sortedKeys(m)
	}
	keys := sortedKeys(m)
	if c.count.Load() < maxOrders {
		if _, loaded := c.orders.LoadOrStore(fp, keys); !loaded {
			c.count.Add(1)
		}
	}
	return keys
}

func hasAll(m map[string]any, keys []string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

type encoder struct {
	b      []byte
	html   bool
	orders *Encoder   // nil: sort every object
	keys   [][]string // one reusable name slice per object depth
	depth  int        // current object nesting
}

func (e *encoder) value(v any) error {
	switch x := v.(type) {
	case nil:
		e.b = append(e.b, "null"...)
	case string:
		e.str(x)
	case bool:
		e.b = strconv.AppendBool(e.b, x)
	case float64:
		return e.float(x)
	case int:
		e.b = strconv.AppendInt(e.b, int64(x), 10)
	case int64:
		e.b = strconv.AppendInt(e.b, x, 10)
	case map[string]any:
		return e.object(x)
	case json.Number:
		// as encoding/json: "" is 0, anything else must be a number literal
		if x == "" {
			x = "0"
		}
		if !isNumber(string(x)) {
			return fmt.Errorf("json: invalid number literal %q", string(x))
		}
		e.b = append(e.b, x...)
	case Encoded:
		if e.html {
			return e.fallback(x)
		}
		if x == nil {
			x = Encoded("null")
		}
		e.b = append(e.b, x...)
	case []any:
		return array(e, x, e.value)
	case []map[string]any:
		return array(e, x, e.object)
	case []string:
		return array(e, x, func(c string) error { e.str(c); return nil })
	case []int:
		return array(e, x, func(c int) error { e.b = strconv.AppendInt(e.b, int64(c), 10); return nil })
	case map[string]string:
		if x == nil {
			e.b = append(e.b, "null"...)
			return nil
		}
		return members(e, x, sortedKeys(x), func(c string) error { e.str(c); return nil })
	case *string:
		if x == nil {
			e.b = append(e.b, "null"...)
			return nil
		}
		e.str(*x)
	case *int:
		if x == nil {
			e.b = append(e.b, "null"...)
			return nil
		}
		e.b = strconv.AppendInt(e.b, int64(*x), 10)
	case *bool:
		if x == nil {
			e.b = append(e.b, "null"...)
			return nil
		}
		e.b = strconv.AppendBool(e.b, *x)
	case *float64:
		if x == nil {
			e.b = append(e.b, "null"...)
			return nil
		}
		return e.float(*x)
	case time.Time:
		t, err := x.MarshalJSON()
		if err != nil {
			return err
		}
		e.b = append(e.b, t...)
	default:
		return e.fallback(v)
	}
	return nil
}

// array writes a JSON array (null for a nil slice), each element by elem.
func array[T any](e *encoder, xs []T, elem func(T) error) error {
	if xs == nil {
		e.b = append(e.b, "null"...)
		return nil
	}
	e.b = append(e.b, '[')
	for i, c := range xs {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		if err := elem(c); err != nil {
			return err
		}
	}
	e.b = append(e.b, ']')
	return nil
}

func (e *encoder) object(m map[string]any) error {
	if m == nil {
		e.b = append(e.b, "null"...)
		return nil
	}
	var keys []string
	if e.orders != nil && len(m) > 1 {
		keys = e.orders.order(m)
	} else {
		for len(e.keys) <= e.depth {
			e.keys = append(e.keys, nil)
		}
		keys = e.keys[e.depth][:0]
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		e.keys[e.depth] = keys
	}
	e.depth++
	err := members(e, m, keys, e.value)
	e.depth--
	return err
}

// isNumber reports whether s is a JSON number literal, the check
// encoding/json makes before it writes a json.Number.
func isNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// members writes a JSON object of m's members in the order of keys, each
// value by elem.
func members[V any](e *encoder, m map[string]V, keys []string, elem func(V) error) error {
	e.b = append(e.b, '{')
	for i, k := range keys {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.str(k)
		e.b = append(e.b, ':')
		if err := elem(m[k]); err != nil {
			return err
		}
	}
	e.b = append(e.b, '}')
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Encoded is a value Append already encoded, with EscapeHTML off; Append
// copies it in as it is, unchecked, when EscapeHTML is off too. Otherwise,
// and for encoding/json (through MarshalJSON), it is a json.Marshaler:
// compacted, checked and escaped as the encoder's options say.
type Encoded []byte

// MarshalJSON returns the encoded bytes; nil is null.
func (x Encoded) MarshalJSON() ([]byte, error) {
	if x == nil {
		return []byte("null"), nil
	}
	return x, nil
}

// fallback encodes any other type with encoding/json.
func (e *encoder) fallback(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(e.html)
	if err := enc.Encode(v); err != nil {
		return err
	}
	e.b = append(e.b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
	return nil
}

// float formats as encoding/json does: the shortest representation, in
// exponent form below 1e-6 and from 1e21, with a one-digit exponent
// unpadded.
func (e *encoder) float(f float64) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	e.b = strconv.AppendFloat(e.b, f, format, -1, 64)
	if format == 'e' {
		n := len(e.b)
		if n >= 4 && e.b[n-4] == 'e' && e.b[n-3] == '-' && e.b[n-2] == '0' {
			e.b[n-2] = e.b[n-1]
			e.b = e.b[:n-1]
		}
	}
	return nil
}

const hexDigits = "0123456789abcdef"

// str appends a JSON string as encoding/json spells it: invalid UTF-8
// becomes U+FFFD, U+2028 and U+2029 are escaped, and so are <, > and &
// when e.html.
func (e *encoder) str(s string) {
	e.b = append(e.b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!e.html || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			e.b = append(e.b, s[start:i]...)
			switch c {
			case '"', '\\':
				e.b = append(e.b, '\\', c)
			case '\b':
				e.b = append(e.b, '\\', 'b')
			case '\f':
				e.b = append(e.b, '\\', 'f')
			case '\n':
				e.b = append(e.b, '\\', 'n')
			case '\r':
				e.b = append(e.b, '\\', 'r')
			case '\t':
				e.b = append(e.b, '\\', 't')
			default:
				e.b = append(e.b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			e.b = append(e.b, s[start:i]...)
			e.b = append(e.b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			e.b = append(e.b, s[start:i]...)
			e.b = append(e.b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	e.b = append(e.b, s[start:]...)
	e.b = append(e.b, '"')
}
