package server

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Authentication modes, as OMBI_AUTH_MODE spells them.
const (
	AuthJWT    = ombi.AuthJWT
	AuthAPIKey = ombi.AuthAPIKey
)

// Defaults applied by OptionsFromEnv and New.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultMaxBodyBytes = 8 << 20
	// DefaultBodyBudgetBytes is the default shared budget of upstream answer
	// bytes: eight answers of the default cap at once.
	DefaultBodyBudgetBytes = 64 << 20
)

// bodyBudgetSlack is what a budget needs beyond twice the per-call cap so
// one answer of the cap can always be read: an answer of unknown length is
// read in chunks (up to two of which may be partly empty) and assembled
// into one buffer.
const bodyBudgetSlack = 2 * ombi.BodyChunkBytes

// Options configure a server. OptionsFromEnv fills them from the harness
// contract environment; tests build them directly.
type Options struct {
	// URL is the Ombi base URL. A reverse-proxy path prefix ("/ombi") is
	// kept. Required; it must not carry credentials, a query or a fragment.
	URL string
	// AuthMode is AuthJWT or AuthAPIKey. Required.
	AuthMode string
	// Username and Password log in through POST /api/v1/Token (jwt mode).
	Username, Password string
	// APIKey is sent as the ApiKey header (api_key mode).
	APIKey string
	// UserName, when not empty, is sent as the UserName header in api_key
	// mode so Ombi acts as that user.
	UserName string
	// Bundles are the enabled tool bundles. Nil or empty means core only.
	Bundles []string
	// Tools, when not empty, narrows the enabled bundles to these tool
	// names (OMBI_TOOLS): the others are not listed and are unknown to
	// tools/call, as if not implemented.
	Tools []string
	// Timeout bounds every upstream call, login included. Zero means
	// DefaultTimeout.
	Timeout time.Duration
	// MaxBodyBytes caps every upstream body read. Zero means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// BodyBudgetBytes bounds the upstream answer bytes all calls in flight
	// hold at once, the server's memory bound for upstream bodies: a call
	// reserves before it reads and gives back when it ends, and a call that
	// finds the budget spent fails RATE_LIMITED (retryable) instead of
	// allocating. An answer of unknown length may hold up to twice its size
	// while it is assembled. Zero means DefaultBodyBudgetBytes, or
	// 2*MaxBodyBytes+128 KiB when that is larger; a value set must be at
	// least that much.
	BodyBudgetBytes int64
	// Version is reported as serverInfo.version. Empty means "dev".
	Version string
	// HTTPClient sends upstream requests. Nil means a client of its own with
	// a clone of http.DefaultTransport. Its CheckRedirect is replaced (no
	// redirect off OMBI_URL's origin is followed). Writes go through a
	// clone of its Transport with keep-alives off, so no write is ever
	// replayed on a reused connection; a Transport that is not an
	// *http.Transport is used as it is for writes too, and must then never
	// replay a request itself.
	HTTPClient *http.Client
	// Logger receives diagnostics (never credentials). Nil discards them.
	Logger *slog.Logger

	// AllowedJobs are the write_job_run jobs this deployment enables, spelled
	// as the job enum (OMBI_ALLOWED_JOBS); names that are not jobs are
	// ignored. Nil means every job but the risky ones (update,
	// clearmediaserverdata, autodeleterequests, newsletter).
	AllowedJobs []string
	// Profiles are the "service:profile_id" pairs write_integration_test may
	// use (OMBI_PROFILES). Nil means none: every tester call is NOT_FOUND.
	Profiles []string

	// ReferenceTTL is how long a reference catalogue read as a resource
	// (ombi://reference/...) is served from memory before it is read
	// upstream again. Zero means DefaultReferenceTTL; negative is invalid.
	ReferenceTTL time.Duration

	// MCPToken, when not empty, is the bearer token the Streamable HTTP
	// endpoint requires (OMBI_MCP_TOKEN or OMBI_MCP_TOKEN_FILE, see
	// http.go). Empty means none. Unused on stdio.
	MCPToken string
	// mcpTokenFrom names the variable MCPToken was read from, for errors;
	// "" means OMBI_MCP_TOKEN.
	mcpTokenFrom string
	// AllowedOrigins are the browser origins the Streamable HTTP endpoint
	// accepts besides loopback ones; "*" accepts any
	// (OMBI_MCP_ALLOWED_ORIGINS). Unused on stdio.
	AllowedOrigins []string
}

