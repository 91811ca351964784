package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

// This file keeps a live run's writes to the Ombi behind the proxy to what
// the run itself created, and undoes them afterwards. The Ledger is the
// proxy's gate (mockombi.ProxyGate): every call the server under test (or
// the suite) sends passes it. Reads pass. Without --allow-mutations every
// write is kept from the Ombi. With it, a write passes when it creates an
// entity (the Ledger notes it from Ombi's answer, with the call that removes
// it), acts on an entity the run created, changes a setting or a
// preference the Ledger read first (to put it back), or has an effect
// nothing can undo (a job run, a notification, a test message), which the
// Ledger lists. Any other write is answered 403 by the proxy itself.

// Undo is one call that takes back a write of the run: removing an entity
// it created, or putting back a setting or preference it changed.
type Undo struct {
	// What names what the call takes back: "movie request 12",
	// "Ombi settings (ombi)".
	What   string `json:"what"`
	Method string `json:"method"`
	Path   string `json:"path"` // below the Ombi's base URL
	// Body is what the call sends; a setting's body (which may hold the
	// credentials of an integration) stays out of reports.
	Body json.RawMessage `json:"-"`
	// Secret marks a Body kept out of reports.
	Secret bool `json:"secret_body,omitempty"`

	kind   entityKind
	id     int
	parent int // a comment's issue
}

// Line is the undo call as one line: "DELETE /api/v1/Issues/7".
func (u Undo) Line() string {
	line := u.Method + " " + u.Path
	if len(u.Body) > 0 && !u.Secret {
		line += " " + string(u.Body)
	}
	if u.Secret {
		line += " (with the settings read before the run changed them)"
	}
	return line
}

// Effect is a write nothing can undo, with how many times it was made.
type Effect struct {
	What  string `json:"what"`
	Call  string `json:"call"` // "POST /api/v1/Job/update"
	Count int    `json:"count"`
}

// WriteReport is what a live run wrote to the Ombi and what it took back.
type WriteReport struct {
	// Allowed says whether the run could write at all (--allow-mutations).
	Allowed bool `json:"allowed"`
	// Undone are the writes the run took back; Left those it did not (a
	// stopped run, a failed undo), each with the call that would.
	Undone []Undo `json:"undone"`
	Left   []Undo `json:"left"`
	// Irreversible are the writes nothing can take back.
	Irreversible []Effect `json:"irreversible"`
	// Refused counts the writes the proxy kept from the Ombi, by call.
	Refused map[string]int `json:"refused,omitempty"`
	// Interrupted: the run was stopped, and undid nothing.
	Interrupted bool `json:"interrupted,omitempty"`
	// Errors are the undo calls that failed.
	Errors []string `json:"errors,omitempty"`
}

// entityKind is a kind of entity a live run may create and then act on.
type entityKind string

// The entity kinds, and how each is removed.
const (
	kindMovie    entityKind = "movie request"
	kindTV       entityKind = "tv request" // a child request: what Ombi's TV creation answers
	kindTVParent entityKind = "tv parent request"
	kindAlbum    entityKind = "album request"
	kindIssue    entityKind = "issue"
	kindComment  entityKind = "issue comment"
	kindCategory entityKind = "issue category"
)

// removePath is the Ombi call that removes an entity of kind k.
func (k entityKind) removePath(id int) string {
	switch k {
	case kindMovie:
		return "/api/v1/Request/movie/" + strconv.Itoa(id)
	case kindTV:
		return "/api/v1/Request/tv/child/" + strconv.Itoa(id)
	case kindAlbum:
		return "/api/v1/request/music/" + strconv.Itoa(id)
	case kindIssue:
		return "/api/v1/Issues/" + strconv.Itoa(id)
	case kindComment:
		return "/api/v1/Issues/comments/" + strconv.Itoa(id)
	default:
		return "/api/v1/Issues/categories/" + strconv.Itoa(id)
	}
}

// writeAct is what the gate does with one kind of write.
type writeAct int

const (
	actCreate     writeAct = iota + 1 // creates an entity of kind; noted from the answer
	actCreateRead                     // creates entities of kind the answer does not name; noted from a read before and after
	actOwn                            // acts on an entity of kind named by id
	actRemove                         // removes an entity of kind named by id
	actSettings                       // changes a settings document, read first
	actFeature                        // switches a feature, read first
	actPrefs                          // changes a preference of the caller, read first
	actEffect                         // cannot be undone: allowed and listed
	actVote                           // a vote on a request of the run: allowed and listed
	actOwnEffect                      // acts on an entity of the run and cannot be undone: listed
)

