package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// clientsEnv names the directory where npm ci installed the real MCP
// clients of testdata/clients (make client-deps sets it).
const clientsEnv = "OMBI_MCP_CLIENTS"

// TestClients_resources drives the resources with real MCP clients, the
// official TypeScript SDK and MCP Inspector's CLI, over stdio and
// Streamable HTTP: every reference catalogue and template is listed, and a
// listed resource, an artwork link of read_library and a log link of
// read_logs read as JSON envelopes that say ok. Inspector also calls tools
// with object arguments (read_media's target, write_request_create's
// selection) given as text, the way its users type them.
func TestClients_resources(t *testing.T) {
	dir, inspector := npmInstalled(t, clientsEnv, "@modelcontextprotocol/inspector-cli", "build", "index.js")
	bin := buildBinary(t)
	m := startLoopbackMock(t)
	env := []string{"OMBI_URL=" + m.URL(), "OMBI_AUTH_MODE=api_key", "OMBI_API_KEY=" + m.Credentials().APIKey, "OMBI_BUNDLES=core,administration"}
	srv := startHTTPBinary(t, bin, append(env, "OMBI_MCP_TOKEN=resources-test-token"))
	stopWhenDone(t, srv)
	wantResources := []string{
		"ombi://reference/countries", "ombi://reference/genres/movie", "ombi://reference/genres/tv",
		"ombi://reference/issue-categories", "ombi://reference/languages",
		"ombi://reference/watch-providers/movie", "ombi://reference/watch-providers/tv",
	}
	wantTemplates := []string{"ombi://artwork/{media}/{provider}/{id}/{kind}", "ombi://logs/{file_id}", "ombi://reference/{catalogue}/{media}"}
	node := func(t *testing.T, extraEnv []string, args ...string) []byte {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "node", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), extraEnv...)
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("node %s: %v\n%s\n%s", strings.Join(args, " "), err, out, stderr)
		}
		return out
	}

	for _, transport := range []string{"stdio", "http"} {
		t.Run("typescript-sdk/"+transport, func(t *testing.T) {
			var out []byte
			if transport == "stdio" {
				out = node(t, env, "resources.mjs", "stdio", bin)
			} else {
				out = node(t, []string{"MCP_TOKEN=resources-test-token"}, "resources.mjs", "http", srv.base+"/mcp")
			}
			var got struct {
				Resources, Templates []string
				Reads                map[string]struct {
					MIMEType string `json:"mimeType"`
					OK       bool
				}
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("the client's output is not JSON: %v\n%s", err, out)
			}
			slices.Sort(got.Resources)
			slices.Sort(got.Templates)
			if !slices.Equal(got.Resources, wantResources) || !slices.Equal(got.Templates, wantTemplates) {
				t.Errorf("resources %q, templates %q", got.Resources, got.Templates)
			}
			kinds := map[string]bool{}
			for uri, r := range got.Reads {
				kind, _, _ := strings.Cut(strings.TrimPrefix(uri, "ombi://"), "/")
				kinds[kind] = true
				if r.MIMEType != "application/json" || !r.OK {
					t.Errorf("read %s: %+v", uri, r)
				}
			}
			if len(kinds) != 3 {
				t.Errorf("read %d kinds of resource (%v), want reference, artwork and logs", len(kinds), got.Reads)
			}
		})
	}

	// MCP Inspector 0.15's CLI has no header option: over HTTP it judges a
	// server without a token.
	open := startHTTPBinary(t, bin, env)
	stopWhenDone(t, open)
	for _, transport := range []string{"stdio", "http"} {
		t.Run("inspector/"+transport, func(t *testing.T) {
			target := []string{open.base + "/mcp", "--transport", "http"}
			if transport == "stdio" {
				target = append([]string{"env"}, append(env, bin)...)
			}
			inspect := func(args ...string) map[string]json.RawMessage {
				t.Helper()
				out := node(t, nil, append(append([]string{inspector}, target...), args...)...)
				var v map[string]json.RawMessage
				if err := json.Unmarshal(out, &v); err != nil {
					t.Fatalf("inspector %s: not JSON: %v\n%s", strings.Join(args, " "), err, out)
				}
				return v
			}
			var listed []struct{ URI string }
			_ = json.Unmarshal(inspect("--method", "resources/list")["resources"], &listed)
			var tmpls []struct {
				URITemplate string `json:"uriTemplate"`
			}
			_ = json.Unmarshal(inspect("--method", "resources/templates/list")["resourceTemplates"], &tmpls)
			if len(listed) != len(wantResources) || len(tmpls) != len(wantTemplates) {
				t.Fatalf("inspector lists %d resources and %d templates, want %d and %d", len(listed), len(tmpls), len(wantResources), len(wantTemplates))
			}
			// a link read_logs returns; the artwork URI read_library would
			// link (the TypeScript checks above follow that link)
			var content []struct{ Type, URI string }
			_ = json.Unmarshal(inspect("--method", "tools/call", "--tool-name", "read_logs", "--tool-arg", "action=list")["content"], &content)
			links := []string{"ombi://artwork/movie/tmdb/603/poster"}
			for _, c := range content {
				if c.Type == "resource_link" {
					links = append(links, c.URI)
					break
				}
			}
			if len(links) != 2 {
				t.Fatalf("inspector saw no resource link in read_logs' answer: %+v", content)
			}
			for _, uri := range append([]string{listed[0].URI}, links...) {
				var contents []struct{ URI, MIMEType, Text string }
				_ = json.Unmarshal(inspect("--method", "resources/read", "--uri", uri)["contents"], &contents)
				var env struct{ OK bool }
				if len(contents) != 1 || contents[0].URI != uri || json.Unmarshal([]byte(contents[0].Text), &env) != nil || !env.OK {
					t.Errorf("inspector read %s: %+v", uri, contents)
				}
			}
			// Object arguments: the CLI sends a --tool-arg as an object only
			// when the published property says "type": "object" beside its
			// oneOf; otherwise the call is refused as "got string, want object".
			for _, call := range []struct {
				tool string
				args []string
			}{
				{"read_media", []string{"action=details", `target={"media":"movie","provider":"tmdb","id":603}`}},
				{"write_request_create", []string{"action=tv", "provider=tmdb", "id=1396", `selection={"mode":"first_season"}`}},
			} {
				args := []string{"--method", "tools/call", "--tool-name", call.tool}
				for _, a := range call.args {
					args = append(args, "--tool-arg", a)
				}
				var content []struct{ Type, Text string }
				_ = json.Unmarshal(inspect(args...)["content"], &content)
				var env struct {
					OK    bool
					Error struct{ Code, Message string }
				}
				if len(content) == 0 || json.Unmarshal([]byte(content[0].Text), &env) != nil {
					t.Errorf("inspector %s: no envelope in %+v", call.tool, content)
					continue
				}
				// the write may meet the request the other transport made
				// (a business refusal); an argument it could not send is not
				if !env.OK && (call.tool == "read_media" || env.Error.Code == "INVALID_ARGUMENT") {
					t.Errorf("inspector %s %v: %s %s", call.tool, call.args, env.Error.Code, env.Error.Message)
				}
			}
		})
	}
}

// npmInstalled returns the directory the environment variable env names,
// where npm ci installed a package the test drives, and the path of file
// (path elements under the package) in it. The test is skipped when env is
// unset (make test sets it) and fails when the package is missing.
func npmInstalled(t *testing.T, env, pkg string, file ...string) (dir, path string) {
	t.Helper()
	dir = os.Getenv(env)
	if dir == "" {
		t.Skipf("set %s to the directory where npm ci installed %s (make test does)", env, pkg)
	}
	path = filepath.Join(append([]string{dir, "node_modules", pkg}, file...)...)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("find %s: %v (run npm ci in %s)", pkg, err, dir)
	}
	return dir, path
}

// stopWhenDone stops the server with SIGTERM when the test ends, killing
// it if it has not exited 10 seconds later.
func stopWhenDone(t *testing.T, srv *httpServer) {
	t.Cleanup(func() {
		_ = srv.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-srv.exited:
		case <-time.After(10 * time.Second):
			_ = srv.cmd.Process.Kill()
		}
	})
}
