package ombi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/ombi-mcp/ombi-mcp/internal/jsonvalue"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// decodeTargets are the types the client decodes answers into (the type
// arguments of send and Do).
var decodeTargets = []reflect.Type{
	reflect.TypeFor[*bool](), reflect.TypeFor[*int](), reflect.TypeFor[bool](), reflect.TypeFor[int](),
	reflect.TypeFor[string](), reflect.TypeFor[[]string](), reflect.TypeFor[json.RawMessage](),
	reflect.TypeFor[ActorCredits](), reflect.TypeFor[ArtistInfo](), reflect.TypeFor[CollectionInfo](),
	reflect.TypeFor[Comment](), reflect.TypeFor[CronTest](), reflect.TypeFor[EngineResult](),
	reflect.TypeFor[IdentityResult](), reflect.TypeFor[IssueCount](), reflect.TypeFor[Media](),
	reflect.TypeFor[MovieRatings](), reflect.TypeFor[Quota](), reflect.TypeFor[Ref](),
	reflect.TypeFor[ReleaseGroup](), reflect.TypeFor[Request](), reflect.TypeFor[RequestCount](),
	reflect.TypeFor[RequestsPage](), reflect.TypeFor[Stats](), reflect.TypeFor[TVParent](),
	reflect.TypeFor[TVRatings](), reflect.TypeFor[Update](), reflect.TypeFor[User](),
	reflect.TypeFor[VoteResult](), reflect.TypeFor[[]Album](), reflect.TypeFor[[]Artist](),
	reflect.TypeFor[[]Calendar](), reflect.TypeFor[[]Claim](), reflect.TypeFor[[]Comment](),
	reflect.TypeFor[[]Feature](), reflect.TypeFor[[]HubUser](), reflect.TypeFor[[]Issue](),
	reflect.TypeFor[[]IssueGroup](), reflect.TypeFor[[]Media](), reflect.TypeFor[[]Multi](),
	reflect.TypeFor[[]Preference](), reflect.TypeFor[[]Recent](), reflect.TypeFor[[]RecentlyAdded](),
	reflect.TypeFor[[]Ref](), reflect.TypeFor[[]Request](), reflect.TypeFor[[]Retry](),
	reflect.TypeFor[[]Streaming](), reflect.TypeFor[[]TVParent](), reflect.TypeFor[[]TVRequest](),
	reflect.TypeFor[[]User](), reflect.TypeFor[[]Vote](), reflect.TypeFor[[]VoteSummary](),
}

