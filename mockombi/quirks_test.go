package mockombi

import "testing"

// TestQuirkDefault: every quirk a mock lists has a default, the ones that
// model Ombi v4.59.3 as it is are on, and unknown names are not quirks.
func TestQuirkDefault(t *testing.T) {
	s := mustNew(t, Options{})
	for _, name := range s.Quirks() {
		on, known := QuirkDefault(name)
		if !known {
			t.Errorf("%s is listed but has no default", name)
		}
		if on != s.quirk(name) {
			t.Errorf("%s: QuirkDefault says %v, a new mock has %v", name, on, s.quirk(name))
		}
	}
	if on, _ := QuirkDefault(QuirkPlexServersWrapper); !on {
		t.Errorf("%s must be on by default (Ombi always wraps the servers)", QuirkPlexServersWrapper)
	}
	if _, known := QuirkDefault("no_such_quirk"); known {
		t.Error("an unknown name is reported as a quirk")
	}
}
