package mockombi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

// DefaultAPIKey is the API key used when Options.APIKey is empty.
const DefaultAPIKey = "0b6d0e2c4f8a4d1e9c3b7a5f2e1d4c6b"

// Request and server bounds used when the Options fields are 0.
const (
	// DefaultMaxBodyBytes caps an upstream request body; larger ones get
	// 413, as Kestrel's default MaxRequestBodySize (30,000,000 bytes) does.
	DefaultMaxBodyBytes = 30_000_000
	// DefaultMaxStateBytes caps a POST /_mock/state document.
	DefaultMaxStateBytes = 64 << 20
	// MaxControlBody caps every other control-API request body (a posted
	// fault may hold a body of MaxFaultBody, escaped).
	MaxControlBody = 1 << 20
	// maxFaultRequest caps a POST /_mock/faults request: a fault body of
	// MaxFaultBody bytes JSON-escaped (at most twice as long, unless full of
	// control characters), plus the other fields.
	maxFaultRequest = 2*MaxFaultBody + MaxControlBody
	// DefaultReadHeaderTimeout, DefaultReadTimeout and DefaultIdleTimeout
	// bound the connections Start accepts: a request's header must arrive
	// within 10s and the whole request within 60s; an idle keep-alive
	// connection closes after 120s. Answers have no write timeout, so
	// delayed and oversized faults stream as long as they are asked to.
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 60 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
)

// Options configure a Server. The zero value is a usable mock.
type Options struct {
	// APIKey is the accepted ApiKey; "" means DefaultAPIKey.
	APIKey string
	// Users are the accounts that can log in; nil means DefaultUsers().
	Users []User
	// DataSet selects the seed: "" or "default" for the realistic set,
	// "large" for the generated budget-test set.
	DataSet string
	// DataFile, when set, is a JSON data document (the format of
	// GET /_mock/state, see docs/mockombi.md) that replaces the seed; DataSet
	// must then be "" or "default".
	DataFile string
	// BasePath is a reverse-proxy prefix such as "/ombi"; "" means none.
	BasePath string
	// Latency is added to every upstream (non-control) request; 0 means none.
	Latency time.Duration
	// TokenTTL is the JWT lifetime; 0 means 7 days (1 year with rememberMe).
	TokenTTL time.Duration
	// StaticDir, when set, is a built frontend served at "/".
	StaticDir string
	// Log receives one JSON line per request; nil means no log.
	Log io.Writer
	// Clock is the time source; nil means time.Now.
	Clock func() time.Time

	// JournalSize is how many upstream calls the journal keeps, oldest
	// dropped first; 0 means DefaultJournalSize, negative means no limit.
	JournalSize int
	// JournalBytes caps the memory the journal holds (bodies, headers,
	// paths); the oldest calls are dropped first. 0 means
	// DefaultJournalBytes, negative means no limit.
	JournalBytes int64
	// JournalBodyBytes is how much of each request (and recorded response)
	// body a journaled call keeps; longer bodies are cut and marked
	// truncated. 0 means DefaultJournalBodyBytes, negative means all.
	JournalBodyBytes int
	// JournalResponses records each answer's headers and body in the journal.
	JournalResponses bool
	// MaxBodyBytes caps an upstream request body: a longer one gets 413.
	// 0 means DefaultMaxBodyBytes, negative means no limit.
	MaxBodyBytes int64
	// MaxStateBytes caps a POST /_mock/state document; 0 means
	// DefaultMaxStateBytes.
	MaxStateBytes int64
	// CORSOrigins are the browser origins allowed to call the /_mock/
	// control API from another origin ("*" allows any); none by default.
	// Cross-origin control calls from other origins are refused with 403.
	// The Ombi API routes answer every origin whatever this says.
	CORSOrigins []string
	// ReadHeaderTimeout, ReadTimeout and IdleTimeout configure the listener
	// of Start; 0 means the Default* value, negative means none.
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	IdleTimeout       time.Duration

	// Proxy, when set, is the base URL of a real Ombi (such as
	// http://127.0.0.1:5000 or https://ombi.example/ombi): every Ombi call
	// (not the control API, not the dashboard; with StaticDir, only /api
	// paths) is forwarded to it below its path and answered with what it
	// answered. Journal, faults, latency and CORS apply on the way; the
	// mock's own store and authentication do not.
	Proxy string
	// Record, with Proxy, is a data file the calls that pass through
	// unfaulted are written to, scrubbed of credentials and e-mail
	// addresses, as "recordings" a mock started with DataFile answers
	// from. It is written at start, at most once a second while calls come
	// and on Close or Shutdown.
	Record string
	// ProxyGate, with Proxy, decides which calls are forwarded and is told
	// of each forwarded call's answer (a live run of the conformance suite
	// keeps its writes to the entities it created there). Nil forwards
	// every call.
	ProxyGate ProxyGate
	// NoControl switches the /_mock/ control API and its dashboard off:
	// those paths are answered as Ombi answers a route it does not have,
	// so the mock is a black box reachable only through Ombi's API (a
	// stand-in for someone's own Ombi).
	NoControl bool
	// Stubs are canned answers given instead of the routes' own from the
	// start (and again after Reset), ahead of a DataFile's "stubs"; see
	// Stub and AddStub.
	Stubs []Stub
}