// writeRule is one kind of write the gate allows: its method and path
// pattern ({x} matches one segment; matched without regard to case, as
// Ombi's routes are), what it does, the kind of entity and where its id is
// (a path parameter, or "body:" and a member of the JSON body).
type writeRule struct {
	method, pattern string
	act             writeAct
	kind            entityKind
	id              string
	what            string // an effect's or a setting's name
}

// writeRules are the writes of Ombi's API a live run may make, in the
// order they are matched.
var writeRules = []writeRule{
	{"POST", "/api/v1/Request/movie", actCreate, kindMovie, "", ""},
	{"POST", "/api/v2/Requests/tv", actCreate, kindTV, "", ""},
	{"POST", "/api/v1/Request/tv", actCreate, kindTV, "", ""},
	{"POST", "/api/v1/request/music", actCreate, kindAlbum, "", ""},
	{"POST", "/api/v1/Issues", actCreate, kindIssue, "", ""},
	{"POST", "/api/v1/Issues/comments", actOwn, kindIssue, "body:issueId", ""}, // creates a comment on an issue of the run
	{"POST", "/api/v1/Issues/categories", actCreateRead, kindCategory, "", ""},
	{"POST", "/api/v2/Requests/movie/collection/{id}", actCreateRead, kindMovie, "id", ""}, // a movie request of each title of the collection
	{"POST", "/api/v1/Issues/status", actOwn, kindIssue, "body:issueId", ""},
	{"DELETE", "/api/v1/Issues/comments/{id}", actRemove, kindComment, "id", ""},
	{"DELETE", "/api/v1/Issues/categories/{id}", actRemove, kindCategory, "id", ""},
	{"DELETE", "/api/v1/Issues/{id}", actRemove, kindIssue, "id", ""},
	{"POST", "/api/v1/Vote/{dir}/movie/{id}", actVote, kindMovie, "id", "a vote on a movie request of the run (Ombi has no call that removes a vote)"},
	{"POST", "/api/v1/Vote/{dir}/tv/{id}", actVote, kindTV, "id", "a vote on a tv request of the run (Ombi has no call that removes a vote)"},
	{"POST", "/api/v1/Vote/{dir}/album/{id}", actVote, kindAlbum, "id", "a vote on an album request of the run (Ombi has no call that removes a vote)"},
	{"POST", "/api/v1/Request/movie/{op}/{id}", actOwn, kindMovie, "id", ""}, // subscribe, unsubscribe
	{"POST", "/api/v1/Request/tv/{op}/{id}", actOwn, kindTV, "id", ""},
	{"POST", "/api/v1/Request/movie/{op}", actOwn, kindMovie, "body:id", ""}, // approve, available, unavailable
	{"PUT", "/api/v1/Request/movie/deny", actOwn, kindMovie, "body:id", ""},
	{"POST", "/api/v1/Request/tv/{op}", actOwn, kindTV, "body:id", ""},
	{"PUT", "/api/v1/Request/tv/deny", actOwn, kindTV, "body:id", ""},
	{"POST", "/api/v1/request/music/{op}", actOwn, kindAlbum, "body:id", ""},
	{"PUT", "/api/v1/request/music/deny", actOwn, kindAlbum, "body:id", ""},
	{"DELETE", "/api/v1/Request/movie/{id}", actRemove, kindMovie, "id", ""},
	{"DELETE", "/api/v1/Request/tv/child/{id}", actRemove, kindTV, "id", ""},
	{"DELETE", "/api/v1/request/music/{id}", actRemove, kindAlbum, "id", ""},
	{"POST", "/api/v2/Requests/movie/advancedoptions", actOwn, kindMovie, "body:requestId", ""},
	{"POST", "/api/v2/Requests/tv/advancedoptions", actOwn, kindTVParent, "body:requestId", ""},
	{"PUT", "/api/v1/Request/tv/root/{id}/{x}", actOwn, kindTVParent, "id", ""},
	{"PUT", "/api/v1/Request/tv/quality/{id}/{x}", actOwn, kindTVParent, "id", ""},
	{"POST", "/api/v2/Features/enable", actFeature, "", "", ""},
	{"POST", "/api/v2/Features/disable", actFeature, "", "", ""},
	{"POST", "/api/v1/Identity/language", actPrefs, "", "", "language"},
	{"POST", "/api/v1/Identity/streamingcountry", actPrefs, "", "", "streaming country"},
	{"POST", "/api/v1/Settings/{name}", actSettings, "", "", ""},
	{"POST", "/api/v1/Settings/notifications/{name}", actSettings, "", "", ""},
	{"POST", "/api/v1/Job/{job}", actEffect, "", "", "a job run on the Ombi"},
	{"POST", "/api/v1/Plex/WatchlistUsers/revalidate", actEffect, "", "", "the Plex watchlist users revalidated"},
	{"POST", "/api/v1/Notifications/massemail", actEffect, "", "", "a mass email sent"},
	{"POST", "/api/v1/Tester/{service}", actEffect, "", "", "a test message sent through an integration"},
	{"POST", "/api/v1/Identity/welcomeEmail", actEffect, "", "", "a welcome email sent"},
	{"POST", "/api/v2/Requests/reprocess/movie/{id}/{is4k}", actOwnEffect, kindMovie, "id", "a movie request of the run sent again to its download client"},
	{"POST", "/api/v2/Requests/reprocess/1/{id}/{is4k}", actOwnEffect, kindMovie, "id", "a movie request of the run sent again to its download client"},
	{"POST", "/api/v2/Requests/reprocess/tvshow/{id}/{is4k}", actOwnEffect, kindTV, "id", "a tv request of the run sent again to its download client"},
	{"POST", "/api/v2/Requests/reprocess/0/{id}/{is4k}", actOwnEffect, kindTV, "id", "a tv request of the run sent again to its download client"},
	{"POST", "/api/v2/Requests/reprocess/album/{id}/{is4k}", actOwnEffect, kindAlbum, "id", "an album request of the run sent again to its download client"},
	{"POST", "/api/v2/Requests/reprocess/2/{id}/{is4k}", actOwnEffect, kindAlbum, "id", "an album request of the run sent again to its download client"},
}

