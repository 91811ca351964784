package checks

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file guards what reads make of upstream answers as properties:
// every emitted value is traceable to the upstream field it names
// (04-results: each metric carries its own counter; the TMDB-keyed v2 TV
// routes label their id tmdb, never the TVMaze routes' tvdb/tvmaze), an
// empty answer to a list read (an empty body, null, []) is an empty page
// and never an upstream schema error (VERIFY-OUTPUT-BUSINESS-FAILURE-001:
// empty-success bodies), a runtime refusal names the input property that
// failed (DECISION-D1-STRICT-001), and no log line keeps a credential in
// any of the forms upstream writes one (VERIFY-OUTPUT-NESTED-SECRETS-001).

// hostileLogLines are log lines whose marker is a credential a sanitiser
// must drop: each form alone, none caught by another form's pattern.
var hostileLogLines = []hostileText{
	{"url-userinfo", "2024-05-01 10:00:00.000 +00:00 [Information] Sonarr sync via http://ombi:CATCHLOGa1@sonarr.local:8989/api/v3", "CATCHLOGa1"},
	{"url-userinfo-https", "2024-05-01 10:00:01.000 +00:00 [Warning] Webhook retry https://hook:CATCHLOGb2@notify.example.org/x", "CATCHLOGb2"},
	{"apikey-pair", "2024-05-01 10:00:02.000 +00:00 [Debug] Radarr request apikey=CATCHLOGc3 sent", "CATCHLOGc3"},
	{"bearer", "2024-05-01 10:00:03.000 +00:00 [Debug] Authorization: Bearer CATCHLOGd4", "CATCHLOGd4"},
	{"password-pair", "2024-05-01 10:00:04.000 +00:00 [Error] Login failed, password: CATCHLOGe5", "CATCHLOGe5"},
}

