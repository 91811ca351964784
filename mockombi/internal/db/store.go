package db

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ombi-mcp/ombi-mcp/fixtures"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// Data set names for Options.DataSet.
const (
	DataSetDefault = "default"
	DataSetLarge   = "large"
)

// Replay is the live set of a data document's recorded answers, which
// the HTTP layer builds and serves.
type Replay interface {
	// List is the recordings for the state export; nil when none.
	List() []Recording
}

// Stubs is the live stub set, which the HTTP layer builds and serves.
type Stubs interface {
	// Export is the live stubs for the state export.
	Export() []Stub
}

// Served is what the HTTP layer does with the sections of a data document
// it serves itself, the recordings and the stubs: it checks them and
// builds their live sets, which the store keeps in its data (a reset or a
// replace swaps them with the rest).
type Served struct {
	// CheckStub is the field and problem of a stub that breaks a rule;
	// ok when it keeps them all.
	CheckStub func(Stub) (field, problem string, ok bool)
	// CheckRecordings lists the problems of a document's recordings.
	CheckRecordings func([]Recording) []string
	// NewReplay and NewStubs build the live sets.
	NewReplay func([]Recording) Replay
	NewStubs  func([]Stub) Stubs
}

// Store is all mutable Ombi state, one field per domain, behind one RWMutex.
// Read and Write lock; every other method (on store or a domain state) never
// locks and must run inside Read or Write.
type Store struct {
	mu sync.RWMutex

	dataSet string
	// doc is the data document the store starts from (and Reset returns
	// to); nil for the built-in data sets.
	doc *StateDoc
	// defLogins are the login accounts of a built-in data set (Options.Users
	// or DefaultUsers); optLogins are Options.Users as given (nil when
	// unset), merged into a data document's own logins.
	defLogins []User
	optLogins []User
	// optStubs are Options.Stubs: part of the start-up seed, ahead of a
	// data document's own stubs.
	optStubs []Stub
	served   Served
	Now      func() time.Time
	// Revision counts the changes of the state (every Write, reset and
	// replace); an answer built at one revision holds until the next.
	Revision uint64

	Data
}

// Data is everything one load builds; it is swapped in whole, so a
// failed load leaves the store as it was.
type Data struct {
	ids      map[string]int
	Canaries []Canary
	// Logins are the login accounts of the loaded state (Credentials).
	Logins []User
	// Label names where the loaded state came from.
	Label string

	Users         UserState
	Search        SearchState
	Requests      RequestState
	Issues        state.Issues
	Votes         state.Votes
	Identity      IdentityState
	Settings      SettingsState
	System        SystemState
	Library       state.Library
	Integrations  IntegrationState
	Notifications NotificationState
	Mobile        state.Mobile
	// Replay answers the calls the data document recorded.
	Replay Replay
	// Stubs answer calls instead of the routes.
	Stubs Stubs
}

// NewStore loads the seed: doc when given, else the built-in dataSet.
func NewStore(dataSet string, doc *StateDoc, defLogins, optLogins []User, optStubs []Stub, served Served, now func() time.Time) (*Store, error) {
	switch dataSet {
	case "", DataSetDefault:
		dataSet = DataSetDefault
	case DataSetLarge:
	default:
		return nil, fmt.Errorf("load data set: unknown data set %q", dataSet)
	}
	st := &Store{dataSet: dataSet, doc: doc, defLogins: defLogins, optLogins: optLogins, optStubs: optStubs, served: served, Now: now}
	if err := st.load(); err != nil {
		return nil, err
	}
	return st, nil
}

// Read runs fn under the read lock.
func (st *Store) Read(fn func(st *Store)) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	fn(st)
}

// Write runs fn under the write lock.
func (st *Store) Write(fn func(st *Store)) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.Revision++
	fn(st)
}

// Reset reloads the seed the store started from.
func (st *Store) Reset() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.Revision++
	return st.load()
}

