// Command mockombi runs the stateful mock Ombi server: the Ombi HTTP API
// with enforced auth, seeded data (built in or your own file), a bounded
// journal, fault injection and switchable upstream quirks, plus the /_mock/
// control API and its dashboard. With --proxy it stands in front of a real
// Ombi instead, journaling and faulting the calls it forwards, and with
// --record writes them to a data file that --data serves back offline.
//
//	mockombi --addr 127.0.0.1:5000 --data ./my-data.json --user alice:secret:power_user --static ./dist/browser
//	mockombi --addr 127.0.0.1:5001 --proxy http://127.0.0.1:5000 --record ./recorded.json
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/ombi-mcp/ombi-mcp/internal/buildinfo"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// config is everything the flags set.
type config struct {
	addr    string
	quiet   bool
	version bool
	usage   io.Writer // where --help prints
	opts    mockombi.Options
}

// userFlags collects repeated --user NAME:PASSWORD:ROLE values.
type userFlags []mockombi.User

// String lists the users for flag's help output.
func (u *userFlags) String() string {
	names := make([]string, len(*u))
	for i, x := range *u {
		names[i] = x.Username
	}
	return strings.Join(names, ",")
}

// Set parses one NAME:PASSWORD:ROLE value; the password may hold colons.
func (u *userFlags) Set(v string) error {
	first, last := strings.Index(v, ":"), strings.LastIndex(v, ":")
	if first <= 0 || first == last {
		return fmt.Errorf("parse user %q: want NAME:PASSWORD:ROLE", v)
	}
	parts := []string{v[:first], v[first+1 : last], v[last+1:]}
	switch parts[2] {
	case mockombi.RoleAdmin, mockombi.RolePowerUser, mockombi.RoleUser:
	default:
		return fmt.Errorf("parse user %q: role must be admin, power_user or user", v)
	}
	*u = append(*u, mockombi.User{Username: parts[0], Password: parts[1], Role: parts[2]})
	return nil
}

// originFlags collects repeated or comma-separated --cors-origin values.
type originFlags []string

// String lists the origins for flag's help output.
func (o *originFlags) String() string { return strings.Join(*o, ",") }

// Set adds one or more comma-separated origins.
func (o *originFlags) Set(v string) error {
	for _, x := range strings.Split(v, ",") {
		if x = strings.TrimSpace(x); x != "" {
			*o = append(*o, strings.TrimSuffix(x, "/"))
		}
	}
	return nil
}

// defaultAddr is where mockombi listens unless told otherwise: loopback, on
// Ombi's own default port.
const defaultAddr = "127.0.0.1:5000"

