package checks

import (
	"strconv"
)

// This file holds what the administration-domain checks (wire_admin.go)
// share: journal helpers, direct reads of the embedded mock and the
// server configurations the checks start.

// admNum reads a JSON number (or numeric string) as an int; -1 otherwise.
func admNum(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case string:
		if n, err := strconv.Atoi(x); err == nil {
			return n
		}
	}
	return -1
}

// admMutation is the mutation family as the checks read it.
type admMutation struct {
	Kind          string `json:"kind"`
	Outcome       string `json:"outcome"`
	AffectedCount *int   `json:"affected_count"`
}
