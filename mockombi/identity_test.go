package mockombi

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

// userID returns the account id of a user name.
func userID(t *testing.T, s *Server, name string) string {
	t.Helper()
	var id string
	s.store.Read(func(st *store) {
		if a := st.Users.ByName(name); a != nil {
			id = a.ID
		}
	})
	if id == "" {
		t.Fatalf("no account %q", name)
	}
	return id
}

func TestIdentityAuthLevels(t *testing.T) {
	ok := http.StatusOK
	s := newTestServer(t, Options{})
	uid := userID(t, s, "user")
	checkAuthLevels(t, []authCase{
		{"GET", "/api/v1/Identity", "", 401, ok, ok, ok},
		{"GET", "/api/v1/Identity/Users", "", 401, 403, ok, ok},
		{"GET", "/api/v1/Identity/dropdown/Users", "", 401, 403, ok, ok},
		{"GET", "/api/v1/Identity/User/" + uid, "", 401, 403, ok, ok},
		{"GET", "/api/v1/Identity/claims", "", 401, 403, ok, ok},
		{"POST", "/api/v1/Identity/language", `{"lang":"fr"}`, 401, ok, ok, ok},
		{"POST", "/api/v1/Identity/streamingcountry", `{"code":"FR"}`, 401, ok, ok, ok},
		{"POST", "/api/v1/Identity/welcomeEmail", `{"id":"` + uid + `"}`, 401, 403, ok, ok},
		{"DELETE", "/api/v1/Identity/" + uid, "", 401, 403, ok, ok},
		{"GET", "/api/v1/Identity/notificationpreferences/" + uid, "", ok, ok, ok, ok},
		{"GET", "/api/v1/Identity/newsletter/unsubscribe/" + uid, "", ok, ok, ok, ok},
		{"GET", "/api/v1/Identity/accesstoken", "", ok, ok, ok, ok},
		{"GET", "/api/v2/Hub/Users", "", 401, 403, 403, ok},
	})
}

func TestIdentityReads(t *testing.T) {
	s := newTestServer(t, Options{})
	var self map[string]any
	res := do(t, s, call{method: "GET", path: "/api/v1/Identity", header: actingAs("user")})
	res.json(t, &self)
	if self["userName"] != "user" || self["password"] != nil || self["emailAddress"] == nil {
		t.Fatalf("self = %v", self)
	}
	claims, _ := self["claims"].([]any)
	if len(claims) != len(db.AllOmbiRoles) {
		t.Fatalf("self has %d claims, want %d", len(claims), len(db.AllOmbiRoles))
	}
	first := claims[0].(map[string]any)
	last := claims[len(claims)-1].(map[string]any)
	if first["value"] != db.OmbiRoleRequestMovie || first["enabled"] != true || last["enabled"] != false {
		t.Errorf("claims not ordered own roles first: %v", claims)
	}

	var users []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Identity/Users", header: actingAs("power")}).json(t, &users)
	for i, u := range users {
		if u["userName"] == db.SystemUserName {
			t.Errorf("system user listed: %v", u)
		}
		if i > 0 && strings.Compare(users[i-1]["userName"].(string), u["userName"].(string)) > 0 {
			t.Errorf("users not ordered by name: %v before %v", users[i-1]["userName"], u["userName"])
		}
	}
	var drop []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Identity/dropdown/Users", header: actingAs("power")}).json(t, &drop)
	if len(drop) != len(users) || drop[0]["username"] == nil || drop[0]["id"] == nil {
		t.Fatalf("dropdown = %v", drop)
	}
	mustStatus(t, do(t, s, call{method: "GET", path: "/api/v1/Identity/User/nope", header: actingAs("power")}), http.StatusInternalServerError)
	var got map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Identity/User/" + userID(t, s, "power"), header: actingAs("admin")}).json(t, &got)
	if got["userName"] != "power" {
		t.Fatalf("User/{id} = %v", got)
	}
}

