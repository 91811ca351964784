package mockombi

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// harSpec is what HAR 1.2 requires of each object: its members and their
// JSON types.
var harSpec = map[string]map[string]string{
	"log":       {"version": "string", "creator": "object", "entries": "array"},
	"creator":   {"name": "string", "version": "string"},
	"entry":     {"startedDateTime": "string", "time": "number", "request": "object", "response": "object", "cache": "object", "timings": "object"},
	"request":   {"method": "string", "url": "string", "httpVersion": "string", "cookies": "array", "headers": "array", "queryString": "array", "headersSize": "number", "bodySize": "number"},
	"response":  {"status": "number", "statusText": "string", "httpVersion": "string", "cookies": "array", "headers": "array", "content": "object", "redirectURL": "string", "headersSize": "number", "bodySize": "number"},
	"content":   {"size": "number", "mimeType": "string"},
	"timings":   {"send": "number", "wait": "number", "receive": "number"},
	"postData":  {"mimeType": "string", "text": "string"},
	"nameValue": {"name": "string", "value": "string"},
}

// harCheck reports the members of v that HAR 1.2 requires of a kind of
// object and that are missing or of the wrong type.
func harCheck(kind, at string, v any) []string {
	obj, ok := v.(map[string]any)
	if !ok {
		return []string{at + ": not an object"}
	}
	var problems []string
	for name, want := range harSpec[kind] {
		got := "missing"
		switch obj[name].(type) {
		case string:
			got = "string"
		case float64:
			got = "number"
		case map[string]any:
			got = "object"
		case []any:
			got = "array"
		case nil:
			if _, ok := obj[name]; ok {
				got = "null"
			}
		}
		if got != want {
			problems = append(problems, fmt.Sprintf("%s.%s: %s, want %s", at, name, got, want))
		}
	}
	return problems
}

// validateHAR checks a HAR document's structure: every required member
// with its type, ISO 8601 start times, absolute URLs, and entry times
// that are the sum of their timings.
func validateHAR(doc []byte) []string {
	var top map[string]any
	if err := json.Unmarshal(doc, &top); err != nil {
		return []string{"not JSON: " + err.Error()}
	}
	problems := harCheck("log", "log", top["log"])
	if len(problems) > 0 {
		return problems
	}
	log := top["log"].(map[string]any)
	if log["version"] != "1.2" {
		problems = append(problems, fmt.Sprintf("log.version = %v, want 1.2", log["version"]))
	}
	problems = append(problems, harCheck("creator", "log.creator", log["creator"])...)
	for i, e := range log["entries"].([]any) {
		at := fmt.Sprintf("log.entries[%d]", i)
		if p := harCheck("entry", at, e); len(p) > 0 {
			problems = append(problems, p...)
			continue
		}
		entry := e.(map[string]any)
		if _, err := time.Parse(time.RFC3339Nano, entry["startedDateTime"].(string)); err != nil {
			problems = append(problems, at+".startedDateTime: "+err.Error())
		}
		problems = append(problems, harCheck("request", at+".request", entry["request"])...)
		problems = append(problems, harCheck("response", at+".response", entry["response"])...)
		problems = append(problems, harCheck("timings", at+".timings", entry["timings"])...)
		if len(problems) > 0 {
			continue
		}
		req, res, tm := entry["request"].(map[string]any), entry["response"].(map[string]any), entry["timings"].(map[string]any)
		if u, err := url.Parse(req["url"].(string)); err != nil || !u.IsAbs() {
			problems = append(problems, fmt.Sprintf("%s.request.url %q is not absolute", at, req["url"]))
		}
		if sum := tm["send"].(float64) + tm["wait"].(float64) + tm["receive"].(float64); sum != entry["time"].(float64) {
			problems = append(problems, fmt.Sprintf("%s.time %v is not the sum of its timings %v", at, entry["time"], sum))
		}
		for _, list := range []string{"headers", "queryString", "cookies"} {
			for j, nv := range req[list].([]any) {
				problems = append(problems, harCheck("nameValue", fmt.Sprintf("%s.request.%s[%d]", at, list, j), nv)...)
			}
		}
		for j, nv := range res["headers"].([]any) {
			problems = append(problems, harCheck("nameValue", fmt.Sprintf("%s.response.headers[%d]", at, j), nv)...)
		}
		if pd, ok := req["postData"]; ok {
			problems = append(problems, harCheck("postData", at+".request.postData", pd)...)
		}
		problems = append(problems, harCheck("content", at+".response.content", res["content"])...)
	}
	return problems
}

