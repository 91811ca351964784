package state

import (
	"bytes"
	"encoding/json"
	"strings"
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

// TestMarshalWith_theLongWay: fields declared out of order or with
// omitempty are written sorted, with the same bytes as the map of the
// members; a string member equal to its own name is written as a value.
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

// TestMarshalWith_embeddedAndOmitted: a view that embeds a struct, and
// leaves out an empty omitempty member, encodes as the map of its members
// does: all sorted together, an undocumented member taking the place of
// an omitted modelled one.
func TestMarshalWith_embeddedAndOmitted(t *testing.T) {
	note := "n"
	tests := []struct {
		name string
		req  *AlbumRequest
		want string
	}{
		{"no extra", &AlbumRequest{BaseRequest: BaseRequest{ID: 4, Title: "T"}, ArtistName: "A", Rating: 1.5},
			`{"approved":false,"artistName":"A","available":false,"canApprove":false,"cover":"","denied":null,"deniedReason":null,"disk":"","foreignAlbumId":"","foreignArtistId":"","id":4,"markedAsApproved":"0001-01-01T00:00:00Z","markedAsAvailable":null,"markedAsDenied":"0001-01-01T00:00:00Z","rating":1.5,"releaseDate":"0001-01-01T00:00:00Z","requestStatus":"","requestType":0,"requestedByAlias":null,"requestedDate":"0001-01-01T00:00:00Z","requestedUser":null,"requestedUserId":"","showSubscribe":false,"source":0,"subscribed":false,"title":"T"}`},
		{"extra among both", &AlbumRequest{BaseRequest: BaseRequest{DeniedReason: &note}, Extra: Extra{"b": 1, "id": 9, "zz": "<z>"}},
			`{"approved":false,"artistName":"","available":false,"b":1,"canApprove":false,"cover":"","denied":null,"deniedReason":"n","disk":"","foreignAlbumId":"","foreignArtistId":"","id":0,"markedAsApproved":"0001-01-01T00:00:00Z","markedAsAvailable":null,"markedAsDenied":"0001-01-01T00:00:00Z","rating":0,"releaseDate":"0001-01-01T00:00:00Z","requestStatus":"","requestType":0,"requestedByAlias":null,"requestedDate":"0001-01-01T00:00:00Z","requestedUser":null,"requestedUserId":"","showSubscribe":false,"source":0,"subscribed":false,"title":"","zz":"<z>"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	child := func(extra Extra, parent *TvRequests) string {
		b, err := Encode(&ChildRequests{ParentRequest: parent, Extra: extra})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := child(Extra{"parentRequest": "from the data"}, nil); !strings.Contains(got, `"parentRequest":"from the data","parentRequestId":0`) {
		t.Errorf("omitted parentRequest, undocumented one: %s", got)
	}
	if got := child(Extra{"parentRequest": "from the data"}, &TvRequests{ID: 3}); !strings.Contains(got, `"parentRequest":{"background":""`) ||
		strings.Contains(got, "from the data") {
		t.Errorf("modelled parentRequest: %s", got)
	}
}

// TestMembers_theMapAViewStandsFor: a view's members by wire name, an
// embedded struct's among them, the undocumented ones where no modelled
// member is written, an omitted member absent.
func TestMembers_theMapAViewStandsFor(t *testing.T) {
	got := Members(&ChildRequests{BaseRequest: BaseRequest{Title: "T"}, SeriesType: 2, Extra: Extra{"title": "x", "sonarr": 7.0}})
	for name, want := range map[string]any{"title": "T", "seriesType": 2, "sonarr": 7.0, "parentRequestId": 0} {
		if got[name] != want {
			t.Errorf("%s = %#v, want %#v", name, got[name], want)
		}
	}
	if _, ok := got["parentRequest"]; ok {
		t.Error("an omitted parentRequest is a member")
	}
	if len(got) != 27 {
		t.Errorf("%d members, want 27: %v", len(got), got)
	}
}
