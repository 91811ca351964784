package conformance_test

import "testing"

// TestStress_aStalledCallEndsTheRun: `ombi-conformance stress` counts the
// calls a server answers and exits 1 at the first call with no answer,
// reporting where it was stuck; a server that answers every call passes.
func TestStress_aStalledCallEndsTheRun(t *testing.T) {
	self := selfCommand(t)
	tests := []struct {
		mode  string
		code  int
		wants []string
	}{
		{"mcp", 0, []string{"stress: 60 calls in", "0 stalls, 0 failures"}},
		{"stall", 1, []string{"a call got no answer after", "no answer within 1s", "waiting on the server", "1 stalls"}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			r := runCLI(t, []string{fakeEnv + "=" + tt.mode}, "stress", "--server", self, "--calls", "60", "--duration", "1m",
				"--procs", "1", "--sessions", "1", "--load", "1", "--call-timeout", "1s")
			if r.code != tt.code {
				t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.code, clipText(r.stdout), clipText(r.stderr))
			}
			mustContain(t, "stdout", r.stdout, tt.wants...)
		})
	}
}