// DefaultUsers returns the accounts used when Options.Users is nil: one per role.
func DefaultUsers() []User {
	return []User{
		{Username: "admin", Password: "OmbiAdmin1!", Role: RoleAdmin},
		{Username: "power", Password: "OmbiPower1!", Role: RolePowerUser},
		{Username: "user", Password: "OmbiUser1!", Role: RoleUser},
	}
}

// Credentials is what GET /_mock/credentials returns.
type Credentials struct {
	APIKey string           `json:"api_key"`
	Users  []CredentialUser `json:"users"`
}

// CredentialUser is one login account in Credentials.
type CredentialUser struct {
	Username string `json:"username"`
	Password string `json:"password"`
	Role     string `json:"role"`
}

// Server is a stateful mock of the Ombi HTTP API with a control API under /_mock/.
type Server struct {
	opts     Options
	basePath string
	users    []User
	router   *router
	store    *store
	journal  *journal
	faults   *faultSet
	hits     *routeHits
	quirks   *quirkSet
	auth     *authKeys
	answers  answerCache // encoded answers of the search routes
	proxy    *proxy      // nil unless Options.Proxy

	mu   sync.Mutex
	ln   net.Listener
	http *http.Server
}

// New builds a Server from opts; it does not listen. It fails on bad
// options, naming the option (and for DataFile the JSON path at fault).
func New(opts Options) (*Server, error) {
	if err := checkOptions(opts); err != nil {
		return nil, err
	}
	if opts.APIKey == "" {
		opts.APIKey = DefaultAPIKey
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.TokenTTL == 0 {
		opts.TokenTTL = 7 * 24 * time.Hour
	}
	users := opts.Users
	if users == nil {
		users = DefaultUsers()
	}
	s := &Server{
		opts:     opts,
		basePath: strings.TrimSuffix(opts.BasePath, "/"),
		users:    append([]User(nil), users...),
		journal:  newJournal(orDefault(opts.JournalSize, DefaultJournalSize), orDefault(opts.JournalBytes, DefaultJournalBytes)),
		faults:   &faultSet{},
		quirks:   newQuirkSet(),
		auth:     newAuthKeys(),
	}
	if s.basePath != "" && !strings.HasPrefix(s.basePath, "/") {
		s.basePath = "/" + s.basePath
	}
	rt, err := newRouter(s.routes())
	if err != nil {
		return nil, fmt.Errorf("build mockombi routes: %w", err)
	}
	s.router = rt
	s.hits = newRouteHits(rt)
	var doc *db.StateDoc
	if opts.DataFile != "" {
		b, err := os.ReadFile(opts.DataFile)
		if err != nil {
			return nil, fmt.Errorf("read data file: %w", err)
		}
		if doc, err = parseState(b, "data file "+opts.DataFile, opts.Users); err != nil {
			return nil, err
		}
	}
	dbs, err := db.NewStore(opts.DataSet, doc, s.users, opts.Users, opts.Stubs, served(), opts.Clock)
	if err != nil {
		return nil, fmt.Errorf("load mockombi seed: %w", err)
	}
	s.store = &store{dbs}
	if opts.Proxy != "" {
		if s.proxy, err = newProxy(opts); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkOptions refuses option values no mock can run with.
func checkOptions(o Options) error {
	switch o.DataSet {
	case "", DataSetDefault:
	case DataSetLarge:
		if o.DataFile != "" {
			return fmt.Errorf("options: DataSet %q and DataFile %q: give one", o.DataSet, o.DataFile)
		}
	default:
		return fmt.Errorf("options: DataSet %q: want %q or %q (or a DataFile)", o.DataSet, DataSetDefault, DataSetLarge)
	}
	for i, u := range o.Users {
		switch {
		case u.Username == "":
			return fmt.Errorf("options: Users[%d]: empty user name", i)
		case u.Role != RoleAdmin && u.Role != RolePowerUser && u.Role != RoleUser:
			return fmt.Errorf("options: Users[%d] (%s): role %q: want %s, %s or %s", i, u.Username, u.Role, RoleAdmin, RolePowerUser, RoleUser)
		}
		for _, v := range o.Users[:i] {
			if strings.EqualFold(v.Username, u.Username) {
				return fmt.Errorf("options: Users[%d]: user name %q given twice", i, u.Username)
			}
		}
	}
	if o.BasePath != "" && strings.ContainsAny(o.BasePath, "?#") {
		return fmt.Errorf("options: BasePath %q: a path prefix holds no query or fragment", o.BasePath)
	}
	for i, origin := range o.CORSOrigins {
		if origin != "*" && !validOrigin(origin) {
			return fmt.Errorf("options: CORSOrigins[%d]: %q is not an origin like http://localhost:4200 (or *)", i, origin)
		}
	}
	for i, st := range o.Stubs {
		if err := validateStub(st); err != nil {
			return fmt.Errorf("options: Stubs[%d]: %w", i, err)
		}
	}
	if o.Latency < 0 || o.TokenTTL < 0 {
		return fmt.Errorf("options: Latency and TokenTTL must not be negative")
	}
	return checkProxyOptions(o)
}

// validOrigin reports whether s is a serialized origin: scheme://host[:port].
func validOrigin(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" &&
		u.Path == "" && u.RawQuery == "" && u.Fragment == "" && u.User == nil
}

// orDefault maps 0 to def and a negative value to 0 (no limit).
func orDefault[T int | int64 | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// Handler returns the upstream routes plus the /_mock/ control API.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serve) }

// Start listens on addr (for example "127.0.0.1:0") and serves in the background.
func (s *Server) Start(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: orDefault(s.opts.ReadHeaderTimeout, DefaultReadHeaderTimeout),
		ReadTimeout:       orDefault(s.opts.ReadTimeout, DefaultReadTimeout),
		IdleTimeout:       orDefault(s.opts.IdleTimeout, DefaultIdleTimeout),
		MaxHeaderBytes:    1 << 20,
	}
	s.mu.Lock()
	s.ln, s.http = ln, srv
	s.mu.Unlock()
	go func() { _ = srv.Serve(ln) }()
	return nil
}

// URL is the base URL clients use, including BasePath; "" before Start.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return ""
	}
	return "http://" + s.ln.Addr().String() + s.basePath
}

// Close stops the listener and open connections, and writes the
// recording (Options.Record).
func (s *Server) Close() error {
	s.mu.Lock()
	srv := s.http
	s.mu.Unlock()
	var err error
	if srv != nil {
		err = srv.Close()
	}
	return errors.Join(err, s.proxy.close())
}

// Shutdown stops accepting connections and waits for active ones until ctx
// ends, then writes the recording (Options.Record).
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	srv := s.http
	s.mu.Unlock()
	var err error
	if srv != nil {
		err = srv.Shutdown(ctx)
	}
	return errors.Join(err, s.proxy.close())
}

