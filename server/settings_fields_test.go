package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

func TestSettingsFields_coverEverySection(t *testing.T) {
	for section := range ombi.SettingsWire {
		fields, ok := settingsFields[section]
		if !ok {
			t.Errorf("section %s has no allowlist", section)
			continue
		}
		if ombi.WritableSection(section) && len(fields) == 0 {
			t.Errorf("writable section %s has an empty allowlist", section)
		}
	}
	for section := range settingsFields {
		if _, ok := ombi.SettingsWire[section]; !ok {
			t.Errorf("allowlist for unknown section %s", section)
		}
	}
}

func TestFlattenSettings_allowlist(t *testing.T) {
	const secret = "CANARY-4f1d9a0c"
	tests := []struct {
		section string
		doc     string
		shown   []string
		hidden  []string
	}{
		{
			section: "ombi",
			doc: `{"id":1,"hideRequestsUsers":true,"defaultLanguageCode":"en","autoDeleteAfterDays":7,
				"x_undocumented_field":"` + secret + `","x_harmless":"plain","x_flag":true}`,
			shown:  []string{"/hideRequestsUsers", "/defaultLanguageCode", "/autoDeleteAfterDays"},
			hidden: []string{"/x_undocumented_field", "/x_harmless", "/x_flag", "/id"},
		},
		{
			section: "plex",
			doc: `{"enable":true,"servers":[{"id":3,"machineIdentifier":"abc","name":"Den","port":32400,
				"x_secret":"` + secret + `","x_note":"plain","extra":{"name":"nested"},
				"plexSelectedLibraries":[{"title":"Films","enabled":true,"x_lib":"plain"}]}]}`,
			shown: []string{"/enable", "/servers/0/id", "/servers/0/machineIdentifier", "/servers/0/name", "/servers/0/port",
				"/servers/0/plexSelectedLibraries/0/title", "/servers/0/plexSelectedLibraries/0/enabled"},
			hidden: []string{"/servers/0/x_secret", "/servers/0/x_note", "/servers/0/extra/name", "/servers/0/plexSelectedLibraries/0/x_lib"},
		},
		{
			section: "radarr",
			doc: `{"radarr":{"enabled":true,"addOnly":false,"x_token":"` + secret + `"},
				"radarr4K":{"enabled":false,"minimumAvailability":"Released"},"x_third":{"enabled":true}}`,
			shown:  []string{"/radarr/enabled", "/radarr/addOnly", "/radarr4K/enabled", "/radarr4K/minimumAvailability"},
			hidden: []string{"/radarr/x_token", "/x_third/enabled"},
		},
		{
			section: "notifications_discord",
			doc: `{"enabled":true,"hideUser":false,"notificationTemplates":[{"notificationType":1,"agent":1,
				"subject":"New","message":"Hi","enabled":true,"x_extra":"` + secret + `"}]}`,
			shown: []string{"/enabled", "/hideUser", "/notificationTemplates/0/notificationType", "/notificationTemplates/0/agent",
				"/notificationTemplates/0/subject", "/notificationTemplates/0/message", "/notificationTemplates/0/enabled"},
			hidden: []string{"/notificationTemplates/0/x_extra"},
		},
		{
			section: "themes",
			doc:     `[{"fullName":"Dark","displayName":"Dark","version":"1.0","x_key":"` + secret + `"}]`,
			shown:   []string{"/0/fullName", "/0/displayName", "/0/version"},
			hidden:  []string{"/0/x_key"},
		},
		{
			// A name listed for another section is still unlisted here.
			section: "vote",
			doc:     `{"enabled":true,"movieVoteMax":3,"hideRequestsUsers":true}`,
			shown:   []string{"/enabled", "/movieVoteMax"},
			hidden:  []string{"/hideRequestsUsers"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.section, func(t *testing.T) {
			doc, err := decodeDoc(json.RawMessage(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			values, omitted := flattenSettings(tt.section, doc)
			names := make([]string, 0, len(values))
			for _, v := range values {
				names = append(names, v.Name)
				if s, ok := v.Value.(string); ok && (s == secret || s == "plain" || s == "nested") {
					t.Errorf("%s shows an undocumented value %q", v.Name, s)
				}
			}
			for _, n := range tt.shown {
				if !slices.Contains(names, n) {
					t.Errorf("%s is not shown (values %v)", n, names)
				}
			}
			for _, n := range tt.hidden {
				if slices.Contains(names, n) {
					t.Errorf("%s is shown", n)
				}
				if !slices.Contains(omitted, n) {
					t.Errorf("%s is not listed in omitted %v", n, omitted)
				}
			}
			if len(values)+len(omitted) != strings.Count(tt.doc, ":")-strings.Count(tt.doc, ":{")-strings.Count(tt.doc, ":[") {
				t.Errorf("%d values + %d omitted do not account for every leaf", len(values), len(omitted))
			}
		})
	}
}

// postSettings stores a section document in the mock with the API key.
func postSettings(t *testing.T, m *mockombi.Server, wire string, doc map[string]any) {
	t.Helper()
	body, _ := json.Marshal(doc)
	req, _ := http.NewRequest(http.MethodPost, m.URL()+"/api/v1/Settings/"+wire, bytes.NewReader(body))
	req.Header.Set("ApiKey", m.Credentials().APIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("store %s: status %d", wire, resp.StatusCode)
	}
}

func TestSettingsUndocumentedFields_endToEnd(t *testing.T) {
	const secret = "CANARY-77c2e5b1<&>"
	e := newAdminEnv(t, mockombi.RoleAdmin)
	doc := rawSettings(t, e.m, "ombi")
	doc["x_undocumented_field"] = secret
	doc["xNested"] = map[string]any{"note": "plain", "depth": []any{1.5, "x"}}
	postSettings(t, e.m, "ombi", doc)

	read := decodeData[settingsResult](t, e.h.call(t, "read_settings", map[string]any{"section": "ombi"}))
	for _, v := range read.Values {
		if strings.HasPrefix(v.Name, "/x") {
			t.Errorf("undocumented %s is shown", v.Name)
		}
	}
	for _, p := range []string{"/x_undocumented_field", "/xNested/note", "/xNested/depth/0", "/xNested/depth/1"} {
		if !slices.Contains(read.OmittedFields, p) {
			t.Errorf("%s is not in omitted_fields %v", p, read.OmittedFields)
		}
	}
	for _, n := range []string{"/hideRequestsUsers", "/defaultLanguageCode"} {
		if !slices.ContainsFunc(read.Values, func(v settingChange) bool { return v.Name == n }) {
			t.Errorf("%s is not shown", n)
		}
	}

	// An undocumented key is not patchable: nothing is posted.
	r, calls := e.do(t, "write_settings_patch", map[string]any{"action": "patch", "section": "ombi", "revision": read.Revision,
		"changes": map[string]any{"xNested": map[string]any{"note": "other"}}})
	wantError(t, r, codeInvalidArgument)
	if r.Error.Field != "/changes/xNested" {
		t.Errorf("field = %q (%s)", r.Error.Field, r.raw)
	}
	wantRoutes(t, calls, "GET /api/v1/Settings/ombi")

	// A documented change keeps the undocumented fields byte for byte.
	before := rawSettingsBytes(t, e.m, "ombi")
	want := !doc["hideRequestsUsers"].(bool)
	r, calls = e.do(t, "write_settings_patch", map[string]any{"action": "patch", "section": "ombi", "revision": read.Revision,
		"changes": map[string]any{"hideRequestsUsers": want}})
	wantRoutes(t, calls, "GET /api/v1/Settings/ombi", "POST /api/v1/Settings/ombi")
	if m := decodeData[mutation](t, r); m.Outcome != mutationCompleted {
		t.Fatalf("outcome = %s", m.Outcome)
	}
	var orig, posted map[string]json.RawMessage
	if err := json.Unmarshal(before, &orig); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(calls[1].Body, &posted); err != nil {
		t.Fatal(err)
	}
	if len(posted) != len(orig) {
		t.Errorf("posted %d properties, the original has %d", len(posted), len(orig))
	}
	for k, v := range orig {
		if k == "hideRequestsUsers" {
			continue
		}
		// The request encoder compacts and escapes <, > and & as \u003c,
		// \u003e and \u0026; every other byte is the saved one.
		var exp bytes.Buffer
		json.HTMLEscape(&exp, v)
		if !bytes.Equal(posted[k], exp.Bytes()) {
			t.Errorf("%s posted as %s, saved as %s", k, posted[k], v)
		}
	}
	if string(posted["hideRequestsUsers"]) != strconv.FormatBool(want) {
		t.Errorf("hideRequestsUsers posted as %s", posted["hideRequestsUsers"])
	}
}

// rawSettingsBytes reads a section's answer body from the mock.
func rawSettingsBytes(t *testing.T, m *mockombi.Server, wire string) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, m.URL()+"/api/v1/Settings/"+wire, nil)
	req.Header.Set("ApiKey", m.Credentials().APIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMergedBody_keepsUntouchedBytes(t *testing.T) {
	raw := json.RawMessage(`{"b": "caf\u00e9", "a": 1, "n": 1.50e0, "o": {"k": [1, 2]}}`)
	orig, _ := decodeDoc(raw)
	changes := map[string]any{"a": json.Number("2")}
	merged, err := mergeSettings(orig.(map[string]any), changes, []string{"a"}, "/changes", "")
	if err != nil {
		t.Fatal(err)
	}
	body, err := mergedBody(raw, merged, changes)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":2,"b":"caf\u00e9","n":1.50e0,"o":{"k": [1, 2]}}`
	if string(body) != want {
		t.Errorf("body = %s, want %s", body, want)
	}
}