// OptionsFromEnv reads the harness contract: OMBI_URL, OMBI_AUTH_MODE,
// OMBI_USERNAME, OMBI_PASSWORD, OMBI_API_KEY, OMBI_USER_NAME, OMBI_BUNDLES,
// OMBI_TOOLS, OMBI_TIMEOUT and OMBI_REFERENCE_TTL, and for the Streamable HTTP endpoint OMBI_MCP_TOKEN (or
// OMBI_MCP_TOKEN_FILE, a file it reads) and OMBI_MCP_ALLOWED_ORIGINS. lookupEnv is usually
// os.LookupEnv: a token set but empty is an error, not "no token". Bundles left unset are
// filled in as core, the default. Every problem is reported, joined, and the Options are
// validated.
func OptionsFromEnv(lookupEnv func(string) (string, bool)) (Options, error) {
	getenv := func(key string) string {
		v, _ := lookupEnv(key)
		return v
	}
	o := Options{
		URL:      strings.TrimSpace(getenv("OMBI_URL")),
		AuthMode: strings.TrimSpace(getenv("OMBI_AUTH_MODE")),
		Username: getenv("OMBI_USERNAME"),
		Password: getenv("OMBI_PASSWORD"),
		APIKey:   getenv("OMBI_API_KEY"),
		UserName: getenv("OMBI_USER_NAME"),

		AllowedJobs: commaList(getenv("OMBI_ALLOWED_JOBS")),
		Profiles:    commaList(getenv("OMBI_PROFILES")),
		Tools:       commaList(getenv("OMBI_TOOLS")),
	}
	var errs []error
	if err := o.httpFromEnv(lookupEnv); err != nil {
		errs = append(errs, err)
	}
	if b := strings.TrimSpace(getenv("OMBI_BUNDLES")); b != "" {
		for _, name := range strings.Split(b, ",") {
			if name = strings.TrimSpace(name); name != "" {
				o.Bundles = append(o.Bundles, name)
			}
		}
	}
	if len(o.Bundles) == 0 {
		o.Bundles = []string{spec.BundleCore} // the default, named: a log line shows what is in effect
	}
	if t := strings.TrimSpace(getenv("OMBI_TIMEOUT")); t != "" {
		d, err := time.ParseDuration(t)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("OMBI_TIMEOUT: %q is not a Go duration such as 30s", t))
		case d <= 0:
			errs = append(errs, errors.New("OMBI_TIMEOUT: must be greater than 0 and at most 10m"))
		default:
			o.Timeout = d
		}
	}
	if t := strings.TrimSpace(getenv("OMBI_REFERENCE_TTL")); t != "" {
		d, err := time.ParseDuration(t)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("OMBI_REFERENCE_TTL: %q is not a Go duration such as 10m", t))
		case d <= 0:
			errs = append(errs, errors.New("OMBI_REFERENCE_TTL: must be greater than 0"))
		default:
			o.ReferenceTTL = d
		}
	}
	if err := o.Validate(); err != nil {
		errs = append(errs, err)
	}
	return o, errors.Join(errs...)
}

