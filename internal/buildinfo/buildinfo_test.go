package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	tests := []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"installed at a version", debug.BuildInfo{Main: debug.Module{Version: "v0.3.1"}}, "v0.3.1"},
		{"pseudo-version", debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201104747-89889a7c1d2e"}}, "v0.0.0-20261201104747-89889a7c1d2e"},
		{"checkout build", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "89889a7c1d2e3f4a5b6c7d8e9f00112233445566"}, {Key: "vcs.modified", Value: "false"}}}, "89889a7c1d2e"},
		{"dirty checkout", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "89889a7c1d2e3f4a"}, {Key: "vcs.modified", Value: "true"}}}, "89889a7c1d2e-dirty"},
		{"nothing stamped", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fromBuildInfo(&tt.bi); got != tt.want {
				t.Errorf("fromBuildInfo = %q, want %q", got, tt.want)
			}
		})
	}
}
