package state

import (
	"encoding/json"
	"testing"
)

// TestDocument_roundTrip: a settings document is written back as it was
// saved, whatever the body carried: members left out stay out, members
// the model lacks (another case of a name among them) and values that do
// not fit the model's type are kept as given, null stays null; the typed
// members read what fits.
func TestDocument_roundTrip(t *testing.T) {
	tests := []struct {
		name, in string
		check    func(*VoteSettings) bool
	}{
		{"whole", `{"enabled":true,"id":4,"movieVoteMax":2,"musicVoteMax":0,"tvShowVoteMax":1}`,
			func(v *VoteSettings) bool {
				return v.Enabled && v.ID == 4 && v.MovieVoteMax == 2 && v.HasMember("musicVoteMax")
			}},
		{"empty", `{}`, func(v *VoteSettings) bool { return !v.HasMember("id") && !v.Enabled }},
		{"members Ombi lacks", `{"Enabled":true,"enabled":false,"title":"T","z":[1,{"a":null}]}`,
			func(v *VoteSettings) bool { return !v.Enabled && v.HasMember("enabled") && !v.HasMember("id") }},
		{"value of another type", `{"enabled":"yes","movieVoteMax":2.5,"tvShowVoteMax":"3"}`,
			func(v *VoteSettings) bool { return !v.Enabled && !v.HasMember("enabled") && v.MovieVoteMax == 0 }},
		{"null for a bool", `{"enabled":null,"id":null}`, func(v *VoteSettings) bool { return !v.HasMember("enabled") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v VoteSettings
			if err := json.Unmarshal([]byte(tt.in), &v); err != nil {
				t.Fatal(err)
			}
			if !tt.check(&v) {
				t.Errorf("typed members of %s = %+v", tt.in, v)
			}
			got, err := Encode(&v)
			if err != nil {
				t.Fatal(err)
			}
			var want map[string]any
			_ = json.Unmarshal([]byte(tt.in), &want)
			wantB, _ := Encode(want)
			if string(got) != string(wantB) {
				t.Errorf("written back as %s, want %s", got, wantB)
			}
		})
	}
}

// TestDocument_nested: a document inside a document (a saved server, a
// template) keeps its own members as saved, and a handler's change to a
// typed member is written once it is marked.
func TestDocument_nested(t *testing.T) {
	in := `{"enable":true,"servers":[{"id":1,"name":"a","odd":1},{"ip":null}]}`
	var p PlexSettings
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Servers) != 2 || *p.Servers[0].Name != "a" || p.Servers[1].IP != nil || !p.Servers[1].HasMember("ip") {
		t.Fatalf("servers = %+v", p.Servers)
	}
	p.MonitorAll = true
	if b, _ := Encode(&p); string(b) != `{"enable":true,"servers":[{"id":1,"name":"a","odd":1},{"ip":null}]}` {
		t.Errorf("an unmarked change is written: %s", b)
	}
	p.SetMember("monitorAll")
	p.Servers[0].DropMember("odd")
	p.Servers[0].DropMember("name")
	if b, _ := Encode(&p); string(b) != `{"enable":true,"monitorAll":true,"servers":[{"id":1},{"ip":null}]}` {
		t.Errorf("after the changes: %s", b)
	}
	if got := Member(&p, "enable"); got != true {
		t.Errorf("Member(enable) = %v", got)
	}
	if got := Member(&p, "installId"); got != nil {
		t.Errorf("Member(installId) = %v, want nil for a member not saved", got)
	}
}

// TestSettings_sections: a section is read and saved by its wire key; one
// not saved reads nil, a key that is no section is not saved.
func TestSettings_sections(t *testing.T) {
	var s Settings
	if err := json.Unmarshal([]byte(`{"vote":{"enabled":true},"features":[]}`), &s); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Section("vote").(*VoteSettings); v == nil || !v.Enabled {
		t.Errorf("Section(vote) = %v", s.Section("vote"))
	}
	if s.Section("ombi") != nil || s.Section("nope") != nil {
		t.Errorf("a section not saved reads %v, %v", s.Section("ombi"), s.Section("nope"))
	}
	if ok, err := s.SetSection("notifications/email", map[string]any{"enabled": true, "host": "h"}); !ok || err != nil {
		t.Fatalf("SetSection = %v, %v", ok, err)
	}
	if ok, _ := s.SetSection("nope", map[string]any{}); ok {
		t.Error("SetSection saved a key that is no section")
	}
	b, _ := Encode(&s)
	if want := `{"features":[],"notifications/email":{"enabled":true,"host":"h"},"vote":{"enabled":true}}`; string(b) != want {
		t.Errorf("settings = %s, want %s", b, want)
	}
}
