package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// This file serves the MCP resources of the output contract ("Resources"):
// server-owned ombi:// URIs for the reference catalogues, validated artwork
// and sanitised log excerpts. A resource is read through the tool that owns
// its data (read_reference, read_library, read_logs): the same strict
// validation, handler, error mapping, hygiene and byte budget, so a resource
// says exactly what the tool would, and the same bundle and upstream
// authorization apply. Its contents are the tool's bounded envelope
// (application/json, at most maxResultBytes); a failed read is a JSON-RPC
// error carrying the envelope's error object.
//
// Implements S-RESULTS-0117 to S-RESULTS-0120.

// resourceScheme is the scheme of every resource URI; the URIs are design
// identifiers, never upstream URLs, and carry no secret.
const resourceScheme = "ombi"

// DefaultReferenceTTL is how long a reference catalogue read through a
// resource is served from the cache before it is read upstream again.
const DefaultReferenceTTL = 10 * time.Minute

// resourceMIME is the type of every resource's contents: the envelope.
const resourceMIME = "application/json"

// resourceCodeUpstream is the JSON-RPC code of a resource read that the
// owning tool answered with an error other than a bad or unknown URI (an
// implementation-defined server error, -32000 to -32099); its data is the
// envelope's error object.
const resourceCodeUpstream = -32001

// catalogue is one reference catalogue a resource serves: its URI segment,
// the read_reference action and whether it takes a media kind.
type catalogue struct {
	segment, action string
	media           bool
	title           string
}

var catalogues = []catalogue{
	{segment: "genres", action: "genres", media: true, title: "Genres"},
	{segment: "languages", action: "languages", title: "Languages"},
	{segment: "countries", action: "countries", title: "Streaming countries"},
	{segment: "watch-providers", action: "watch_providers", media: true, title: "Watch providers"},
	{segment: "issue-categories", action: "issue_categories", title: "Issue categories"},
}

// referenceURIs lists the catalogue URIs: ombi://reference/SEGMENT, or
// ombi://reference/SEGMENT/MEDIA for a catalogue per media kind.
func referenceURIs() []struct{ uri, title string } {
	var out []struct{ uri, title string }
	for _, c := range catalogues {
		if !c.media {
			out = append(out, struct{ uri, title string }{"ombi://reference/" + c.segment, c.title})
			continue
		}
		for _, m := range []string{"movie", "tv"} {
			out = append(out, struct{ uri, title string }{"ombi://reference/" + c.segment + "/" + m, c.title + " (" + m + ")"})
		}
	}
	return out
}

// resourceCache keeps reference catalogues for a while. It only ever holds
// the fixed set of catalogue URIs, each at most maxResultBytes, so it is
// bounded by construction.
type resourceCache struct {
	ttl time.Duration
	now func() time.Time

	mu      sync.Mutex
	entries map[string]cached
}

type cached struct {
	text    string
	expires time.Time
}

func (c *resourceCache) get(uri string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[uri]
	if !ok || !c.now().Before(e.expires) {
		delete(c.entries, uri)
		return "", false
	}
	return e.text, true
}

func (c *resourceCache) put(uri, text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]cached{}
	}
	c.entries[uri] = cached{text: text, expires: c.now().Add(c.ttl)}
}

// resources is what the resource handlers need: the tools they read
// through and the cache.
type resources struct {
	d     *deps
	tools map[string]registered
	cache *resourceCache
}

// registered is a served tool: its catalogue entry and handler.
type registered struct {
	tool spec.Tool
	h    handlerFunc
}

// resourceKind is what one tool's resources add to a server: the listed
// resources and templates that read through it.
type resourceKind struct {
	tool string
	add  func(s *mcp.Server, r *resources, meta mcp.Meta, ttl time.Duration)
}