// readPosts are the POST routes that only read, by their template: the
// ledger's (spec/routes.json) routes of the read-only tools, and logging in.
var readPosts = sync.OnceValue(func() []string {
	out := []string{"/api/v1/Token"}
	for _, r := range spec.Routes() {
		if r.Method != http.MethodGet && strings.HasPrefix(r.Tool, "read_") && !slices.Contains(out, r.Path) {
			out = append(out, r.Path)
		}
	}
	return out
})

// matchPath matches an escaped path against a pattern, without regard to
// case; it returns the {x} segments by name.
func matchPath(pattern, path string) (map[string]string, bool) {
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.Trim(path, "/"), "/")
	if len(ps) != len(xs) {
		return nil, false
	}
	params := map[string]string{}
	for i, p := range ps {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			if xs[i] == "" {
				return nil, false
			}
			params[p[1:len(p)-1]] = xs[i]
			continue
		}
		if !strings.EqualFold(p, xs[i]) {
			return nil, false
		}
	}
	return params, true
}

// Ledger is a live run's gate on the proxy and the record of its writes.
// Its methods may be called concurrently.
type Ledger struct {
	base   string // the Ombi's base URL, for the reads made before a change
	allow  bool   // --allow-mutations
	client *http.Client

	mu       sync.Mutex
	undo     []Undo // in the order the writes were made
	effects  []Effect
	refused  map[string]int
	saved    map[string]bool             // settings and preferences read already
	parents  map[int][]int               // a TV parent the run created: its children, all the run's
	pending  map[*http.Request]pendingOp // creations whose id the answer does not carry
	cleaning bool                        // Cleanup's own calls pass
	inflight int                         // calls let through whose answer has not come
	stopped  bool                        // the run was interrupted
	done     []Undo
	errs     []string
}

// pendingOp is what the gate read before a creation whose answer does not
// name what it created (an issue category: Ombi answers true; a collection
// request: one result for the movie requests of all its titles): the ids
// of the list it adds to, and which new entry is of this creation.
type pendingOp struct {
	list   string // the Ombi's list of the kind created
	before map[int]bool
	ours   func(listEntry) bool
	header http.Header
}

