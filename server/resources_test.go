package server

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// readResource reads uri and returns its one text, checking the shape every
// read must have: one contents item of that URI, JSON, within the budget,
// an envelope that validates against its tool's outputSchema.
func (h *harness) readResource(t *testing.T, uri string) (result, error) {
	t.Helper()
	res, err := h.session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return result{}, err
	}
	if len(res.Contents) != 1 || res.Contents[0].URI != uri || res.Contents[0].MIMEType != resourceMIME {
		t.Fatalf("%s: contents %+v, want one %s item of that URI", uri, res.Contents, resourceMIME)
	}
	text := res.Contents[0].Text
	if len(text) > maxResultBytes {
		t.Fatalf("%s: %d bytes, over the %d budget", uri, len(text), maxResultBytes)
	}
	var r result
	if err := json.Unmarshal([]byte(text), &r); err != nil {
		t.Fatalf("%s: contents are not an envelope: %v", uri, err)
	}
	if err := h.validator.ValidateOutput(r.Operation, []byte(text)); err != nil {
		t.Fatalf("%s: the envelope violates %s's outputSchema: %v", uri, r.Operation, err)
	}
	r.raw = []byte(text)
	return r, nil
}

func TestResources_listedByTheToolsServed(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	reference := []string{
		"ombi://reference/countries", "ombi://reference/genres/movie", "ombi://reference/genres/tv",
		"ombi://reference/issue-categories", "ombi://reference/languages",
		"ombi://reference/watch-providers/movie", "ombi://reference/watch-providers/tv",
	}
	tests := []struct {
		name      string
		opts      Options
		resources []string
		templates []string
	}{
		{"every bundle", allBundles(jwtOptions(t, m)), reference,
			[]string{"ombi://artwork/{media}/{provider}/{id}/{kind}", "ombi://logs/{file_id}", "ombi://reference/{catalogue}/{media}"}},
		{"core", jwtOptions(t, m), reference,
			[]string{"ombi://artwork/{media}/{provider}/{id}/{kind}", "ombi://reference/{catalogue}/{media}"}},
		{"read_logs alone", func() Options { o := allBundles(jwtOptions(t, m)); o.Tools = []string{"read_logs"}; return o }(), nil,
			[]string{"ombi://logs/{file_id}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, m, tt.opts)
			caps := h.session.InitializeResult().Capabilities
			if caps.Resources == nil || caps.Resources.ListChanged || caps.Resources.Subscribe {
				t.Fatalf("resources capability %+v, want declared without listChanged or subscribe", caps.Resources)
			}
			var got, tmpls []string
			for r, err := range h.session.Resources(context.Background(), nil) {
				if err != nil {
					t.Fatal(err)
				}
				if r.MIMEType != resourceMIME || r.Meta["maxBytes"] == nil {
					t.Errorf("%s: mimeType %q, meta %v", r.URI, r.MIMEType, r.Meta)
				}
				got = append(got, r.URI)
			}
			for r, err := range h.session.ResourceTemplates(context.Background(), nil) {
				if err != nil {
					t.Fatal(err)
				}
				tmpls = append(tmpls, r.URITemplate)
			}
			slices.Sort(got)
			slices.Sort(tmpls)
			if !slices.Equal(got, tt.resources) || !slices.Equal(tmpls, tt.templates) {
				t.Fatalf("resources %q, templates %q; want %q and %q", got, tmpls, tt.resources, tt.templates)
			}
		})
	}
	t.Run("none served", func(t *testing.T) {
		o := jwtOptions(t, m)
		o.Tools = []string{"read_search"}
		h := newHarness(t, m, o)
		if caps := h.session.InitializeResult().Capabilities; caps.Resources != nil {
			t.Fatalf("resources capability %+v declared by a server with no resource", caps.Resources)
		}
	})
}

// TestResources_referenceIsTheToolsCatalogueCached: every catalogue reads
// as read_reference lists it, through the same upstream route, and a second
// read within the expiry goes nowhere; with an expiry already passed it
// goes upstream again.
func TestResources_referenceIsTheToolsCatalogueCached(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, jwtOptions(t, m))
	tests := []struct {
		uri  string
		args map[string]any
	}{
		{"ombi://reference/genres/movie", map[string]any{"action": "genres", "media": "movie"}},
		{"ombi://reference/genres/tv", map[string]any{"action": "genres", "media": "tv"}},
		{"ombi://reference/languages", map[string]any{"action": "languages"}},
		{"ombi://reference/countries", map[string]any{"action": "countries"}},
		{"ombi://reference/watch-providers/tv", map[string]any{"action": "watch_providers", "media": "tv"}},
		{"ombi://reference/issue-categories", map[string]any{"action": "issue_categories"}},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			tt.args["page"] = map[string]any{"limit": 100}
			m.ClearJournal()
			tool := h.call(t, "read_reference", tt.args)
			toolCalls := routes(h.upstreamCalls())
			m.ClearJournal()
			r, err := h.readResource(t, tt.uri)
			if err != nil {
				t.Fatal(err)
			}
			if got := routes(h.upstreamCalls()); !slices.Equal(got, toolCalls) {
				t.Errorf("the read went %q upstream, the tool %q", got, toolCalls)
			}
			if !r.OK || r.Operation != "read_reference" || string(r.Data) != string(tool.Data) {
				t.Errorf("contents %s\nwant the data of the tool: %s", r.raw, tool.Data)
			}
			m.ClearJournal()
			if _, err := h.readResource(t, tt.uri); err != nil {
				t.Fatal(err)
			}
			if got := h.upstreamCalls(); len(got) != 0 {
				t.Errorf("a second read within the expiry went upstream: %q", routes(got))
			}
		})
	}
	t.Run("expired", func(t *testing.T) {
		o := jwtOptions(t, m)
		o.ReferenceTTL = time.Nanosecond
		h := newHarness(t, m, o)
		for range 2 {
			m.ClearJournal()
			if _, err := h.readResource(t, "ombi://reference/languages"); err != nil {
				t.Fatal(err)
			}
			if got := routes(h.upstreamCalls()); len(got) == 0 {
				t.Fatal("a read after the expiry was served from the cache")
			}
		}
	})
}

