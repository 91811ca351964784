package framework

import (
	"fmt"
	"io"
	"strings"
)

// Profiles: what a run judges a server against.
const (
	// ProfileAuto picks ProfileAny for a server that lists no catalogue
	// tool and ProfileDesign otherwise.
	ProfileAuto = "auto"
	// ProfileDesign judges the 31-tool catalogue of the design: its
	// branches, envelope and wire shapes, and the rules of ProfileAny.
	ProfileDesign = "design"
	// ProfileAny judges what holds for every Ombi MCP server, whatever its
	// tools are called (the checks labelled LabelAny, on every tool the
	// server lists); the catalogue's checks are not applicable.
	ProfileAny = "any"
)

// Profiles are the values of --profile.
var Profiles = []string{ProfileAuto, ProfileDesign, ProfileAny}

// LabelAny marks the checks of ProfileAny; it is also their area.
const LabelAny = "any"

// resolveProfile turns --profile into the profile of this run: auto picks
// any when the server lists no catalogue tool and none is declared
// (--tools, --bundles: a server declared to implement the catalogue is
// judged against it, and fails for what it does not list).
func resolveProfile(want string, sc *scope) string {
	if want != "" && want != ProfileAuto {
		return want
	}
	for _, t := range sc.tools {
		if t.Judged() {
			return ProfileDesign
		}
	}
	return ProfileAny
}

// describeProfile says which profile the run judges in, and why.
func describeProfile(w io.Writer, profile, asked string, sc *scope) {
	var names []string
	for _, t := range sc.listed {
		names = append(names, t.Name)
	}
	why := "as asked (--profile)"
	if asked == "" || asked == ProfileAuto {
		why = "the server lists or declares catalogue tools; --profile any judges only the rules every Ombi MCP server keeps"
		if profile == ProfileAny {
			why = "the server lists no catalogue tool; --profile design judges it against the catalogue"
		}
	}
	fmt.Fprintf(w, "ombi-conformance: profile %s (%s); the server lists %d tools: %s\n", profile, why, len(names), strings.Join(names, ", "))
}

// requireProfile ends the current check as not applicable when the run's
// profile does not judge it: in ProfileAny every check of ProfileDesign.
func (s *Suite) requireProfile(c Check) {
	if s.profile == ProfileAny && c.Profile != ProfileAny {
		SkipAs(StateNotApplicable, "a check of the design's catalogue; the run judges profile any")
	}
}