// Reset puts the store back to its seed (the data set or DataFile given at
// start, with the stubs the mock started with), clears journal, route hits,
// faults and quirks, and rotates auth so earlier tokens stop working.
func (s *Server) Reset() {
	if err := s.store.Reset(); err != nil {
		panic(fmt.Errorf("reload mockombi seed: %w", err)) // the seed loaded once, so it is a defect
	}
	s.journal.clear()
	s.hits.clear()
	s.faults.clear()
	s.quirks.reset()
	s.auth.rotate()
}

// Journal returns copies of the recorded upstream calls in arrival order,
// once the requests that arrived before it was called are recorded: an
// answer can reach its client before its handler returns.
func (s *Server) Journal() []Call { return s.journal.list() }

// InFlight lists the requests the mock has received and not yet answered
// in full (a hung fault, a slow answer, a handler that did not return),
// oldest first. Unlike Journal it never waits.
func (s *Server) InFlight() []InFlight { return s.journal.inFlight() }

// RecentCalls returns the last n calls recorded, without waiting for the
// requests in flight: what a report of a stalled call shows. The copies
// share headers and bodies with the journal: read only.
func (s *Server) RecentCalls(n int) []Call { return s.journal.recent(n) }

// JournalMark is a position in the journal: how many clears (and resets)
// there were, and the last call number handed out.
type JournalMark struct{ Epoch, Last int }