// TestResources_unknownURIs: a URI the scheme does not name, or names
// something no tool can read, is "resource not found" and goes nowhere.
func TestResources_unknownURIs(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, allBundles(jwtOptions(t, m)))
	for _, uri := range []string{
		"ombi://reference/genres", "ombi://reference/genres/music", "ombi://reference/languages/movie",
		"ombi://reference/keywords/movie", "ombi://reference/genres/movie?api_key=x", "ombi://reference/genres/movie#x",
		"ombi://artwork/movie/tmdb/0/poster", "ombi://artwork/movie/tmdb/007/poster", "ombi://artwork/movie/imdb/603/poster",
		"ombi://artwork/movie/tmdb/603/face", "ombi://artwork/music/musicbrainz/x/poster",
		"ombi://logs/../../etc/passwd", "ombi://logs/log_000000000000000000000000", "ombi://user@logs/x",
		"http://reference/genres/movie",
	} {
		m.ClearJournal()
		_, err := h.readResource(t, uri)
		var rpc *jsonrpc.Error
		if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("%s: %v, want resource not found (%d)", uri, err, jsonrpc.CodeInvalidParams)
		}
		for _, c := range h.upstreamCalls() {
			if c.Path != "/api/v2/System/logs" { // an unknown file id is looked up in the list
				t.Errorf("%s went upstream: %s %s", uri, c.Method, c.Path)
			}
		}
	}
}

// TestResources_toolLinksResolve: read_library's artwork branches and
// read_logs' list link resources, and every link reads.
func TestResources_toolLinksResolve(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	canaries := canaryValues(e.m)
	artwork := e.h.call(t, "read_library", map[string]any{"action": "movie_images", "kind": "poster", "tmdb_id": 603})
	logs := e.h.call(t, "read_logs", map[string]any{"action": "list"})
	for _, r := range []result{artwork, logs} {
		if len(r.links) == 0 {
			t.Fatalf("%s linked no resource: %s", r.Operation, r.raw)
		}
		for _, l := range r.links {
			got, err := e.h.readResource(t, l.URI)
			if err != nil {
				t.Fatalf("%s: %v", l.URI, err)
			}
			if !got.OK || got.Operation != r.Operation {
				t.Errorf("%s: %s", l.URI, got.raw)
			}
			for _, c := range canaries {
				if strings.Contains(string(got.raw), c) {
					t.Errorf("%s carries canary %s", l.URI, c)
				}
			}
		}
	}
	if l := artwork.links[0]; !strings.HasPrefix(l.URI, "ombi://artwork/movie/tmdb/") || !strings.HasSuffix(l.URI, "/poster") {
		t.Errorf("artwork link %s", l.URI)
	}
	random := e.h.call(t, "read_library", map[string]any{"action": "random_artwork", "kind": "poster"})
	if len(random.links) != 0 {
		t.Errorf("random artwork has no stable resource, yet linked %s", random.links[0].URI)
	}
}

// TestResources_authorizationAsTheTools: a plain user reads a log by URI
// only if read_logs would let them, and the error is the tool's.
func TestResources_authorizationAsTheTools(t *testing.T) {
	admin := newAdminEnv(t, mockombi.RoleAdmin)
	logs := admin.h.call(t, "read_logs", map[string]any{"action": "list"})
	if len(logs.links) == 0 {
		t.Fatal("no log file linked")
	}
	uri := logs.links[0].URI
	user := &adminEnv{m: admin.m, h: newHarness(t, admin.m, roleOptions(t, admin.m, mockombi.RoleUser))}
	tool := user.h.call(t, "read_logs", map[string]any{"action": "read", "file_id": strings.TrimPrefix(uri, "ombi://logs/")})
	if tool.OK {
		t.Fatalf("a plain user read a log through the tool: %s", tool.raw)
	}
	_, err := user.h.readResource(t, uri)
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != resourceCodeUpstream {
		t.Fatalf("a plain user's read of %s: %v, want code %d", uri, err, resourceCodeUpstream)
	}
	var obj envelopeError
	if err := json.Unmarshal(rpc.Data, &obj); err != nil || obj.Code != tool.Error.Code {
		t.Errorf("error data %s, want the tool's code %s", rpc.Data, tool.Error.Code)
	}
}
