package mockombi

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// TestKeptEncoding_encodesAsTheViewItStandsFor: a view holding kept
// encodings (json.RawMessage members, in objects and lists, nested) encodes
// as the plain view it stands for, keys that need escaping included.
func TestKeptEncoding_encodesAsTheViewItStandsFor(t *testing.T) {
	when := time.Date(2026, 11, 29, 12, 0, 0, 0, time.FixedZone("X", 3600))
	user := map[string]any{
		"id": "u1", "userName": "Ally <&>", "é": "ü", "a\"b": 1.5, "back\\slash": nil, "\u2028": "line\u2028sep",
		"ctl\x01": true, "": "empty key", "Z": "upper first", "lastLoggedIn": &when, "nested": map[string]any{"b": []any{1, "x"}, "a": nil},
	}
	plainComment := func() map[string]any {
		return map[string]any{"id": 4, "comment": "Playback <fails> & \"stops\"", "date": when, "user": maps.Clone(user), "issues": nil}
	}
	plain := map[string]any{
		"id": 1, "title": "Dune", "userReported": maps.Clone(user), "issueCategory": map[string]any{"id": 1, "value": "Audio"},
		"comments": []any{plainComment(), plainComment()}, "empty": []any{}, "none": []any(nil), "list": []map[string]any{{"k": "v"}},
		"nilMap": map[string]any(nil), "a\"b": 1, "back\\slash": 2, "é": 3, "ctl\x01": 4, "\u2028": 5, "": 6, "<&>": 7,
	}
	userJSON, err := encodeJSON(user)
	if err != nil {
		t.Fatal(err)
	}
	keptComment := func() map[string]any {
		c := plainComment()
		c["user"] = json.RawMessage(userJSON)
		return c
	}
	kept := maps.Clone(plain)
	kept["userReported"] = json.RawMessage(userJSON)
	kept["comments"] = []map[string]any{keptComment(), keptComment()}
	plain["comments"] = []map[string]any{plainComment(), plainComment()}

	want, err := encodeJSON(plain)
	if err != nil {
		t.Fatal(err)
	}
	got, err := encodeJSON(kept)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("a view with kept encodings encodes as\n%s\nwant\n%s", got, want)
	}
}

// TestOmbiUserJSON_followsEveryAccountField changes each field of every
// seeded account in turn (by reflection, so a field added later is covered
// or fails the test until it is) and checks that the kept encoding is
// always the encoding of ombiUser as it is now; a repeat without a change
// must hand out the kept bytes.
func TestOmbiUserJSON_followsEveryAccountField(t *testing.T) {
	s := newTestServer(t, Options{})
	s.store.Write(func(st *store) {
		for _, a := range st.Users.Accounts {
			check := func(what string) {
				t.Helper()
				got, ok := st.Users.OmbiUserJSON(a).(json.RawMessage)
				if !ok {
					t.Fatalf("%s %s: ombiUserJSON is not encoded", a.UserName, what)
				}
				want, err := encodeJSON(a.OmbiUser())
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s %s: kept OmbiUser\n%s\nwant\n%s", a.UserName, what, got, want)
				}
				if again := st.Users.OmbiUserJSON(a).(json.RawMessage); &again[0] != &got[0] {
					t.Fatalf("%s %s: an unchanged account encoded again", a.UserName, what)
				}
			}
			check("as seeded")
			v := reflect.ValueOf(a).Elem()
			for round := range 2 { // a nil pointer is set in round 0 and changed in place in round 1
				for i := range v.NumField() {
					f, name := v.Field(i), v.Type().Field(i).Name
					if !f.CanSet() {
						continue
					}
					switch f.Kind() {
					case reflect.String:
						f.SetString(f.String() + "-changed")
					case reflect.Int:
						f.SetInt(f.Int() + 7)
					case reflect.Slice:
						f.Set(reflect.Append(f, reflect.ValueOf("Changed")))
					case reflect.Map: // Raw is never changed in place: it is replaced
						m := maps.Clone(a.Raw)
						if m == nil {
							m = map[string]any{}
						}
						m["changed"] = round
						f.Set(reflect.ValueOf(m))
					case reflect.Pointer:
						if tp, ok := f.Interface().(*time.Time); ok && tp != nil {
							*tp = tp.Add(time.Hour)
						} else if ok {
							now := testNow
							f.Set(reflect.ValueOf(&now))
						} else {
							t.Fatalf("account field %s (%s): teach this test to change it", name, f.Type())
						}
					default:
						t.Fatalf("account field %s (%s): teach this test to change it", name, f.Type())
					}
					check("after a change of " + name)
				}
			}
			a.LastLoggedIn = nil
			check("after LastLoggedIn went back to nil")
		}
	})
}

