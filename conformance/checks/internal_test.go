package checks

import (
	"slices"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

func TestFieldMatches(t *testing.T) {
	tests := []struct {
		field, pointer string
		want           bool
	}{
		{"/target/id", "/target/id", true},
		{"target/id", "/target/id", true},
		{"target.id", "/target/id", true},
		{"id", "/target/id", true},
		{"query", "/target/id", false},
		{"", "/query", false},
		{"anything", "", true},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := fieldMatches(tt.field, tt.pointer); got != tt.want {
			t.Errorf("fieldMatches(%q, %q) = %v, want %v", tt.field, tt.pointer, got, tt.want)
		}
	}
}

func TestCanaryForms(t *testing.T) {
	forms := canaryForms(`sk-"secret"/x y`)
	for _, want := range []string{`sk-"secret"/x y`, `sk-\"secret\"/x y`, "sk-%22secret%22%2Fx+y", "c2stInNlY3JldCIveCB5"} {
		found := false
		for _, f := range forms {
			found = found || f == want
		}
		if !found {
			t.Errorf("canaryForms lacks %q: %q", want, forms)
		}
	}
}

// TestWrittenTwice: a write sent twice is named; a login sent again after a
// failed one is not a write, nor is a read or a POST Ombi serves as a read.
func TestWrittenTwice(t *testing.T) {
	login := mockombi.Call{Method: "POST", Path: "/api/v1/Token", Body: []byte(`{"username":"admin","password":"x"}`)}
	write := mockombi.Call{Method: "POST", Path: "/api/v1/Request/movie", Body: []byte(`{"theMovieDbId":603}`)}
	read := mockombi.Call{Method: "GET", Path: "/api/v1/Request/movie"}
	tests := []struct {
		name  string
		calls []mockombi.Call
		want  int
	}{
		{"one write", []mockombi.Call{login, write}, 0},
		{"a write twice", []mockombi.Call{login, write, write}, 1},
		{"a login twice", []mockombi.Call{login, login, write}, 0},
		{"a read twice", []mockombi.Call{read, read}, 0},
	}
	for _, tt := range tests {
		if got := writtenTwice(tt.calls); len(got) != tt.want {
			t.Errorf("%s: writtenTwice named %d (%v), want %d", tt.name, len(got), got, tt.want)
		}
	}
}

// TestLedgerBodyMembers: a route whose body is a saved document Ombi
// binds whole (a tester, an arr option read) reads that model's members
// and no other; a member its model lacks is named.
func TestLedgerBodyMembers(t *testing.T) {
	tests := []struct {
		name, method, path, body string
		want                     []string
	}{
		{"lidarr metadata, the saved settings", "POST", "/api/v1/Lidarr/Metadata", `{"id":1,"enabled":true,"apiKey":"k","ip":"h","port":8686,"ssl":false,"subDir":"","defaultQualityProfile":"1","defaultRootPath":"/m","albumFolder":true,"metadataProfileId":1,"addOnly":false}`, nil},
		{"lidarr metadata, a member LidarrSettings lacks", "POST", "/api/v1/Lidarr/Metadata", `{"apiKey":"k","ip":"h","profileName":"x"}`, []string{"profileName"}},
		{"discord tester, the saved view model with its templates", "POST", "/api/v1/Tester/discord", `{"id":3,"enabled":true,"webhookUrl":"u","username":"o","icon":"","hideUser":false,"notificationTemplates":[]}`, nil},
		{"discord tester, a member of another agent", "POST", "/api/v1/Tester/discord", `{"webhookUrl":"u","chatId":"1"}`, []string{"chatId"}},
		{"emby info, the saved server, any case", "POST", "/api/v1/emby/INFO", `{"ServerId":"s","apiKey":"k","embySelectedLibraries":[]}`, nil},
	}
	for _, tt := range tests {
		r, ok := ledgerRoute(mockombi.Call{Method: tt.method, Path: tt.path})
		if !ok {
			t.Errorf("%s: %s %s is not in the ledger", tt.name, tt.method, tt.path)
			continue
		}
		if r.BodyModel == "" {
			t.Errorf("%s: the ledger names no body model for %s", tt.name, tt.path)
		}
		if got := unknownMembers([]byte(tt.body), r.Body); !slices.Equal(got, tt.want) {
			t.Errorf("%s: unknownMembers = %q, want %q", tt.name, got, tt.want)
		}
	}
}
