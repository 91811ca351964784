package mockombi

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
)

// Data set names for Options.DataSet.
const (
	DataSetDefault = "default"
	DataSetLarge   = "large"
)

// store is all mutable Ombi state, one field per domain, behind one RWMutex.
// Read and Write lock; every other method (on store or a domain state) never
// locks and must run inside Read or Write.
type store struct {
	mu sync.RWMutex

	dataSet  string
	logins   []User
	now      func() time.Time
	ids      map[string]int
	canaries []Canary

	users         userState
	search        searchState
	requests      requestState
	issues        issueState
	votes         voteState
	identity      identityState
	settings      settingsState
	system        systemState
	library       libraryState
	integrations  integrationState
	notifications notificationState
}

// newStore loads the seed for dataSet.
func newStore(dataSet string, logins []User, now func() time.Time) (*store, error) {
	switch dataSet {
	case "", DataSetDefault:
		dataSet = DataSetDefault
	case DataSetLarge:
	default:
		return nil, fmt.Errorf("load data set: unknown data set %q", dataSet)
	}
	st := &store{dataSet: dataSet, logins: logins, now: now}
	if err := st.load(); err != nil {
		return nil, err
	}
	return st, nil
}

// Read runs fn under the read lock.
func (st *store) Read(fn func(st *store)) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	fn(st)
}

// Write runs fn under the write lock.
func (st *store) Write(fn func(st *store)) {
	st.mu.Lock()
	defer st.mu.Unlock()
	fn(st)
}

// reset reloads the seed.
func (st *store) reset() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.load()
}

// load (re)builds every domain from the seed; the caller holds the lock or
// owns the store exclusively.
func (st *store) load() error {
	sd := &seedSet{fsys: fixtures.Ombi(), large: st.dataSet == DataSetLarge, now: st.now, ids: map[string]int{}}
	if err := sd.scanCanaries(); err != nil {
		return err
	}
	var err error
	steps := []struct {
		name string
		fn   func() error
	}{
		{"users", func() error { st.users, err = newUserState(sd, st.logins); return err }},
		{"search", func() error { st.search, err = newSearchState(sd); return err }},
		{"requests", func() error { st.requests, err = newRequestState(sd, &st.users, &st.search); return err }},
		{"issues", func() error { st.issues, err = newIssueState(sd); return err }},
		{"votes", func() error { st.votes, err = newVoteState(sd); return err }},
		{"identity", func() error { st.identity, err = newIdentityState(sd); return err }},
		{"settings", func() error { st.settings, err = newSettingsState(sd); return err }},
		{"system", func() error { st.system, err = newSystemState(sd); return err }},
		{"library", func() error { st.library, err = newLibraryState(sd); return err }},
		{"integrations", func() error { st.integrations, err = newIntegrationState(sd); return err }},
		{"notifications", func() error { st.notifications, err = newNotificationState(sd); return err }},
	}
	for _, step := range steps {
		if err := step.fn(); err != nil {
			return fmt.Errorf("load %s seed: %w", step.name, err)
		}
	}
	st.canaries = sd.canaries
	st.ids = sd.ids
	return nil
}

// nextID hands out the next id of a kind, after the highest seeded one.
func (st *store) nextID(kind string) int {
	st.ids[kind]++
	return st.ids[kind]
}

// seedSet gives domains their seed data and collects planted canaries.
type seedSet struct {
	fsys     fs.FS
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

// decode reads ombi/<name> into v. A missing file leaves v untouched.
func (sd *seedSet) decode(name string, v any) error {
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

// scanCanaries registers every canary string found in the seed files with the
// JSON pointer where it sits.
func (sd *seedSet) scanCanaries() error {
	return fs.WalkDir(sd.fsys, "ombi", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		b, err := fs.ReadFile(sd.fsys, p)
		if err != nil {
			return fmt.Errorf("read seed %s: %w", p, err)
		}
		if !canaryPattern.Match(b) {
			return nil
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("decode seed %s: %w", p, err)
		}
		walkJSON(doc, "", func(ptr, s string) {
			for _, m := range canaryPattern.FindAllString(s, -1) {
				sd.canaries = append(sd.canaries, Canary{Name: canaryName(m), Value: m, Where: "fixtures/" + p + "#" + ptr})
			}
		})
		return nil
	})
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