// Replace swaps in the state of a data document, built outside the lock.
func (st *Store) Replace(doc *StateDoc) error {
	d, err := st.build(doc, false)
	if err != nil {
		return err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.Revision++
	st.Data = d
	return nil
}

// load (re)builds every domain from the start-up seed; the caller holds the
// lock or owns the store exclusively.
func (st *Store) load() error {
	d, err := st.build(st.doc, true)
	if err != nil {
		return err
	}
	st.Data = d
	return nil
}

// build loads every domain from doc, or from the built-in data set when doc
// is nil; the start-up seed also holds Options.Stubs. It reads only the
// store's fixed configuration.
func (st *Store) build(doc *StateDoc, seed bool) (Data, error) {
	sd := &seedSet{fsys: fixtures.Ombi(), large: doc == nil && st.dataSet == DataSetLarge, now: st.Now, ids: map[string]int{}}
	logins := st.defLogins
	if doc != nil {
		sd.files, sd.source = doc.files, doc.source
		logins = st.optLogins
	}
	if err := sd.scanCanaries(); err != nil {
		return Data{}, err
	}
	var d Data
	var err error
	steps := []struct {
		name string
		fn   func() error
	}{
		{"users", func() error { d.Users, err = newUserState(sd, logins); return err }},
		{"search", func() error { d.Search, err = newSearchState(sd); return err }},
		{"requests", func() error { d.Requests, err = newRequestState(sd, &d.Users, &d.Search); return err }},
		{"issues", func() error { d.Issues, err = newIssueState(sd); return err }},
		{"votes", func() error { d.Votes, err = newVoteState(sd); return err }},
		{"identity", func() error { d.Identity, err = newIdentityState(sd); return err }},
		{"settings", func() error { d.Settings, err = newSettingsState(sd); return err }},
		{"system", func() error { d.System, err = newSystemState(sd); return err }},
		{"library", func() error { d.Library, err = newLibraryState(sd); return err }},
		{"integrations", func() error { d.Integrations, err = newIntegrationState(sd); return err }},
		{"notifications", func() error { d.Notifications, err = newNotificationState(sd); return err }},
	}
	for _, step := range steps {
		if err := step.fn(); err != nil {
			return Data{}, fmt.Errorf("load %s seed: %w", step.name, err)
		}
	}
	d.Canaries = sd.canaries
	d.ids = sd.ids
	d.Logins, d.Label = st.defLogins, st.dataSet
	var recordings []Recording
	if doc != nil {
		d.Logins, d.Label = mergeLogins(doc.logins, st.optLogins), doc.source
		recordings = doc.recordings
	}
	d.Replay = st.served.NewReplay(recordings)
	var stubs []Stub
	if seed {
		stubs = slices.Clone(st.optStubs)
	}
	if doc != nil {
		stubs = append(stubs, doc.stubs...)
	}
	d.Stubs = st.served.NewStubs(stubs)
	return d, nil
}

// mergeLogins is base with each of over replacing the same-named account
// (names compared ignoring case) or appended.
func mergeLogins(base, over []User) []User {
	out := slices.Clone(base)
	for _, o := range over {
		if i := slices.IndexFunc(out, func(u User) bool { return strings.EqualFold(u.Username, o.Username) }); i >= 0 {
			out[i] = o
		} else {
			out = append(out, o)
		}
	}
	return out
}

// NextID hands out the next id of a kind, after the highest seeded one.
func (st *Store) NextID(kind string) int {
	st.ids[kind]++
	return st.ids[kind]
}

// seedSet gives domains their seed data and collects planted canaries.
type seedSet struct {
	fsys fs.FS
	// files replace the seed files of the same name (a data document's
	// sections); source names where they come from.
	files    map[string]seedFile
	source   string
	large    bool
	now      func() time.Time
	canaries []Canary
	ids      map[string]int
}

// seenID raises a kind's id counter to at least id, so store.nextID never
// reuses a seeded id.
func (sd *seedSet) seenID(kind string, id int) {
	if id > sd.ids[kind] {
		sd.ids[kind] = id
	}
}

// canaryPattern finds planted secrets in seed files.
var canaryPattern = regexp.MustCompile(`CANARY-[A-Za-z0-9_.]+-[0-9a-f]{8,}`)

// decode reads ombi/<name> (or the data document's replacement) into v. A
// missing file leaves v untouched.
func (sd *seedSet) decode(name string, v any) error {
	if f, ok := sd.files[name]; ok {
		if err := json.Unmarshal(f.data, v); err != nil {
			return fmt.Errorf("decode %s%s: %w", sd.source, f.prefix, err)
		}
		return nil
	}
	b, err := fs.ReadFile(sd.fsys, "ombi/"+name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("read seed %s: %w", name, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("decode seed %s: %w", name, err)
	}
	return nil
}

// scanCanaries registers every canary string found in the seed files (and
// a data document's sections) with the JSON pointer where it sits.
func (sd *seedSet) scanCanaries() error {
	scan := func(b []byte, where string) error {
		if !canaryPattern.Match(b) {
			return nil
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("decode seed %s: %w", where, err)
		}
		walkJSON(doc, "", func(ptr, s string) {
			for _, m := range canaryPattern.FindAllString(s, -1) {
				sd.canaries = append(sd.canaries, Canary{Name: canaryName(m), Value: m, Where: where + ptr})
			}
		})
		return nil
	}
	err := fs.WalkDir(sd.fsys, "ombi", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		if _, replaced := sd.files[strings.TrimPrefix(p, "ombi/")]; replaced {
			return nil
		}
		b, err := fs.ReadFile(sd.fsys, p)
		if err != nil {
			return fmt.Errorf("read seed %s: %w", p, err)
		}
		return scan(b, "fixtures/"+p+"#")
	})
	if err != nil {
		return err
	}
	for _, name := range SortedKeys(sd.files) {
		f := sd.files[name]
		if err := scan(f.data, sd.source+"#"+f.prefix); err != nil {
			return err
		}
	}
	return nil
}

// plant makes a canary for a secret created in code and records where it lives.
func (sd *seedSet) plant(name, where string) string {
	v := canaryValue(name)
	sd.canaries = append(sd.canaries, Canary{Name: name, Value: v, Where: where})
	return v
}

// canaryValue is the fixed canary string of a name.
func canaryValue(name string) string {
	h := sha256.Sum256([]byte("mockombi:" + name))
	return "CANARY-" + name + "-" + hex.EncodeToString(h[:6])
}

// canaryName extracts the name part of a canary string.
func canaryName(v string) string {
	v = strings.TrimPrefix(v, "CANARY-")
	if i := strings.LastIndex(v, "-"); i > 0 {
		return v[:i]
	}
	return v
}

// walkJSON calls fn for every string leaf with its JSON pointer.
func walkJSON(v any, ptr string, fn func(ptr, s string)) {
	switch t := v.(type) {
	case string:
		fn(ptr, t)
	case []any:
		for i, e := range t {
			walkJSON(e, ptr+"/"+strconv.Itoa(i), fn)
		}
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			esc := strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
			walkJSON(t[k], ptr+"/"+esc, fn)
		}
	}
}