// JournalMark returns the journal's position now, without copying it.
func (s *Server) JournalMark() JournalMark {
	st := s.journal.stats()
	return JournalMark{Epoch: st.Epoch, Last: st.Last}
}

// JournalSince returns the calls recorded after m; after a clear, every call
// kept. Like Journal, it first waits (a few seconds at most) for the
// requests that arrived before it was called to be recorded. The copies
// share headers and bodies with the journal: read only.
func (s *Server) JournalSince(m JournalMark) []Call { return s.journal.after(m.Epoch, m.Last) }

// ClearJournal forgets every recorded call and sets the routes' hit
// counts back to 0.
func (s *Server) ClearJournal() {
	s.journal.clear()
	s.hits.clear()
}

// InjectFault adds a fault; it fails when the fault is malformed. AddFault
// also returns the fault's id.
func (s *Server) InjectFault(f Fault) error {
	_, err := s.faults.add(f)
	return err
}

// AddFault adds a fault and returns its id (the N of the journal's
// "status_429#N"); it fails when the fault is malformed, naming the field.
func (s *Server) AddFault(f Fault) (int, error) { return s.faults.add(f) }

// Faults lists the live faults in injection order; spent ones are gone.
func (s *Server) Faults() []ActiveFault { return s.faults.list() }

// LookupFault returns the live fault with id.
func (s *Server) LookupFault(id int) (ActiveFault, bool) { return s.faults.get(id) }

// RemoveFault removes the live fault with id; false when there is none.
func (s *Server) RemoveFault(id int) bool { return s.faults.remove(id) }

// ClearFaults removes every fault.
func (s *Server) ClearFaults() { s.faults.clear() }