// listEntry is the part of an entry of a pendingOp's list the ledger reads.
type listEntry struct {
	ID           int    `json:"id"`
	Value        string `json:"value"`        // an issue category's
	TheMovieDbID int    `json:"theMovieDbId"` // a movie request's
}

// NewLedger returns the gate of a live run against the Ombi at base;
// allow is --allow-mutations.
func NewLedger(base string, allow bool) *Ledger {
	return &Ledger{
		base: strings.TrimRight(base, "/"), allow: allow,
		client:  &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		refused: map[string]int{}, saved: map[string]bool{}, pending: map[*http.Request]pendingOp{}, parents: map[int][]int{},
	}
}

// refusal is the reason a write was kept from the Ombi.
func refusal(format string, args ...any) error {
	return fmt.Errorf("ombi-conformance: a live run writes only on what it created itself; "+format+" (the proxy did not forward the call)", args...)
}

// Allow implements mockombi.ProxyGate: it decides whether a call reaches
// the Ombi, reading a setting or preference before it is changed.
func (l *Ledger) Allow(r *http.Request, upstream string, body []byte) error {
	err := l.allowCall(r, upstream, body)
	if err == nil && r.Method != http.MethodGet && r.Method != http.MethodHead {
		l.mu.Lock()
		l.inflight++ // until Answered
		l.mu.Unlock()
	}
	return err
}

// Settle waits, at most timeout, until every call let through has been
// answered and noted.
func (l *Ledger) Settle(timeout time.Duration) {
	end := time.Now().Add(timeout)
	for time.Now().Before(end) {
		l.mu.Lock()
		n := l.inflight
		l.mu.Unlock()
		if n <= 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// allowCall is Allow's decision.
func (l *Ledger) allowCall(r *http.Request, upstream string, body []byte) error {
	if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
		if _, ok := matchPath("/api/v1/Identity/newsletter/unsubscribe/{id}", upstream); ok {
			return l.refuse(r, upstream, refusal("unsubscribing a user from the newsletter cannot be undone"))
		}
		return nil
	}
	for _, p := range readPosts() {
		if _, ok := matchPath(p, upstream); ok {
			return nil
		}
	}
	l.mu.Lock()
	cleaning, stopped := l.cleaning, l.stopped
	l.mu.Unlock()
	if cleaning && l.isUndo(r.Method, upstream) {
		return nil
	}
	if stopped {
		return l.refuse(r, upstream, refusal("the run was stopped"))
	}
	if !l.allow {
		return l.refuse(r, upstream, refusal("without --allow-mutations it writes nothing"))
	}
	rule, params, ok := findRule(r.Method, upstream)
	if !ok {
		return l.refuse(r, upstream, refusal("%s %s is no write it knows how to undo", r.Method, upstream))
	}
	switch rule.act {
	case actCreate:
		return nil
	case actCreateRead:
		op, err := l.readBefore(r.Header, rule, params, body)
		if err != nil {
			return l.refuse(r, upstream, refusal("what it would create could not be read first: %v", err))
		}
		l.mu.Lock()
		l.pending[r] = op
		l.mu.Unlock()
		return nil
	case actOwn, actRemove, actVote, actOwnEffect:
		id, ok := ruleID(rule, params, body)
		if !ok || !l.owns(rule.kind, id) {
			return l.refuse(r, upstream, refusal("%s %s is not one of them", rule.kind, idText(id, ok)))
		}
		return nil
	case actSettings, actFeature, actPrefs:
		if err := l.readFirst(r, upstream, rule, body); err != nil {
			return l.refuse(r, upstream, refusal("what it changes could not be read first, to be put back: %v", err))
		}
		return nil
	default: // actEffect
		return nil
	}
}

// idText names an id, or says there was none.
func idText(id int, ok bool) string {
	if !ok {
		return "(no id)"
	}
	return strconv.Itoa(id)
}

// Answered implements mockombi.ProxyGate: it notes what a write created,
// removed or did, from the Ombi's answer.
func (l *Ledger) Answered(r *http.Request, upstream string, body []byte, status int, answer []byte) {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return
	}
	rule, params, ok := findRule(r.Method, upstream)
	defer func() {
		l.mu.Lock()
		l.inflight--
		l.mu.Unlock()
	}()
	l.mu.Lock()
	op, hasOp := l.pending[r]
	delete(l.pending, r)
	cleaning := l.cleaning
	l.mu.Unlock()
	if ok && hasOp && !cleaning {
		// read after whatever the answer: a collection request that
		// failed midway may have made some of its requests
		l.noteCreated(rule.kind, op)
	}
	if !ok || status < 200 || status > 299 || cleaning {
		return
	}
	switch rule.act {
	case actCreate:
		if id := createdID(rule.kind, answer); id > 0 {
			l.add(rule.kind, id)
			if rule.kind == kindTV {
				l.noteParent(r.Header, id)
			}
		}
	case actOwn:
		if rule.pattern == "/api/v1/Issues/comments" {
			var c struct {
				ID int `json:"id"`
			}
			if json.Unmarshal(answer, &c) == nil && c.ID > 0 {
				issue, _ := ruleID(rule, params, body)
				l.add(kindComment, c.ID)
				l.setParent(kindComment, c.ID, issue)
			}
		}
	case actRemove:
		if id, ok := ruleID(rule, params, body); ok && removed(answer) {
			l.forget(rule.kind, id)
		}
	case actVote:
		l.effect(rule.what, r.Method+" "+upstream)
	case actEffect, actOwnEffect:
		l.effect(rule.what, r.Method+" "+rule.pattern)
	}
}

