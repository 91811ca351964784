package db

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/fixtures"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// stateVersion is the version of the data document format; a document may
// omit it.
const StateVersion = 1

// maxStateProblems is how many problems a StateError lists at most.
const maxStateProblems = 50

// stateSections lists the top-level keys of a data document in export order.
func stateSections() []string {
	return []string{"version", "movies", "collections", "people", "shows", "artists", "users", "requests", "issues", "votes", "settings", "recordings", "stubs"}
}

// StateError is a data document that failed validation. Each problem names
// the JSON path at fault, e.g. `$.movies[2].theMovieDbId: want an integer,
// got a string "603"`.
type StateError struct {
	Source   string   `json:"source"`
	Problems []string `json:"problems"`
}

// Error is the first problem and how many more there are.
func (e *StateError) Error() string {
	msg := e.Source + ": " + e.Problems[0]
	if n := len(e.Problems) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more problem", n)
		if n > 1 {
			msg += "s"
		}
		msg += ")"
	}
	return msg
}

// StateDoc is a validated data document, split into the seed files the
// domain loaders read.
type StateDoc struct {
	source string
	files  map[string]seedFile
	// logins are the document's users that carry a password.
	logins []User
	// recordings are recorded Ombi answers (Options.Record writes them).
	recordings []Recording
	// stubs are the canned answers given instead of the routes' own.
	stubs []Stub
}

// seedFile is one seed file built from a data document, with the JSON
// pointer prefix its content has in the document (for canary locations).
type seedFile struct {
	data   []byte
	prefix string
}

// stateUser is one user of a data document: a users.json record plus an
// optional login password.
type stateUser struct {
	seedUser
	Password string `json:"password"`
}

// stateIssues is the issues section of a data document.
type stateIssues struct {
	Categories []state.IssueCategory `json:"categories"`
	Issues     []state.Issue         `json:"issues"`
}

// stateShape is a data document as the validator sees it.
type stateShape struct {
	Version     *int                 `json:"version"`
	Movies      []*CatalogMovie      `json:"movies"`
	Collections []*catalogCollection `json:"collections"`
	People      []*catalogPerson     `json:"people"`
	Shows       []*CatalogShow       `json:"shows"`
	Artists     []*CatalogArtist     `json:"artists"`
	Users       []stateUser          `json:"users"`
	Requests    *requestsSeed        `json:"requests"`
	Issues      *stateIssues         `json:"issues"`
	Votes       []state.Vote         `json:"votes"`
	Settings    *state.Settings      `json:"settings"`
	Recordings  []Recording          `json:"recordings"`
	Stubs       []Stub               `json:"stubs"`
}

