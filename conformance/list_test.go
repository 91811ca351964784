package conformance_test

import (
	"slices"
	"strings"
	"testing"
)

// TestCLI_listSeed: --seed orders the listing as it orders a run. The same
// seed lists the checks in the same order; another seed lists the same
// checks in another order.
func TestCLI_listSeed(t *testing.T) {
	list := func(seed string) string {
		t.Helper()
		r := runCLI(t, nil, "--list", "--seed", seed)
		if r.code != 0 {
			t.Fatalf("--list --seed %s: exit code %d\n%s", seed, r.code, r.stderr)
		}
		return r.stdout
	}
	one, again, two := list("1"), list("1"), list("2")
	if one != again {
		t.Errorf("--list --seed 1 twice printed two orders")
	}
	if one == two {
		t.Errorf("--list --seed 1 and --seed 2 printed the same order: the seed does not order the listing")
	}
	sorted := func(s string) []string {
		lines := strings.Split(s, "\n")
		slices.Sort(lines)
		return lines
	}
	if !slices.Equal(sorted(one), sorted(two)) {
		t.Errorf("--list --seed 1 and --seed 2 list different checks")
	}
}
