package checks

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file declares the resources area: the MCP resources a server offers
// (optional in the design, 04-results "Resources"), judged in both
// profiles. Every listed resource and every resource a tool links reads;
// its contents stay within the declared size and say nothing a result may
// not; no URI carries a secret or an upstream URL; authorization holds at
// read time as for the tools. A server that declares no resources has
// nothing judged here.

// resourceSizeMeta is the _meta member a resource or template may declare
// its size limit in (bytes); without one, anyResultMax bounds a read.
const resourceSizeMeta = "maxBytes"

// secretParam names a query parameter that carries a credential.
var secretParam = regexp.MustCompile(`(?i)(key|token|secret|password|passwd|auth|sig|signature|session|cookie)`)

// resourceRef is a resource URI the suite found, and where.
type resourceRef struct {
	uri, from string
	limit     int // the size limit declared for it, 0 for none
}

func (s *Suite) resourcesArea() {
	ginkgo.Describe("resources", ginkgo.Label(framework.LabelResources, framework.LabelAny, LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("RESOURCES-READ-001", "listed", func(ctx ginkgo.SpecContext) {
			srv := s.anyServer(ctx)
			refs := s.listedResources(ctx, srv)
			if len(refs) == 0 {
				skipAs(framework.StateNotApplicable, "the server lists no resource")
			}
			s.readAll(ctx, srv, refs)
		})
		s.ClauseItFor("RESOURCES-READ-001", "links", func(ctx ginkgo.SpecContext) {
			srv := s.anyServer(ctx)
			refs := s.linkedResources(ctx, srv)
			if len(refs) == 0 {
				skipAs(framework.StateNotApplicable, "no tool call of the suite returned a resource link")
			}
			s.readAll(ctx, srv, refs)
		})
		s.ClauseItFor("RESOURCES-URI-001", "", func(ctx ginkgo.SpecContext) {
			srv := s.anyServer(ctx)
			refs := append(s.listedResources(ctx, srv), s.linkedResources(ctx, srv)...)
			tmpls, _ := srv.ListResourceTemplates(ctx)
			for _, t := range tmpls {
				refs = append(refs, resourceRef{uri: t.URITemplate, from: "resources/templates/list"})
			}
			if len(refs) == 0 {
				skipAs(framework.StateNotApplicable, "the server lists and links no resource")
			}
			var e errs
			for _, r := range refs {
				for _, why := range s.uriBreaches(r.uri) {
					e.addf("%s (from %s): %s", r.uri, r.from, why)
				}
			}
			s.expectNone(e, "resource URIs must be design identifiers without a secret")
		})
		s.ClauseItFor("RESOURCES-AUTHZ-001", "refused-upstream", func(ctx ginkgo.SpecContext) {
			s.requireMode("jwt")
			admin := s.anyServer(ctx)
			refs := append(s.listedResources(ctx, admin), s.linkedResources(ctx, admin)...)
			if len(refs) == 0 {
				skipAs(framework.StateNotApplicable, "the server lists and links no resource")
			}
			user := s.fresh(ctx, s.plainUserConfig())
			var e errs
			for _, r := range refs {
				rd, err := user.ReadResource(ctx, r.uri)
				if err != nil {
					s.fail(nil, "read %s as the plain user: %v", r.uri, err)
				}
				if refused := refusals(rd.Journal); len(refused) > 0 && rd.RPCError == nil {
					e.addf("%s (from %s): Ombi refused the plain user (%s), yet the read answered contents:\n    request: %s\n    contents: %s",
						r.uri, r.from, strings.Join(refused, ", "), rd.Request, ClipString(contentsText(rd.Result), 300))
				}
			}
			s.expectNone(e, "a resource read must be refused when Ombi refuses the caller, as the tool call is")
		})
		// the design's bundles: a resource that reads a tool's data is
		// served only with the tool's bundle (profile design only)
		s.ClauseItFor("RESOURCES-AUTHZ-001", "bundles", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_logs")
			admin := s.anyServer(ctx)
			logs := s.call(ctx, admin, "read_logs", map[string]any{"action": "list"})
			if len(logs.Links) == 0 {
				skipAs(framework.StateNotApplicable, "read_logs links no resource")
			}
			core := s.shared(ctx, harness.Config{Bundles: "core"})
			var e errs
			if listed, err := core.ListResources(ctx); err == nil {
				for _, r := range listed {
					if strings.HasPrefix(r.URI, "ombi://logs/") {
						e.addf("a server without the administration bundle lists %s", r.URI)
					}
				}
			}
			for _, l := range logs.Links {
				rd, err := core.ReadResource(ctx, l.URI)
				if err != nil {
					s.fail(logs, "read %s: %v", l.URI, err)
				}
				if rd.RPCError == nil {
					e.addf("a server without the administration bundle read %s (a read_logs resource):\n    request: %s\n    contents: %s", l.URI, rd.Request, ClipString(contentsText(rd.Result), 300))
				}
			}
			s.expectNone(e, "resources of a disabled bundle's tool must not be served")
		}, ginkgo.Label(LabelNeedsMock))
	})
}