// ParseDoc validates a data document and turns it into seed files.
// extraLogins are the Options.Users that will be added to its users;
// served checks the recordings and stubs. Without semantics it checks the
// shape only, for a state this mock exported itself (RestoreState), and
// takes its settings as they are.
func ParseDoc(b []byte, source string, extraLogins []User, served Served, semantics bool) (*StateDoc, error) {
	fail := func(problems ...string) error { return &StateError{Source: source, Problems: problems} }
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, fail(jsonSyntaxProblem(b, err))
	}
	if dec.More() {
		return nil, fail("$: more than one JSON value")
	}
	top, ok := raw.(map[string]any)
	if !ok {
		return nil, fail("$: want an object with " + strings.Join(stateSections(), ", ") + ", got " + DescribeJSON(raw))
	}
	c := &shapeChecker{lenient: map[reflect.Type]bool{
		reflect.TypeFor[stateUser](): true, reflect.TypeFor[state.Issue](): true,
		reflect.TypeFor[state.IssueCategory](): true, reflect.TypeFor[state.Vote](): true,
	}}
	// check each section's shape, then the semantics of the sections whose
	// shape is right, so one run reports both kinds of problems
	fields := jsonFields(reflect.TypeFor[stateShape]())
	good := map[string]any{}
	c.broken = map[string]bool{}
	for _, k := range SortedKeys(top) {
		ft, ok := fields[k]
		if !ok {
			c.addf("$%s: unknown section; want one of %s", PathKey(k), strings.Join(stateSections(), ", "))
			continue
		}
		if k == "settings" && !semantics {
			// a state this mock exported keeps what clients posted to the
			// settings routes (state.Document), which a data file may not carry
			good[k] = top[k]
			continue
		}
		before := len(c.problems)
		c.check(top[k], ft, "$"+PathKey(k))
		if len(c.problems) > before {
			c.broken[k] = true
		} else {
			good[k] = top[k]
		}
	}
	var doc stateShape
	if err := json.Unmarshal(mustJSON(good), &doc); err != nil {
		return nil, fail("$: " + err.Error()) // the shape check passed, so this is unexpected
	}
	if semantics {
		c.semantics(&doc, extraLogins)
		for _, p := range served.CheckRecordings(doc.Recordings) {
			c.addf("%s", p)
		}
	}
	for i, st := range doc.Stubs { // a stub's rules hold for a restored state too
		if field, problem, ok := served.CheckStub(st); !ok {
			c.addf("$.stubs[%d].%s: %s", i, field, problem)
		}
	}
	if len(c.problems) > 0 {
		return nil, fail(c.problems...)
	}
	return buildStateDoc(source, top, &doc)
}

// buildStateDoc splits a validated document into the seed files.
func buildStateDoc(source string, top map[string]any, doc *stateShape) (*StateDoc, error) {
	section := func(name string, empty any) any {
		if v, ok := top[name]; ok && v != nil {
			return v
		}
		return empty
	}
	users := section("users", []any{}).([]any)
	files := map[string]any{
		"movies.json": map[string]any{"collections": section("collections", []any{}), "people": section("people", []any{}),
			"movies": section("movies", []any{})},
		"tv.json":       section("shows", []any{}),
		"music.json":    section("artists", []any{}),
		"users.json":    users,
		"requests.json": section("requests", map[string]any{}),
		"issues.json":   section("issues", map[string]any{}),
		"votes.json":    map[string]any{"votes": section("votes", []any{})},
	}
	prefixes := map[string]string{"movies.json": "", "tv.json": "/shows", "music.json": "/artists", "users.json": "/users",
		"requests.json": "/requests", "issues.json": "/issues", "votes.json": ""}
	d := &StateDoc{source: source, files: map[string]seedFile{}, recordings: doc.Recordings, stubs: doc.Stubs}
	for name, v := range files {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("%s: encode %s: %w", source, name, err)
		}
		d.files[name] = seedFile{data: b, prefix: prefixes[name]}
	}
	if settings, ok := top["settings"].(map[string]any); ok {
		// the sections given replace the built-in ones; the others stay
		merged := map[string]any{}
		b, err := fs.ReadFile(fixtures.Ombi(), "ombi/settings.json")
		if err == nil {
			err = json.Unmarshal(b, &merged)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: read built-in settings: %w", source, err)
		}
		maps.Copy(merged, settings)
		d.files["settings.json"] = seedFile{data: mustJSON(merged), prefix: "/settings"}
	}
	for _, u := range doc.Users {
		if u.Password != "" {
			d.logins = append(d.logins, User{Username: u.UserName, Password: u.Password, Role: loginRole(u.Roles)})
		}
	}
	return d, nil
}

// mustJSON encodes a value decoded from JSON, which cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// loginRole is the Credentials role of a set of Ombi roles.
func loginRole(roles []string) string {
	switch {
	case slices.Contains(roles, OmbiRoleAdmin):
		return RoleAdmin
	case slices.Contains(roles, OmbiRolePowerUser):
		return RolePowerUser
	}
	return RoleUser
}

