package server

import (
	"strings"
	"testing"
)

func TestJSONDepth(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{`{}`, 1},
		{`{"a":[1,{"b":2}]}`, 3},
		{`{"a":"[[[[{{{{"}`, 1},
		{`{"a":"\"[[["}`, 1},
		{strings.Repeat("[", 2000) + strings.Repeat("]", 2000), 2000},
	}
	for _, tt := range tests {
		if got := jsonDepth([]byte(tt.in)); got != tt.want {
			t.Errorf("jsonDepth(%.40q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestTopLevelID(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		wantOK bool
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"x"}`, "7", true},
		{`{"jsonrpc":"2.0","method":"x","params":{"id":9},"id":"abc"}`, `"abc"`, true},
		{`{"params":{"id":9},"method":"notifications/x"}`, "", false},
		{`{"method":"x","params":{"q":"\"id\":5"},"id": 12 }`, "12", true},
		{`{"id":null}`, "", false},
	}
	for _, tt := range tests {
		got, ok := topLevelID([]byte(tt.in))
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("topLevelID(%s) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}
