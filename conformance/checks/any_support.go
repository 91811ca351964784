package checks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/onsi/ginkgo/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ombi-mcp/ombi-mcp/conformance/gen"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// This file holds what the any area builds its calls from and judges them
// by: arguments drawn from a tool's own schema and the mock's data, and
// the hygiene of what a tool says.

// schemaOf is a tool's input schema as JSON and decoded.
func schemaOf(t *mcp.Tool) (json.RawMessage, map[string]any) {
	raw, _ := json.Marshal(t.InputSchema)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return raw, m
}

// inputSchema is a tool's input schema as JSON, decoded and compiled.
func inputSchema(t *mcp.Tool) (json.RawMessage, map[string]any, *jsonschema.Schema, error) {
	raw, m := schemaOf(t)
	compiled, err := spec.Compile("mem://any/"+t.Name+"/inputSchema.json", raw, false)
	return raw, m, compiled, err
}

// outputSchema compiles a tool's outputSchema; nil when it has none or it
// does not compile (ANY-SURFACE-001 reports that).
func outputSchema(t *mcp.Tool) *jsonschema.Schema {
	if t.OutputSchema == nil {
		return nil
	}
	raw, _ := json.Marshal(t.OutputSchema)
	s, err := spec.Compile("mem://any/"+t.Name+"/outputSchema.json", raw, false)
	if err != nil {
		return nil
	}
	return s
}

// validateJSON validates a JSON text against a compiled schema.
func validateJSON(s *jsonschema.Schema, raw []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// mockPool is what the mock's data offers arguments: ids by the member
// that holds them (theMovieDbId, tvDbId, id...), and titles.
type mockPool struct {
	ids    map[string][]int64
	titles []string
}

// pool reads ids (integer members whose name ends in "id", by member) and
// titles (string members named title or name) once a run: from the mock's
// state (its seed data), or from a live Ombi's own answers.
func (s *Suite) pool() mockPool {
	s.anyMu.Lock()
	defer s.anyMu.Unlock()
	if s.mockPool == nil {
		var p mockPool
		if s.h.Upstream.IsLive() { // a live Ombi's data is not the mock's
			p = discoverPool(s.opts.OmbiURL, s.opts.AuthMode, s.h.Upstream.Credentials())
		} else {
			p = readPool(s.h.Upstream)
		}
		s.mockPool = &p
	}
	return *s.mockPool
}

func readPool(up *harness.Upstream) mockPool {
	p := mockPool{ids: map[string][]int64{}}
	m := up.Mock()
	if m == nil {
		return p
	}
	var buf bytes.Buffer
	if m.WriteState(&buf) != nil {
		return p
	}
	p.add(buf.Bytes())
	p.sort()
	return p
}

// discoveryRoutes are the reads that show a live Ombi's ids and titles:
// popular titles, the newest requests, the pending issues.
var discoveryRoutes = []string{
	"/api/v2/Search/movie/popular/0/20",
	"/api/v2/Search/tv/popular/0/20",
	"/api/v2/Requests/movie/20/0/RequestedDate/desc",
	"/api/v2/Requests/tv/20/0/RequestedDate/desc",
	"/api/v1/Issues/20/0/0",
}

// discoverPool reads ids and titles from a live Ombi (directly, not through
// the proxy: these reads are the suite's, not the server's), with the
// run's credentials; a read that fails adds nothing.
func discoverPool(base, mode string, creds harness.Credentials) mockPool {
	p := mockPool{ids: map[string][]int64{}}
	client := &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	base = strings.TrimRight(base, "/")
	header := http.Header{"Accept": {"application/json"}}
	if mode == "api_key" {
		header.Set("ApiKey", creds.APIKey)
		if creds.UserName != "" {
			header.Set("UserName", creds.UserName)
		}
	} else {
		body, _ := json.Marshal(map[string]string{"username": creds.Username, "password": creds.Password})
		resp, err := client.Post(base+"/api/v1/Token", "application/json", bytes.NewReader(body))
		if err != nil {
			return p
		}
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		_ = json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&tok)
		_ = resp.Body.Close()
		header.Set("Authorization", "Bearer "+tok.AccessToken)
	}
	for _, route := range discoveryRoutes {
		req, err := http.NewRequest(http.MethodGet, base+route, nil)
		if err != nil {
			continue
		}
		req.Header = header.Clone()
		resp, err := client.Do(req)
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
		_ = resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			p.add(b)
		}
	}
	p.sort()
	return p
}

// add reads the ids and titles of a JSON document into the pool.
func (p *mockPool) add(doc []byte) {
	v, err := decodeNumbered(doc)
	if err != nil {
		return
	}
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				lk := strings.ToLower(k)
				switch x := x.(type) {
				case json.Number:
					if n, err := x.Int64(); err == nil && n > 0 && strings.HasSuffix(lk, "id") && !slices.Contains(p.ids[lk], n) {
						p.ids[lk] = append(p.ids[lk], n)
					}
				case string:
					if (lk == "title" || lk == "name") && x != "" && utf8.RuneCountInString(x) <= 80 && !slices.Contains(p.titles, x) {
						p.titles = append(p.titles, x)
					}
				default:
					walk(x)
				}
			}
		case []any:
			for _, x := range t {
				walk(x)
			}
		}
	}
	walk(v)
}