// TestJournalHAR: the journal exports as a well-formed HAR 1.2 archive
// with the calls' requests and answers and the mock's own marks, and no
// credential survives the export.
func TestJournalHAR(t *testing.T) {
	s := newTestServer(t, Options{JournalResponses: true})
	if _, err := s.AddStub(Stub{Method: "GET", Path: "/api/v1/Status", Status: 503, Body: "down"}); err != nil {
		t.Fatal(err)
	}
	user := asUser(t, s)
	token := strings.TrimPrefix(user["Authorization"], "Bearer ")
	do(t, s, call{method: "GET", path: "/api/v1/Search/movie/matrix?apikey=" + DefaultAPIKey + "&lang=en", header: apiKey()})
	do(t, s, call{method: "GET", path: "/api/v1/Request/movie", header: user})
	do(t, s, call{method: "GET", path: "/api/v1/Status"})
	do(t, s, call{method: "GET", path: "/api/v1/NoSuchRoute", header: map[string]string{"ApiKey": DefaultAPIKey, "Cookie": "session=CookieSecret1"}})

	res := do(t, s, call{method: "GET", path: "/_mock/journal.har"})
	if res.status != 200 || !strings.Contains(res.header.Get("Content-Disposition"), "mockombi-journal.har") {
		t.Fatalf("GET /_mock/journal.har = %d %v", res.status, res.header)
	}
	if problems := validateHAR(res.body); len(problems) > 0 {
		t.Fatalf("the HAR is malformed:\n%s", strings.Join(problems, "\n"))
	}
	for _, secret := range []string{"OmbiUser1!", DefaultAPIKey, token, "CookieSecret1"} {
		if strings.Contains(string(res.body), secret) {
			t.Errorf("the HAR holds the credential %q", secret)
		}
	}
	var h HAR
	res.json(t, &h)
	if h.Log.Creator.Name != "mockombi" || len(h.Log.Entries) != 5 {
		t.Fatalf("creator %+v, %d entries", h.Log.Creator, len(h.Log.Entries))
	}
	login, search, list, stubbed, unmatched := h.Log.Entries[0], h.Log.Entries[1], h.Log.Entries[2], h.Log.Entries[3], h.Log.Entries[4]
	if login.Request.PostData == nil || !strings.Contains(login.Request.PostData.Text, `"password":"REDACTED"`) ||
		!strings.Contains(login.Response.Content.Text, `"access_token":"REDACTED"`) || login.Route != "POST /api/v1/Token" {
		t.Errorf("login entry = %+v", login)
	}
	if search.Request.URL != "http://example.com/api/v1/Search/movie/matrix?apikey=REDACTED&lang=en" ||
		fmt.Sprint(search.Request.QueryString) != "[{apikey REDACTED} {lang en}]" ||
		!strings.Contains(search.Response.Content.Text, "The Matrix") || search.Response.Status != 200 || search.Response.StatusText != "OK" ||
		!strings.HasPrefix(search.Response.Content.MimeType, "application/json") || search.Response.Content.Size != int64(search.Response.BodySize) {
		t.Errorf("search entry = %+v", search)
	}
	for _, hv := range list.Request.Headers {
		if hv.Name == "Authorization" && hv.Value != "REDACTED" {
			t.Errorf("Authorization = %q", hv.Value)
		}
	}
	if stubbed.Stub != "stub#1" || stubbed.Response.Status != 503 || stubbed.Response.Content.Text != "down" {
		t.Errorf("stubbed entry = %+v", stubbed)
	}
	if !unmatched.Unmatched || unmatched.Response.Status != 404 {
		t.Errorf("unmatched entry = %+v", unmatched)
	}
}

// TestValidateHAR: the structure check catches what a HAR must not lack.
func TestValidateHAR(t *testing.T) {
	good := `{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[{"startedDateTime":"2026-01-02T03:04:05Z","time":3,
		"request":{"method":"GET","url":"http://h/p","httpVersion":"HTTP/1.1","cookies":[],"headers":[{"name":"A","value":"b"}],"queryString":[],"headersSize":-1,"bodySize":0},
		"response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","cookies":[],"headers":[],"content":{"size":0,"mimeType":""},"redirectURL":"","headersSize":-1,"bodySize":0},
		"cache":{},"timings":{"send":0,"wait":3,"receive":0}}]}}`
	if p := validateHAR([]byte(good)); len(p) > 0 {
		t.Fatalf("a good HAR fails: %v", p)
	}
	for name, bad := range map[string][2]string{
		"version":        {`"version":"1.2"`, `"version":"1.1"`},
		"no creator":     {`"creator":{"name":"x","version":"1"},`, ``},
		"start time":     {`2026-01-02T03:04:05Z`, `yesterday`},
		"relative url":   {`"url":"http://h/p"`, `"url":"/p"`},
		"time vs sum":    {`"time":3`, `"time":4`},
		"header value":   {`"value":"b"`, `"value":1`},
		"no content":     {`"content":{"size":0,"mimeType":""},`, ``},
		"status as text": {`"status":200`, `"status":"200"`},
	} {
		doc := strings.Replace(good, bad[0], bad[1], 1)
		if doc == good {
			t.Fatalf("%s: the replacement did not apply", name)
		}
		if p := validateHAR([]byte(doc)); len(p) == 0 {
			t.Errorf("%s: a broken HAR passes", name)
		}
	}
}
