// Command mockombi runs the stateful mock Ombi server: the Ombi HTTP API
// with enforced auth, seeded data, a journal, fault injection and switchable
// upstream quirks, plus the /_mock/ control API.
//
//	mockombi --addr 127.0.0.1:5099 --user alice:secret:power_user --static ./dist/browser
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// config is everything the flags set.
type config struct {
	addr  string
	quiet bool
	opts  mockombi.Options
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

// parseFlags turns command-line arguments into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	var users userFlags
	fs := flag.NewFlagSet("mockombi", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:5099", "listen address")
	fs.StringVar(&c.opts.APIKey, "api-key", mockombi.DefaultAPIKey, "accepted ApiKey")
	fs.Var(&users, "user", "login account NAME:PASSWORD:ROLE (admin|power_user|user); repeatable; replaces the default accounts")
	fs.StringVar(&c.opts.DataSet, "data", mockombi.DataSetDefault, "seed data set: default|large")
	fs.StringVar(&c.opts.BasePath, "base-path", "", "reverse-proxy path prefix, e.g. /ombi")
	fs.DurationVar(&c.opts.Latency, "latency", 0, "delay added to every upstream request, e.g. 150ms")
	fs.DurationVar(&c.opts.TokenTTL, "token-ttl", 0, "JWT lifetime (default 7 days, a year with rememberMe)")
	fs.StringVar(&c.opts.StaticDir, "static", "", "serve a built frontend from this directory at /")
	fs.BoolVar(&c.quiet, "quiet", false, "no JSON request log on stderr")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("parse flags: unexpected argument %q", fs.Arg(0))
	}
	switch c.opts.DataSet {
	case mockombi.DataSetDefault, mockombi.DataSetLarge:
	default:
		return config{}, fmt.Errorf("parse flags: --data must be default or large, not %q", c.opts.DataSet)
	}
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
	c, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	srv := mockombi.New(c.opts)
	if err := srv.Start(c.addr); err != nil {
		return err
	}
	creds := srv.Credentials()
	fmt.Fprintf(stdout, "mockombi listening on %s (data set %s)\n", srv.URL(), c.opts.DataSet)
	fmt.Fprintf(stdout, "  ApiKey: %s\n", creds.APIKey)
	for _, u := range creds.Users {
		fmt.Fprintf(stdout, "  user %s / %s (%s)\n", u.Username, u.Password, u.Role)
	}
	fmt.Fprintf(stdout, "  control API: %s/_mock/ (journal, faults, quirks, reset, canaries, auth/rotate, credentials)\n", srv.URL())
	<-ctx.Done()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
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
