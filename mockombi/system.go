package mockombi

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// ombiVersion is the Ombi version the mock reports.
const ombiVersion = "4.59.3"

// jobNames are the Job controller's POST routes.
var jobNames = []string{"update", "plexuserimporter", "plexwatchlist", "embyuserimporter", "jellyfinuserimporter",
	"plexcontentcacher", "clearmediaserverdata", "plexrecentlyadded", "embycontentcacher", "embyrecentlyadded",
	"jellyfincontentcacher", "arrAvailability", "autodeleterequests", "newsletter"}

// systemStatus answers GET Status: the JSON number 200.
func (s *Server) systemStatus(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, http.StatusOK)
}

// systemStatusInfo answers GET Status/info: the version as a JSON string.
func (s *Server) systemStatusInfo(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, ombiVersion)
}

// systemStatusWizard answers GET Status/Wizard: {result: true} once set up.
func (s *Server) systemStatusWizard(w http.ResponseWriter, _ *http.Request) {
	var done bool
	s.store.Read(func(st *store) { done = db.Or(st.Settings.Ombi).Wizard })
	writeJSON(w, http.StatusOK, &state.WizardStatus{Result: done})
}

// systemStatusDemo answers GET Status/demo: demo mode is off.
func (s *Server) systemStatusDemo(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, false)
}

// systemStats answers GET Stats?from=&to= with UserStatsSummary, computed
// as UserStatsEngine does: requests whose requestedDate lies in the range,
// completedRequestsMovies equal to the movie count (upstream counts every
// filtered movie), totalIssues never set, and the most-requesting user the
// first requester by user id. Upstream dereferences that user without a
// null check, so with stats_null_reference a missing from or to, or a range
// without movie or TV requests, answers 500.
// Implements S-VERIFY-0177 (the stats_null_reference quirk).
func (s *Server) systemStats(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	from, err1 := parseStatsDate(q.Get("from"))
	to, err2 := parseStatsDate(q.Get("to"))
	if err1 != nil || err2 != nil {
		writeProblemErrors(w, http.StatusBadRequest, map[string][]string{"from": {"The value is not valid."}})
		return
	}
	quirk := s.quirk(QuirkStatsNullReference)
	if !quirk && q.Get("to") == "" {
		to = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	}
	in := func(t time.Time) bool { return !t.Before(from) && !t.After(to) }
	var out *state.UserStatsSummary
	s.store.Read(func(st *store) {
		var movieUsers, tvUsers []string
		completedTV := 0
		for _, m := range st.Requests.Movies {
			if in(m.RequestedDate) {
				movieUsers = append(movieUsers, m.RequestedUserID)
			}
		}
		for _, c := range st.Requests.Children {
			if in(c.RequestedDate) {
				tvUsers = append(tvUsers, c.RequestedUserID)
				if c.MarkedAsAvailable != nil && in(*c.MarkedAsAvailable) {
					completedTV++
				}
			}
		}
		if quirk && (q.Get("from") == "" || q.Get("to") == "" || len(movieUsers) == 0 || len(tvUsers) == 0) {
			return
		}
		first := func(ids []string) *state.OmbiUser {
			if len(ids) == 0 {
				return nil
			}
			return st.ombiUserOrNil(slices.Min(ids))
		}
		out = &state.UserStatsSummary{
			TotalRequests: len(movieUsers) + len(tvUsers), TotalMovieRequests: len(movieUsers),
			TotalTvRequests: len(tvUsers), CompletedRequestsMovies: len(movieUsers),
			CompletedRequestsTv: completedTV, CompletedRequests: len(movieUsers) + completedTV,
			MostRequestedUserMovie: first(movieUsers), MostRequestedUserTv: first(tvUsers),
		}
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, nullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// parseStatsDate binds a DateTime query value; "" gives DateTime.MinValue.
func parseStatsDate(v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("parse date %q: unsupported format", v)
}

// systemUpdate answers GET Update with UpdateModel.
func (s *Server) systemUpdate(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, &state.UpdateModel{
		UpdateVersionString: "v" + ombiVersion, UpdateVersion: 4593,
		UpdateDate: time.Date(2026, 5, 2, 22, 4, 42, 0, time.UTC),
		ChangeLogs: "- Fixed the issue list paging\n- Updated translations",
		Downloads: []state.Downloads{
			{Name: "linux-x64.tar.gz", URL: "https://github.com/Ombi-app/Ombi/releases/download/v4.59.3/linux-x64.tar.gz"},
			{Name: "win10-x64.zip", URL: "https://github.com/Ombi-app/Ombi/releases/download/v4.59.3/win10-x64.zip"},
		},
	})
}

// systemJobUpdateAvailable answers GET Job/update and Job/updateCached.
func (s *Server) systemJobUpdateAvailable(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, false)
}

// systemJobRun answers POST Job/{job}: true for the 14 known jobs (matched
// ignoring case, as routing does), 404 for anything else.
func (s *Server) systemJobRun(w http.ResponseWriter, r *http.Request) {
	job := r.PathValue("job")
	i := slices.IndexFunc(jobNames, func(n string) bool { return strings.EqualFold(n, job) })
	if i < 0 {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	s.store.Write(func(st *store) { st.System.JobRuns[jobNames[i]]++ })
	writeJSON(w, http.StatusOK, true)
}

// newsHTML is the rendered Ombi.News README.
const newsHTML = `<h1 id="ombi-news">Ombi News</h1>
<h2 id="v4.59">v4.59</h2>
<p>Played sync for Jellyfin and Emby, plus many bug fixes. Thanks to everyone who contributed!</p>
<ul>
<li>New <strong>PlayedSync</strong> feature flag</li>
<li>Faster request lists</li>
</ul>
`

// systemNews answers v2 GET System/news. Upstream returns Ok(html): with
// news_html the body is the HTML page itself, otherwise a JSON string.
func (s *Server) systemNews(w http.ResponseWriter, _ *http.Request) {
	if s.quirk(QuirkNewsHTML) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(newsHTML))
		return
	}
	writeJSON(w, http.StatusOK, newsHTML)
}