func (s *Suite) answerTruthChecks() {
	ginkgo.Describe("wire upstream answers read truthfully", ginkgo.Label("wire", LabelNeedsMock, LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)

		// Every counter of read_issues counts carries its own upstream
		// field, told apart by distinct values.
		s.ClauseItFor("RESULTS-PROJECTION-001", "read_issues.counts-traceable", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_issues")
			srv := s.shared(ctx, s.allConfig())
			want := map[string]int{"pending": 3, "in_progress": 5, "resolved": 8}
			s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: "/api/v1/Issues/count", Status: http.StatusOK,
				Headers: map[string]string{"Content-Type": "application/json"}, Body: `{"pending":3,"inProgress":5,"resolved":8}`})
			o := s.call(ctx, srv, "read_issues", map[string]any{"action": "counts"})
			var data struct {
				Values []struct {
					Name  string `json:"name"`
					Value any    `json:"value"`
				} `json:"values"`
			}
			s.okData(o, &data)
			var e errs
			seen := map[string]bool{}
			for _, v := range data.Values {
				w, ok := want[v.Name]
				if !ok {
					continue
				}
				seen[v.Name] = true
				if fmt.Sprint(v.Value) != fmt.Sprint(w) {
					e.addf("metric %s is %v; upstream's counter for it is %d (pending 3, inProgress 5, resolved 8)", v.Name, v.Value, w)
				}
			}
			for name := range want {
				if !seen[name] {
					e.addf("metric %s is missing though upstream sent it", name)
				}
			}
			s.expectNone(e, "issue counters")
		})

		// Every TMDB-keyed v2 TV read labels the show's id tmdb (the id
		// upstream sent as theMovieDbId) and carries no TVMaze id.
		s.ClauseItFor("RESULTS-PROJECTION-001", "read_media.tv.tmdb-keyed-routes", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_media")
			srv := s.shared(ctx, s.allConfig())
			var e errs
			for _, c := range []struct {
				args map[string]any
				path string
			}{
				{map[string]any{"action": "by_request", "media": "tv", "request_id": 1}, "/api/v2/Search/tv/request/1"},
				{mdDetails("tv", "tmdb", 1396), "/api/v2/Search/tv/moviedb/1396"},
			} {
				var raw map[string]any
				if s.mockRaw(http.MethodGet, c.path, &raw) != http.StatusOK {
					e.addf("the mock does not answer %s", c.path)
					continue
				}
				tmdb := fmt.Sprint(raw["theMovieDbId"])
				if tmdb == "" || tmdb == "<nil>" || tmdb == "0" {
					tmdb = fmt.Sprint(raw["id"])
				}
				o := s.call(ctx, srv, "read_media", c.args)
				var page mediaItems
				s.okData(o, &page)
				if len(page.Items) != 1 {
					e.addf("%s: want one record, got %d", clip(mustJSON(c.args), 120), len(page.Items))
					continue
				}
				got := map[string]string{}
				for _, id := range page.Items[0].Identifiers {
					got[id.Namespace] = id.Value
				}
				if got["tmdb"] != tmdb {
					e.addf("%s: upstream (%s, TMDB-keyed) sent theMovieDbId %s; the record's identifiers are %v, want tmdb %s", clip(mustJSON(c.args), 120), c.path, tmdb, got, tmdb)
				}
				if v, ok := got["tvmaze"]; ok {
					e.addf("%s: a TMDB-keyed route carries no TVMaze id, but the record says tvmaze %s", clip(mustJSON(c.args), 120), v)
				}
			}
			s.expectNone(e, "identifiers of TMDB-keyed TV reads")
		})

		// An empty answer to the provider summary is an empty page.
		s.ClauseItFor("VERIFY-OUTPUT-BUSINESS-FAILURE-001", "read_issues.provider_summary.empty-answers", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_issues")
			srv := s.shared(ctx, s.allConfig())
			var e errs
			for _, body := range []string{``, `null`, `[]`} {
				s.clean()
				f := mockombi.Fault{Method: http.MethodGet, Path: "/api/v2/Issues/details/*", Status: http.StatusOK,
					Headers: map[string]string{"Content-Type": "application/json"}, Body: body}
				if body == "" {
					f.Kind = mockombi.FaultEmpty
				}
				s.injectFault(f)
				o := s.call(ctx, srv, "read_issues", map[string]any{"action": "provider_summary", "provider_id": "603"})
				if !o.OK() {
					e.addf("upstream answered %q (nothing to summarise): want an empty page, got code %q", body, o.ErrorCode())
					continue
				}
				pg, n, ok := truthPageOf(o.Envelope.Data)
				if !ok || n != 0 || pg.Returned != 0 {
					e.addf("upstream answered %q: want an empty page, got %s", body, clip(o.Envelope.Data, 200))
				}
			}
			s.expectNone(e, "empty provider summaries")
		})

		// A runtime refusal names the input property that failed.
		s.ClauseItFor("DECISION-D1-STRICT-001", "write_user_preferences.unknown-country-field", func(ctx ginkgo.SpecContext) {
			s.requireTool("write_user_preferences")
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "write_user_preferences", map[string]any{"action": "streaming_country", "country": "QQ"})
			s.wantCode(o, "INVALID_ARGUMENT")
			s.expect(o.Envelope.Error.Field == "/country", o, "the refused property is country: want field /country, got %q", o.Envelope.Error.Field)
			for _, c := range upstreamCalls(o) {
				s.expect(c.Method == http.MethodGet, o, "a refused preference sent %s", callLine(c))
			}
		})

		// No credential of any form in a log line reaches the client.
		s.ClauseItFor("VERIFY-OUTPUT-NESTED-SECRETS-001", "read_logs.every-credential-form", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_logs")
			srv := s.shared(ctx, jwtConfig())
			_, files := s.logFiles(ctx, srv)
			var lines []string
			for _, h := range hostileLogLines {
				lines = append(lines, h.text)
			}
			s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: "/api/v2/System/logs/*", Status: http.StatusOK,
				Headers: map[string]string{"Content-Type": "text/plain"}, Body: strings.Join(lines, "\n") + "\n"})
			o := s.call(ctx, srv, "read_logs", map[string]any{"action": "read", "file_id": files[0].FileID})
			var logs struct {
				Lines []string `json:"lines"`
			}
			s.okData(o, &logs)
			s.expect(len(logs.Lines) == len(lines), o, "the file holds %d lines; the page carries %d", len(lines), len(logs.Lines))
			var e errs
			for _, h := range hostileLogLines {
				if strings.Contains(string(o.Structured)+"\n"+o.Text, h.marker) {
					e.addf("a log line's %s credential reached the client", h.name)
				}
			}
			s.expectNone(e, "credentials in log lines")
		})
	})
}