// TestIssueCommentCreate_answerIsTheProjection posts comments as several
// callers while the reporter's and the authors' accounts change through
// the API, and checks each answer byte for byte against the answer built
// from the projections with the users as maps (what the handler answered
// before its users were spliced in encoded).
func TestIssueCommentCreate_answerIsTheProjection(t *testing.T) {
	s := newTestServer(t, Options{})
	admin, user := asAdmin(t, s), asUser(t, s)
	var userID string
	s.store.Read(func(st *store) { userID = st.Users.ByName("user").ID })
	fromMaps := func(issueID int) []byte {
		t.Helper()
		var want []byte
		var err error
		s.store.Read(func(st *store) {
			x := st.Issues.Find(issueID)
			out := st.commentJSON(x.Comments[len(x.Comments)-1], false)
			issue := st.issueJSON(x, issueView{reporter: true})
			issue.Comments = []*state.IssueCommentView{}
			out.Issues = issue
			want, err = encodeJSON(out)
		})
		if err != nil {
			t.Fatal(err)
		}
		return want
	}
	comment := func(who string, h map[string]string, issueID int) {
		t.Helper()
		res := do(t, s, call{method: http.MethodPost, path: "/api/v1/Issues/comments", header: h,
			body: `{"issueId":` + itoa(issueID) + `,"comment":"Still <broken> & \"silent\" é"}`})
		if res.status != http.StatusOK {
			t.Fatalf("comment as %s: %d %s", who, res.status, res.body)
		}
		if want := fromMaps(issueID); !bytes.Equal(res.body, want) {
			t.Fatalf("comment as %s: answer\n%s\nwant\n%s", who, res.body, want)
		}
	}
	change := func(what string, c call) {
		t.Helper()
		if res := do(t, s, c); res.status != http.StatusOK {
			t.Fatalf("%s: %d %s", what, res.status, res.body)
		}
	}
	for _, issueID := range []int{1, 2} {
		comment("the API key", apiKey(), issueID)
		comment("user", user, issueID)
		comment("admin", admin, issueID)
	}
	change("update user", call{method: http.MethodPut, path: "/api/v1/Identity", header: admin,
		body: `{"id":"` + userID + `","alias":"Ally <&>","emailAddress":"ally@example.org","movieRequestLimit":1,"episodeRequestLimit":2,"musicRequestLimit":3,"streamingCountry":"DE","claims":[{"value":"RequestMovie","enabled":true}]}`})
	comment("the API key after the reporter changed", apiKey(), 1)
	change("user's language", call{method: http.MethodPost, path: "/api/v1/Identity/language", header: user, body: `{"lang":"fr"}`})
	comment("user after a language change", user, 1)
	user = asUser(t, s) // a new lastLoggedIn
	comment("user after logging in again", user, 1)
	if res := do(t, s, call{method: http.MethodPost, path: "/api/v1/Issues/comments", header: apiKey(), body: `{"issueId":999,"comment":"x"}`}); res.status != http.StatusNoContent {
		t.Errorf("comment on a missing issue: %d %s, want 204", res.status, res.body)
	}
}

// TestIssueCommentCreate_concurrentWithAccountChanges runs comment creates
// (which read and keep the encoded users) alongside account changes and
// issue reads; under -race it checks the kept encodings are shared safely.
func TestIssueCommentCreate_concurrentWithAccountChanges(t *testing.T) {
	s := newTestServer(t, Options{})
	user := asUser(t, s)
	calls := []call{
		{method: http.MethodPost, path: "/api/v1/Issues/comments", header: apiKey(), body: `{"issueId":1,"comment":"a"}`},
		{method: http.MethodPost, path: "/api/v1/Issues/comments", header: user, body: `{"issueId":1,"comment":"b"}`},
		{method: http.MethodPost, path: "/api/v1/Identity/language", header: user, body: `{"lang":"de"}`},
		{method: http.MethodGet, path: "/api/v1/Issues/1", header: apiKey()},
	}
	done := make(chan struct{})
	for _, c := range calls {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 20 {
				if res := do(t, s, c); res.status != http.StatusOK {
					t.Errorf("%s %s: %d %s", c.method, c.path, res.status, res.body)
					return
				}
			}
		}()
	}
	for range calls {
		<-done
	}
}
