// Package buildinfo tells the version a binary of this module was built
// as: the module version when it was installed with go install
// module@version, else the VCS revision the build stamped, else "dev".
//
//	fmt.Println("ombi-mcp", buildinfo.Version())
package buildinfo

import (
	"runtime/debug"
)

// Version returns the version of the running binary: the main module's
// version (v1.2.3, or a pseudo-version), else the first 12 digits of the
// VCS revision with "-dirty" when the tree had changes, else "dev".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "-dirty"
	}
	return rev
}