func TestIdentityPreferencesCarryCanaries(t *testing.T) {
	s := newTestServer(t, Options{})
	uid := userID(t, s, "admin")
	res := do(t, s, call{method: "GET", path: "/api/v1/Identity/notificationpreferences/" + uid})
	mustStatus(t, res, http.StatusOK)
	var prefs []map[string]any
	res.json(t, &prefs)
	if len(prefs) != len(preferenceAgents) {
		t.Fatalf("%d preferences, want one per agent (%d)", len(prefs), len(preferenceAgents))
	}
	for _, p := range prefs {
		if a := p["agent"].(float64); a == 0 || a == 7 || a == 9 {
			t.Errorf("preference for excluded agent %v", a)
		}
	}
	for _, name := range []string{"pref_admin_discord", "pref_admin_telegram"} {
		if !strings.Contains(string(res.body), canaryValueOf(t, s, name)) {
			t.Errorf("preferences lack canary %s", name)
		}
	}
	mustStatus(t, do(t, s, call{method: "GET", path: "/api/v1/Identity/notificationpreferences"}), http.StatusInternalServerError)

	self := do(t, s, call{method: "GET", path: "/api/v1/Identity/notificationpreferences", header: actingAs("user")})
	if !strings.Contains(string(self.body), canaryValueOf(t, s, "pref_user_telegram")) {
		t.Error("own preferences lack the user's telegram canary")
	}

	userUID := userID(t, s, "user")
	tests := []struct {
		who, target string
		want        int
	}{
		{"user", userUID, http.StatusOK},
		{"user", uid, http.StatusUnauthorized},
		{"power", uid, http.StatusOK},
		{"user", "missing", http.StatusNotFound},
		{"api", userUID, http.StatusUnauthorized},
	}
	for _, tc := range tests {
		res := do(t, s, call{method: "POST", path: "/api/v1/Identity/NotificationPreferences", header: actingAs(tc.who),
			body: `[{"agent":1,"userId":"` + tc.target + `","value":"new-` + tc.who + `","enabled":true}]`})
		if res.status != tc.want {
			t.Errorf("%s edits %s: status %d, want %d", tc.who, tc.target, res.status, tc.want)
		}
	}
	res = do(t, s, call{method: "GET", path: "/api/v1/Identity/notificationpreferences/" + uid})
	if !strings.Contains(string(res.body), `"value":"new-power"`) {
		t.Errorf("saved preference not visible: %s", truncate(string(res.body), 300))
	}

	// Entries apply in order: the first is kept when the second is refused.
	res = do(t, s, call{method: "POST", path: "/api/v1/Identity/NotificationPreferences", header: actingAs("user"),
		body: `[{"agent":8,"userId":"` + userUID + `","value":"gotify-user"},{"agent":8,"userId":"` + uid + `","value":"x"}]`})
	mustStatus(t, res, http.StatusUnauthorized)
	var mine []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Identity/notificationpreferences/" + userUID}).json(t, &mine)
	found := false
	for _, p := range mine {
		if p["agent"].(float64) == 8 {
			found = p["value"] == "gotify-user" && p["enabled"] == false && p["id"].(float64) > 0
		}
	}
	if !found {
		t.Errorf("first entry of a refused batch not saved: %v", mine)
	}
}