// WriteState writes the current store as a data document (the format
// DataFile and POST /_mock/state read).
func (s *Server) WriteState(w io.Writer) error {
	b, err := s.store.Export()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// ReplaceState validates a data document and replaces the store with it;
// journal, faults, quirks and tokens stay. Reset still goes back to the seed
// the server started with. On error the store is unchanged.
func (s *Server) ReplaceState(doc []byte) error {
	d, err := parseState(doc, "state", s.opts.Users)
	if err != nil {
		return err
	}
	return s.store.Replace(d)
}

// RestoreState puts back a state this mock wrote (WriteState), as it was:
// the shape is checked, not the references between records, because the
// writes Ombi's routes take can leave a state that a data file may not
// start from (an issue whose category is gone, say). Logins, tokens,
// faults, quirks and the journal stay as they are.
func (s *Server) RestoreState(doc []byte) error {
	d, err := db.ParseDoc(doc, "state", s.opts.Users, served(), false)
	if err != nil {
		return err
	}
	return s.store.Replace(d)
}

// SetQuirk switches a named quirk; an unknown name is an error.
func (s *Server) SetQuirk(name string, on bool) error { return s.quirks.set(name, on) }

// Quirks lists every quirk name.
func (s *Server) Quirks() []string { return quirkNames() }

// QuirkDefault reports whether the named quirk is on in a new mock (and
// after a reset), and whether the name is a quirk at all.
func QuirkDefault(name string) (on, known bool) {
	on, known = quirkDefaults[name]
	return on, known
}

// Canaries lists every planted secret.
func (s *Server) Canaries() []Canary {
	var out []Canary
	s.store.Read(func(st *store) { out = append(out, st.Canaries...) })
	return out
}

// RotateAuth makes every issued JWT invalid.
func (s *Server) RotateAuth() { s.auth.rotate() }

// Credentials returns the API key and login accounts.
func (s *Server) Credentials() Credentials {
	c := Credentials{APIKey: s.opts.APIKey, Users: []CredentialUser{}}
	s.store.Read(func(st *store) {
		for _, u := range st.Logins {
			c.Users = append(c.Users, CredentialUser(u))
		}
	})
	return c
}

// now is the injected clock.
func (s *Server) now() time.Time { return s.opts.Clock() }

// serve is the whole pipeline: control API (and the browser's icon), CORS,
// journal, latency, faults, base path, then a stub, the proxy or a recording, or
// the API key middleware, routing, authorization and the handler.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	escaped := r.URL.EscapedPath()
	if rest, ok := s.controlPath(escaped); ok && !s.opts.NoControl {
		s.serveControl(w, r, rest)
		return
	}
	if s.browserIcon(r, escaped) {
		s.serveDashboard(w, r, "favicon.svg")
		return
	}
	start := time.Now()
	arrived := s.journal.begin(r.Method, escaped, start)
	body, readErr := readBody(w, r, orDefault(s.opts.MaxBodyBytes, DefaultMaxBodyBytes))
	r.Body = newBufferedBody(body)

	bodyCap := orDefault(s.opts.JournalBodyBytes, DefaultJournalBodyBytes)
	if s.opts.JournalBodyBytes < 0 {
		bodyCap = -1
	}
	rec := &recorder{ResponseWriter: w}
	if s.opts.JournalResponses {
		rec.capture = &capture{limit: bodyCap}
	}
	reset := false // a reset fault answers nothing: the journal records status 0
	call := Call{
		Time:   s.now().UTC(),
		Method: r.Method,
		Path:   escaped,
		Query:  r.URL.RawQuery,
		Header: r.Header.Clone(),
	}
	call.Body, call.BodyTruncated = journalRequestBody(body, bodyCap)
	if call.BodyTruncated || readErr != nil {
		call.BodyBytes = len(body)
	}
	defer func() {
		call.Status = rec.statusCode()
		if reset {
			call.Status = 0
		}
		if rec.capture != nil {
			call.ResponseHeader = rec.header
			call.ResponseBody, call.ResponseTruncated = rec.capture.body()
			call.ResponseBytes = rec.capture.n
		}
		d := time.Since(start)
		call.DurationMS = float64(d.Microseconds()) / 1000
		if call.Route != "" {
			s.hits.add(call.Route)
		}
		s.journal.add(call, arrived)
		s.logRequest(call, d)
	}()

	s.cors(rec, r)
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
		rec.WriteHeader(http.StatusNoContent)
		return
	}
	if readErr != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(readErr, &tooLarge) {
			call.BodyTruncated = true
			writeOmbiError(rec, http.StatusRequestEntityTooLarge, fmt.Sprintf("Request body too large. The max request body size is %d bytes.", tooLarge.Limit))
			return
		}
		writeOmbiError(rec, http.StatusBadRequest, "read request body: "+readErr.Error())
		return
	}
	if s.opts.Latency > 0 {
		select {
		case <-time.After(s.opts.Latency):
		case <-r.Context().Done():
			return
		}
	}

	upstream, inBase := s.stripBase(escaped)
	var wrongType bool
	if f, name, ok := s.faults.match(r.Method, upstream, unescape(upstream), escaped); ok {
		call.Fault = name
		reset = f.Kind == FaultReset
		if handled := s.applyFault(rec, r, f); handled {
			return
		}
		wrongType = f.Kind == FaultWrongContentType
	}
	var out http.ResponseWriter = rec
	if wrongType {
		out = &contentTypeOverride{ResponseWriter: rec}
	}
	if !inBase {
		call.Unmatched = true
		http.NotFound(out, r)
		return
	}
	if st, name, ok := s.stubs().match(r.Method, upstream); ok {
		call.Stub = name
		if cr, _, _ := s.router.match(r.Method, upstream); cr != nil {
			call.Route = cr.pattern
		}
		serveStub(out, r, st)
		return
	}
	if s.forward(out, r, upstream, body, &call) {
		return
	}
	if isAPIPath(upstream) {
		call.Route, call.Unmatched = s.serveAPI(out, r, upstream)
		return
	}
	if cr, params, _ := s.router.match(r.Method, upstream); cr != nil {
		call.Route = cr.pattern
		s.dispatch(out, r, cr, params, nil)
		return
	}
	call.Unmatched = !s.serveStatic(out, r, upstream)
}

