package server

import "testing"

func TestSanitizeMessage(t *testing.T) {
	tests := []struct {
		in, want string
		secrets  []string
	}{
		{in: `"Fight Club" has already been requested`, want: `"Fight Club" has already been requested`},
		{in: "You have exceeded your Movie request quota!", want: "You have exceeded your Movie request quota!"},
		{in: "<html><body>Error</body></html>"},
		{in: "Object reference not set\n   at Ombi.Core.Engine.X() in /src/X.cs:line 42"},
		{in: "Server=db;Database=Ombi;User Id=sa;Password=hunter2"},
		{in: "see http://user:pass@host/x"},
		{in: "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig"},
		{in: "token 0b6d0e2c4f8a4d1e9c3b7a5f2e1d4c6b rejected"},
		{in: "bad key 0b6d0e2c-4f8a-4d1e-9c3b-7a5f2e1d4c6b"},
		{in: "invalid for alice", secrets: []string{"alice"}},
		{in: "Invalid API Key"},
		{in: "{\"error\":\"x\"}"},
		{in: string(make([]byte, 300))},
		{in: "tab\tseparated"},
		{in: "   "},
	}
	for _, tt := range tests {
		if got := sanitizeMessage(tt.in, tt.secrets...); got != tt.want {
			t.Errorf("sanitizeMessage(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