// listedResources lists the server's resources with their declared limits;
// none when it declares no resources capability.
func (s *Suite) listedResources(ctx context.Context, srv *harness.Server) []resourceRef {
	ginkgo.GinkgoHelper()
	if init := srv.InitializeResult(); init == nil || init.Capabilities == nil || init.Capabilities.Resources == nil {
		return nil
	}
	listed, err := srv.ListResources(ctx)
	if err != nil {
		s.fail(nil, "resources/list of a server that declares resources: %v", err)
	}
	var out []resourceRef
	for _, r := range listed {
		out = append(out, resourceRef{uri: r.URI, from: "resources/list", limit: metaLimit(r.Meta)})
	}
	return out
}

// linkedResources calls every read-only tool with a few schema-valid
// argument objects (and, in profile design, the calls whose answers link
// resources) and collects the resource links of their results, once per
// server: the checks of the area share them.
func (s *Suite) linkedResources(ctx context.Context, srv *harness.Server) []resourceRef {
	ginkgo.GinkgoHelper()
	s.anyMu.Lock()
	refs, ok := s.links[srv]
	s.anyMu.Unlock()
	if ok {
		return refs
	}
	refs = s.collectLinks(ctx, srv)
	s.anyMu.Lock()
	if s.links == nil {
		s.links = map[*harness.Server][]resourceRef{}
	}
	s.links[srv] = refs
	s.anyMu.Unlock()
	return refs
}

func (s *Suite) collectLinks(ctx context.Context, srv *harness.Server) []resourceRef {
	ginkgo.GinkgoHelper()
	var calls []struct {
		tool string
		args json.RawMessage
	}
	if s.Profile() != framework.ProfileAny {
		for tool, args := range map[string]string{
			"read_library": `{"action":"movie_images","kind":"poster","tmdb_id":603}`,
			"read_logs":    `{"action":"list"}`,
		} {
			if s.judged(tool) {
				calls = append(calls, struct {
					tool string
					args json.RawMessage
				}{tool, json.RawMessage(args)})
			}
		}
	}
	if s.Listed() != nil {
		for _, t := range s.Listed() {
			if t.Annotations == nil || !t.Annotations.ReadOnlyHint {
				continue
			}
			argsList, _ := s.validArgs(t, 2)
			for _, a := range argsList {
				calls = append(calls, struct {
					tool string
					args json.RawMessage
				}{t.Name, a})
			}
		}
	}
	tmpls, _ := srv.ListResourceTemplates(ctx)
	seen := map[string]bool{}
	var out []resourceRef
	for _, c := range calls {
		o, err := srv.CallRaw(ctx, c.tool, c.args)
		if err != nil {
			s.forget(srv)
			s.fail(nil, "%s %s got no answer: %v", c.tool, c.args, err)
		}
		for _, l := range o.Links {
			if !seen[l.URI] {
				seen[l.URI] = true
				limit := metaLimit(l.Meta)
				for _, t := range tmpls {
					if limit == 0 && templateMatches(t.URITemplate, l.URI) {
						limit = metaLimit(t.Meta)
					}
				}
				out = append(out, resourceRef{uri: l.URI, from: fmt.Sprintf("a resource link of %s %s", c.tool, c.args), limit: limit})
			}
		}
	}
	return out
}

// readAll reads every resource and judges each read: contents for the URI
// asked, within the declared size, saying nothing a result may not.
func (s *Suite) readAll(ctx context.Context, srv *harness.Server, refs []resourceRef) {
	ginkgo.GinkgoHelper()
	secrets := upstreamSecrets(s.h.Upstream)
	var e errs
	for _, r := range refs {
		rd, err := srv.ReadResource(ctx, r.uri)
		if err != nil {
			s.forget(srv)
			s.fail(nil, "resources/read %s (from %s) got no answer: %v", r.uri, r.from, err)
		}
		for _, why := range readBreaches(rd, r.limit, secrets) {
			e.addf("%s (from %s): %s\n    request: %s", r.uri, r.from, why, rd.Request)
		}
	}
	s.expectNone(e, "every resource the server lists or links must read, bounded and clean")
}