// readBody reads a request body of at most limit bytes (limit 0: any); a
// longer body fails with *http.MaxBytesError. The bytes are the caller's:
// nothing else holds them.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	rd, size, err := limitedBody(w, r, limit)
	if rd == nil || err != nil {
		return nil, err
	}
	defer r.Body.Close()
	return readSized(rd, size)
}

// limitedBody is the reader of a request body capped at limit bytes (limit
// 0: any; nil when there is no body) and the size of buffer that reads it
// whole without growing: the declared length and one byte to see the end,
// or 512 when no length within the limit is declared.
func limitedBody(w http.ResponseWriter, r *http.Request, limit int64) (io.Reader, int, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, 0, nil
	}
	var rd io.Reader = r.Body
	if limit > 0 {
		if r.ContentLength > limit {
			r.Body.Close()
			return nil, 0, &http.MaxBytesError{Limit: limit}
		}
		rd = http.MaxBytesReader(w, r.Body, limit)
	}
	if r.ContentLength > 0 && (limit <= 0 || r.ContentLength <= limit) {
		return rd, int(r.ContentLength) + 1, nil
	}
	return rd, 512, nil
}

// readSized reads rd to its end into a buffer of size bytes, grown only
// when the body is longer, and returns what it read with the first error
// other than io.EOF (as bytes.Buffer.ReadFrom, which grows its buffer to
// keep 512 bytes free before each read).
func readSized(rd io.Reader, size int) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		n, err := rd.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// bufferedBody is the request body handlers read: the bytes serve read
// (and journaled) once, which decodeBody takes without copying them.
type bufferedBody struct {
	bytes.Reader
	b []byte
}

func newBufferedBody(b []byte) *bufferedBody {
	bb := &bufferedBody{b: b}
	bb.Reset(b)
	return bb
}

// Close does nothing: the bytes stay readable.
func (*bufferedBody) Close() error { return nil }

// rest is what is left to read, consumed; callers must not change it.
func (bb *bufferedBody) rest() []byte {
	rest := bb.b[len(bb.b)-bb.Len():]
	_, _ = bb.Seek(0, io.SeekEnd)
	return rest
}

// serveAPI runs the Ombi middleware order for /api paths and returns the
// matched route pattern, or that no route matched.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, upstream string) (pattern string, unmatched bool) {
	p, stop := s.authenticate(w, r)
	if stop {
		return "", false
	}
	cr, params, otherMethod := s.router.match(r.Method, upstream)
	if cr == nil {
		if otherMethod {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return "", true
		}
		w.WriteHeader(http.StatusNotFound)
		return "", true
	}
	s.dispatch(w, r, cr, params, p)
	return cr.pattern, false
}

// dispatch checks the route's auth level and runs its handler, turning a panic
// into Ombi's 500 {"error": ...} body.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, cr *compiledRoute, params map[string]string, p *principal) {
	if !s.authorize(w, r, cr.auth, p) {
		return
	}
	for k, v := range params {
		r.SetPathValue(k, v)
	}
	r = r.WithContext(withPrincipal(r.Context(), p))
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			writeOmbiError(w, http.StatusInternalServerError, fmt.Sprint(v))
		}
	}()
	cr.handler(w, r)
}

// stripBase removes BasePath from an escaped path; ok is false when the path
// lies outside it.
func (s *Server) stripBase(escaped string) (string, bool) {
	if s.basePath == "" {
		return escaped, true
	}
	if len(escaped) >= len(s.basePath) && strings.EqualFold(escaped[:len(s.basePath)], s.basePath) {
		rest := escaped[len(s.basePath):]
		if rest == "" {
			return "/", true
		}
		if strings.HasPrefix(rest, "/") {
			return rest, true
		}
	}
	return escaped, false
}

