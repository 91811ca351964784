package checks

import (
	"context"
	"encoding/json"
	"net/url"
	"reflect"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// adminAreas declares the checks of the issues, votes, users, library,
// server, integration, settings, logs, job and notification tools, in the
// wire, errors and leak areas.
func (s *Suite) adminAreas() {
	s.issuesVotesUsersWire()
	s.libraryServerIntegrationWire()
	s.settingsWire()
	s.adminEffectsWire()
	s.adminErrors()
	s.adminLeaks()
	s.exactWire()
	s.boundsWire()
}

// settingsView is the settings family as the checks read it.
type settingsView struct {
	Kind     string `json:"kind"`
	Section  string `json:"section"`
	Revision string `json:"revision"`
	Values   []struct {
		Name  string `json:"name"`
		Value any    `json:"value"`
	} `json:"values"`
	OmittedFields []string `json:"omitted_fields"`
}

// refView is a reference_page as the checks read it.
type refView struct {
	Items []struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Value    any    `json:"value"`
		Category string `json:"category"`
	} `json:"items"`
}

// writableSections maps the 32 writable section labels to their wire
// segment below /api/v1/Settings/.
var writableSections = map[string]string{
	"ombi": "ombi", "customization": "customization", "landing_page": "landingpage", "authentication": "authentication",
	"issues": "Issues", "vote": "vote", "user_management": "UserManagement", "update": "Update", "jobs": "jobs",
	"plex": "plex", "emby": "emby", "jellyfin": "jellyfin", "sonarr": "sonarr", "radarr": "radarr", "lidarr": "lidarr",
	"couchpotato": "CouchPotato", "dognzb": "DogNzb", "sickrage": "SickRage", "themoviedb": "themoviedb",
	"notifications_email": "notifications/email", "notifications_discord": "notifications/discord",
	"notifications_telegram": "notifications/telegram", "notifications_pushbullet": "notifications/pushbullet",
	"notifications_pushover": "notifications/pushover", "notifications_slack": "notifications/slack",
	"notifications_mattermost": "notifications/mattermost", "notifications_twilio": "notifications/twilio",
	"notifications_mobile": "notifications/mobile", "notifications_gotify": "notifications/gotify",
	"notifications_ntfy": "notifications/ntfy", "notifications_webhook": "notifications/webhook",
	"notifications_newsletter": "notifications/newsletter",
}

// readOnlyViews are the 9 read-only settings views.
var readOnlyViews = []string{"about", "themes", "issues_enabled", "vote_enabled", "lidarr_enabled", "email_enabled", "default_language", "base_url", "custom_page"}

// credentialName reports a settings value name whose last token names a
// credential: such a leaf may only ever appear in omitted_fields.
func credentialName(pointer string) bool {
	last := strings.ToLower(pointer[strings.LastIndex(pointer, "/")+1:])
	for _, f := range []string{"apikey", "password", "token", "secret", "connectionstring", "webhookurl", "botapi", "accesstoken"} {
		if strings.Contains(last, f) {
			return true
		}
	}
	return false
}

