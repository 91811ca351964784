package checks

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file guards the runtime rules JSON Schema cannot express in what a
// server returns and sends (02-tool-mapping rule 8; the schemas leave
// "duplicate season-number keys" to run time): a season number is a key
// of its show's seasons and an episode number a key of its season, in
// every media record, request record and created request's wire body,
// even when upstream's details list a season or an episode twice.

// repeatedKeys reports every seasons list in v (an answer or a wire
// body, in snake or camel case) that repeats a season number, and every
// season that repeats an episode number.
func repeatedKeys(v any, where string) []string {
	var out []string
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				if list, ok := e.([]any); ok && (k == "seasons" || k == "seasonRequests") {
					out = append(out, seasonRepeats(list, path+"/"+k)...)
				}
				walk(e, path+"/"+k)
			}
		case []any:
			for i, e := range t {
				walk(e, fmt.Sprintf("%s/%d", path, i))
			}
		}
	}
	walk(v, where)
	return out
}

func seasonRepeats(list []any, path string) []string {
	var out []string
	seasons := map[string]bool{}
	for i, s := range list {
		m, ok := s.(map[string]any)
		if !ok {
			continue
		}
		n := numberOf(m, "season_number", "seasonNumber")
		if n != "" {
			if seasons[n] {
				out = append(out, fmt.Sprintf("%s/%d: season %s is listed twice", path, i, n))
			}
			seasons[n] = true
		}
		eps, _ := m["episodes"].([]any)
		seen := map[string]bool{}
		for j, e := range eps {
			em, ok := e.(map[string]any)
			if !ok {
				continue
			}
			if en := numberOf(em, "episode_number", "episodeNumber"); en != "" {
				if seen[en] {
					out = append(out, fmt.Sprintf("%s/%d/episodes/%d: episode %s of season %s is listed twice", path, i, j, en, n))
				}
				seen[en] = true
			}
		}
	}
	return out
}

func numberOf(m map[string]any, names ...string) string {
	for _, k := range names {
		if v, ok := m[k]; ok && v != nil {
			return fmt.Sprint(v)
		}
	}
	return ""
}

// repeatedDetails is a show's details answer with its first season that
// has episodes listed twice (the second listing holding a copy of its
// first episode too) and that episode repeated in the first listing.
func repeatedDetails(raw map[string]any) (map[string]any, int, bool) {
	list, _ := raw["seasonRequests"].([]any)
	for _, s := range list {
		m, ok := s.(map[string]any)
		eps, _ := m["episodes"].([]any)
		if !ok || len(eps) == 0 {
			continue
		}
		n, err := m["seasonNumber"].(json.Number).Int64()
		if err != nil || n < 1 {
			continue
		}
		again := map[string]any{}
		for k, v := range m {
			again[k] = v
		}
		again["episodes"] = []any{eps[0]}
		m["episodes"] = append(append([]any{}, eps...), eps[0])
		raw["seasonRequests"] = append(list, again)
		return raw, int(n), true
	}
	return raw, 0, false
}

func (s *Suite) returnedKeyChecks() {
	ginkgo.Describe("wire returned season and episode keys", ginkgo.Label("wire"), func() {
		ginkgo.BeforeEach(s.clean)

		type show struct {
			provider, path string
			id             int
		}
		shows := []show{{"tmdb", "/api/v2/Search/tv/moviedb/1396", 1396}, {"tvdb", "/api/v1/Search/tv/info/81189", 81189}}

		// read_media's details of a show, as the mock holds them and with
		// a season and an episode listed twice upstream.
		s.ClauseItFor("ROUTING-RULE8-RUNTIME-001", "read_media.season-episode-keys", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			var e errs
			for _, sh := range shows {
				for _, repeated := range []bool{false, true} {
					s.clean()
					if repeated {
						s.injectRepeated(sh.path)
					}
					o := s.call(ctx, srv, "read_media", map[string]any{"action": "details", "target": map[string]any{"media": "tv", "provider": sh.provider, "id": sh.id}})
					var data any
					s.okData(o, &data)
					for _, r := range repeatedKeys(data, fmt.Sprintf("%s %d (upstream repeats: %t)", sh.provider, sh.id, repeated)) {
						e.addf("%s", r)
					}
				}
			}
			s.expectNone(e, "repeated season or episode keys in read_media")
		}, ginkgo.Label(LabelReadOnly))

		// write_request_create's season mode expands a season the details
		// list twice, with an episode listed twice, into one season whose
		// episode numbers are distinct.
		s.ClauseItFor("ROUTING-RULE8-RUNTIME-001", "write_request_create.season-episode-keys", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			var e errs
			for _, sh := range shows {
				s.clean()
				n := s.injectRepeated(sh.path)
				o := s.call(ctx, srv, "write_request_create", map[string]any{"action": "tv", "provider": sh.provider, "id": sh.id,
					"selection": map[string]any{"mode": "season", "season_numbers": []int{n}}})
				posts := 0
				for _, c := range upstreamCalls(o) {
					if c.Method != http.MethodPost {
						continue
					}
					posts++
					var body any
					if err := json.Unmarshal(c.Body, &body); err != nil {
						e.addf("%s %d: the POST body is not JSON: %v", sh.provider, sh.id, err)
						continue
					}
					for _, r := range repeatedKeys(body, fmt.Sprintf("%s %d: %s %s", sh.provider, sh.id, c.Method, c.Path)) {
						e.addf("%s", r)
					}
				}
				if posts == 0 {
					e.addf("%s %d season %d: no create call reached upstream (%s)", sh.provider, sh.id, n, o.ErrorCode())
				}
			}
			s.expectNone(e, "repeated season or episode keys in a created request")
		})
	})
}

// injectRepeated answers GET path with the mock's own details of the show
// with a season and an episode listed twice; it returns that season.
func (s *Suite) injectRepeated(path string) int {
	ginkgo.GinkgoHelper()
	rec := s.mockDirect(http.MethodGet, path, s.directHeader())
	if rec.Code == http.StatusNotFound || rec.Code == http.StatusNoContent {
		s.skipLive(fmt.Sprintf("the check needs GET %s, which the live Ombi answered %d", path, rec.Code))
	}
	s.expect(rec.Code == http.StatusOK, nil, "the mock answers GET %s with %d", path, rec.Code)
	dec := json.NewDecoder(rec.Body)
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		s.fail(nil, "decode the mock's GET %s: %v", path, err)
	}
	doc, n, ok := repeatedDetails(raw)
	s.expect(ok, nil, "GET %s lists no season with episodes", path)
	b, err := json.Marshal(doc)
	if err != nil {
		s.fail(nil, "encode the repeated details: %v", err)
	}
	if err := s.h.Upstream.InjectFault(mockombi.Fault{Method: http.MethodGet, Path: path, Status: http.StatusOK, Body: string(b)}); err != nil {
		s.fail(nil, "inject the repeated details: %v", err)
	}
	return n
}