// mockAnswers are the mock's JSON answers to every GET route the client
// calls (each "// upstream: GET" line, placeholders filled with 1), in
// the default and the large data sets.
func mockAnswers(t *testing.T) [][]byte {
	t.Helper()
	placeholder := regexp.MustCompile(`\{[^}]+\}`)
	var paths []string
	for line := range upstreamComments(t) {
		if p, ok := strings.CutPrefix(line, "GET "); ok {
			paths = append(paths, placeholder.ReplaceAllString(p, "1"))
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	var out [][]byte
	for _, data := range []string{"default", "large"} {
		m, err := mockombi.New(mockombi.Options{DataSet: data})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			req := httptest.NewRequest(http.MethodGet, p, nil)
			req.Header.Set("ApiKey", m.Credentials().APIKey)
			w := httptest.NewRecorder()
			m.Handler().ServeHTTP(w, req)
			if b := w.Body.Bytes(); w.Code == http.StatusOK && json.Valid(b) && len(b) < 1<<20 {
				out = append(out, bytes.Clone(b))
			}
		}
	}
	if len(out) < 50 {
		t.Fatalf("the mock answered %d of %d GET routes with JSON", len(out), len(paths))
	}
	return out
}

// oddValues are what a mutation puts in place of a value (JSON text, so
// each use is a fresh value): the edges where two decoders could part
// (overflow, fractions, -0, wrong kinds, control and bidi characters,
// empty containers).
var oddValues = []string{
	`""`, `"x"`, `"\u0000\u202e\u001b"`, `"603"`, `" 603 "`, `1e400`, `-0`, `2.5`, `2.5e3`,
	`9223372036854775808`, `2147483648`, `-1`, `0`, `1`, `true`, `false`, `null`, `{}`, `[]`, `[1]`,
	`{"id":1,"title":"t"}`,
}

// oddBytes are inserted into the text as it is: invalid UTF-8, a NUL, JSON
// punctuation and escapes.
var oddBytes = []string{"\xff", "\xc3", "\x00", `"`, `\`, `\u00`, `\ud800`, "}", "]", ",", ":", " x", "[]", "\t"}

// mutate changes doc a few times: values replaced by odd ones, keys in
// another case or doubled, bytes inserted or the text cut.
func mutate(t *rapid.T, doc []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("seed: %v", err)
	}
	for i := range rapid.IntRange(0, 4).Draw(t, "tree_mutations") {
		v = mutateValue(t, v, i)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	switch rapid.IntRange(0, 5).Draw(t, "text_mutation") {
	case 0:
		at := rapid.IntRange(0, len(b)).Draw(t, "at")
		b = slices.Insert(b, at, []byte(rapid.SampledFrom(oddBytes).Draw(t, "bytes"))...)
	case 1:
		b = b[:rapid.IntRange(0, len(b)).Draw(t, "cut")]
	case 2: // a member written twice: the last one wins
		if at := bytes.IndexByte(b, '{'); at >= 0 && at+1 < len(b) && b[at+1] == '"' {
			if end := bytes.IndexAny(b[at+1:], ",}"); end > 0 {
				member := b[at+1 : at+1+end]
				b = slices.Insert(b, at+1, append(bytes.Clone(member), ',')...)
			}
		}
	}
	return b
}

// mutateValue replaces one node of v, picked by walking down at random,
// with an odd value, or renames a member.
func mutateValue(t *rapid.T, v any, i int) any {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 || rapid.IntRange(0, 3).Draw(t, "stop") == 0 {
			break
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		k := rapid.SampledFrom(keys).Draw(t, "key")
		switch rapid.IntRange(0, 5).Draw(t, "member_op") {
		case 0: // another case: both decoders match names ignoring case
			x[strings.ToUpper(k)] = x[k]
			delete(x, k)
		case 1:
			delete(x, k)
		default:
			x[k] = mutateValue(t, x[k], i)
		}
		return x
	case []any:
		if len(x) == 0 || rapid.IntRange(0, 3).Draw(t, "stop") == 0 {
			break
		}
		at := rapid.IntRange(0, len(x)-1).Draw(t, "index")
		x[at] = mutateValue(t, x[at], i)
		return x
	}
	dec := json.NewDecoder(strings.NewReader(rapid.SampledFrom(oddValues).Draw(t, "odd")))
	dec.UseNumber()
	var odd any
	if err := dec.Decode(&odd); err != nil {
		t.Fatalf("odd value: %v", err)
	}
	return odd
}

// TestUnmarshal_agreesWithEncodingJSON: the client's decoder
// (jsonvalue.Unmarshal) gives what encoding/json gives, error or value,
// for every decode target, on the mock's answers mutated at the edges
// where decoders part.
func TestUnmarshal_agreesWithEncodingJSON(t *testing.T) {
	seeds := mockAnswers(t)
	rapid.Check(t, func(t *rapid.T) {
		doc := mutate(t, rapid.SampledFrom(seeds).Draw(t, "seed"))
		for _, typ := range decodeTargets {
			want, got := reflect.New(typ), reflect.New(typ)
			wantErr := json.Unmarshal(doc, want.Interface())
			gotErr := jsonvalue.Unmarshal(doc, got.Interface())
			switch {
			case (wantErr == nil) != (gotErr == nil):
				t.Fatalf("%s from %q: encoding/json says %v, unmarshal %v", typ, clip(doc), wantErr, gotErr)
			case wantErr != nil && wantErr.Error() != gotErr.Error():
				t.Fatalf("%s from %q: encoding/json says %v, unmarshal %v", typ, clip(doc), wantErr, gotErr)
			case wantErr == nil && !reflect.DeepEqual(want.Interface(), got.Interface()):
				t.Fatalf("%s from %q: encoding/json decodes %s, unmarshal %s", typ, clip(doc), clip(fmt.Appendf(nil, "%+v", want.Elem())), clip(fmt.Appendf(nil, "%+v", got.Elem())))
			}
		}
	})
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}