func (s *Suite) issuesVotesUsersWire() {
	ginkgo.Describe("wire issues votes users", ginkgo.Label("wire", "administration"), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("ROUTING-RULE6-PAGING-NAMES-001", "read_issues.list.take-then-skip", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			o := s.call(ctx, srv, "read_issues", map[string]any{"action": "list", "status": "in_progress", "page": map[string]any{"offset": 5, "limit": 10}})
			s.oneCall(o, "GET", "/api/v1/Issues/10/5/1")
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("ROUTING-RULE6-PAGING-NAMES-001", "read_issues.summary.position-then-take", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			o := s.call(ctx, srv, "read_issues", map[string]any{"action": "summary", "status": "resolved", "page": map[string]any{"offset": 5, "limit": 10}})
			s.oneCall(o, "GET", "/api/v2/Issues/5/10/2")
			var page struct {
				Kind string `json:"kind"`
				Page struct {
					Unit string `json:"unit"`
					Mode string `json:"mode"`
				} `json:"page"`
			}
			s.okData(o, &page)
			s.expect(page.Kind == "group_page" && page.Page.Unit == "provider_groups" && page.Page.Mode == "upstream", o,
				"a v2 summary is an upstream page of provider groups; got kind %q unit %q mode %q", page.Kind, page.Page.Unit, page.Page.Mode)
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("VERIFY-OUTPUT-BUSINESS-FAILURE-001", "read_issues.provider_summary.empty-is-a-page", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			o := s.call(ctx, srv, "read_issues", map[string]any{"action": "provider_summary", "provider_id": "no-such-provider-4242"})
			s.oneCall(o, "GET", "/api/v2/Issues/details/no-such-provider-4242")
			var page struct {
				Kind  string            `json:"kind"`
				Items []json.RawMessage `json:"items"`
			}
			s.okData(o, &page)
			s.expect(page.Kind == "group_page" && len(page.Items) == 0, o, "an empty provider summary is an empty group page, not an error")
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("VERIFY-ROUTING-LEDGER-001", "write_issue_create.body", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "write_issue_create", map[string]any{"title": "Conformance", "subject": "Audio", "description": "Out of sync.",
				"category_id": 1, "request_type": "tv", "provider_id": "95396"})
			c := s.oneCall(o, "POST", "/api/v1/Issues")
			s.expect(sameJSON(c.Body, `{"title":"Conformance","subject":"Audio","description":"Out of sync.","issueCategoryId":1,"requestType":0,"providerId":"95396"}`), o,
				"want exactly title, subject, description, issueCategoryId, requestType (T1 int) and the given association; got %s", c.Body)
			var m admMutation
			s.okData(o, &m)
			s.expect(m.Kind == "mutation" && m.Outcome == "completed", o, "a created issue is a completed mutation")
		})

		s.ClauseItFor("VERIFY-OUTPUT-BUSINESS-FAILURE-001", "write_issue_comment.missing-issue", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "write_issue_comment", map[string]any{"issue_id": 987654, "comment": "Anyone?"})
			c := s.oneCall(o, "POST", "/api/v1/Issues/comments")
			s.expect(sameJSON(c.Body, `{"comment":"Anyone?","issueId":987654}`), o, "want body {comment, issueId}; got %s\n%s", c.Body, bodyDiff([]byte(`{"comment":"Anyone?","issueId":987654}`), c.Body, "  "))
			s.SkipGated(o)
			s.wantCode(o, "NOT_FOUND")
		})

		s.ClauseItFor("ROUTING-RULE2-LITERAL-001", "read_votes.album-reads-music", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			o := s.call(ctx, srv, "read_votes", map[string]any{"action": "by_request", "media": "album", "request_id": 7})
			s.oneCall(o, "GET", "/api/v1/Vote/music/7")
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("ROUTING-RULE2-LITERAL-001", "write_vote.album-writes-album", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "write_vote", map[string]any{"action": "down", "media": "album", "request_id": 2})
			s.oneCall(o, "POST", "/api/v1/Vote/down/album/2")
		})

		s.ClauseItFor("VERIFY-ROUTING-METHODS-001", "read_users.get", func(ctx ginkgo.SpecContext) {
			var users []map[string]any
			s.mockRaw("GET", "/api/v1/Identity/Users", &users)
			s.expect(len(users) > 0, nil, "the mock lists no users")
			id, _ := users[0]["id"].(string)
			srv := s.shared(ctx, s.adminConfig())
			o := s.call(ctx, srv, "read_users", map[string]any{"action": "get", "user_id": id})
			s.oneCall(o, "GET", "/api/v1/Identity/User/"+url.PathEscape(id))
			s.expect(o.OK(), o, "reading an existing user must succeed")
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("ROUTING-RULE9-PERMISSIONS-001", "read_users.preferences.other-user-needs-role", func(ctx ginkgo.SpecContext) {
			var users []map[string]any
			s.mockRaw("GET", "/api/v1/Identity/Users", &users)
			srv := s.shared(ctx, s.plainUserConfig())
			for _, u := range users {
				if u["userName"] == "admin" {
					o := s.call(ctx, srv, "read_users", map[string]any{"action": "preferences", "user_id": u["id"]})
					s.wantCode(o, "FORBIDDEN")
					for _, c := range upstreamCalls(o) {
						s.expect(!strings.Contains(strings.ToLower(c.Path), "notificationpreferences"), o,
							"the anonymous preferences route must not be called for another user without PowerUser: %s", callLine(c))
					}
					return
				}
			}
			s.fail(nil, "the mock has no admin user to read")
		}, ginkgo.Label(LabelReadOnly))
	})
}

