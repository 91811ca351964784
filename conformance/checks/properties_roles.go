package checks

import (
	"fmt"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file exercises every role the design names on every branch its
// local policy gates by role (02 and 05: changing an issue's status, and
// reading another user's preferences or request state, need the PowerUser
// or Admin role; ROUTING-RULE9-PERMISSIONS-001: verify capability and role
// at call time, enforce the local policy). Each gated call is made as the
// mock's admin, power user and plain user: the first two are admitted
// (the call reaches its upstream route), the plain user is refused with
// FORBIDDEN before it.

// roleGate is one branch the local policy gates by role.
type roleGate struct {
	name  string
	tool  string
	route string // the upstream path prefix the admitted call reaches
	args  func(issueID int, otherUser string) map[string]any
}

var roleGates = []roleGate{
	{"write_issue_manage.set_status", "write_issue_manage", "/api/v1/Issues/status",
		func(issue int, _ string) map[string]any {
			return map[string]any{"action": "set_status", "issue_id": issue, "status": "in_progress"}
		}},
	{"read_users.preferences.another-user", "read_users", "/api/v1/Identity/notificationpreferences",
		func(_ int, other string) map[string]any {
			return map[string]any{"action": "preferences", "user_id": other}
		}},
	{"read_request_stats.has_requests.another-user", "read_request_stats", "/api/v1/Request/userhasrequest",
		func(_ int, other string) map[string]any {
			return map[string]any{"action": "has_requests", "user_id": other}
		}},
}

// roleLogin is a server configuration logged in as the mock's user of role.
func (s *Suite) roleLogin(role string) (harness.Config, string) {
	ginkgo.GinkgoHelper()
	m := s.h.Upstream.Mock()
	if m == nil {
		s.fail(nil, "the role accounts exist only in the embedded mock")
	}
	for _, u := range m.Credentials().Users {
		if u.Role == role {
			return harness.Config{Bundles: harness.AllBundles, AuthMode: "jwt",
				Env: []string{"OMBI_USERNAME=" + u.Username, "OMBI_PASSWORD=" + u.Password}}, u.Username
		}
	}
	s.fail(nil, "the mock has no %s account", role)
	return harness.Config{}, ""
}

func (s *Suite) roleChecks() {
	ginkgo.Describe("auth every role on every gated branch", ginkgo.Label("auth", LabelNeedsMock), func() {
		ginkgo.BeforeEach(s.clean)

		for _, g := range roleGates {
			s.ClauseItFor("ROUTING-RULE9-PERMISSIONS-001", g.name+".every-role", func(ctx ginkgo.SpecContext) {
				s.requireTool(g.tool)
				var users []struct {
					ID       string `json:"id"`
					UserName string `json:"userName"`
				}
				s.mockRaw("GET", "/api/v1/Identity/Users", &users)
				var issues []struct {
					ID int `json:"id"`
				}
				s.mockRaw("GET", "/api/v1/Issues", &issues)
				s.expect(len(issues) > 0 && issues[0].ID > 0, nil, "the mock holds no issue")
				var e errs
				for _, role := range []string{mockombi.RoleAdmin, mockombi.RolePowerUser, mockombi.RoleUser} {
					cfg, login := s.roleLogin(role)
					// another user: the first account that is not the caller
					other := ""
					for _, u := range users {
						if !strings.EqualFold(u.UserName, login) && u.ID != "" {
							other = u.ID
							break
						}
					}
					s.expect(other != "", nil, "the mock holds no user besides %s", login)
					s.clean()
					srv := s.shared(ctx, cfg)
					o := s.call(ctx, srv, g.tool, g.args(issues[0].ID, other))
					reached := false
					for _, c := range upstreamCalls(o) {
						if strings.HasPrefix(strings.ToLower(pathOnly(c.Path)), strings.ToLower(g.route)) {
							reached = true
						}
					}
					who := fmt.Sprintf("as %s (%s)", login, role)
					if role == mockombi.RoleUser {
						if o.ErrorCode() != "FORBIDDEN" {
							e.addf("%s: the plain user must be refused with FORBIDDEN, got ok=%t code %q", who, o.OK(), o.ErrorCode())
						}
						continue
					}
					if o.ErrorCode() == "FORBIDDEN" || !reached {
						e.addf("%s: the design admits PowerUser and Admin here, but the call answered ok=%t code %q and reached %s: %t", who, o.OK(), o.ErrorCode(), g.route, reached)
					}
				}
				s.expectNone(e, "role policy of "+g.name)
			})
		}
	})
}