func TestIdentityWrites(t *testing.T) {
	s := newTestServer(t, Options{})
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Identity/language", header: actingAs("user"), body: `{"lang":"de"}`}), http.StatusOK)
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Identity/streamingcountry", header: actingAs("user"), body: `{"code":"DE"}`}), http.StatusOK)
	var self map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Identity", header: actingAs("user")}).json(t, &self)
	if self["language"] != "de" || self["streamingCountry"] != "DE" {
		t.Fatalf("self after writes = %v", self)
	}

	uid := userID(t, s, "user")
	var tok string
	do(t, s, call{method: "GET", path: "/api/v1/Identity/accesstoken", header: actingAs("user")}).json(t, &tok)
	if tok != canaryValueOf(t, s, "access_token_user") {
		t.Errorf("accesstoken = %q, want the user's token", tok)
	}
	do(t, s, call{method: "GET", path: "/api/v1/Identity/accesstoken"}).json(t, &tok)
	if tok != zeroAccessToken {
		t.Errorf("anonymous accesstoken = %q", tok)
	}

	s.store.Write(func(st *store) {
		a := st.Users.ByID(uid)
		a.Roles = append(a.Roles, "ReceivesNewsletter")
	})
	mustStatus(t, do(t, s, call{method: "GET", path: "/api/v1/Identity/newsletter/unsubscribe/" + uid}), http.StatusOK)
	s.store.Read(func(st *store) {
		for _, r := range st.Users.ByID(uid).Roles {
			if r == "ReceivesNewsletter" {
				t.Error("unsubscribe kept ReceivesNewsletter")
			}
		}
	})

	var r map[string]any
	do(t, s, call{method: "DELETE", path: "/api/v1/Identity/" + userID(t, s, "admin"), header: actingAs("power")}).json(t, &r)
	if r["successful"] != false || r["errors"].([]any)[0] != "You do not have the correct permissions to delete this user" {
		t.Fatalf("power deleting admin = %v", r)
	}
	do(t, s, call{method: "DELETE", path: "/api/v1/Identity/" + uid, header: actingAs("admin")}).json(t, &r)
	if r["successful"] != true || r["errors"] != nil {
		t.Fatalf("delete = %v", r)
	}
	do(t, s, call{method: "DELETE", path: "/api/v1/Identity/" + uid, header: actingAs("admin")}).json(t, &r)
	if r["successful"] != false || len(r["errors"].([]any)) != 1 {
		t.Fatalf("second delete = %v", r)
	}
	mustStatus(t, do(t, s, call{method: "GET", path: "/api/v1/Identity/User/" + uid, header: actingAs("admin")}), http.StatusInternalServerError)

	do(t, s, call{method: "POST", path: "/api/v1/Identity", header: actingAs("admin"),
		body: `{"userName":"newbie","password":"Password1!","emailAddress":"newbie@example.org","claims":[{"value":"RequestMovie","enabled":true}]}`}).json(t, &r)
	if r["successful"] != true {
		t.Fatalf("create = %v", r)
	}
	var users []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Identity/Users", header: actingAs("admin")}).json(t, &users)
	found := false
	for _, u := range users {
		found = found || u["userName"] == "newbie"
	}
	if !found {
		t.Fatal("created user not listed")
	}
}

func TestHubUsers(t *testing.T) {
	s := newTestServer(t, Options{})
	var hub []map[string]any
	do(t, s, call{method: "GET", path: "/api/v2/Hub/Users", header: actingAs("admin")}).json(t, &hub)
	var want []string
	s.store.Read(func(st *store) {
		for _, a := range st.sortedUsers() {
			if a.LastLoggedIn != nil {
				want = append(want, a.DisplayName())
			}
		}
	})
	if len(want) == 0 || len(hub) != len(want) {
		t.Fatalf("hub = %v, want the %d users who logged in", hub, len(want))
	}
	for i, h := range hub {
		if h["displayName"] != want[i] || h["userId"] == nil || h["userType"] == nil {
			t.Errorf("hub entry %d = %v, want %s", i, h, want[i])
		}
	}
}

// TestIdentity_wizardAndPasswordReset models IdentityController's
// CreateWizardUser, SubmitResetPassword and ResetPassword
// (src/Ombi/Controllers/V1/IdentityController.cs): the wizard refuses once
// a local user exists; reset answers the same message whether or not the
// account exists; resetpassword refuses an unknown email and, the mock
// issuing no reset tokens, any token.
func TestIdentity_wizardAndPasswordReset(t *testing.T) {
	s := newTestServer(t, Options{})
	var w map[string]any
	getJSON(t, s, call{method: "POST", path: "/api/v1/Identity/Wizard/", body: `{"username":"a","password":"b","usePlexAdminAccount":false}`}, &w)
	if w["result"] != false || len(w["errors"].([]any)) != 1 {
		t.Errorf("wizard user = %v", w)
	}
	var r map[string]any
	getJSON(t, s, call{method: "POST", path: "/api/v1/Identity/reset", body: `{"email":"nobody@example.org"}`}, &r)
	if r["successful"] != true || len(r["errors"].([]any)) != 1 {
		t.Errorf("reset = %v", r)
	}
	getJSON(t, s, call{method: "POST", path: "/api/v1/Identity/resetpassword", body: `{"email":"nobody@example.org","token":"t","password":"p"}`}, &r)
	if r["successful"] != false || r["errors"].([]any)[0] != "Please check you email." {
		t.Errorf("resetpassword, unknown email = %v", r)
	}
	var email string
	s.store.Read(func(st *store) { email = st.Users.ByName("user").Email })
	getJSON(t, s, call{method: "POST", path: "/api/v1/Identity/resetpassword", body: `{"email":"` + strings.ToUpper(email) + `","token":"t","password":"p"}`}, &r)
	if r["successful"] != false || r["errors"].([]any)[0] != "Invalid token." {
		t.Errorf("resetpassword, bad token = %v", r)
	}
}
