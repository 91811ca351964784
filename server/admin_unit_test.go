package server

import (
	"bufio"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestSanitizeLogLine(t *testing.T) {
	tests := []struct {
		in      string
		gone    []string
		keep    string
		secrets []string
	}{
		{"Connection string: Server=db;User=ombi;Password=hunter2-xyz", []string{"hunter2-xyz"}, "Server=db", nil},
		{"GET https://plex.example.org:32400/lib?X-Plex-Token=abcDEF123", []string{"abcDEF123"}, "plex.example.org", nil},
		{"with header X-Api-Key: 0123456789abcdef0123456789abcdef", []string{"0123456789abcdef0123456789abcdef"}, "with header", nil},
		{"Authorization: Bearer eyJhbGciOi.eyJzdWIiOiIx.sig", []string{"eyJhbGciOi"}, "Authorization", nil},
		{"proxy http://bob:pw@host:3128 failed", []string{"bob:pw@"}, "failed", nil},
		{"configured key k-777777 appears", []string{"k-777777"}, "appears", []string{"k-777777"}},
		{"tab\there\x1b[31m red", []string{"\t", "\x1b"}, "here", nil},
	}
	for _, tt := range tests {
		got := sanitizeLogLine(tt.in, tt.secrets)
		for _, g := range tt.gone {
			if strings.Contains(got, g) {
				t.Errorf("sanitizeLogLine(%q) = %q still holds %q", tt.in, got, g)
			}
		}
		if !strings.Contains(got, tt.keep) {
			t.Errorf("sanitizeLogLine(%q) = %q lost %q", tt.in, got, tt.keep)
		}
	}
	if n := len([]rune(sanitizeLogLine(strings.Repeat("a ", 3000), nil))); n > maxLogLineRunes {
		t.Errorf("a long line kept %d runes", n)
	}
}

func TestLogNamesAndIDs(t *testing.T) {
	tests := []struct {
		raw  string
		want []string
	}{
		{`["log20261129.txt","log20261128.txt"]`, []string{"log20261129.txt", "log20261128.txt"}},
		{`{"files":["a.txt"]}`, []string{"a.txt"}},
		{`[{"name":"b.txt"},{"fileName":"c.log"}]`, []string{"b.txt", "c.log"}},
		{`null`, nil},
	}
	for _, tt := range tests {
		got, err := logNames(json.RawMessage(tt.raw))
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("logNames(%s) = %v, %v; want %v", tt.raw, got, err, tt.want)
		}
	}
	for name, ok := range map[string]bool{"log20261129.txt": true, "../etc/passwd": false, "a/b.txt": false, ".hidden.txt": false, "x..txt": false, "app.exe": false} {
		if vettedLogName(name) != ok {
			t.Errorf("vettedLogName(%q) = %v", name, !ok)
		}
	}
	id := logFileID("log20261129.txt")
	if id != logFileID("log20261129.txt") || id == logFileID("log20261128.txt") || strings.Contains(id, "2026") {
		t.Errorf("logFileID is not a stable opaque id: %s", id)
	}
}

func TestFlattenSettings(t *testing.T) {
	doc, _ := decodeDoc(json.RawMessage(`{"id":1,"enable":true,"a/b":{"c~d":2},"apiKey":"k","serverHostname":"https://x",
		"servers":[{"id":7,"serverId":"s1","apiKey":"k2","name":"Den","ip":"10.0.0.2","port":8096,
			"embySelectedLibraries":[{"key":"k1","title":"Films","enabled":true}]}],
		"name":"see https://example.org"}`))
	values, omitted := flattenSettings("emby", doc)
	got := map[string]any{}
	for _, v := range values {
		got[v.Name] = v.Value
	}
	for _, name := range []string{"/enable", "/servers/0/id", "/servers/0/serverId", "/servers/0/name", "/servers/0/port",
		"/servers/0/embySelectedLibraries/0/title", "/servers/0/embySelectedLibraries/0/enabled"} {
		if _, ok := got[name]; !ok {
			t.Errorf("%s is not shown", name)
		}
	}
	want := []string{"/a~1b/c~0d", "/apiKey", "/id", "/name", "/serverHostname", "/servers/0/apiKey",
		"/servers/0/embySelectedLibraries/0/key", "/servers/0/ip"}
	if !reflect.DeepEqual(omitted, want) {
		t.Errorf("omitted = %v, want %v", omitted, want)
	}
}