// knownOmbiRoles are the role names a data document's users may carry:
// Ombi's seeded roles and ApiUser.
func knownOmbiRoles() []string {
	return append(slices.Clone(AllOmbiRoles), OmbiRoleAPIUser)
}

// jsonSyntaxProblem places a decode error at its line and column.
func jsonSyntaxProblem(b []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if off < 0 {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return "$: the document ends early (unexpected end of input)"
		}
		return "$: " + err.Error()
	}
	line, col := 1, 1
	for _, c := range b[:min(max(int(off)-1, 0), len(b))] { // Offset is just past the bad byte
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("$: invalid JSON at line %d, column %d: %v", line, col, err)
}

// shapeChecker compares decoded JSON with the Go types the loaders decode
// into and collects problems with their JSON paths.
type shapeChecker struct {
	problems []string
	// lenient types keep unknown keys as undocumented fields; the others
	// refuse them.
	lenient map[reflect.Type]bool
	// broken are the sections with shape problems: references into them
	// are not checked.
	broken map[string]bool
}

// addf records one problem.
func (c *shapeChecker) addf(format string, args ...any) {
	if len(c.problems) < maxStateProblems {
		c.problems = append(c.problems, fmt.Sprintf(format, args...))
	}
}

// check compares v with t at path. JSON null is accepted everywhere, as
// encoding/json accepts it.
func (c *shapeChecker) check(v any, t reflect.Type, path string) {
	if v == nil {
		return
	}
	if t == reflect.TypeFor[time.Time]() {
		s, ok := v.(string)
		if _, err := time.Parse(time.RFC3339, s); !ok || err != nil {
			c.addf("%s: want an RFC 3339 date-time such as \"2026-01-31T20:00:00Z\", got %s", path, DescribeJSON(v))
		}
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		c.check(v, t.Elem(), path)
	case reflect.Interface:
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			c.addf("%s: want true or false, got %s", path, DescribeJSON(v))
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			c.addf("%s: want a string, got %s", path, DescribeJSON(v))
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		n, ok := v.(json.Number)
		if _, err := strconv.ParseInt(string(n), 10, t.Bits()); !ok || err != nil {
			c.addf("%s: want an integer, got %s", path, DescribeJSON(v))
		}
	case reflect.Float64:
		n, ok := v.(json.Number)
		if _, err := n.Float64(); !ok || err != nil {
			c.addf("%s: want a number, got %s", path, DescribeJSON(v))
		}
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			c.addf("%s: want an array, got %s", path, DescribeJSON(v))
			return
		}
		for i, e := range list {
			c.check(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			c.addf("%s: want an object, got %s", path, DescribeJSON(v))
			return
		}
		for _, k := range SortedKeys(m) {
			c.check(m[k], t.Elem(), path+PathKey(k))
		}
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			c.addf("%s: want an object, got %s", path, DescribeJSON(v))
			return
		}
		fields := jsonFields(t)
		for _, k := range SortedKeys(m) {
			ft, known := fields[k]
			switch {
			case known:
				c.check(m[k], ft, path+PathKey(k))
			case c.lenient[t]:
			case fields["extra"] != nil:
				c.addf("%s: unknown field; put undocumented fields under \"extra\"", path+PathKey(k))
			default:
				c.addf("%s: unknown field", path+PathKey(k))
			}
		}
	}
}

// jsonFields maps the JSON names of t's fields to their types, promoting
// the fields of embedded structs as encoding/json does.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			maps.Copy(out, jsonFields(f.Type))
			continue
		}
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// DescribeJSON names a decoded JSON value for a problem message.
func DescribeJSON(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(t)
	case json.Number:
		return "the number " + t.String()
	case float64:
		return "the number " + strconv.FormatFloat(t, 'g', -1, 64)
	case string:
		if len(t) > 40 {
			t = t[:40] + "..."
		}
		return "the string " + strconv.Quote(t)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// PathKey is the path step to an object key: .name, or ["odd/name"].
func PathKey(k string) string {
	ok := k != ""
	for i, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			ok = false
		}
	}
	if ok {
		return "." + k
	}
	return "[" + strconv.Quote(k) + "]"
}

