package framework

import (
	"reflect"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
)

// TestOptions_Modes: a live run and a run of a server already running at
// --url judge the one configured mode; a mock run the declared ones.
func TestOptions_Modes(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want []string
	}{
		{"mock run, default", Options{}, AuthModes},
		{"mock run, declared", Options{AuthModes: []string{"api_key"}}, []string{"api_key"}},
		{"live run, default", Options{OmbiURL: "http://127.0.0.1:5000"}, []string{"jwt"}},
		{"live run, api_key", Options{OmbiURL: "http://127.0.0.1:5000", AuthMode: "api_key"}, []string{"api_key"}},
		{"--url, default", Options{Target: harness.Target{URL: "http://127.0.0.1:8080/mcp"}}, []string{"jwt"}},
		{"--url, declared modes ignored", Options{Target: harness.Target{URL: "http://127.0.0.1:8080/mcp"}, AuthMode: "api_key", AuthModes: []string{"jwt", "api_key"}}, []string{"api_key"}},
	}
	for _, tt := range tests {
		if got := tt.opts.Modes(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Modes() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