// findRule is the write rule a call matches.
func findRule(method, upstream string) (writeRule, map[string]string, bool) {
	for _, w := range writeRules {
		if w.method != method {
			continue
		}
		if params, ok := matchPath(w.pattern, upstream); ok {
			return w, params, true
		}
	}
	return writeRule{}, nil, false
}

// ruleID is the id a rule names in the path or the body.
func ruleID(w writeRule, params map[string]string, body []byte) (int, bool) {
	if member, ok := strings.CutPrefix(w.id, "body:"); ok {
		var m map[string]json.RawMessage
		if json.Unmarshal(body, &m) != nil {
			return 0, false
		}
		var id int
		if json.Unmarshal(m[member], &id) != nil {
			return 0, false
		}
		return id, true
	}
	id, err := strconv.Atoi(params[w.id])
	return id, err == nil
}

// createdID is the id of what a creation's answer names: a request
// engine result's requestId (when it succeeded), an issue's id (Ombi
// answers the bare number).
func createdID(k entityKind, answer []byte) int {
	if k == kindIssue {
		var id int
		if json.Unmarshal(answer, &id) == nil {
			return id
		}
		return 0
	}
	var res struct {
		Result    bool `json:"result"`
		IsError   bool `json:"isError"`
		RequestID int  `json:"requestId"`
	}
	if json.Unmarshal(answer, &res) != nil || res.IsError {
		return 0
	}
	return res.RequestID
}

// removed reports whether a delete's answer says something went: Ombi
// answers false for an issue that was not there.
func removed(answer []byte) bool {
	return strings.TrimSpace(string(answer)) != "false"
}

// add notes an entity the run created, with the call that removes it.
func (l *Ledger) add(k entityKind, id int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, u := range l.undo {
		if u.kind == k && u.id == id {
			return
		}
	}
	l.undo = append(l.undo, Undo{What: fmt.Sprintf("%s %d", k, id), Method: http.MethodDelete, Path: k.removePath(id), kind: k, id: id})
}

// setParent notes the issue of a comment.
func (l *Ledger) setParent(k entityKind, id, parent int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range l.undo {
		if l.undo[i].kind == k && l.undo[i].id == id {
			l.undo[i].parent = parent
		}
	}
}

// forget drops an entity the run removed itself (with a tool of the server
// under test), and the comments of an issue removed, which go with it.
func (l *Ledger) forget(k entityKind, id int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.undo = slices.DeleteFunc(l.undo, func(u Undo) bool {
		return (u.kind == k && u.id == id) || (k == kindIssue && u.kind == kindComment && u.parent == id)
	})
}

