package mockombi

import (
	"crypto/rand"
	"encoding/hex"
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
	var out any
	s.store.Read(func(st *store) { out = deepCopyJSON(st.Settings.Sections[key]) })
	if out == nil {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, out)
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
		if old := st.Settings.Doc(key); old != nil {
			if id, ok := old["id"]; ok {
				in["id"] = id
			}
		}
		if key == "ombi" {
			in["wizard"] = true
		}
		st.Settings.Sections[key] = in
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
		if d := st.Settings.Doc("ombi"); d != nil {
			d["apiKey"] = key
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
			out = ss.Doc("ombi")["baseUrl"]
		case "defaultlanguage":
			out = ss.Doc("ombi")["defaultLanguageCode"]
		case "clientid":
			out = ss.Text("plex", "installId")
		case "issuesenabled":
			out = ss.Flag("issues", "enabled")
		case "voteenabled":
			out = ss.Flag("vote", "enabled")
		case "lidarrenabled":
			out = ss.Flag("lidarr", "enabled")
		case "notifications/email/enabled":
			out = ss.Flag("notifications/email", "enabled")
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
	var out any
	s.store.Read(func(st *store) { out = deepCopyJSON(st.Settings.Sections["about"]) })
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
		if old := st.Settings.Doc("jobs"); old != nil {
			in["id"] = old["id"]
		}
		st.Settings.Sections["jobs"] = in
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
	var out any
	s.store.Read(func(st *store) { out = deepCopyJSON(st.Settings.FeatureList()) })
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
	var out any
	s.store.Write(func(st *store) {
		for _, f := range st.Settings.FeatureList() {
			if m, ok := f.(map[string]any); ok && m["name"] == in.Name {
				m["enabled"] = enable
				found = true
			}
		}
		out = deepCopyJSON(st.Settings.FeatureList())
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
	s.store.Read(func(st *store) { done = st.Settings.Flag("ombi", "wizard") })
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
	var out any
	s.store.Write(func(st *store) {
		c := st.Settings.Doc("customization")
		if c == nil {
			c = map[string]any{}
			st.Settings.Sections["customization"] = c
		}
		for _, k := range []string{"applicationName", "applicationUrl", "logo"} {
			if v, _ := db.FieldFold(in, k).(string); v != "" {
				c[k] = v
			}
		}
		out = deepCopyJSON(c)
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
