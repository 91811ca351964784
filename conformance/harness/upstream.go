package harness

import (
	"errors"
	"fmt"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// ErrLive is returned by the Upstream operations that need the embedded mock
// (journal, faults, quirks, canaries, auth rotation) when the upstream is a
// live Ombi.
var ErrLive = errors.New("needs the embedded mock; the upstream is a live Ombi")

// Credentials are what the server under test is given to reach the upstream.
type Credentials struct {
	APIKey   string // api_key mode: sent as ApiKey
	UserName string // api_key mode: optional UserName header; "" = not set
	Username string // jwt mode: login user
	Password string // jwt mode: login password
}

// Upstream is the Ombi the server under test talks to: the embedded mockombi
// (the default) or a live instance, reached directly or through a mockombi
// proxy in front of it (LiveProxied), which keeps the journal and injects
// faults on the way.
type Upstream struct {
	url   string
	mock  *mockombi.Server // nil when live and reached directly
	live  bool             // a live Ombi: its data, not the mock's
	creds Credentials
	// ledger is the proxy's gate in front of a live Ombi, and the record
	// of the run's writes (ledger.go); nil otherwise.
	ledger *Ledger
}

// StartMock starts mockombi in-process on a loopback port chosen at run time.
// The jwt credentials are those of the mock's admin user.
func StartMock(opts mockombi.Options) (*Upstream, error) { return StartMockAt("", opts) }

// StartMockAt is StartMock listening on addr ("" = a free loopback port):
// a fixed address lets a server started outside the suite (Target.URL) be
// pointed at the mock with OMBI_URL before the run.
func StartMockAt(addr string, opts mockombi.Options) (*Upstream, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	// the suite slices the journal by index (len before, [before:] after)
	// and compares bodies, so it keeps every call whole unless told otherwise
	if opts.JournalSize == 0 {
		opts.JournalSize = -1
	}
	if opts.JournalBytes == 0 {
		opts.JournalBytes = -1
	}
	if opts.JournalBodyBytes == 0 {
		opts.JournalBodyBytes = -1
	}
	m, err := mockombi.New(opts)
	if err != nil {
		return nil, fmt.Errorf("start mockombi: %w", err)
	}
	if err := m.Start(addr); err != nil {
		return nil, fmt.Errorf("start mockombi on %s: %w", addr, err)
	}
	c := m.Credentials()
	up := &Upstream{url: m.URL(), mock: m, creds: Credentials{APIKey: c.APIKey}}
	for _, u := range c.Users {
		if u.Role == "admin" || up.creds.Username == "" {
			up.creds.Username, up.creds.Password = u.Username, u.Password
		}
		if u.Role == "admin" {
			break
		}
	}
	return up, nil
}

// Live returns an Upstream for a live Ombi at url.
func Live(url string, creds Credentials) *Upstream {
	return &Upstream{url: url, creds: creds, live: true}
}

// LiveProxied returns an Upstream for a live Ombi at url reached through
// a mockombi proxy on a loopback port chosen at run time: the server under
// test talks to the proxy, which forwards every call and keeps the journal,
// and answers injected faults itself. The mock's own data, users and
// quirks play no part. The proxy's gate (a Ledger) forwards no write
// unless allowWrites, and then only those it can undo or lists.
func LiveProxied(url string, creds Credentials, allowWrites bool) (*Upstream, error) {
	l := NewLedger(url, allowWrites)
	m, err := StartMock(mockombi.Options{Proxy: url, ProxyGate: l})
	if err != nil {
		return nil, err
	}
	m.creds, m.live, m.ledger = creds, true, l
	return m, nil
}

// URL returns the upstream base URL, path prefix included.
func (u *Upstream) URL() string { return u.url }

// IsLive reports whether the upstream is a live Ombi rather than the mock.
func (u *Upstream) IsLive() bool { return u.live }

// Mock returns the embedded mock (the proxy in front of a live Ombi), or
// nil when the upstream is a live Ombi reached directly.
func (u *Upstream) Mock() *mockombi.Server { return u.mock }

// Credentials returns the credentials handed to servers under test.
func (u *Upstream) Credentials() Credentials { return u.creds }

// Close stops the embedded mock; it does nothing when live.
func (u *Upstream) Close() error {
	if u.mock == nil {
		return nil
	}
	return u.mock.Close()
}

// Env returns the harness-contract environment for one auth mode ("jwt" or
// "api_key"); bundles and timeout are added by the caller.
func (u *Upstream) Env(authMode string) []string {
	env := []string{"OMBI_URL=" + u.url, "OMBI_AUTH_MODE=" + authMode}
	switch authMode {
	case "api_key":
		env = append(env, "OMBI_API_KEY="+u.creds.APIKey)
		if u.creds.UserName != "" {
			env = append(env, "OMBI_USER_NAME="+u.creds.UserName)
		}
	default:
		env = append(env, "OMBI_USERNAME="+u.creds.Username, "OMBI_PASSWORD="+u.creds.Password)
	}
	return env
}

// Reset puts the mock back to its seed: store, journal, faults and quirks.
func (u *Upstream) Reset() error {
	if u.mock == nil {
		return ErrLive
	}
	u.mock.Reset()
	return nil
}

// Journal returns every upstream call received so far (nil when live).
func (u *Upstream) Journal() []mockombi.Call {
	if u.mock == nil {
		return nil
	}
	return u.mock.Journal()
}

// journalMark is a position in the mock's journal; ok is false when live.
type journalMark struct {
	mockombi.JournalMark
	ok bool
}

// mark reads the journal's position without copying the journal.
func (u *Upstream) mark() journalMark {
	if u.mock == nil {
		return journalMark{}
	}
	return journalMark{JournalMark: u.mock.JournalMark(), ok: true}
}

// since returns the calls recorded after m (nil when live, empty when none
// came); after a clear, every call kept.
func (u *Upstream) since(m journalMark) []mockombi.Call {
	if u.mock == nil || !m.ok {
		return nil
	}
	return u.mock.JournalSince(m.JournalMark)
}

// InjectFault installs one upstream fault.
func (u *Upstream) InjectFault(f mockombi.Fault) error {
	if u.mock == nil {
		return ErrLive
	}
	if err := u.mock.InjectFault(f); err != nil {
		return fmt.Errorf("inject fault %s %s: %w", f.Method, f.Path, err)
	}
	return nil
}

// ClearFaults removes every installed fault.
func (u *Upstream) ClearFaults() error {
	if u.mock == nil {
		return ErrLive
	}
	u.mock.ClearFaults()
	return nil
}

// SetQuirk switches one named upstream quirk.
func (u *Upstream) SetQuirk(name string, on bool) error {
	if u.mock == nil {
		return ErrLive
	}
	if err := u.mock.SetQuirk(name, on); err != nil {
		return fmt.Errorf("set quirk %s: %w", name, err)
	}
	return nil
}

// Canaries returns every secret planted in the mock.
func (u *Upstream) Canaries() ([]mockombi.Canary, error) {
	if u.mock == nil {
		return nil, ErrLive
	}
	return u.mock.Canaries(), nil
}

// RotateAuth invalidates every JWT the mock issued.
func (u *Upstream) RotateAuth() error {
	if u.mock == nil {
		return ErrLive
	}
	u.mock.RotateAuth()
	return nil
}

// ClearJournal forgets every upstream call recorded so far.
func (u *Upstream) ClearJournal() error {
	if u.mock == nil {
		return ErrLive
	}
	u.mock.ClearJournal()
	return nil
}