// noteParent notes the TV parent request of child, a TV request the run
// just created, when every child of that parent is the run's (the run
// created the parent with it; a parent that holds another caller's child
// stays theirs). Ombi's creation answers the child's id only, so the
// parent is read: GET /api/v1/Request/tv, with the caller's credentials.
func (l *Ledger) noteParent(header http.Header, child int) {
	b, err := l.get(header, "/api/v1/Request/tv")
	if err != nil {
		return
	}
	var parents []struct {
		ID            int `json:"id"`
		ChildRequests []struct {
			ID int `json:"id"`
		} `json:"childRequests"`
	}
	if json.Unmarshal(b, &parents) != nil {
		return
	}
	for _, p := range parents {
		var kids []int
		for _, c := range p.ChildRequests {
			kids = append(kids, c.ID)
		}
		if p.ID <= 0 || !slices.Contains(kids, child) {
			continue
		}
		for _, k := range kids {
			if !l.owns(kindTV, k) {
				return
			}
		}
		l.mu.Lock()
		l.parents[p.ID] = kids
		l.mu.Unlock()
		return
	}
}

// owns reports whether the run created the entity and has not removed it:
// a TV parent request, while one of its children is the run's.
func (l *Ledger) owns(k entityKind, id int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if k == kindTVParent {
		return slices.ContainsFunc(l.parents[id], func(c int) bool {
			return slices.ContainsFunc(l.undo, func(u Undo) bool { return u.kind == kindTV && u.id == c })
		})
	}
	return slices.ContainsFunc(l.undo, func(u Undo) bool { return u.kind == k && u.id == id })
}

// Created returns the ids of the entities of each kind the run created and
// has not removed: "movie request", "tv request" (a child), "tv parent
// request", "album request", "issue", "issue comment", "issue category".
func (l *Ledger) Created() map[string][]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string][]int{}
	for _, u := range l.undo {
		if u.kind != "" {
			out[string(u.kind)] = append(out[string(u.kind)], u.id)
		}
	}
	for p, kids := range l.parents {
		if slices.ContainsFunc(out[string(kindTV)], func(c int) bool { return slices.Contains(kids, c) }) {
			out[string(kindTVParent)] = append(out[string(kindTVParent)], p)
		}
	}
	slices.Sort(out[string(kindTVParent)])
	return out
}

// effect counts a write nothing can undo.
func (l *Ledger) effect(what, call string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range l.effects {
		if l.effects[i].Call == call {
			l.effects[i].Count++
			return
		}
	}
	l.effects = append(l.effects, Effect{What: what, Call: call, Count: 1})
}

// refuse counts a write kept from the Ombi and returns err.
func (l *Ledger) refuse(r *http.Request, upstream string, err error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := r.Method + " " + upstream
	if rule, _, ok := findRule(r.Method, upstream); ok {
		key = r.Method + " " + rule.pattern
	}
	l.refused[key]++
	return err
}

// isUndo reports whether a call is one of the ledger's undo calls.
func (l *Ledger) isUndo(method, upstream string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.ContainsFunc(l.undo, func(u Undo) bool { return u.Method == method && strings.EqualFold(u.Path, upstream) })
}

// authHeader is the part of a call's header that authenticates it.
func authHeader(in http.Header) http.Header {
	h := http.Header{"Accept": {"application/json"}}
	for _, k := range []string{"ApiKey", "UserName", "Authorization"} {
		if v := in.Get(k); v != "" {
			h.Set(k, v)
		}
	}
	return h
}

// get reads path from the Ombi with the authentication of header.
func (l *Ledger) get(header http.Header, path string) ([]byte, error) {
	req, err := http.NewRequest(http.MethodGet, l.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header = authHeader(header)
	resp, err := l.client.Do(req)
	if err != nil {
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) {
			err = ue.Unwrap() // without the URL
		}
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s answered %d", path, resp.StatusCode)
	}
	return b, nil
}