// systemLogs answers v2 GET System/logs: names, newest first, as a string
// array (logs_string_array) or the legacy object form.
// Implements S-VERIFY-0173 (the logs_string_array quirk).
func (s *Server) systemLogs(w http.ResponseWriter, _ *http.Request) {
	var files []db.LogFile
	s.store.Read(func(st *store) { files = slices.Clone(st.System.Logs) })
	slices.SortFunc(files, func(a, b db.LogFile) int { return strings.Compare(b.Name, a.Name) })
	if s.quirk(QuirkLogsStringArray) {
		names := make([]string, 0, len(files))
		for _, f := range files {
			names = append(names, f.Name)
		}
		writeJSON(w, http.StatusOK, names)
		return
	}
	out := make([]state.LogFile, 0, len(files))
	for _, f := range files {
		out = append(out, state.LogFile{Name: f.Name, Size: len(f.Text), LastModified: f.Modified})
	}
	writeJSON(w, http.StatusOK, out)
}

// systemLogFile answers v2 GET System/logs/{logFileName}: the file text (a
// JSON string when the client asks for JSON), 404 when missing.
func (s *Server) systemLogFile(w http.ResponseWriter, r *http.Request) {
	text, ok := s.logText(r.PathValue("logFileName"))
	if !ok {
		writeProblem(w, http.StatusNotFound)
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		writeJSON(w, http.StatusOK, text)
		return
	}
	writePlain(w, http.StatusOK, text)
}

// systemLogDownload answers v2 GET System/logs/download/{logFileName} as an
// octet-stream attachment, 404 when missing.
func (s *Server) systemLogDownload(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("logFileName")
	text, ok := s.logText(name)
	if !ok {
		writeProblem(w, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", "attachment; filename="+name+"; filename*=UTF-8''"+name)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(text))
}

// logText returns a log file's text by exact name.
func (s *Server) logText(name string) (string, bool) {
	var text string
	var ok bool
	s.store.Read(func(st *store) {
		if f := st.System.Find(name); f != nil {
			text, ok = f.Text, true
		}
	})
	return text, ok
}

// systemUILog answers POST Logging (UiLoggingModel): empty 200.
func (s *Server) systemUILog(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	okEmpty(w)
}

// systemHubUsers answers v2 GET Hub/Users: the users connected to the
// notification hub, taken as those who have logged in.
func (s *Server) systemHubUsers(w http.ResponseWriter, _ *http.Request) {
	var out []state.HubUser
	s.store.Read(func(st *store) {
		out = []state.HubUser{}
		for _, a := range st.sortedUsers() {
			if a.LastLoggedIn != nil {
				out = append(out, state.HubUser{UserID: a.ID, DisplayName: a.DisplayName(), UserType: a.UserType})
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// systemHealth answers GET /health like ASP.NET health checks.
func (s *Server) systemHealth(w http.ResponseWriter, _ *http.Request) {
	writePlain(w, http.StatusOK, "Healthy")
}