// readBreaches names what one read breaks.
func readBreaches(rd *harness.ResourceRead, limit int, secrets []secret) []string {
	if rd.RPCError != nil {
		return []string{fmt.Sprintf("the read failed: JSON-RPC %d %s", rd.RPCError.Code, rd.RPCError.Message)}
	}
	if rd.Result == nil || len(rd.Result.Contents) == 0 {
		return []string{"the read answered no contents"}
	}
	var out []string
	size, own := 0, false
	var texts []string
	for _, c := range rd.Result.Contents {
		size += len(c.Text) + len(c.Blob)
		own = own || c.URI == rd.URI
		if c.Text != "" {
			texts = append(texts, c.Text)
			var v any
			if json.Unmarshal([]byte(c.Text), &v) == nil {
				texts = append(texts, stringsOf(v)...)
			}
		}
	}
	if !own {
		out = append(out, "no contents item carries the URI read")
	}
	if limit == 0 {
		limit = anyResultMax
	}
	if size > limit {
		out = append(out, fmt.Sprintf("the contents have %d bytes, more than the %d declared", size, limit))
	}
	for _, b := range textBreaches(texts) {
		out = append(out, strings.TrimPrefix(b, "ANY-HYGIENE-001: "))
	}
	var named [][2]string
	for _, t := range texts {
		named = append(named, [2]string{"the contents", t})
	}
	if what, ex, leaked := findSecret(secrets, named); leaked {
		out = append(out, fmt.Sprintf("%s: %s", what, ex))
	}
	return out
}

// uriBreaches names what makes a resource URI unsafe: a credential, a
// credential-like query parameter, user information, or an address of the
// upstream Ombi (URIs are design identifiers, not upstream HTTP URLs).
func (s *Suite) uriBreaches(raw string) []string {
	var out []string
	forms := [][2]string{{"the URI", raw}}
	if dec, err := url.PathUnescape(raw); err == nil && dec != raw {
		forms = append(forms, [2]string{"the URI decoded", dec})
	}
	if what, ex, leaked := findSecret(upstreamSecrets(s.h.Upstream), forms); leaked {
		out = append(out, fmt.Sprintf("%s: %s", what, ex))
	}
	u, err := url.Parse(raw)
	if err != nil {
		return append(out, fmt.Sprintf("not a URI: %v", err))
	}
	if u.User != nil {
		out = append(out, "it carries user information")
	}
	for name := range u.Query() {
		if secretParam.MatchString(name) {
			out = append(out, fmt.Sprintf("its query parameter %q names a credential", name))
		}
	}
	if up, err := url.Parse(s.h.Upstream.URL()); err == nil && u.Host != "" && strings.EqualFold(u.Host, up.Host) {
		out = append(out, "it addresses the upstream Ombi ("+up.Host+"), not a server-owned resource")
	}
	return out
}

// refusals lists the upstream calls Ombi answered 401 or 403.
func refusals(calls []mockombi.Call) []string {
	var out []string
	for _, c := range calls {
		if c.Status == 401 || c.Status == 403 {
			out = append(out, fmt.Sprintf("%s %s: %d", c.Method, c.Path, c.Status))
		}
	}
	return slices.Compact(out)
}

// templateMatches reports whether uri is an instance of a URI template
// whose expressions are simple ({name}, each one path segment or more of
// unreserved and percent-encoded characters).
func templateMatches(tmpl, uri string) bool {
	var re strings.Builder
	re.WriteString("^")
	for rest := tmpl; rest != ""; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			re.WriteString(regexp.QuoteMeta(rest))
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return false
		}
		re.WriteString(regexp.QuoteMeta(rest[:i]) + `[^/?#]+`)
		rest = rest[i+j+1:]
	}
	re.WriteString("$")
	m, err := regexp.MatchString(re.String(), uri)
	return err == nil && m
}

// metaLimit reads a declared size limit from _meta.
func metaLimit(m mcp.Meta) int {
	if v, ok := m[resourceSizeMeta].(float64); ok && v > 0 {
		return int(v)
	}
	return 0
}

func contentsText(r *mcp.ReadResourceResult) string {
	if r == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range r.Contents {
		b.WriteString(c.Text)
	}
	return b.String()
}