func TestMergeSettings(t *testing.T) {
	allowed := []string{"a", "n", "s", "apiKey", "obj", "b", "c", "arr", "notificationTemplates", "notificationType", "agent", "message", "enabled"}
	orig, _ := decodeDoc(json.RawMessage(`{"a":true,"n":3,"s":"x","apiKey":"k","obj":{"b":1,"c":"keep","d":2},"arr":[1],"unlisted":false,
		"notificationTemplates":[{"notificationType":1,"agent":1,"message":"m1","enabled":true},{"notificationType":0,"agent":1,"message":"m0","enabled":true}]}`))
	om := orig.(map[string]any)
	tests := []struct {
		changes string
		field   string // "" = accepted
	}{
		{`{"a":false,"obj":{"b":2}}`, ""},
		{`{"zz":1}`, "/changes/zz"},
		{`{"unlisted":true}`, "/changes/unlisted"},
		{`{"obj":{"d":1}}`, "/changes/obj/d"},
		{`{"apiKey":"new"}`, "/changes/apiKey"},
		{`{"obj":{"b":null}}`, "/changes/obj/b"},
		{`{"obj":5}`, "/changes/obj"},
		{`{"arr":[2]}`, "/changes/arr"},
		{`{"n":"3"}`, "/changes/n"},
		{`{"s":"https://evil.example"}`, "/changes/s"},
		{`{"notificationTemplates":[{"notification_type":"issue","agent":"discord","message":"new"}]}`, ""},
		{`{"notificationTemplates":[{"notification_type":"issue","agent":"email","message":"new"}]}`, "/changes/notificationTemplates/0"},
		{`{"notificationTemplates":[{"notification_type":"issue","agent":"discord"}]}`, "/changes/notificationTemplates/0"},
	}
	for _, tt := range tests {
		ch, _ := decodeDoc(json.RawMessage(tt.changes))
		merged, err := mergeSettings(om, ch.(map[string]any), allowed, "/changes", "")
		var ae *argumentError
		switch {
		case tt.field == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tt.changes, err)
		case tt.field != "" && (err == nil || !asArg(err, &ae) || ae.Field != tt.field):
			t.Errorf("%s: error %v, want field %s", tt.changes, err, tt.field)
		case tt.field == "":
			if merged["apiKey"] != "k" || merged["obj"].(map[string]any)["c"] != "keep" || merged["unlisted"] != false {
				t.Errorf("%s: untouched values changed: %v", tt.changes, merged)
			}
		}
	}
	ch, _ := decodeDoc(json.RawMessage(`{"notificationTemplates":[{"notification_type":"issue","agent":"discord","message":"new"}]}`))
	merged, _ := mergeSettings(om, ch.(map[string]any), allowed, "/changes", "")
	tm := merged["notificationTemplates"].([]any)
	if tm[0].(map[string]any)["message"] != "new" || tm[1].(map[string]any)["message"] != "m0" {
		t.Errorf("templates merged by index, not by key: %v", tm)
	}
}

func asArg(err error, target **argumentError) bool {
	ae, ok := err.(*argumentError)
	*target = ae
	return ok
}

func TestSafeImageURI(t *testing.T) {
	for uri, ok := range map[string]bool{
		"https://image.tmdb.org/t/p/w500/a.jpg":    true,
		"http://assets.fanart.tv/x.jpg":            true,
		"https://user:pw@host/x.jpg":               false,
		"https://host/x.jpg?apikey=secret":         false,
		"https://host/x.jpg?X-Plex-Token=secret":   false,
		"javascript:alert(1)":                      false,
		"/relative/x.jpg":                          false,
		"https://host/x.jpg#frag":                  false,
		"https://host/x.jpg?size=w500":             true,
		"https://host/<script>":                    false,
		"ftp://host/x.jpg":                         false,
		"https://host/x.jpg?access_token=abc":      false,
		"https://host/a b.jpg":                     false,
		"https://host/x.jpg?signature=deadbeef":    false,
		"https://image.tmdb.org/t/p/original/.jpg": true,
	} {
		if got := safeImageURI(uri); got != ok {
			t.Errorf("safeImageURI(%q) = %v, want %v", uri, got, ok)
		}
	}
}