func (s *Suite) libraryServerIntegrationWire() {
	ginkgo.Describe("wire library server integration", ginkgo.Label("wire", LabelReadOnly, "administration"), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("ROUTING-RULE8-RUNTIME-001", "read_server.stats.query", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			o := s.call(ctx, srv, "read_server", map[string]any{"action": "stats", "from": "2026-01-01T00:00:00Z", "to": "2026-12-31T23:59:59Z"})
			c := s.oneCall(o, "GET", "/api/v1/Stats")
			q, err := url.ParseQuery(c.Query)
			s.expect(err == nil && q.Get("from") == "2026-01-01T00:00:00Z" && q.Get("to") == "2026-12-31T23:59:59Z", o,
				"both from and to must be sent as query values; got %q", c.Query)
		})

		for name, args := range map[string]map[string]any{
			"from-after-to": {"action": "stats", "from": "2026-03-01T00:00:00Z", "to": "2026-02-01T00:00:00Z"},
			"not-rfc3339":   {"action": "stats", "from": "2026-02-30T00:00:00Z", "to": "2026-03-01T00:00:00Z"},
		} {
			s.ClauseItFor("ROUTING-RULE8-RUNTIME-001", "read_server.stats."+name, func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, s.adminConfig())
				o := s.call(ctx, srv, "read_server", args)
				s.wantCode(o, "INVALID_ARGUMENT")
				s.noTraffic(o)
			})
		}

		s.ClauseItFor("VERIFY-ROUTING-METHODS-001", "read_integration.lidarr-metadata-post", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			o := s.call(ctx, srv, "read_integration", map[string]any{"action": "arr_options", "service": "lidarr", "kind": "metadata_profiles"})
			var last mockombi.Call
			for _, c := range upstreamCalls(o) {
				last = c
			}
			s.expect(last.Method == "POST" && last.Path == "/api/v1/Lidarr/Metadata", o, "Lidarr metadata profiles are read with POST /api/v1/Lidarr/Metadata; last call %s", callLine(last))
			for _, c := range upstreamCalls(o) {
				s.expect(!strings.Contains(c.Path, "apikey"), o, "credential routes are never called: %s", callLine(c))
			}
		})

		s.ClauseItFor("RESULTS-PROJECTION-001", "read_integration.root-folders-path-as-name", func(ctx ginkgo.SpecContext) {
			var raw []map[string]any
			s.mockRaw("GET", "/api/v1/Sonarr/RootFolders", &raw)
			s.expect(len(raw) > 0, nil, "the mock has no Sonarr root folders")
			srv := s.shared(ctx, s.adminConfig())
			o := s.call(ctx, srv, "read_integration", map[string]any{"action": "arr_options", "service": "sonarr", "kind": "root_folders"})
			var page refView
			s.okData(o, &page)
			s.expect(len(page.Items) == len(raw), o, "want %d root folders, got %d", len(raw), len(page.Items))
			for i, it := range page.Items {
				s.expect(it.Name == raw[i]["path"], o, "root folder %d: name must be the wire path %v, got %q", i, raw[i]["path"], it.Name)
				s.expect(it.Value != nil && admNum(it.Value) == admNum(raw[i]["id"]), o, "root folder %d: value must be the numeric id %v, got %v", i, raw[i]["id"], it.Value)
			}
		})

		for _, wrapped := range []bool{false, true} {
			q := "bare"
			if wrapped {
				q = "wrapped"
			}
			s.ClauseItFor("RESULTS-PROJECTION-001", "read_integration.plex-servers."+q, func(ctx ginkgo.SpecContext) {
				s.setQuirk("plex_servers_wrapper", wrapped)
				srv := s.shared(ctx, s.adminConfig())
				o := s.call(ctx, srv, "read_integration", map[string]any{"action": "plex_servers"})
				s.oneCall(o, "GET", "/api/v1/Plex/servers")
				var page refView
				s.okData(o, &page)
				s.expect(len(page.Items) > 0, o, "the saved Plex servers must be listed whether or not upstream wraps them")
				for _, it := range page.Items {
					s.expect(it.ID != "" && it.Name != "", o, "every Plex server carries its machine id and name; got %+v", it)
				}
			})
		}

		s.ClauseItFor("RESULTS-PROJECTION-001", "read_library.artwork-uris", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			for _, args := range []map[string]any{
				{"action": "movie_images", "tmdb_id": 603, "kind": "poster"},
				{"action": "tv_images", "tvdb_id": 81189, "kind": "background"},
				{"action": "random_artwork", "kind": "background"},
			} {
				o := s.call(ctx, srv, "read_library", args)
				var page struct {
					Items []struct {
						URI string `json:"uri"`
					} `json:"items"`
				}
				s.okData(o, &page)
				for _, it := range page.Items {
					u, err := url.Parse(it.URI)
					s.expect(err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil, o, "artwork uri %q is not a plain absolute http(s) URL", it.URI)
					for k := range u.Query() {
						lk := strings.ToLower(k)
						s.expect(!strings.Contains(lk, "key") && !strings.Contains(lk, "token"), o, "artwork uri %q carries a credential parameter", it.URI)
					}
				}
			}
		})
	})
}

