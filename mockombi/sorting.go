package mockombi

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// sortByProperty orders items, views, by a case-insensitive C# property
// name, as Ombi's reflection-based OrderBy does, reading each item's
// members by wire name (members, state.Members for a plain view); it
// returns the exception message Ombi would answer with when it cannot.
func sortByProperty[T any](items []T, members func(T) map[string]any, prop string, asc bool) string {
	if len(items) == 0 {
		return ""
	}
	rows := make([]map[string]any, len(items))
	for i, it := range items {
		rows[i] = members(it)
	}
	key := ""
	for k := range rows[0] {
		if strings.EqualFold(k, prop) && (key == "" || k < key) {
			key = k
		}
	}
	if key == "" {
		return msgNullReference
	}
	for _, row := range rows {
		if composite(row[key]) {
			return "Failed to compare two elements in the array."
		}
	}
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		c := compareAny(rows[a][key], rows[b][key])
		if !asc {
			c = -c
		}
		return c
	})
	sorted := make([]T, len(items))
	for i, j := range order {
		sorted[i] = items[j]
	}
	copy(items, sorted)
	return ""
}

// viewMembers is state.Members of a view.
func viewMembers[T any](v T) map[string]any { return state.Members(v) }

// composite reports a member value Ombi's OrderBy cannot compare: a list,
// or an object other than the requesting user (which the mock has always
// ordered as equal to any other).
func composite(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	case *state.OmbiUser, *time.Time:
		return false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Map:
		return !rv.IsNil()
	case reflect.Pointer:
		return !rv.IsNil() && rv.Elem().Kind() == reflect.Struct
	}
	return false
}

// compareAny orders JSON-ish scalars: nil first, then by type.
func compareAny(a, b any) int {
	a, b = deref(a), deref(b)
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	switch x := a.(type) {
	case bool:
		y, _ := b.(bool)
		return cmp.Compare(boolInt(x), boolInt(y))
	case int:
		y, _ := b.(int)
		return cmp.Compare(x, y)
	case float64:
		y, _ := b.(float64)
		return cmp.Compare(x, y)
	case string:
		y, _ := b.(string)
		if c := cmp.Compare(strings.ToLower(x), strings.ToLower(y)); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	case time.Time:
		y, _ := b.(time.Time)
		return x.Compare(y)
	}
	return 0
}

// deref reads a member's value as the JSON value it is written as: a nil
// pointer, list or map is null, a pointer to a scalar (a time, a bool, a
// number, a string) the scalar.
func deref(v any) any {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			return nil
		}
		if rv.Elem().Kind() != reflect.Struct || rv.Elem().Type() == reflect.TypeFor[time.Time]() {
			return rv.Elem().Interface()
		}
	case reflect.Slice, reflect.Map:
		if rv.IsNil() {
			return nil
		}
	}
	return v
}

// boolInt is false=0, true=1.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