// readFirst reads, once a run, what a settings, feature or preference
// write changes, and notes the call that puts it back.
func (l *Ledger) readFirst(r *http.Request, upstream string, w writeRule, body []byte) error {
	var key, read string
	switch w.act {
	case actSettings:
		key, read = "settings "+strings.ToLower(upstream), upstream
	case actFeature:
		var f struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(body, &f) != nil || f.Name == "" {
			return errors.New("no feature name in the body")
		}
		key, read = "feature "+strings.ToLower(f.Name), "/api/v2/Features"
	default:
		key, read = "preference "+w.what, "/api/v1/Identity"
	}
	l.mu.Lock()
	done := l.saved[key]
	l.mu.Unlock()
	if done {
		return nil
	}
	b, err := l.get(r.Header, read)
	if err != nil {
		return err
	}
	var u Undo
	switch w.act {
	case actSettings:
		if !json.Valid(b) {
			return errors.New("the settings are not JSON")
		}
		u = Undo{What: "Ombi settings " + strings.TrimPrefix(strings.ToLower(upstream), "/api/v1/settings/"), Method: http.MethodPost, Path: upstream, Body: b, Secret: true}
	case actFeature:
		var fs []struct {
			Name    string `json:"name"`
			Enabled bool   `json:"enabled"`
		}
		if err := json.Unmarshal(b, &fs); err != nil {
			return fmt.Errorf("the features: %v", err)
		}
		name := strings.TrimPrefix(key, "feature ")
		i := slices.IndexFunc(fs, func(f struct {
			Name    string `json:"name"`
			Enabled bool   `json:"enabled"`
		}) bool {
			return strings.EqualFold(f.Name, name)
		})
		if i < 0 {
			return fmt.Errorf("no feature %q", name)
		}
		path := "/api/v2/Features/disable"
		if fs[i].Enabled {
			path = "/api/v2/Features/enable"
		}
		nb, _ := json.Marshal(map[string]any{"name": fs[i].Name, "enabled": fs[i].Enabled})
		u = Undo{What: "feature " + fs[i].Name, Method: http.MethodPost, Path: path, Body: nb}
	default:
		var me struct {
			Language         *string `json:"language"`
			StreamingCountry *string `json:"streamingCountry"`
		}
		if err := json.Unmarshal(b, &me); err != nil {
			return fmt.Errorf("the caller's account: %v", err)
		}
		val, member := me.Language, "lang"
		if w.what == "streaming country" {
			val, member = me.StreamingCountry, "code"
		}
		v := ""
		if val != nil {
			v = *val
		}
		nb, _ := json.Marshal(map[string]string{member: v})
		u = Undo{What: "the " + w.what + " of the account the server uses", Method: http.MethodPost, Path: w.pattern, Body: nb}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.saved[key] {
		l.saved[key] = true
		l.undo = append(l.undo, u)
	}
	return nil
}

// readBefore reads what an actCreateRead write adds to, before it is made:
// the ids of the list, and which new entry will be of this creation (an
// issue category of the value sent; a movie request of a title of the
// collection, read from the Ombi).
func (l *Ledger) readBefore(header http.Header, rule writeRule, params map[string]string, body []byte) (pendingOp, error) {
	op := pendingOp{header: header.Clone()}
	switch rule.kind {
	case kindCategory:
		var in struct {
			Value string `json:"value"`
		}
		_ = json.Unmarshal(body, &in)
		op.list = "/api/v1/Issues/categories"
		op.ours = func(e listEntry) bool { return e.Value == in.Value }
	default: // a collection request
		id, ok := ruleID(rule, params, body)
		if !ok {
			return op, errors.New("no collection id in the path")
		}
		b, err := l.get(header, "/api/v2/Search/movie/collection/"+strconv.Itoa(id))
		if err != nil {
			return op, err
		}
		var c struct {
			Collection []struct {
				ID int `json:"id"`
			} `json:"collection"`
		}
		if err := json.Unmarshal(b, &c); err != nil {
			return op, fmt.Errorf("the collection: %v", err)
		}
		titles := map[int]bool{}
		for _, m := range c.Collection {
			titles[m.ID] = true
		}
		op.list = "/api/v1/Request/movie"
		op.ours = func(e listEntry) bool { return titles[e.TheMovieDbID] }
	}
	entries, err := l.list(header, op.list)
	if err != nil {
		return op, err
	}
	op.before = map[int]bool{}
	for _, e := range entries {
		op.before[e.ID] = true
	}
	return op, nil
}

// list reads a list of the Ombi.
func (l *Ledger) list(header http.Header, path string) ([]listEntry, error) {
	b, err := l.get(header, path)
	if err != nil {
		return nil, err
	}
	var out []listEntry
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("GET %s: %v", path, err)
	}
	return out, nil
}

// noteCreated notes the entities a creation added: those of its list read
// after it that were not there before and are of this creation.
func (l *Ledger) noteCreated(k entityKind, op pendingOp) {
	entries, err := l.list(op.header, op.list)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !op.before[e.ID] && op.ours(e) {
			l.add(k, e.ID)
		}
	}
}