// resourceKinds lists, per tool, the resources served when that tool is.
var resourceKinds = []resourceKind{
	{"read_reference", func(s *mcp.Server, r *resources, meta mcp.Meta, ttl time.Duration) {
		for _, u := range referenceURIs() {
			s.AddResource(&mcp.Resource{
				URI: u.uri, Name: strings.TrimPrefix(u.uri, "ombi://"), Title: u.title, MIMEType: resourceMIME, Meta: meta,
				Description: "The " + strings.ToLower(u.title) + " catalogue as read_reference lists it (cached for " + shortDuration(ttl) + ").",
			}, r.readReference)
		}
		s.AddResourceTemplate(&mcp.ResourceTemplate{
			URITemplate: "ombi://reference/{catalogue}/{media}", Name: "reference", Title: "Reference catalogue", MIMEType: resourceMIME, Meta: meta,
			Description: "A reference catalogue per media kind: genres or watch-providers, movie or tv.",
		}, r.readReference)
	}},
	{"read_library", func(s *mcp.Server, r *resources, meta mcp.Meta, _ time.Duration) {
		s.AddResourceTemplate(&mcp.ResourceTemplate{
			URITemplate: "ombi://artwork/{media}/{provider}/{id}/{kind}", Name: "artwork", Title: "Artwork", MIMEType: resourceMIME, Meta: meta,
			Description: "Validated artwork of a title (movie/tmdb, tv/tmdb, tv/tvdb with poster, background or banner; music/musicbrainz with cover), as read_library's artwork branches return it.",
		}, r.readArtwork)
	}},
	{"read_logs", func(s *mcp.Server, r *resources, meta mcp.Meta, _ time.Duration) {
		s.AddResourceTemplate(&mcp.ResourceTemplate{
			URITemplate: "ombi://logs/{file_id}", Name: "logs", Title: "Log excerpt", MIMEType: resourceMIME, Meta: meta,
			Description: "The first lines of an Ombi log file, sanitised, as read_logs reads them; file ids come from read_logs list.",
		}, r.readLog)
	}},
}

// servesResources reports whether any tool a resource reads through is
// served.
func servesResources(served map[string]registered) bool {
	for _, k := range resourceKinds {
		if _, ok := served[k.tool]; ok {
			return true
		}
	}
	return false
}

// addResources registers the resources and templates of the tools s
// serves (none when it serves none of resourceKinds' tools).
func addResources(s *mcp.Server, d *deps, served map[string]registered, ttl time.Duration) {
	r := &resources{d: d, tools: served, cache: &resourceCache{ttl: ttl, now: time.Now}}
	meta := mcp.Meta{"maxBytes": maxResultBytes}
	for _, k := range resourceKinds {
		if _, ok := served[k.tool]; ok {
			k.add(s, r, meta, ttl)
		}
	}
}

// segments splits a resource URI of the given host into its path
// segments; ok is false for any other scheme or host, a query, a fragment
// or credentials.
func segments(raw, host string) ([]string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != resourceScheme || u.Host != host || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return nil, false
	}
	p := strings.TrimPrefix(u.EscapedPath(), "/")
	if p == "" {
		return nil, false
	}
	parts := strings.Split(p, "/")
	for _, s := range parts {
		if s == "" {
			return nil, false
		}
	}
	return parts, true
}