// isAPIPath reports whether the Ombi API middleware applies (paths starting
// with the segment /api, any case).
func isAPIPath(p string) bool {
	if len(p) < 4 || !strings.EqualFold(p[:4], "/api") {
		return false
	}
	return len(p) == 4 || p[4] == '/'
}

// cors answers browsers on the Ombi API routes from any origin, as a
// development mock for a UI on another port should.
func (s *Server) cors(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Set("Access-Control-Expose-Headers", "Retry-After, WWW-Authenticate, Content-Disposition")
	if r.Method == http.MethodOptions {
		h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, PATCH, OPTIONS")
		h.Set("Access-Control-Allow-Headers", allowHeaders(r.Header.Get("Access-Control-Request-Headers")))
		h.Set("Access-Control-Max-Age", "600")
	}
}

// corsHeaders are the request headers Ombi's clients send.
const corsHeaders = "Authorization, ApiKey, UserName, ApiAlias, UserAccessToken, Content-Type, Accept, X-Requested-With"

// allowHeaders lists corsHeaders plus any other header the preflight asked
// for, each once (names compared case-insensitively).
func allowHeaders(requested string) string {
	out := strings.Split(corsHeaders, ", ")
	for _, h := range strings.Split(requested, ",") {
		h = strings.TrimSpace(h)
		if h != "" && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, h) }) {
			out = append(out, h)
		}
	}
	return strings.Join(out, ", ")
}

// logRequest writes one JSON line per upstream request to Options.Log.
func (s *Server) logRequest(c Call, d time.Duration) {
	if s.opts.Log == nil {
		return
	}
	line, err := json.Marshal(map[string]any{
		"time":        s.now().UTC().Format(time.RFC3339Nano),
		"method":      c.Method,
		"path":        c.Path,
		"query":       redactQuery(c.Query),
		"status":      c.Status,
		"route":       c.Route,
		"fault":       c.Fault,
		"duration_ms": float64(d.Microseconds()) / 1000,
	})
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = s.opts.Log.Write(append(line, '\n'))
}

// recorder remembers the status a handler wrote and, with a capture, the
// answer's headers and the start of its body.
type recorder struct {
	http.ResponseWriter
	status  int
	capture *capture
	header  http.Header
}

// WriteHeader records the status.
func (rw *recorder) WriteHeader(code int) {
	if rw.status == 0 {
		rw.status = code
		if rw.capture != nil {
			rw.header = rw.ResponseWriter.Header().Clone()
		}
	}
	rw.ResponseWriter.WriteHeader(code)
}

// Write records an implicit 200 and the bytes written.
func (rw *recorder) Write(b []byte) (int, error) {
	if rw.status == 0 {
		rw.status = http.StatusOK
		if rw.capture != nil {
			rw.header = rw.ResponseWriter.Header().Clone()
		}
	}
	n, err := rw.ResponseWriter.Write(b)
	if rw.capture != nil {
		rw.capture.write(b[:n])
	}
	return n, err
}

// Unwrap lets http.ResponseController reach Flush and Hijack.
func (rw *recorder) Unwrap() http.ResponseWriter { return rw.ResponseWriter }

// statusCode is the recorded status, 200 when the handler wrote nothing.
func (rw *recorder) statusCode() int {
	if rw.status == 0 {
		return http.StatusOK
	}
	return rw.status
}

// contentTypeOverride replaces the response content type with text/html.
type contentTypeOverride struct {
	http.ResponseWriter
	done bool
}

// WriteHeader swaps the content type before the header goes out.
func (c *contentTypeOverride) WriteHeader(code int) {
	if !c.done {
		c.done = true
		c.Header().Set("Content-Type", "text/html; charset=utf-8")
	}
	c.ResponseWriter.WriteHeader(code)
}

// Write makes sure the header swap happened.
func (c *contentTypeOverride) Write(b []byte) (int, error) {
	if !c.done {
		c.WriteHeader(http.StatusOK)
	}
	return c.ResponseWriter.Write(b)
}

// Unwrap exposes the underlying writer.
func (c *contentTypeOverride) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// unescape is the unescaped form of an escaped path, or the path itself.
func unescape(p string) string {
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}