// sort orders the pool, so that what is drawn from it depends only on the
// seed.
func (p *mockPool) sort() {
	for _, ids := range p.ids {
		slices.Sort(ids)
	}
	sort.Strings(p.titles)
}

// idClasses are the members of the mock's data whose ids suit an integer
// argument, by words of its name, most likely first; an argument named
// only "id" tries each in turn.
var idClasses = []struct {
	words   []string
	members []string
}{
	{[]string{"tmdb", "moviedb"}, []string{"themoviedbid"}},
	{[]string{"tvdb"}, []string{"tvdbid"}},
	{[]string{"request"}, []string{"id", "requestid"}},
	{[]string{"issue"}, []string{"id"}},
	{[]string{"movie"}, []string{"themoviedbid"}},
	{[]string{"show", "series", "tv"}, []string{"tvdbid"}},
	{[]string{"id"}, []string{"themoviedbid", "id", "tvdbid"}},
}

// textWords pick the string arguments a title of the mock's data suits.
var textWords = []string{"query", "text", "term", "title", "search", "keyword"}

// idsFor returns the member of the mock's data whose ids suit an integer
// argument named name, for the i-th argument object drawn; "" when none.
func idsFor(p mockPool, name string, i int) []int64 {
	lname := strings.ToLower(name)
	for _, c := range idClasses {
		if slices.ContainsFunc(c.words, func(w string) bool { return strings.Contains(lname, w) }) {
			ids := p.ids[c.members[i%len(c.members)]]
			if len(ids) > 16 {
				ids = ids[:16] // the first entities of a kind: requests and issues number from 1
			}
			return ids
		}
	}
	return nil
}

// validArgs draws n argument objects the tool's input schema accepts,
// deterministically for the run's seed and the tool; two of every three
// have their id and text members replaced with the mock's ids and titles
// where the schema still accepts them, so that calls reach real entities.
func (s *Suite) validArgs(t *mcp.Tool, n int) ([]json.RawMessage, error) {
	raw, schema, compiled, err := inputSchema(t)
	if err != nil {
		return nil, fmt.Errorf("the inputSchema does not compile: %v", err)
	}
	g, err := gen.FromSchema(raw)
	if err != nil {
		return nil, err
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(t.Name))
	seed := int(ginkgo.GinkgoRandomSeed()%1_000_000) + int(h.Sum32()%1_000_000)
	p := s.argPool(t)
	props, _ := schema["properties"].(map[string]any)
	var out []json.RawMessage
	for i := 0; len(out) < n && i < 8*n; i++ {
		v := g.Example(seed + i)
		if obj, ok := v.(map[string]any); ok && len(out)%3 != 2 {
			seeded := make(map[string]any, len(obj))
			for k, x := range obj {
				seeded[k] = fromPool(p, k, props[k], x, seed+i, len(out))
			}
			if b, err := json.Marshal(seeded); err == nil && validateJSON(compiled, b) == nil {
				v = seeded
			}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		if own := s.ownArgs(t.Name, b); validateJSON(compiled, own) == nil {
			b = own // a live run that writes: on the entities it created
		}
		if validateJSON(compiled, b) == nil { // the generator does not know every keyword
			out = append(out, b)
		}
	}
	return out, nil
}

// fromPool replaces a drawn value with one of the mock's when the member
// is an id or a search text; nth is the index of the object drawn.
func fromPool(p mockPool, name string, schema any, drawn any, seed, nth int) any {
	sc, _ := schema.(map[string]any)
	pick := func(n int) int { return (seed*7919 + len(name)*31) % n }
	switch sc["type"] {
	case "integer":
		if ids := idsFor(p, name, nth); len(ids) > 0 {
			return ids[pick(len(ids))]
		}
	case "string":
		lname := strings.ToLower(name)
		if _, enum := sc["enum"]; !enum && len(p.titles) > 0 && slices.ContainsFunc(textWords, func(w string) bool { return strings.Contains(lname, w) }) {
			return p.titles[pick(len(p.titles))]
		}
	}
	return drawn
}

// badArgs is one argument object the tool's schema refuses, and why.
type badArgs struct {
	args json.RawMessage
	why  string
}

// invalidArgs builds, from a schema-valid object, objects the tool's own
// schema refuses: a required member missing, a member of the wrong type,
// an unknown member (when the schema closes the object), a value outside
// an enum. Each is checked against the schema.
func invalidArgs(t *mcp.Tool) []badArgs {
	raw, schema, compiled, err := inputSchema(t)
	if err != nil {
		return nil
	}
	g, err := gen.FromSchema(raw)
	if err != nil {
		return nil
	}
	base, ok := g.Example(1).(map[string]any)
	if !ok {
		return nil
	}
	props, _ := schema["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []badArgs
	add := func(why string, edit func(map[string]any)) {
		m := make(map[string]any, len(base)+1)
		for k, v := range base {
			m[k] = v
		}
		edit(m)
		b, _ := json.Marshal(m)
		if validateJSON(compiled, b) != nil {
			out = append(out, badArgs{b, why})
		}
	}
	if req, _ := schema["required"].([]any); len(req) > 0 {
		if name, ok := req[0].(string); ok {
			add("the required member "+name+" missing", func(m map[string]any) { delete(m, name) })
		}
	}
	for _, name := range names {
		sc, _ := props[name].(map[string]any)
		if typ, _ := sc["type"].(string); typ != "" {
			wrong := any("not a " + typ)
			if typ == "string" {
				wrong = 12345
			}
			add(fmt.Sprintf("%s of the wrong type (%s)", name, kindOf(wrong)), func(m map[string]any) { m[name] = wrong })
			break
		}
	}
	if schema["additionalProperties"] == false {
		add("an unknown member unexpected_member", func(m map[string]any) { m["unexpected_member"] = 1 })
	}
	for _, name := range names {
		sc, _ := props[name].(map[string]any)
		if _, ok := sc["enum"]; ok {
			add(name+" outside its enum", func(m map[string]any) { m[name] = "not-one-of-the-enum" })
			break
		}
	}
	return out
}

func kindOf(v any) string {
	if _, ok := v.(string); ok {
		return "a string"
	}
	return "a number"
}

// mapStrings returns v with every string value (not member names) replaced
// by f's result.
func mapStrings(v any, f func(string) any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = mapStrings(x, f)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = mapStrings(x, f)
		}
		return out
	case string:
		return f(t)
	}
	return v
}