func (s *Suite) settingsWire() {
	ginkgo.Describe("wire settings", ginkgo.Label("wire", "administration", "settings"), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("DECISION-D4-SETTINGS-001", "read_settings.revisions", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			var e errs
			for label, wire := range writableSections {
				o := s.call(ctx, srv, "read_settings", map[string]any{"section": label})
				var v settingsView
				s.okData(o, &v)
				if v.Revision == "" {
					e.addf("%s: a writable section must carry a revision", label)
				}
				calls := upstreamCalls(o)
				if len(calls) != 1 || calls[0].Method != "GET" || calls[0].Path != "/api/v1/Settings/"+wire {
					e.addf("%s: want one GET /api/v1/Settings/%s, got %d calls", label, wire, len(calls))
				}
			}
			for _, label := range readOnlyViews {
				o := s.call(ctx, srv, "read_settings", map[string]any{"section": label})
				var v settingsView
				s.okData(o, &v)
				if v.Revision != "" {
					e.addf("%s: a read-only view must not offer a revision", label)
				}
			}
			s.expectNone(e, "settings sections")
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("VERIFY-AUTHZ-SETTINGS-001", "read_settings.no-credential-values", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			var e errs
			for label := range writableSections {
				o := s.call(ctx, srv, "read_settings", map[string]any{"section": label})
				var v settingsView
				s.okData(o, &v)
				omitted := map[string]bool{}
				for _, f := range v.OmittedFields {
					omitted[f] = true
				}
				for _, val := range v.Values {
					if credentialName(val.Name) {
						e.addf("%s: credential leaf %s is returned as a value", label, val.Name)
					}
					if omitted[val.Name] {
						e.addf("%s: %s is both a value and omitted", label, val.Name)
					}
					if str, ok := val.Value.(string); ok && strings.Contains(str, "://") {
						e.addf("%s: %s carries a destination URL", label, val.Name)
					}
				}
			}
			s.expectNone(e, "settings values")
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("VERIFY-AUTHZ-SETTINGS-001", "write_settings_patch.cycle", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			var before map[string]any
			s.mockRaw("GET", "/api/v1/Settings/ombi", &before)
			cur, ok := before["hideRequestsUsers"].(bool)
			s.expect(ok, nil, "the mock's ombi settings have no hideRequestsUsers flag")
			read := s.call(ctx, srv, "read_settings", map[string]any{"section": "ombi"})
			var v settingsView
			s.okData(read, &v)
			patch := map[string]any{"action": "patch", "section": "ombi", "revision": v.Revision, "changes": map[string]any{"hideRequestsUsers": !cur}}
			o := s.call(ctx, srv, "write_settings_patch", patch)
			calls := upstreamCalls(o)
			s.expect(len(calls) == 2 && calls[0].Method == "GET" && calls[1].Method == "POST" && calls[1].Path == "/api/v1/Settings/ombi", o,
				"want the private GET then one POST /api/v1/Settings/ombi")
			posted := jsonBody(calls[1])
			want := map[string]any{}
			for k, val := range before {
				want[k] = val
			}
			want["hideRequestsUsers"] = !cur
			s.expect(reflect.DeepEqual(posted, want), o, "the POST must carry the full original model with only the change applied (secrets byte for byte)")
			s.wantOK(o)

			stale := s.call(ctx, srv, "write_settings_patch", patch)
			s.wantCode(stale, "CONFLICT")
			for _, c := range upstreamCalls(stale) {
				s.expect(c.Method != "POST", stale, "a stale revision must never reach a POST: %s", callLine(c))
			}
		})

		for name, tc := range map[string]struct{ section, changes string }{
			"unknown-key":       {"ombi", `{"noSuchSetting":true}`},
			"secret-key":        {"ombi", `{"apiKey":"replaced"}`},
			"identity":          {"ombi", `{"id":99}`},
			"nested-null":       {"radarr", `{"radarr":{"enabled":null}}`},
			"array-replacement": {"user_management", `{"defaultRoles":["Admin"]}`},
			"type-change":       {"vote", `{"enabled":"yes"}`},
		} {
			s.ClauseItFor("VERIFY-AUTHZ-SETTINGS-001", "write_settings_patch.rejects."+name, func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, apiKeyConfig())
				read := s.call(ctx, srv, "read_settings", map[string]any{"section": tc.section})
				var v settingsView
				s.okData(read, &v)
				o := s.call(ctx, srv, "write_settings_patch", map[string]any{"action": "patch", "section": tc.section, "revision": v.Revision, "changes": json.RawMessage(tc.changes)})
				s.wantCode(o, "INVALID_ARGUMENT")
				for _, c := range upstreamCalls(o) {
					s.expect(c.Method != "POST", o, "a rejected patch must never POST: %s", callLine(c))
				}
			})
		}

		s.ClauseItFor("VERIFY-AUTHZ-SETTINGS-001", "write_settings_patch.no-op", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			var cur map[string]any
			s.mockRaw("GET", "/api/v1/Settings/vote", &cur)
			read := s.call(ctx, srv, "read_settings", map[string]any{"section": "vote"})
			var v settingsView
			s.okData(read, &v)
			o := s.call(ctx, srv, "write_settings_patch", map[string]any{"action": "patch", "section": "vote", "revision": v.Revision, "changes": map[string]any{"enabled": cur["enabled"]}})
			s.wantCode(o, "INVALID_ARGUMENT")
			for _, c := range upstreamCalls(o) {
				s.expect(c.Method != "POST", o, "a no-op patch must never POST: %s", callLine(c))
			}
		})

		s.ClauseItFor("VERIFY-SCHEMA-REJECT-BEFORE-UPSTREAM-001", "write_settings_patch.feature-unknown-name", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "write_settings_patch", map[string]any{"action": "feature", "name": "NoSuchFeature", "enabled": true})
			s.wantCode(o, "INVALID_ARGUMENT")
			for _, c := range upstreamCalls(o) {
				s.expect(c.Method != "POST", o, "an unknown feature must never reach enable/disable: %s", callLine(c))
			}
		})
	})
}