func (r *resources) readReference(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	parts, ok := segments(uri, "reference")
	if !ok || len(parts) > 2 {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	var cat *catalogue
	for i := range catalogues {
		if catalogues[i].segment == parts[0] {
			cat = &catalogues[i]
		}
	}
	if cat == nil || cat.media != (len(parts) == 2) || (cat.media && parts[1] != "movie" && parts[1] != "tv") {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if text, ok := r.cache.get(uri); ok {
		return contents(uri, text), nil
	}
	args := map[string]any{"action": cat.action, "page": map[string]any{"limit": 100}}
	if cat.media {
		args["media"] = parts[1]
	}
	text, err := r.read(ctx, "read_reference", args, uri)
	if err != nil {
		return nil, err
	}
	r.cache.put(uri, text)
	return contents(uri, text), nil
}

func (r *resources) readArtwork(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	parts, ok := segments(uri, "artwork")
	if !ok || len(parts) != 4 {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	args, ok := artworkArgs(parts[0], parts[1], parts[2], parts[3])
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	text, err := r.read(ctx, "read_library", args, uri)
	if err != nil {
		return nil, err
	}
	return contents(uri, text), nil
}

// artworkArgs maps an artwork URI's segments to read_library arguments.
func artworkArgs(media, provider, id, kind string) (map[string]any, bool) {
	num := func() (int, bool) {
		n, err := strconv.Atoi(id)
		return n, err == nil && n > 0 && strconv.Itoa(n) == id
	}
	switch {
	case media == "movie" && provider == "tmdb":
		n, ok := num()
		return map[string]any{"action": "movie_images", "kind": kind, "tmdb_id": n}, ok
	case media == "tv" && (provider == "tmdb" || provider == "tvdb"):
		n, ok := num()
		return map[string]any{"action": "tv_images", "kind": kind, provider + "_id": n}, ok
	case media == "music" && provider == "musicbrainz" && kind == "cover":
		return map[string]any{"action": "album_art", "musicbrainz_id": id}, true
	}
	return nil, false
}

// artworkURI is the resource URI of an artwork branch's arguments, "" for
// a branch without a stable one (random artwork).
func artworkURI(action, kind string, tmdbID, tvdbID int, mbid string) string {
	switch {
	case action == "movie_images" && tmdbID > 0:
		return fmt.Sprintf("ombi://artwork/movie/tmdb/%d/%s", tmdbID, kind)
	case action == "tv_images" && tvdbID > 0:
		return fmt.Sprintf("ombi://artwork/tv/tvdb/%d/%s", tvdbID, kind)
	case action == "tv_images" && tmdbID > 0:
		return fmt.Sprintf("ombi://artwork/tv/tmdb/%d/%s", tmdbID, kind)
	case action == "album_art" && mbid != "":
		return "ombi://artwork/music/musicbrainz/" + url.PathEscape(mbid) + "/cover"
	}
	return ""
}

func (r *resources) readLog(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	parts, ok := segments(uri, "logs")
	if !ok || len(parts) != 1 {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	text, err := r.read(ctx, "read_logs", map[string]any{"action": "read", "file_id": parts[0]}, uri)
	if err != nil {
		return nil, err
	}
	return contents(uri, text), nil
}

// read calls tool with args as tools/call would and returns the bounded
// envelope text, or the JSON-RPC error a resource read answers: a bad
// argument or an unknown entity is "resource not found" (the URI named
// nothing the tool can read), any other failure carries the envelope's
// error object.
func (r *resources) read(ctx context.Context, tool string, args map[string]any, uri string) (string, error) {
	t, ok := r.tools[tool]
	if !ok {
		return "", mcp.ResourceNotFoundError(uri)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return "", err
	}
	env, _ := r.d.envelope(ctx, t.tool, t.h, raw)
	b := fit(env)
	if env.OK {
		return string(b), nil
	}
	// the error object as the budget and hygiene left it
	var fitted struct {
		Error envelopeError `json:"error"`
	}
	if err := json.Unmarshal(b, &fitted); err != nil {
		return "", fmt.Errorf("read %s: %w", uri, err)
	}
	switch fitted.Error.Code {
	case codeInvalidArgument, codeNotFound:
		return "", mcp.ResourceNotFoundError(uri)
	}
	data, err := json.Marshal(fitted.Error)
	if err != nil {
		return "", err
	}
	return "", &jsonrpc.Error{Code: resourceCodeUpstream, Message: fitted.Error.Code + ": " + fitted.Error.Message, Data: data}
}

func contents(uri, text string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: resourceMIME, Text: text}}}
}

// shortDuration spells d without zero tails: 10m, 1h, 1m30s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