// What a tool must not pass on to a model.
var (
	htmlTag    = regexp.MustCompile(`(?i)<\s*(!doctype|html|head|body|title|center|hr|div|script|style|h1|p)\b[^>]*>`)
	stackTrace = regexp.MustCompile(`(?m)(^\s+at [\w.$<>\[\]` + "`" + `]+[ (]|\.cs:line \d+|Traceback \(most recent call last\)|File "[^"]+", line \d+|^goroutine \d+ \[|\.(m?js|ts|py|go):\d+(:\d+)?\)?$)`)
)

// hygiene names what a result or error says that it must not: a control
// or bidi character in any string (the text block read as JSON when it is
// JSON), HTML, a stack trace, or more than anyResultMax bytes.
func hygiene(o *harness.Outcome) []string {
	var out []string
	var texts []string
	if o.Result != nil {
		texts = append(texts, o.Text)
		var v any
		if json.Unmarshal([]byte(o.Text), &v) == nil {
			texts = append(texts, stringsOf(v)...)
		}
		if len(o.Structured) > 0 && json.Unmarshal(o.Structured, &v) == nil {
			texts = append(texts, stringsOf(v)...)
		}
		if n := len(o.Text) + len(o.Structured); n > anyResultMax {
			out = append(out, fmt.Sprintf("ANY-HYGIENE-001: the result has %d bytes, more than %d: a model cannot use it", n, anyResultMax))
		}
	}
	if o.RPCError != nil {
		texts = append(texts, o.RPCError.Message, string(o.RPCError.Data))
	}
	return append(out, textBreaches(texts)...)
}

// textBreaches names what texts a model reads must not carry: a control or
// bidi character, HTML or a stack trace.
func textBreaches(texts []string) []string {
	var out []string
	for _, t := range texts {
		if r, at, ok := controlRune(t); ok {
			out = append(out, fmt.Sprintf("ANY-HYGIENE-001: a control character U+%04X reached the model: …%s…", r, excerptAt(t, at)))
			break
		}
	}
	for _, t := range texts {
		if loc := htmlTag.FindStringIndex(t); loc != nil {
			out = append(out, "ANY-HYGIENE-001: HTML reached the model: …"+excerptAt(t, loc[0])+"…")
			break
		}
	}
	for _, t := range texts {
		if loc := stackTrace.FindStringIndex(t); loc != nil {
			out = append(out, "ANY-HYGIENE-001: a stack trace reached the model: …"+excerptAt(t, loc[0])+"…")
			break
		}
	}
	return out
}

// stringsOf lists every string value in a decoded JSON value.
func stringsOf(v any) []string {
	var out []string
	mapStrings(v, func(s string) any { out = append(out, s); return s })
	return out
}

// controlRune finds the first C0 (but tab, newline and carriage return),
// DEL, C1 or bidi control character of s.
func controlRune(s string) (rune, int, bool) {
	for i, r := range s {
		switch {
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r',
			r >= 0x7f && r <= 0x9f,
			r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			return r, i, true
		}
	}
	return 0, 0, false
}

// excerptAt quotes up to 60 bytes either side of i.
func excerptAt(s string, i int) string {
	lo, hi := max(0, i-60), min(len(s), i+60)
	return fmt.Sprintf("%q", strings.ToValidUTF8(s[lo:hi], "?"))
}