func (s *Suite) adminEffectsWire() {
	ginkgo.Describe("wire administration effects", ginkgo.Label("wire", "administration"), func() {
		ginkgo.BeforeEach(s.clean)

		for _, job := range []string{"update", "clearmediaserverdata", "autodeleterequests", "newsletter"} {
			s.ClauseItFor("VERIFY-AUTHZ-EFFECTS-001", "write_job_run.off-by-default."+job, func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, apiKeyConfig())
				o := s.call(ctx, srv, "write_job_run", map[string]any{"action": "run", "job": job})
				s.wantCode(o, "FORBIDDEN")
				s.noTraffic(o)
			})
		}

		s.ClauseItFor("VERIFY-AUTHZ-EFFECTS-001", "write_job_run.accepted-not-completed", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "write_job_run", map[string]any{"action": "run", "job": "arrAvailability"})
			s.oneCall(o, "POST", "/api/v1/Job/arrAvailability")
			var m admMutation
			s.okData(o, &m)
			s.expect(m.Outcome == "accepted", o, "a started job is accepted, never completed; got %q", m.Outcome)
		})

		s.ClauseItFor("VERIFY-AUTHZ-NO-FALLBACK-001", "write_integration_test.unprovisioned-profile", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "write_integration_test", map[string]any{"service": "discord", "profile_id": "not-provisioned-7f3a"})
			s.wantCode(o, "NOT_FOUND")
			s.noTraffic(o)
		})

		s.ClauseItFor("VERIFY-AUTHZ-EFFECTS-001", "write_notification_send.unknown-recipient", func(ctx ginkgo.SpecContext) {
			var users []map[string]any
			s.mockRaw("GET", "/api/v1/Identity/Users", &users)
			s.expect(len(users) > 0, nil, "the mock lists no users")
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "write_notification_send", map[string]any{"subject": "S", "body": "B", "user_ids": []any{users[0]["id"], "no-such-user-1d2c"}})
			s.wantCode(o, "INVALID_ARGUMENT")
			for _, c := range upstreamCalls(o) {
				s.expect(c.Method == "GET", o, "an unknown recipient must stop the call before anything is sent: %s", callLine(c))
			}
		})

		s.ClauseItFor("VERIFY-AUTHZ-EFFECTS-001", "write_notification_send.minimal-recipients", func(ctx ginkgo.SpecContext) {
			var users []map[string]any
			s.mockRaw("GET", "/api/v1/Identity/Users", &users)
			s.expect(len(users) > 0, nil, "the mock lists no users")
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "write_notification_send", map[string]any{"subject": "Maintenance", "body": "Tonight.", "user_ids": []any{users[0]["id"]}})
			var sent *mockombi.Call
			for _, c := range upstreamCalls(o) {
				if c.Method == "POST" && c.Path == "/api/v1/Notifications/massemail" {
					sent = &c
				}
			}
			s.expect(sent != nil, o, "want one POST /api/v1/Notifications/massemail")
			body := jsonBody(*sent)
			rs, _ := body["users"].([]any)
			s.expect(body["subject"] == "Maintenance" && len(rs) == 1, o, "the body must carry the subject and exactly the one resolved user; got %s", sent.Body)
			u, _ := rs[0].(map[string]any)
			s.expect(u["id"] == users[0]["id"], o, "the recipient must be the resolved user")
			for k := range u {
				s.expect(k == "id" || k == "userName" || k == "email", o, "only minimal user fields may be sent; got %q", k)
			}
		})
	})
}

// logFile is one file of read_logs list.
type logFile struct {
	FileID string `json:"file_id"`
	Name   string `json:"name"`
}

// logFiles lists the log files through read_logs, failing the check when
// there are none.
func (s *Suite) logFiles(ctx context.Context, srv *harness.Server) (*harness.Outcome, []logFile) {
	ginkgo.GinkgoHelper()
	list := s.call(ctx, srv, "read_logs", map[string]any{"action": "list"})
	var files struct {
		Files []logFile `json:"files"`
	}
	s.okData(list, &files)
	s.expect(len(files.Files) > 0, list, "the mock's log files must be listed")
	return list, files.Files
}