// SortedKeys lists a map's keys in order.
func SortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// semantics checks what the types cannot: required fields, unique ids and
// references between sections.
func (c *shapeChecker) semantics(d *stateShape, extraLogins []User) {
	if d.Version != nil && *d.Version != StateVersion {
		c.addf("$.version: %d is not supported; want %d", *d.Version, StateVersion)
	}
	seen := func() func(key any, path, field string) {
		first := map[any]string{}
		return func(key any, path, field string) {
			if prev, dup := first[key]; dup {
				c.addf("%s.%s: %v is already used by %s", path, field, key, prev)
				return
			}
			first[key] = path
		}
	}
	collections, people := map[int]bool{}, map[int]bool{}
	dupCollection := seen()
	for i, x := range d.Collections {
		p := fmt.Sprintf("$.collections[%d]", i)
		if x == nil || x.ID <= 0 {
			c.addf("%s.id: required, a positive TMDB collection id", p)
			continue
		}
		dupCollection(x.ID, p, "id")
		collections[x.ID] = true
	}
	dupPerson := seen()
	for i, x := range d.People {
		p := fmt.Sprintf("$.people[%d]", i)
		if x == nil || x.ID <= 0 {
			c.addf("%s.id: required, a positive TMDB person id", p)
			continue
		}
		dupPerson(x.ID, p, "id")
		people[x.ID] = true
	}
	dupMovie := seen()
	for i, m := range d.Movies {
		p := fmt.Sprintf("$.movies[%d]", i)
		if m == nil {
			c.addf("%s: want a movie object, got null", p)
			continue
		}
		if m.TheMovieDbID <= 0 {
			c.addf("%s.theMovieDbId: required, a positive TMDB id", p)
		} else {
			dupMovie(m.TheMovieDbID, p, "theMovieDbId")
		}
		if m.Title == "" {
			c.addf("%s.title: required", p)
		}
		if m.CollectionID != nil && !collections[*m.CollectionID] && !c.broken["collections"] {
			c.addf("%s.collectionId: no collection %d in $.collections", p, *m.CollectionID)
		}
		for field, ids := range map[string][]int{"cast": m.Cast, "crew": m.Crew} {
			for j, id := range ids {
				if !people[id] && !c.broken["people"] {
					c.addf("%s.%s[%d]: no person %d in $.people", p, field, j, id)
				}
			}
		}
	}
	dupShow, dupTVDB := seen(), seen()
	for i, sh := range d.Shows {
		p := fmt.Sprintf("$.shows[%d]", i)
		if sh == nil {
			c.addf("%s: want a show object, got null", p)
			continue
		}
		if sh.TheMovieDbID <= 0 {
			c.addf("%s.theMovieDbId: required, a positive TMDB id", p)
		} else {
			dupShow(sh.TheMovieDbID, p, "theMovieDbId")
		}
		if sh.TvDbID <= 0 {
			c.addf("%s.tvDbId: required, a positive TVDB id", p)
		} else {
			dupTVDB(sh.TvDbID, p, "tvDbId")
		}
		if sh.Title == "" {
			c.addf("%s.title: required", p)
		}
		for j, id := range sh.Cast {
			if !people[id] && !c.broken["people"] {
				c.addf("%s.cast[%d]: no person %d in $.people", p, j, id)
			}
		}
		dupSeason := seen()
		for j, se := range sh.Seasons {
			sp := fmt.Sprintf("%s.seasons[%d]", p, j)
			if se.SeasonNumber < 0 {
				c.addf("%s.seasonNumber: %d must not be negative", sp, se.SeasonNumber)
			}
			dupSeason(se.SeasonNumber, sp, "seasonNumber")
			dupEpisode := seen()
			for k, e := range se.Episodes {
				ep := fmt.Sprintf("%s.episodes[%d]", sp, k)
				if e.EpisodeNumber <= 0 {
					c.addf("%s.episodeNumber: required, a positive number", ep)
					continue
				}
				dupEpisode(e.EpisodeNumber, ep, "episodeNumber")
			}
		}
	}
	dupArtist, dupAlbum := seen(), seen()
	for i, a := range d.Artists {
		p := fmt.Sprintf("$.artists[%d]", i)
		if a == nil {
			c.addf("%s: want an artist object, got null", p)
			continue
		}
		if a.ForeignArtistID == "" {
			c.addf("%s.foreignArtistId: required, a MusicBrainz artist id", p)
		} else {
			dupArtist(strings.ToLower(a.ForeignArtistID), p, "foreignArtistId")
		}
		if a.ArtistName == "" {
			c.addf("%s.artistName: required", p)
		}
		for j, al := range a.Albums {
			ap := fmt.Sprintf("%s.albums[%d]", p, j)
			if al.ForeignAlbumID == "" {
				c.addf("%s.foreignAlbumId: required, a MusicBrainz release-group id", ap)
			} else {
				dupAlbum(strings.ToLower(al.ForeignAlbumID), ap, "foreignAlbumId")
			}
			if al.Title == "" {
				c.addf("%s.title: required", ap)
			}
		}
	}
	userIDs := map[string]bool{StableUUID("user:" + SystemUserName): true}
	for _, l := range extraLogins {
		userIDs[StableUUID("user:"+l.Username)] = true
	}
	dupUserID, dupUserName := seen(), seen()
	for i, u := range d.Users {
		p := fmt.Sprintf("$.users[%d]", i)
		if u.ID == "" {
			c.addf("%s.id: required, e.g. a GUID", p)
		} else {
			dupUserID(u.ID, p, "id")
			userIDs[u.ID] = true
		}
		if u.UserName == "" {
			c.addf("%s.userName: required", p)
		} else {
			dupUserName(strings.ToLower(u.UserName), p, "userName")
		}
		for j, r := range u.Roles {
			if !slices.Contains(knownOmbiRoles(), r) {
				c.addf("%s.roles[%d]: unknown role %q; want one of %s", p, j, r, strings.Join(knownOmbiRoles(), ", "))
			}
		}
	}
	userRef := func(id, path string) {
		if id != "" && !userIDs[id] && !c.broken["users"] {
			c.addf("%s: no user with id %q in $.users", path, id)
		}
	}
	if rq := d.Requests; rq != nil {
		dupMovieReq := seen()
		for i, m := range rq.Movies {
			p := fmt.Sprintf("$.requests.movies[%d]", i)
			if m == nil {
				c.addf("%s: want a movie request object, got null", p)
				continue
			}
			if m.ID <= 0 {
				c.addf("%s.id: required, a positive id", p)
			} else {
				dupMovieReq(m.ID, p, "id")
			}
			if m.TheMovieDbID <= 0 {
				c.addf("%s.theMovieDbId: required, a positive TMDB id", p)
			}
			userRef(m.RequestedUserID, p+".requestedUserId")
		}
		dupParent, dupChild, dupSeasonReq, dupEpisodeReq := seen(), seen(), seen(), seen()
		for i, pr := range rq.TV {
			p := fmt.Sprintf("$.requests.tv[%d]", i)
			if pr == nil {
				c.addf("%s: want a TV request object, got null", p)
				continue
			}
			if pr.ID <= 0 {
				c.addf("%s.id: required, a positive id", p)
			} else {
				dupParent(pr.ID, p, "id")
			}
			if pr.TvDbID <= 0 && pr.ExternalProviderID <= 0 {
				c.addf("%s: want a tvDbId or an externalProviderId (TMDB id)", p)
			}
			for j, ch := range pr.ChildRequests {
				cp := fmt.Sprintf("%s.childRequests[%d]", p, j)
				if ch == nil {
					c.addf("%s: want a child request object, got null", cp)
					continue
				}
				if ch.ID <= 0 {
					c.addf("%s.id: required, a positive id", cp)
				} else {
					dupChild(ch.ID, cp, "id")
				}
				userRef(ch.RequestedUserID, cp+".requestedUserId")
				for k, sr := range ch.SeasonRequests {
					sp := fmt.Sprintf("%s.seasonRequests[%d]", cp, k)
					if sr == nil {
						c.addf("%s: want a season request object, got null", sp)
						continue
					}
					if sr.ID <= 0 {
						c.addf("%s.id: required, a positive id", sp)
					} else {
						dupSeasonReq(sr.ID, sp, "id")
					}
					for l, e := range sr.Episodes {
						ep := fmt.Sprintf("%s.episodes[%d]", sp, l)
						if e == nil {
							c.addf("%s: want an episode request object, got null", ep)
							continue
						}
						if e.ID <= 0 {
							c.addf("%s.id: required, a positive id", ep)
						} else {
							dupEpisodeReq(e.ID, ep, "id")
						}
					}
				}
			}
		}
		dupAlbumReq := seen()
		for i, a := range rq.Albums {
			p := fmt.Sprintf("$.requests.albums[%d]", i)
			if a == nil {
				c.addf("%s: want an album request object, got null", p)
				continue
			}
			if a.ID <= 0 {
				c.addf("%s.id: required, a positive id", p)
			} else {
				dupAlbumReq(a.ID, p, "id")
			}
			if a.ForeignAlbumID == "" {
				c.addf("%s.foreignAlbumId: required, a MusicBrainz release-group id", p)
			}
			userRef(a.RequestedUserID, p+".requestedUserId")
		}
		dupRetry := seen()
		for i, q := range rq.Retry {
			p := fmt.Sprintf("$.requests.retry[%d]", i)
			if q == nil || q.ID <= 0 {
				c.addf("%s.id: required, a positive id", p)
				continue
			}
			dupRetry(q.ID, p, "id")
		}
		for i, sub := range rq.Subscriptions {
			p := fmt.Sprintf("$.requests.subscriptions[%d]", i)
			userRef(sub.UserID, p+".userId")
			if sub.RequestType < RequestTypeTV || sub.RequestType > RequestTypeAlbum {
				c.addf("%s.requestType: %d; want 0 (TV), 1 (movie) or 2 (album)", p, sub.RequestType)
			}
		}
	}
	if is := d.Issues; is != nil {
		cats := map[int]bool{}
		dupCat := seen()
		for i, x := range is.Categories {
			p := fmt.Sprintf("$.issues.categories[%d]", i)
			if x.ID <= 0 {
				c.addf("%s.id: required, a positive id", p)
				continue
			}
			dupCat(x.ID, p, "id")
			cats[x.ID] = true
		}
		dupIssue, dupComment := seen(), seen()
		for i, x := range is.Issues {
			p := fmt.Sprintf("$.issues.issues[%d]", i)
			if x.ID <= 0 {
				c.addf("%s.id: required, a positive id", p)
			} else {
				dupIssue(x.ID, p, "id")
			}
			if x.IssueCategoryID != 0 && !cats[x.IssueCategoryID] {
				c.addf("%s.issueCategoryId: no category %d in $.issues.categories", p, x.IssueCategoryID)
			}
			for j, cm := range x.Comments {
				cp := fmt.Sprintf("%s.comments[%d]", p, j)
				if cm == nil || cm.ID <= 0 {
					c.addf("%s.id: required, a positive id", cp)
					continue
				}
				dupComment(cm.ID, cp, "id")
			}
		}
	}
	dupVote := seen()
	for i, v := range d.Votes {
		p := fmt.Sprintf("$.votes[%d]", i)
		if v.ID <= 0 {
			c.addf("%s.id: required, a positive id", p)
		} else {
			dupVote(v.ID, p, "id")
		}
	}
}

