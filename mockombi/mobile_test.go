package mockombi

import (
	"net/http"
	"testing"
)

// TestMobile_devices models the mobile app's device routes
// (src/Ombi/Controllers/V1/MobileController.cs and V2/MobileController.cs):
// a user registers player ids (v1) and push tokens (v2) once each; admins
// list users with devices (v1 a count, v2 the device rows with their user),
// remove a user's player ids and send a message; a missing id or token is
// 400.
func TestMobile_devices(t *testing.T) {
	s := newTestServer(t, Options{})
	user, admin := actingAs("user"), actingAs("admin")
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Mobile/Notification", header: user, body: `{"playerId":"p1"}`}), http.StatusOK)
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Mobile/Notification", header: user, body: `{"playerId":"p1"}`}), http.StatusOK)
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Mobile/Notification", header: user, body: `{}`}), http.StatusBadRequest)
	var v1 []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/mobile/notification/", header: admin}, &v1)
	if len(v1) != 1 || v1[0]["devices"] != float64(1) || v1[0]["userId"] != userID(t, s, "user") {
		t.Fatalf("v1 mobile users = %v", v1)
	}
	var removed bool
	getJSON(t, s, call{method: "POST", path: "/api/v1/mobile/", header: admin, body: `{"userId":"` + userID(t, s, "user") + `"}`}, &removed)
	getJSON(t, s, call{method: "GET", path: "/api/v1/mobile/notification/", header: admin}, &v1)
	if !removed || len(v1) != 0 {
		t.Errorf("after remove: %v %v", removed, v1)
	}

	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v2/Mobile/Notification", header: user, body: `{"token":"t1"}`}), http.StatusOK)
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v2/Mobile/Notification", header: user, body: `{"token":"t2"}`}), http.StatusOK)
	var v2 []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/mobile/users/", header: admin}, &v2)
	if len(v2) != 1 || v2[0]["username"] != "user" || len(v2[0]["devices"].([]any)) != 2 {
		t.Fatalf("v2 mobile users = %v", v2)
	}
	if d := v2[0]["devices"].([]any)[0].(map[string]any); d["token"] != "t1" || d["user"] == nil {
		t.Errorf("device = %v", d)
	}
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v2/mobile/send/", header: admin, body: `{"userId":"x","message":"hi"}`}), http.StatusOK)
	mustStatus(t, do(t, s, call{method: "DELETE", path: "/api/v2/Mobile/Notification", header: user}), http.StatusOK)
	getJSON(t, s, call{method: "GET", path: "/api/v2/mobile/users/", header: admin}, &v2)
	if len(v2) != 0 {
		t.Errorf("after delete: %v", v2)
	}
	checkAuthLevels(t, []authCase{
		{"GET", "/api/v2/Mobile/Users", "", 401, 403, 403, 200},
		{"POST", "/api/v2/Mobile/Send", `{}`, 401, 403, 403, 200},
		{"GET", "/api/v1/Mobile/Notification", "", 401, 403, 403, 200},
	})
}
