package state

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// TestMarshalWith_asTheMapItStandsFor: a view with its undocumented
// members encodes as the map of all its members does (encoding/json sorts
// a map's members), a modelled member winning over an undocumented one of
// the same name, with HTML characters left as they are.
func TestMarshalWith_asTheMapItStandsFor(t *testing.T) {
	when := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	vote := &Vote{Date: when, ID: 3, RequestID: 7, RequestType: VoteMediaTV, VoteType: VoteDown, Voter: "<al&ice>"}
	fields := map[string]any{"date": when, "deleted": false, "id": 3, "requestId": 7, "requestType": VoteMediaTV,
		"voteType": VoteDown, "voter": "<al&ice>"}
	tests := []struct {
		name  string
		extra Extra
	}{
		{"no extra", nil},
		{"empty extra", Extra{}},
		{"members before, between and after", Extra{"a": 1.5, "clientHint": "web <&>", "requestIdx": []any{"x"}, "zz": nil}},
		{"a modelled name", Extra{"id": 99, "voter": "someone else", "nested": map[string]any{"b": 1, "a": 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vote.Extra = tt.extra
			want := map[string]any{}
			for k, v := range tt.extra {
				want[k] = v
			}
			for k, v := range fields {
				want[k] = v
			}
			wantJSON, err := Encode(want)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Encode([]*Vote{vote})
			if err != nil {
				t.Fatal(err)
			}
			if want := append(append([]byte("["), wantJSON...), ']'); !bytes.Equal(got, want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// TestVoteRecord_membersInWireOrder: a record encodes with Ombi's member
// names in sorted order and its user navigation null.
func TestVoteRecord_membersInWireOrder(t *testing.T) {
	v := &Vote{Date: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ID: 1, RequestID: 2, RequestType: VoteMediaMovie, VoteType: VoteUp, Voter: "bob",
		Extra: Extra{"clientHint": "tv"}}
	got, err := json.Marshal(v.Record("u-1"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"clientHint":"tv","date":"2026-01-02T03:04:05Z","deleted":false,"id":1,"requestId":2,"requestType":1,"user":null,"userId":"u-1","voteType":0}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestIssue_asADataDocumentHoldsIt: an issue encodes with its members in
// sorted order, an empty comment list for none and its undocumented
// members in their places.
func TestIssue_asADataDocumentHoldsIt(t *testing.T) {
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	pid := "603"
	tests := []struct {
		name  string
		issue Issue
		want  string
	}{
		{"no comments", Issue{ID: 1, ProviderID: &pid, CreatedDate: when, Reporter: "bob", Title: "T"},
			`{"comments":[],"createdDate":"2026-01-02T03:04:05Z","description":"","id":1,"issueCategoryId":0,"posterPath":null,"providerId":"603","reporter":"bob","requestId":null,"requestType":0,"resovledDate":null,"status":0,"subject":"","title":"T"}`},
		{"a comment and extras", Issue{ID: 2, CreatedDate: when, Comments: []*IssueComment{{ID: 5, Author: "al", Comment: "<x>", Date: when, IssueID: 2}},
			Extra: Extra{"generated": true, "aaa": 1}},
			`{"aaa":1,"comments":[{"author":"al","comment":"<x>","date":"2026-01-02T03:04:05Z","id":5}],"createdDate":"2026-01-02T03:04:05Z","description":"","generated":true,"id":2,"issueCategoryId":0,"posterPath":null,"providerId":null,"reporter":"","requestId":null,"requestType":0,"resovledDate":null,"status":0,"subject":"","title":""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(&tt.issue)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestMarshalWith_theLongWay: a struct the member walk cannot read (fields
// out of order, a tag with options) is encoded through a map, with the
// same bytes; a string member equal to its own name is written as a value.
func TestMarshalWith_theLongWay(t *testing.T) {
	type outOfOrder struct {
		Zed   string `json:"zed"`
		Alpha string `json:"alpha"`
	}
	type withOptions struct {
		Alpha string `json:"alpha,omitempty"`
		Zed   string `json:"zed"`
	}
	type sorted struct {
		Alpha string `json:"alpha"`
		Zed   string `json:"zed"`
	}
	extra := Extra{"mid": "<m>", "zed": "ignored"}
	want := `{"alpha":"alpha","mid":"<m>","zed":"zed"}`
	for name, v := range map[string]any{
		"out of order": &outOfOrder{Zed: "zed", Alpha: "alpha"},
		"with options": &withOptions{Alpha: "alpha", Zed: "zed"},
		"sorted":       &sorted{Alpha: "alpha", Zed: "zed"},
	} {
		got, err := marshalWith(v, extra)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s: got %s, want %s", name, got, want)
		}
	}
}
