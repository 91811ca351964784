package mockombi

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// notificationAgents are the agents with a Settings/notifications/{agent} route.
var notificationAgents = []string{"email", "discord", "telegram", "pushbullet", "pushover", "slack",
	"mattermost", "twilio", "mobile", "gotify", "ntfy", "webhook", "newsletter"}

// deepCopyJSON copies a decoded JSON value so callers never share state.
func deepCopyJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = deepCopyJSON(e)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, e := range t {
			l[i] = deepCopyJSON(e)
		}
		return l
	default:
		return v
	}
}

// settingsKey is the lower-case wire key after /api/v1/Settings/.
func settingsKey(r *http.Request) string {
	p := strings.Trim(strings.ToLower(r.URL.Path), "/")
	if i := strings.Index(p, "api/v1/settings/"); i >= 0 {
		return p[i+len("api/v1/settings/"):]
	}
	return p
}

// knownSection reports whether key names a section this route table serves;
// notifications/{agent} accepts the listed agents only.
func knownSection(key string) bool {
	if agent, ok := strings.CutPrefix(key, "notifications/"); ok {
		return slices.Contains(notificationAgents, agent)
	}
	return true
}

// settingsGet answers GET Settings/{section} with the stored document.
func (s *Server) settingsGet(w http.ResponseWriter, r *http.Request) {
	key := settingsKey(r)
	if !knownSection(key) {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	var out json.RawMessage
	s.store.Read(func(st *store) { out = encodeSection(st.Settings.Section(key)) })
	if out == nil {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// encodeSection encodes a saved section under the store's lock, so the
// answer shares nothing with the state; nil for a section not saved.
func encodeSection(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := state.Encode(v)
	if err != nil {
		panic(err) // a section decoded from JSON encodes
	}
	return b
}

// settingsSave answers POST Settings/{section}: stores the body and returns
// true. Ombi keeps the stored id and forces wizard=true on the ombi section.
// Implements S-ROUTING-0259 (a section POST replaces the whole saved model).
func (s *Server) settingsSave(w http.ResponseWriter, r *http.Request) {
	key := settingsKey(r)
	if !knownSection(key) {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	if in == nil {
		writeOmbiError(w, http.StatusInternalServerError, nullReference)
		return
	}
	s.store.Write(func(st *store) {
		if old, ok := st.Settings.Section(key).(json.Marshaler); ok {
			if m := state.ToMembers(old); m != nil {
				if id, ok := m["id"]; ok {
					in["id"] = id
				}
			}
		}
		if key == "ombi" {
			in["wizard"] = true
		}
		st.saveSection(key, in)
	})
	writeJSON(w, http.StatusOK, true)
}

// settingsResetAPIKey answers POST Settings/ombi/resetApi with a new key (a
// JSON string) and stores it in the ombi section.
func (s *Server) settingsResetAPIKey(w http.ResponseWriter, _ *http.Request) {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	key := hex.EncodeToString(b)
	s.store.Write(func(st *store) {
		if d := st.Settings.Ombi; d != nil {
			d.APIKey = &key
			d.SetMember("apiKey")
		}
	})
	writeJSON(w, http.StatusOK, key)
}

// settingsScalar answers the small read-only settings routes.
func (s *Server) settingsScalar(w http.ResponseWriter, r *http.Request) {
	key := settingsKey(r)
	var out any
	s.store.Read(func(st *store) {
		ss := &st.Settings
		switch key {
		case "baseurl":
			out = member(ss.Ombi, "baseUrl")
		case "defaultlanguage":
			out = member(ss.Ombi, "defaultLanguageCode")
		case "clientid":
			out = db.Or(ss.Plex).InstallID
		case "issuesenabled":
			out = db.Or(ss.Issues).Enabled
		case "voteenabled":
			out = db.Or(ss.Vote).Enabled
		case "lidarrenabled":
			out = db.Or(ss.Lidarr).Enabled
		case "notifications/email/enabled":
			out = db.Or(ss.Email).Enabled
		}
	})
	if out == nil {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// settingsAbout answers GET Settings/about (AboutViewModel, anonymous).
func (s *Server) settingsAbout(w http.ResponseWriter, _ *http.Request) {
	var out json.RawMessage
	s.store.Read(func(st *store) { out = encodeSection(st.Settings.Section("about")) })
	if out == nil {
		out = json.RawMessage("null")
	}
	writeJSON(w, http.StatusOK, out)
}

// settingsURLVerify answers POST Settings/customization/urlverify {url}.
func (s *Server) settingsURLVerify(w http.ResponseWriter, r *http.Request) {
	var in struct {
		URL string `json:"url"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	u := strings.ToLower(in.URL)
	writeJSON(w, http.StatusOK, strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://"))
}

// settingsSaveJobs answers POST Settings/jobs with JobSettingsViewModel
// {result, message}: every cron must be valid before anything is saved.
func (s *Server) settingsSaveJobs(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	if in == nil {
		writeOmbiError(w, http.StatusInternalServerError, nullReference)
		return
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if strings.EqualFold(k, "id") {
			continue
		}
		expr, _ := in[k].(string)
		if !validQuartzCron(expr) {
			writeJSON(w, http.StatusOK, &state.JobSettingsViewModel{
				Message: ref(strings.ToUpper(k[:1]) + k[1:] + " does not have a valid CRON Expression")})
			return
		}
	}
	s.store.Write(func(st *store) {
		if old := st.Settings.Jobs; old != nil {
			in["id"] = member(old, "id")
		}
		st.saveSection("jobs", in)
	})
	writeJSON(w, http.StatusOK, &state.JobSettingsViewModel{Result: true})
}

// settingsTestCron answers POST Settings/testcron {expression} with
// CronTestModel {success, message}.
func (s *Server) settingsTestCron(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Expression string `json:"expression"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	if !validQuartzCron(in.Expression) {
		writeJSON(w, http.StatusOK, &state.CronTestModel{Message: ref(fmt.Sprintf("CRON Expression %s is not valid", in.Expression))})
		return
	}
	writeJSON(w, http.StatusOK, &state.CronTestModel{Success: true})
}

// cronField bounds one Quartz field.
type cronField struct {
	lo, hi int
	names  []string // symbolic values, index+lo is the number
}

// quartzFields are seconds, minutes, hours, day-of-month, month, day-of-week, year.
var quartzFields = []cronField{
	{0, 59, nil}, {0, 59, nil}, {0, 23, nil}, {1, 31, nil},
	{1, 12, []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}},
	{1, 7, []string{"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}},
	{1970, 2199, nil},
}

// validQuartzCron checks a Quartz cron expression: 6 or 7 fields, values in
// range, and '?' in exactly one of day-of-month and day-of-week.
func validQuartzCron(expr string) bool {
	parts := strings.Fields(strings.ToUpper(expr))
	if len(parts) != 6 && len(parts) != 7 {
		return false
	}
	domQ, dowQ := parts[3] == "?", parts[5] == "?"
	if domQ == dowQ {
		return false
	}
	for i, p := range parts {
		if p == "?" && (i == 3 || i == 5) {
			continue
		}
		if !validCronField(p, quartzFields[i], i) {
			return false
		}
	}
	return true
}

// validCronField checks one comma-separated field.
func validCronField(p string, f cronField, idx int) bool {
	for item := range strings.SplitSeq(p, ",") {
		base, step, hasStep := strings.Cut(item, "/")
		if hasStep {
			if n, err := strconv.Atoi(step); err != nil || n <= 0 {
				return false
			}
		}
		switch {
		case base == "*":
		case (idx == 3 || idx == 5) && (base == "L" || strings.HasSuffix(base, "L") || strings.HasSuffix(base, "W") || strings.Contains(base, "#")):
			num := strings.TrimRight(base, "LW")
			num, _, _ = strings.Cut(num, "#")
			if num != "" && !cronValue(num, f) {
				return false
			}
		default:
			lo, hi, isRange := strings.Cut(base, "-")
			if !cronValue(lo, f) || (isRange && !cronValue(hi, f)) {
				return false
			}
		}
	}
	return true
}

// cronValue checks a number or symbolic name against a field's bounds.
func cronValue(v string, f cronField) bool {
	if slices.Contains(f.names, v) {
		return true
	}
	n, err := strconv.Atoi(v)
	return err == nil && n >= f.lo && n <= f.hi
}

// featuresList answers v2 GET Features.
func (s *Server) featuresList(w http.ResponseWriter, _ *http.Request) {
	var out json.RawMessage
	s.store.Read(func(st *store) { out = encodeSection(db.NonNil(st.Settings.Features)) })
	writeJSON(w, http.StatusOK, out)
}

// featuresToggle answers v2 POST Features/enable and Features/disable
// {name, enabled} with the whole list; an unknown name throws (500) as
// upstream's First() does.
func (s *Server) featuresToggle(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name string `json:"name"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	enable := strings.HasSuffix(strings.TrimRight(strings.ToLower(r.URL.Path), "/"), "/enable")
	found := false
	var out json.RawMessage
	s.store.Write(func(st *store) {
		for _, f := range st.Settings.Features {
			if f != nil && f.HasMember("name") && db.Text(f.Name) == in.Name && f.Name != nil {
				f.Enabled = enable
				f.SetMember("enabled")
				found = true
			}
		}
		out = encodeSection(db.NonNil(st.Settings.Features))
	})
	if !found {
		writeOmbiError(w, http.StatusInternalServerError, "Sequence contains no matching element")
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// wizardDone is the WizardActionFilter of the v2 Wizard routes: once the
// ombi section has wizard=true every call answers 401 with an empty body.
func (s *Server) wizardDone(w http.ResponseWriter) bool {
	done := false
	s.store.Read(func(st *store) { done = db.Or(st.Settings.Ombi).Wizard })
	if done {
		w.WriteHeader(http.StatusUnauthorized)
	}
	return done
}

// wizardConfig is POST /api/v2/Wizard/config {applicationName,
// applicationUrl, logo} (anonymous): sets the non-empty ones on the
// customization section and answers it.
func (s *Server) wizardConfig(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) || s.wizardDone(w) {
		return
	}
	var out json.RawMessage
	s.store.Write(func(st *store) {
		c := map[string]any{}
		if st.Settings.Customization != nil {
			c = state.ToMembers(st.Settings.Customization)
		}
		for _, k := range []string{"applicationName", "applicationUrl", "logo"} {
			if v, _ := db.FieldFold(in, k).(string); v != "" {
				c[k] = v
			}
		}
		st.saveSection("customization", c)
		out = encodeSection(st.Settings.Customization)
	})
	writeJSON(w, http.StatusOK, out)
}

// wizardDatabase is POST /api/v2/Wizard/database {type, host, port, name,
// user, password} (anonymous): the mock's database is already configured
// (its database.json exists), so ConfigureDatabase refuses: 400
// {success: false, message}.
func (s *Server) wizardDatabase(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) || s.wizardDone(w) {
		return
	}
	writeJSON(w, http.StatusBadRequest, &state.DatabaseConfigurationResult{Message: "Could not configure the database, please check the logs"})
}

// settingsNewsletterDatabase is POST
// /api/v1/Settings/notifications/newsletterdatabase: marks the recently
// added content as sent (nothing to do in the mock) and answers true.
func (s *Server) settingsNewsletterDatabase(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, true)
}

// saveSection saves a settings section from a decoded JSON object.
func (st *store) saveSection(key string, m map[string]any) {
	ok, err := st.Settings.SetSection(key, m)
	if !ok || err != nil {
		panic(fmt.Sprintf("settings section %q: not saved (%v)", key, err)) // a route saves only its own section, from a JSON object
	}
}

// member is a saved member of a section document, nil when the section
// or the member is not saved: the value a route passes on as it is.
func member[T any, P interface {
	*T
	json.Marshaler
}](doc P, name string) any {
	if doc == nil {
		return nil
	}
	return state.Member(doc, name)
}