// Stop notes that the run was interrupted: no write passes any more, and
// Report lists what was left.
func (l *Ledger) Stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
}

// Cleanup takes back the run's writes, newest first, through the proxy at
// proxyURL (so that they are journaled like the run's own), with header
// (the run's credentials). An undo that fails stays in the Left list of
// Report, with its error.
func (l *Ledger) Cleanup(ctx context.Context, proxyURL string, header http.Header) {
	l.mu.Lock()
	l.cleaning = true
	todo := slices.Clone(l.undo)
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.cleaning = false
		l.mu.Unlock()
	}()
	slices.Reverse(todo)
	for _, u := range todo {
		err := l.send(ctx, proxyURL, header, u)
		l.mu.Lock()
		if err != nil {
			l.errs = append(l.errs, fmt.Sprintf("%s: %v", u.Line(), err))
		} else {
			l.done = append(l.done, u)
			l.undo = slices.DeleteFunc(l.undo, func(x Undo) bool { return x.Method == u.Method && x.Path == u.Path })
		}
		l.mu.Unlock()
	}
}

// send makes one undo call.
func (l *Ledger) send(ctx context.Context, base string, header http.Header, u Undo) error {
	req, err := http.NewRequestWithContext(ctx, u.Method, strings.TrimRight(base, "/")+u.Path, bytes.NewReader(u.Body))
	if err != nil {
		return err
	}
	req.Header = authHeader(header)
	if len(u.Body) > 0 {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return errors.New("no answer")
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("answered %d", resp.StatusCode)
	}
	if u.Method == http.MethodDelete && !removed(b) {
		return errors.New("answered false: nothing was removed")
	}
	return nil
}

// Report is what the run wrote and took back so far.
func (l *Ledger) Report() *WriteReport {
	l.mu.Lock()
	defer l.mu.Unlock()
	rep := &WriteReport{Allowed: l.allow, Undone: slices.Clone(l.done), Left: slices.Clone(l.undo),
		Irreversible: slices.Clone(l.effects), Interrupted: l.stopped, Errors: slices.Clone(l.errs)}
	if len(l.refused) > 0 {
		rep.Refused = map[string]int{}
		for k, v := range l.refused {
			rep.Refused[k] = v
		}
	}
	if rep.Undone == nil {
		rep.Undone = []Undo{}
	}
	if rep.Left == nil {
		rep.Left = []Undo{}
	}
	if rep.Irreversible == nil {
		rep.Irreversible = []Effect{}
	}
	return rep
}

// Ledger returns the gate and record of a live run's writes; nil unless
// the upstream is a live Ombi behind the proxy.
func (u *Upstream) Ledger() *Ledger { return u.ledger }

// UndoWrites takes back the run's writes through the proxy with the run's
// credentials in authMode (api_key, or jwt: it logs in first) and returns
// the report; nil when the upstream has no ledger.
func (u *Upstream) UndoWrites(ctx context.Context, authMode string) *WriteReport {
	if u.ledger == nil {
		return nil
	}
	header, err := u.AuthHeader(ctx, authMode)
	if err != nil {
		u.ledger.mu.Lock()
		if len(u.ledger.undo) > 0 {
			u.ledger.errs = append(u.ledger.errs, "log in to take the writes back: "+err.Error())
		}
		u.ledger.mu.Unlock()
		return u.ledger.Report()
	}
	u.ledger.Cleanup(ctx, u.url, header)
	return u.ledger.Report()
}

// AuthHeader is the header that authenticates the run's own calls to the
// upstream in authMode (api_key, or jwt: it logs in through the upstream).
func (u *Upstream) AuthHeader(ctx context.Context, authMode string) (http.Header, error) {
	h := http.Header{}
	if authMode == "api_key" {
		h.Set("ApiKey", u.creds.APIKey)
		if u.creds.UserName != "" {
			h.Set("UserName", u.creds.UserName)
		}
		return h, nil
	}
	body, _ := json.Marshal(map[string]any{"username": u.creds.Username, "password": u.creds.Password, "rememberMe": false})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(u.url, "/")+"/api/v1/Token", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, errors.New("no answer")
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&tok) != nil || tok.AccessToken == "" {
		return nil, fmt.Errorf("POST /api/v1/Token answered %d without a token", resp.StatusCode)
	}
	h.Set("Authorization", "Bearer "+tok.AccessToken)
	return h, nil
}
