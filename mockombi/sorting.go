package mockombi

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// sortByProperty orders projected items by a case-insensitive C# property
// name, as Ombi's reflection-based OrderBy does; it returns the exception
// message Ombi would answer with when it cannot.
func sortByProperty(items []map[string]any, prop string, asc bool) string {
	if len(items) == 0 {
		return ""
	}
	key := ""
	for k := range items[0] {
		if strings.EqualFold(k, prop) && (key == "" || k < key) {
			key = k
		}
	}
	if key == "" {
		return msgNullReference
	}
	for _, it := range items {
		switch it[key].(type) {
		case map[string]any, []any, []map[string]any:
			return "Failed to compare two elements in the array."
		}
	}
	slices.SortStableFunc(items, func(a, b map[string]any) int {
		c := compareAny(a[key], b[key])
		if !asc {
			c = -c
		}
		return c
	})
	return ""
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

// deref unwraps the pointer types projections use.
func deref(v any) any {
	switch x := v.(type) {
	case *time.Time:
		if x == nil {
			return nil
		}
		return *x
	case *bool:
		if x == nil {
			return nil
		}
		return *x
	case *int:
		if x == nil {
			return nil
		}
		return *x
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