func TestOptionRefs(t *testing.T) {
	tests := []struct {
		raw  string
		want []reference
	}{
		{`[{"id":21,"path":"/media/tv","freeSpace":1}]`, []reference{{ID: "21", Name: "/media/tv", Value: int64(21), Category: "c"}}},
		{`{"success":true,"servers":[{"machineIdentifier":"abc","name":"Den"}]}`, []reference{{ID: "abc", Name: "Den", Value: "abc", Category: "c"}}},
		{`{"data":{"mediaContainer":{"directory":[{"key":"1","title":"Movies"}]}}}`, []reference{{ID: "1", Name: "Movies", Value: "1", Category: "c"}}},
		{`[{"label":"anime","id":2}]`, []reference{{ID: "2", Name: "anime", Value: int64(2), Category: "c"}}},
		{`[{"id":3,"name":"??????","title":"Clean"}]`, []reference{{ID: "3", Name: "Clean", Value: int64(3), Category: "c"}}},
		{`null`, []reference{}},
	}
	for _, tt := range tests {
		got, err := optionRefs(json.RawMessage(tt.raw), "c")
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("optionRefs(%s) = %#v, %v; want %#v", tt.raw, got, err, tt.want)
		}
	}
	for _, raw := range []string{`{}`, `{"success":true}`, `{"machineId":"abc","serverName":"Den"}`} {
		if _, err := optionRefs(json.RawMessage(raw), "c"); err == nil {
			t.Errorf("optionRefs(%s): an object that holds no list must not be an empty, complete list", raw)
		} else if obj := errorObject(err, false); obj.Code != codeUpstreamSchemaMismatch {
			t.Errorf("optionRefs(%s) maps to %s, want UPSTREAM_SCHEMA_MISMATCH", raw, obj.Code)
		}
	}
	if _, err := optionRefs(json.RawMessage(`{"success":false,"message":"Plex token expired"}`), "c"); err == nil {
		t.Error("a success:false wrapper must be an upstream rejection")
	} else if obj := errorObject(err, false); obj.Code != codeUpstreamRejected {
		t.Errorf("success:false maps to %s", obj.Code)
	}
}

func TestDeploymentLists(t *testing.T) {
	def := allowedJobs(commaList(""))
	for _, j := range riskyJobs {
		if def[j] {
			t.Errorf("risky job %s is on by default", j)
		}
	}
	if !def["arrAvailability"] || len(def) != len(allJobs())-len(riskyJobs) {
		t.Errorf("default jobs = %v", def)
	}
	if got := allowedJobs(commaList(" update , bogus,newsletter")); !reflect.DeepEqual(got, map[string]bool{"update": true, "newsletter": true}) {
		t.Errorf("explicit jobs = %v", got)
	}
	if got := parseProfiles(commaList("discord:default, radarr:4k,bad,:x,emby:")); !reflect.DeepEqual(got, map[string]bool{"discord:default": true, "radarr:4k": true}) {
		t.Errorf("profiles = %v", got)
	}
}

func TestProviderGroups_emptyForms(t *testing.T) {
	for _, raw := range []string{``, `null`, `[]`, ` [] `} {
		got, err := providerGroups(&call{}, json.RawMessage(raw))
		if err != nil || len(got) != 0 {
			t.Errorf("providerGroups(%q) = %v, %v; want an empty page", raw, got, err)
		}
	}
	c := &call{}
	big := `{"providerId":"1","title":"T","count":150,"issues":[` + strings.TrimSuffix(strings.Repeat(`{"id":1},`, 150), ",") + `]}`
	got, err := providerGroups(c, json.RawMessage(big))
	if err != nil || len(got) != 1 || len(got[0].Issues) != maxNested || !c.truncated {
		t.Errorf("a large group: %d issues, truncated %v, %v", len(got[0].Issues), c.truncated, err)
	}
}

func TestScanWindow(t *testing.T) {
	text := "l0\r\nl1\nl2\n" + strings.Repeat("x", 10000) + "\nl4"
	tests := []struct {
		offset, limit int
		want          []string
		more          bool
	}{
		{0, 2, []string{"l0", "l1"}, true},
		{1, 2, []string{"l1", "l2"}, true},
		{4, 10, []string{"l4"}, false},
		{9, 10, nil, false},
	}
	for _, tt := range tests {
		w, err := scanWindow(bufio.NewReaderSize(strings.NewReader(text), 16), "op", tt.offset, tt.limit)
		if err != nil || !reflect.DeepEqual(w.lines, tt.want) || w.more != tt.more {
			t.Errorf("scanWindow(%d,%d) = %q more=%v err=%v; want %q more=%v", tt.offset, tt.limit, w.lines, w.more, err, tt.want, tt.more)
		}
	}
	w, _ := scanWindow(bufio.NewReaderSize(strings.NewReader(text), 16), "op", 3, 1)
	if len(w.lines) != 1 || len(w.lines[0]) != 4<<10 {
		t.Errorf("a 10,000 byte line kept %d bytes, want %d", len(w.lines[0]), 4<<10)
	}
}