// stateOut is the exported data document, sections in a fixed order.
type stateOut struct {
	Version     int                  `json:"version"`
	Movies      []*CatalogMovie      `json:"movies"`
	Collections []*catalogCollection `json:"collections"`
	People      []*catalogPerson     `json:"people"`
	Shows       []*CatalogShow       `json:"shows"`
	Artists     []*CatalogArtist     `json:"artists"`
	Users       []map[string]any     `json:"users"`
	Requests    requestsSeed         `json:"requests"`
	Issues      stateIssuesOut       `json:"issues"`
	Votes       []*state.Vote        `json:"votes"`
	Settings    *state.Settings      `json:"settings"`
	Recordings  []Recording          `json:"recordings,omitempty"`
	Stubs       []Stub               `json:"stubs,omitempty"`
}

// stateIssuesOut is the exported issues section.
type stateIssuesOut struct {
	Categories []*state.IssueCategory `json:"categories"`
	Issues     []*state.Issue         `json:"issues"`
}

// Export encodes the current store as a data document. It encodes under the
// read lock, so the bytes are a consistent snapshot, and writes nothing.
func (st *Store) Export() ([]byte, error) {
	var buf bytes.Buffer
	var err error
	st.Read(func(st *Store) {
		out := stateOut{
			Version: StateVersion, Movies: NonNil(st.Search.Movies), Collections: NonNil(st.Search.collections),
			People: NonNil(st.Search.People), Shows: NonNil(st.Search.Shows), Artists: NonNil(st.Search.Artists),
			Users: []map[string]any{}, Votes: NonNil(st.Votes.List), Settings: &st.Settings.Settings,
			Recordings: st.Replay.List(), Stubs: st.Stubs.Export(),
		}
		for _, a := range st.Users.Accounts {
			out.Users = append(out.Users, a.stateRecord())
		}
		rs := &st.Requests
		out.Requests = requestsSeed{Movies: NonNil(rs.Movies), TV: []*TvParent{}, Albums: NonNil(rs.Albums),
			Retry: NonNil(rs.Retry), Subscriptions: NonNil(rs.Subs)}
		for _, p := range rs.Tv {
			cp := *p
			cp.ChildRequests = NonNil(rs.ChildrenOf(p.ID))
			out.Requests.TV = append(out.Requests.TV, &cp)
		}
		out.Issues = stateIssuesOut{Categories: NonNil(st.Issues.Categories), Issues: NonNil(st.Issues.List)}
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		err = enc.Encode(out)
	})
	if err != nil {
		return nil, fmt.Errorf("export state: %w", err)
	}
	return buf.Bytes(), nil
}

// NonNil turns a nil slice into an empty one, so it exports as [].
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// stateRecord is an account as a data document's user: its seed record with
// the current typed fields and, for a login account, its password.
func (a *Account) stateRecord() map[string]any {
	m := maps.Clone(a.Raw)
	if m == nil {
		m = map[string]any{}
	}
	maps.Copy(m, map[string]any{"id": a.ID, "userName": a.UserName, "email": a.Email, "alias": a.Alias, "userType": a.UserType,
		"roles": NonNil(a.Roles), "language": a.Language, "streamingCountry": a.StreamingCountry, "userAccessToken": a.UserAccessToken,
		"mediaServerToken": a.MediaServerToken, "movieRequestLimit": a.MovieRequestLimit, "episodeRequestLimit": a.EpisodeRequestLimit,
		"musicRequestLimit": a.MusicRequestLimit, "lastLoggedIn": a.LastLoggedIn})
	if a.Password != "" {
		m["password"] = a.Password
	} else {
		delete(m, "password")
	}
	return m
}