// Validate reports every missing or invalid setting. Messages name the
// environment variable and never contain a secret value.
func (o Options) Validate() error {
	var errs []error
	if o.URL == "" {
		errs = append(errs, errors.New("OMBI_URL: missing; set the Ombi base URL, e.g. http://ombi:5000 or https://host/ombi"))
	} else if u, err := url.Parse(o.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, errors.New("OMBI_URL: must be an absolute http or https URL"))
	} else {
		if u.User != nil {
			errs = append(errs, errors.New("OMBI_URL: must not carry credentials; use OMBI_USERNAME/OMBI_PASSWORD or OMBI_API_KEY"))
		}
		if u.RawQuery != "" || u.Fragment != "" {
			errs = append(errs, errors.New("OMBI_URL: must not carry a query or fragment"))
		}
	}
	switch o.AuthMode {
	case AuthJWT:
		if o.Username == "" {
			errs = append(errs, errors.New("OMBI_USERNAME: missing; jwt mode logs in with OMBI_USERNAME and OMBI_PASSWORD"))
		}
		if o.Password == "" {
			errs = append(errs, errors.New("OMBI_PASSWORD: missing; jwt mode logs in with OMBI_USERNAME and OMBI_PASSWORD"))
		}
	case AuthAPIKey:
		if o.APIKey == "" {
			errs = append(errs, errors.New("OMBI_API_KEY: missing; api_key mode sends it as the ApiKey header"))
		}
	case "":
		errs = append(errs, errors.New("OMBI_AUTH_MODE: missing; set jwt or api_key"))
	default:
		errs = append(errs, fmt.Errorf("OMBI_AUTH_MODE: %q is not jwt or api_key", o.AuthMode))
	}
	known := []string{spec.BundleCore, spec.BundleModeration, spec.BundleAdministration}
	for _, b := range o.Bundles {
		if !slices.Contains(known, b) {
			errs = append(errs, fmt.Errorf("OMBI_BUNDLES: unknown bundle %q (known: %s)", b, strings.Join(known, ",")))
		}
	}
	for _, t := range o.Tools {
		if _, ok := spec.Lookup(t); !ok {
			errs = append(errs, fmt.Errorf("OMBI_TOOLS: unknown tool %q", t))
		}
	}
	if o.Timeout < 0 || o.Timeout > 10*time.Minute {
		errs = append(errs, errors.New("OMBI_TIMEOUT: must be greater than 0 and at most 10m"))
	}
	if o.ReferenceTTL < 0 {
		errs = append(errs, errors.New("reference TTL: must not be negative"))
	}
	if o.MaxBodyBytes < 0 {
		errs = append(errs, errors.New("max body bytes: must not be negative"))
	}
	if o.BodyBudgetBytes < 0 {
		errs = append(errs, errors.New("body budget bytes: must not be negative"))
	} else if o.BodyBudgetBytes > 0 && o.MaxBodyBytes >= 0 && o.BodyBudgetBytes < o.minBodyBudget() {
		errs = append(errs, fmt.Errorf("body budget bytes: must be at least twice max body bytes plus 128 KiB (%d), so one answer of the cap can be read", o.minBodyBudget()))
	}
	if err := o.validateHTTP(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// bundles returns the enabled bundle set.
func (o Options) bundles() map[string]bool {
	set := map[string]bool{}
	for _, b := range o.Bundles {
		set[b] = true
	}
	if len(set) == 0 {
		set[spec.BundleCore] = true
	}
	return set
}

func (o Options) referenceTTL() time.Duration {
	if o.ReferenceTTL == 0 {
		return DefaultReferenceTTL
	}
	return o.ReferenceTTL
}

func (o Options) timeout() time.Duration {
	if o.Timeout == 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

func (o Options) maxBody() int64 {
	if o.MaxBodyBytes == 0 {
		return DefaultMaxBodyBytes
	}
	return o.MaxBodyBytes
}

// minBodyBudget is the smallest budget that reads one answer of the cap.
func (o Options) minBodyBudget() int64 { return 2*o.maxBody() + bodyBudgetSlack }

func (o Options) bodyBudget() int64 {
	if o.BodyBudgetBytes == 0 {
		return max(DefaultBodyBudgetBytes, o.minBodyBudget())
	}
	return o.BodyBudgetBytes
}

func (o Options) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o.Logger
}

// settingError is a setting that cannot be used: the variable it came from
// and what is wrong. It never holds a secret value.
type settingError struct {
	Setting string // the variable, e.g. OMBI_MCP_TOKEN_FILE
	Problem string
	Err     error // the cause, e.g. the file's open error; may be nil
}

func (e *settingError) Error() string {
	if e.Err != nil {
		return e.Setting + ": " + e.Problem + ": " + e.Err.Error()
	}
	return e.Setting + ": " + e.Problem
}

func (e *settingError) Unwrap() error { return e.Err }

// commaList splits a comma list, trimming and dropping empty entries; nil
// when nothing is left.
func commaList(s string) []string {
	var out []string
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}
