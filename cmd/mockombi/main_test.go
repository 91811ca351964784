package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

func TestParseFlags(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		args    []string
		check   func(t *testing.T, c config)
		wantErr string
	}{
		{"defaults", nil, func(t *testing.T, c config) {
			if c.addr != "127.0.0.1:5000" || c.opts.APIKey != mockombi.DefaultAPIKey || c.opts.Users != nil || c.opts.Log == nil {
				t.Errorf("config = %+v", c)
			}
			if c.opts.DataSet != "default" || c.opts.DataFile != "" || c.opts.JournalSize != mockombi.DefaultJournalSize ||
				c.opts.JournalBodyBytes != mockombi.DefaultJournalBodyBytes || !c.opts.JournalResponses ||
				c.opts.MaxBodyBytes != mockombi.DefaultMaxBodyBytes || c.opts.CORSOrigins != nil ||
				c.opts.ReadTimeout != mockombi.DefaultReadTimeout || c.opts.IdleTimeout != mockombi.DefaultIdleTimeout {
				t.Errorf("bounds = %+v", c.opts)
			}
		}, ""},
		{"data file, journal, CORS and timeouts", []string{"--data", "../../mockombi/testdata/example-data.json", "--journal", "50",
			"--journal-body", "-1", "--journal-responses=false", "--max-body", "1024", "--cors-origin", "http://localhost:4200,http://localhost:3000/",
			"--cors-origin", "https://ui.example", "--read-timeout", "5s", "--idle-timeout", "-1s"}, func(t *testing.T, c config) {
			o := c.opts
			if o.DataSet != "" || o.DataFile != "../../mockombi/testdata/example-data.json" || o.JournalSize != 50 || o.JournalBodyBytes != -1 ||
				o.JournalResponses || o.MaxBodyBytes != 1024 || o.ReadTimeout != 5*time.Second || o.IdleTimeout != -time.Second {
				t.Errorf("config = %+v", o)
			}
			if strings.Join(o.CORSOrigins, " ") != "http://localhost:4200 http://localhost:3000 https://ui.example" {
				t.Errorf("origins = %q", o.CORSOrigins)
			}
		}, ""},
		{"data file must exist", []string{"--data", dir + "/nope.json"}, nil, "--data"},
		{"journal 0", []string{"--journal", "0"}, nil, "--journal 0"},
		{"everything", []string{"--addr", "127.0.0.1:0", "--api-key", "k", "--user", "alice:pw:admin", "--user", "bob:b:c:user",
			"--data", "large", "--base-path", "/ombi", "--latency", "50ms", "--token-ttl", "1h", "--static", dir, "--quiet"}, func(t *testing.T, c config) {
			want := []mockombi.User{{Username: "alice", Password: "pw", Role: "admin"}, {Username: "bob", Password: "b:c", Role: "user"}}
			if len(c.opts.Users) != 2 || c.opts.Users[0] != want[0] || c.opts.Users[1].Role != "user" {
				t.Errorf("users = %+v", c.opts.Users)
			}
			if c.opts.APIKey != "k" || c.opts.DataSet != "large" || c.opts.BasePath != "/ombi" || c.opts.Latency != 50*time.Millisecond ||
				c.opts.TokenTTL != time.Hour || c.opts.StaticDir != dir || c.opts.Log != nil {
				t.Errorf("config = %+v", c.opts)
			}
		}, ""},
		{"bad role", []string{"--user", "a:b:root"}, nil, "role must be"},
		{"bad user", []string{"--user", "nobody"}, nil, "NAME:PASSWORD:ROLE"},
		{"bad data set", []string{"--data", "huge"}, nil, "want default, large or a readable JSON data file"},
		{"static must exist", []string{"--static", dir + "/nope"}, nil, "not a directory"},
		{"stray argument", []string{"extra"}, nil, "unexpected argument"},
		{"proxy and record", []string{"--proxy", "https://ombi.example/ombi", "--record", dir + "/rec.json"}, func(t *testing.T, c config) {
			if c.opts.Proxy != "https://ombi.example/ombi" || c.opts.Record != dir+"/rec.json" {
				t.Errorf("config = %+v", c.opts)
			}
		}, ""},
		{"proxy without a scheme", []string{"--proxy", "127.0.0.1:5000"}, nil, "--proxy"},
		{"proxy not http", []string{"--proxy", "ftp://ombi.example"}, nil, `--proxy "ftp://ombi.example": want the http(s) base URL`},
		{"proxy without a host", []string{"--proxy", "http:///ombi"}, nil, "--proxy"},
		{"record without proxy", []string{"--record", dir + "/rec.json"}, nil, "--record needs --proxy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseFlags(tt.args, io.Discard, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

// syncBuffer is a goroutine-safe buffer.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRun_startsServesAndShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--base-path", "/ombi"}, &stdout, &stderr) }()
	// The banner is written line by line after the listener is up; its
	// last line on a loopback address is the control API's.
	urlRE := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+/ombi)`)
	bannerEnd := regexp.MustCompile(`(?m)^  control API: .*\n`)
	var url string
	for url == "" {
		out := stdout.String()
		if m := urlRE.FindStringSubmatch(out); m != nil && bannerEnd.MatchString(out) {
			url = m[1]
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("no complete banner after 5s: %q", out)
		}
		time.Sleep(5 * time.Millisecond)
	}
	for _, want := range []string{"ApiKey: " + mockombi.DefaultAPIKey, "user admin / OmbiAdmin1! (admin)", "user power / OmbiPower1! (power_user)",
		"dashboard: " + url + "/_mock/"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q: %s", want, stdout.String())
		}
	}
	resp, err := http.Get(url + "/api/v1/Status")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not return after cancel")
	}
	if !strings.Contains(stderr.String(), `"path":"/ombi/api/v1/Status"`) {
		t.Errorf("no JSON request log line on stderr: %q", stderr.String())
	}
}

func TestRun_dataFileAndBadOptions(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--quiet", "--data", "../../mockombi/testdata/example-data.json"}, &stdout, io.Discard)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(stdout.String(), "dashboard:") {
		if time.Now().After(deadline) {
			t.Fatalf("no banner: %q", stdout.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	for _, want := range []string{"(data ../../mockombi/testdata/example-data.json)", "user alice / ExampleAlice1! (power_user)"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("banner lacks %q: %s", want, stdout.String())
		}
	}
	if strings.Contains(stdout.String(), "warning") {
		t.Errorf("loopback bind warned: %s", stdout.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	bad := t.TempDir() + "/bad.json"
	if err := os.WriteFile(bad, []byte(`{"movies":[{"theMovieDbId":"603","title":"The Matrix"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--data", bad}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), `$.movies[0].theMovieDbId: want an integer, got the string "603"`) {
		t.Fatalf("run with a bad data file = %v", err)
	}
	err = run(context.Background(), []string{"--addr", "127.0.0.1:0", "--cors-origin", "localhost:4200"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "CORSOrigins[0]") {
		t.Fatalf("run with a bad origin = %v", err)
	}
}

func TestLoopback(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:5000": true, "localhost:5000": true, "[::1]:5000": true,
		"0.0.0.0:5000": false, ":5000": false, "192.168.1.2:5000": false, "nonsense": false} {
		if got := loopback(addr); got != want {
			t.Errorf("loopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

// TestRun_versionAndHelp checks that --version and --help answer on stdout
// and start no server.
func TestRun_versionAndHelp(t *testing.T) {
	for _, tt := range []struct{ arg, want string }{{"--version", "mockombi "}, {"--help", "usage: mockombi [flags]"}} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{tt.arg}, &stdout, &stderr)
		if tt.arg == "--help" && err != nil && !strings.Contains(err.Error(), "help requested") {
			t.Fatalf("%s: %v", tt.arg, err)
		}
		if tt.arg == "--version" && err != nil {
			t.Fatalf("%s: %v", tt.arg, err)
		}
		if !strings.HasPrefix(stdout.String(), tt.want) || strings.Contains(stdout.String(), "listening") {
			t.Errorf("%s: stdout %q, want it to start %q; stderr %q", tt.arg, stdout.String(), tt.want, stderr.String())
		}
	}
}

// TestRun_userReplacesDefaultAccounts: --user accounts replace the default
// ones (admin, power, user and their passwords), in the banner, the
// credentials and at the login route, also after a reset; without --user
// the defaults log in.
func TestRun_userReplacesDefaultAccounts(t *testing.T) {
	defaults := map[string]string{"admin": "OmbiAdmin1!", "power": "OmbiPower1!", "user": "OmbiUser1!"}
	tests := []struct {
		name       string
		args       []string
		wantLogins map[string]string // user name to password: these log in
		denied     map[string]string // these get 401
	}{
		{"no --user", nil, defaults, nil},
		{"two --user", []string{"--user", "alice:Alice-pass1:power_user", "--user", "bob:Bob-pass1:user"},
			map[string]string{"alice": "Alice-pass1", "bob": "Bob-pass1"}, defaults},
		{"--user named as a default", []string{"--user", "admin:New-admin1:user"},
			map[string]string{"admin": "New-admin1"}, defaults},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			var stdout syncBuffer
			done := make(chan error, 1)
			go func() {
				done <- run(ctx, append([]string{"--addr", "127.0.0.1:0", "--quiet"}, tt.args...), &stdout, io.Discard)
			}()
			t.Cleanup(func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("run: %v", err)
				}
			})
			urlRE := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)
			deadline := time.Now().Add(5 * time.Second)
			for !strings.Contains(stdout.String(), "control API:") {
				if time.Now().After(deadline) {
					t.Fatalf("no complete banner after 5s: %q", stdout.String())
				}
				time.Sleep(5 * time.Millisecond)
			}
			base := urlRE.FindStringSubmatch(stdout.String())[1]
			banner := regexp.MustCompile(`(?m)^  user (\S+) / `).FindAllStringSubmatch(stdout.String(), -1)
			var listed []string
			for _, m := range banner {
				listed = append(listed, m[1])
			}
			var want []string
			for name := range tt.wantLogins {
				want = append(want, name)
			}
			slices.Sort(listed)
			slices.Sort(want)
			if !slices.Equal(listed, want) {
				t.Errorf("banner lists users %q, want %q:\n%s", listed, want, stdout.String())
			}
			var creds mockombi.Credentials
			resp, err := http.Get(base + "/_mock/credentials")
			if err != nil {
				t.Fatal(err)
			}
			err = json.NewDecoder(resp.Body).Decode(&creds)
			resp.Body.Close()
			if err != nil || len(creds.Users) != len(tt.wantLogins) {
				t.Errorf("credentials = %+v, %v; want %d users", creds.Users, err, len(tt.wantLogins))
			}
			loginStatus := func(user, password string) int {
				t.Helper()
				body, _ := json.Marshal(map[string]string{"username": user, "password": password})
				resp, err := http.Post(base+"/api/v1/Token", "application/json", bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			for round := range 2 {
				for user, pw := range tt.wantLogins {
					if st := loginStatus(user, pw); st != 200 {
						t.Errorf("round %d: %s with its password = %d, want 200", round, user, st)
					}
				}
				for user, pw := range tt.denied {
					if tt.wantLogins[user] == pw {
						continue
					}
					if st := loginStatus(user, pw); st != 401 {
						t.Errorf("round %d: default account %s with its known password = %d, want 401", round, user, st)
					}
				}
				// the same after a reset, which reloads the seed
				resp, err := http.Post(base+"/_mock/reset", "application/json", nil)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
			}
		})
	}
}

// TestBinary_proxyAndRecord runs the built binary: usage errors of --proxy
// and --record exit 2 naming the flag; a proxy in front of an Ombi (a
// mock on the example data) records the calls until SIGINT or SIGTERM, and
// --data serves the recording back with the same answers.
func TestBinary_proxyAndRecord(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mockombi")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	t.Run("usage errors", func(t *testing.T) {
		for _, tt := range []struct {
			args []string
			want string
		}{
			{[]string{"--record", "rec.json"}, "mockombi: parse flags: --record needs --proxy"},
			{[]string{"--proxy", "ftp://ombi.example"}, `mockombi: parse flags: --proxy "ftp://ombi.example"`},
			{[]string{"--proxy", "ombi.example"}, `--proxy "ombi.example": want the http(s) base URL`},
		} {
			var stderr bytes.Buffer
			cmd := exec.Command(bin, tt.args...)
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("mockombi %s: %v, stderr %q; want exit 2 and %q", strings.Join(tt.args, " "), err, stderr.String(), tt.want)
			}
		}
	})
	const key = "upstream-binary-test-key-0123456789"
	up, err := mockombi.New(mockombi.Options{DataFile: "../../mockombi/testdata/example-data.json", APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	if err := up.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = up.Close() })
	calls := []struct{ method, path, body string }{
		{"POST", "/api/v1/Token", `{"username":"alice","password":"ExampleAlice1!"}`},
		{"GET", "/api/v1/Settings/customization", ""},
		{"GET", "/api/v1/Search/movie/arrival?apikey=" + key, ""},
		{"GET", "/api/v1/Identity/Users", ""},
	}
	ask := func(t *testing.T, base string, i int) (int, string) {
		t.Helper()
		c := calls[i]
		req, err := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("ApiKey", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "recorded.json")
			cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--proxy", up.URL(), "--record", file)
			var stderr syncBuffer
			cmd.Stderr = &stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			t.Cleanup(func() {
				_ = cmd.Process.Kill()
				<-done
			})
			banner := bufio.NewScanner(stdout)
			base := ""
			for base == "" && banner.Scan() {
				if m := regexp.MustCompile(`listening on (http://\S+) \(proxy to `).FindStringSubmatch(banner.Text()); m != nil {
					base = m[1]
				}
			}
			if base == "" {
				t.Fatal("no banner")
			}
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			var want []string
			for i := range calls {
				status, body := ask(t, base, i)
				if status != 200 {
					t.Fatalf("%s %s = %d %s", calls[i].method, calls[i].path, status, body)
				}
				want = append(want, body)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				done <- err
				if err != nil {
					t.Fatalf("exit after %v: %v, stderr %s", sig, err, stderr.String())
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("no exit 10s after %v", sig)
			}
			recorded, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, secret := range []string{key, "ExampleAlice1!", "alice@example.test", "eyJ"} {
				if strings.Contains(string(recorded), secret) || strings.Contains(stderr.String(), secret) {
					t.Errorf("the recording or the log holds %q", secret)
				}
			}
			if n := strings.Count(stderr.String(), "\n"); n != len(calls) {
				t.Errorf("%d log lines, want %d:\n%s", n, len(calls), stderr.String())
			}
			// offline
			ctx, cancel := context.WithCancel(context.Background())
			var out syncBuffer
			offline := make(chan error, 1)
			go func() {
				offline <- run(ctx, []string{"--addr", "127.0.0.1:0", "--quiet", "--data", file}, &out, io.Discard)
			}()
			defer func() {
				cancel()
				if err := <-offline; err != nil {
					t.Error(err)
				}
			}()
			deadline := time.Now().Add(5 * time.Second)
			for !strings.Contains(out.String(), "control API:") {
				if time.Now().After(deadline) {
					t.Fatalf("no banner: %q", out.String())
				}
				time.Sleep(5 * time.Millisecond)
			}
			replay := regexp.MustCompile(`listening on (http://\S+)`).FindStringSubmatch(out.String())[1]
			for i := range calls {
				status, body := ask(t, replay, i)
				if status != 200 || (i != 0 && i != 3 && body != want[i]) {
					t.Errorf("replayed %s %s = %d %s\nwant %s", calls[i].method, calls[i].path, status, body, want[i])
				}
			}
		})
	}
}