// parseFlags turns command-line arguments into a config.
func parseFlags(args []string, stdout, stderr io.Writer) (config, error) {
	c := config{usage: stdout}
	var users userFlags
	var origins originFlags
	var data string
	fs := flag.NewFlagSet("mockombi", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(c.usage, "usage: mockombi [flags]\n\nA realistic, stateful mock of Ombi's API; the dashboard is at /_mock/.\n\nflags:\n")
		fs.SetOutput(c.usage)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
	}
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.StringVar(&c.addr, "addr", defaultAddr, "listen address (loopback by default; 127.0.0.1:0 picks a free port)")
	fs.StringVar(&c.opts.APIKey, "api-key", mockombi.DefaultAPIKey, "accepted ApiKey")
	fs.Var(&users, "user", "login account NAME:PASSWORD:ROLE (admin|power_user|user); repeatable; replaces the default accounts")
	fs.StringVar(&data, "data", mockombi.DataSetDefault, "seed data: default, large, or a JSON data file (the format of GET /_mock/state)")
	fs.StringVar(&c.opts.BasePath, "base-path", "", "reverse-proxy path prefix, e.g. /ombi")
	fs.DurationVar(&c.opts.Latency, "latency", 0, "delay added to every upstream request, e.g. 150ms")
	fs.DurationVar(&c.opts.TokenTTL, "token-ttl", 0, "JWT lifetime (default 7 days, a year with rememberMe)")
	fs.StringVar(&c.opts.StaticDir, "static", "", "serve a built frontend from this directory at /")
	fs.BoolVar(&c.quiet, "quiet", false, "no JSON request log on stderr")
	fs.IntVar(&c.opts.JournalSize, "journal", mockombi.DefaultJournalSize, "upstream calls the journal keeps, oldest dropped first (-1: no limit)")
	fs.IntVar(&c.opts.JournalBodyBytes, "journal-body", mockombi.DefaultJournalBodyBytes, "bytes of each request and response body the journal keeps (-1: all)")
	fs.BoolVar(&c.opts.JournalResponses, "journal-responses", true, "record response headers and bodies in the journal")
	fs.Int64Var(&c.opts.MaxBodyBytes, "max-body", mockombi.DefaultMaxBodyBytes, "largest upstream request body; larger ones get 413 (-1: no limit)")
	fs.Var(&origins, "cors-origin", "browser origin allowed to call the /_mock/ control API cross-origin, e.g. http://localhost:4200; repeatable or comma-separated; * allows any")
	fs.DurationVar(&c.opts.ReadTimeout, "read-timeout", mockombi.DefaultReadTimeout, "longest time to read a whole request (-1s: none)")
	fs.DurationVar(&c.opts.IdleTimeout, "idle-timeout", mockombi.DefaultIdleTimeout, "idle keep-alive connections close after this (-1s: never)")
	fs.BoolVar(&c.opts.NoControl, "no-control", false, "switch the /_mock/ control API and dashboard off: a black box reachable only through Ombi's API")
	fs.StringVar(&c.opts.Proxy, "proxy", "", "forward every Ombi API call to the Ombi at this base URL, e.g. http://127.0.0.1:5000 or https://ombi.example/ombi")
	fs.StringVar(&c.opts.Record, "record", "", "with --proxy: write the calls that pass through to this data file, for --data to serve back")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("parse flags: unexpected argument %q", fs.Arg(0))
	}
	switch data {
	case mockombi.DataSetDefault, mockombi.DataSetLarge:
		c.opts.DataSet = data
	case "":
		return config{}, errors.New("parse flags: --data: want default, large or a data file")
	default:
		if st, err := os.Stat(data); err != nil || st.IsDir() {
			return config{}, fmt.Errorf("parse flags: --data %q: want default, large or a readable JSON data file", data)
		}
		c.opts.DataFile = data
	}
	if c.opts.Proxy != "" {
		if u, err := url.Parse(c.opts.Proxy); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return config{}, fmt.Errorf("parse flags: --proxy %q: want the http(s) base URL of an Ombi, e.g. http://127.0.0.1:5000", c.opts.Proxy)
		}
	}
	if c.opts.Record != "" && c.opts.Proxy == "" {
		return config{}, errors.New("parse flags: --record needs --proxy: it records what the Ombi behind the proxy answers")
	}
	if c.opts.JournalSize == 0 {
		return config{}, errors.New("parse flags: --journal 0 keeps nothing; give a positive count or -1 for no limit")
	}
	c.opts.CORSOrigins = origins
	if c.opts.StaticDir != "" {
		if st, err := os.Stat(c.opts.StaticDir); err != nil || !st.IsDir() {
			return config{}, fmt.Errorf("parse flags: --static %q is not a directory", c.opts.StaticDir)
		}
	}
	if len(users) > 0 {
		c.opts.Users = users
	}
	if !c.quiet {
		c.opts.Log = stderr
	}
	return c, nil
}

// run starts the mock and serves until ctx ends, then shuts down gracefully.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseFlags(args, stdout, stderr)
	if err != nil {
		return err
	}
	if c.version {
		fmt.Fprintf(stdout, "mockombi %s\n", buildinfo.Version())
		return nil
	}
	srv, err := mockombi.New(c.opts)
	if err != nil {
		return err
	}
	if err := srv.Start(c.addr); err != nil {
		return err
	}
	source := "data " + c.opts.DataSet
	if c.opts.DataFile != "" {
		source = "data " + c.opts.DataFile
	}
	if c.opts.Proxy != "" {
		source = "proxy to " + c.opts.Proxy
	}
	fmt.Fprintf(stdout, "mockombi listening on %s (%s)\n", srv.URL(), source)
	if c.opts.Proxy == "" {
		creds := srv.Credentials()
		fmt.Fprintf(stdout, "  ApiKey: %s\n", creds.APIKey)
		for _, u := range creds.Users {
			fmt.Fprintf(stdout, "  user %s / %s (%s)\n", u.Username, u.Password, u.Role)
		}
	} else {
		fmt.Fprintf(stdout, "  the Ombi API is forwarded: use the credentials of the Ombi at %s\n", c.opts.Proxy)
	}
	if c.opts.Record != "" {
		fmt.Fprintf(stdout, "  recording to %s (written every second and on exit)\n", c.opts.Record)
	}
	if c.opts.NoControl {
		fmt.Fprintf(stdout, "  control API and dashboard: off (--no-control)\n")
	} else {
		fmt.Fprintf(stdout, "  dashboard: %s/_mock/\n", srv.URL())
		fmt.Fprintf(stdout, "  control API: %s/_mock/ (journal, journal.har, faults, stubs, routes, unmatched, quirks, state, reset, canaries, auth/rotate, credentials, info)\n", srv.URL())
	}
	if !loopback(c.addr) && !c.opts.NoControl {
		fmt.Fprintf(stdout, "  warning: %s is not a loopback address; anyone who reaches it can read the credentials and drive the control API\n", c.addr)
	}
	<-ctx.Done()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}

// loopback reports whether a listen address binds loopback only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "mockombi:", err)
		os.Exit(2)
	}
}
