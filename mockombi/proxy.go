package mockombi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// proxy forwards the Ombi calls of a mock to a real Ombi (Options.Proxy)
// and, with Options.Record, records what passes through.
type proxy struct {
	scheme, host string
	prefix       string // the Ombi's own escaped path prefix, no trailing slash
	origin       string // the Ombi's base URL, for messages
	client       *http.Client
	transport    *http.Transport
	tape         *tape // nil unless recording
}

// errNoProxy is the Record option without Proxy.
var errNoProxy = errors.New("options: Record needs Proxy: it records what the Ombi behind the proxy answers")

// checkProxyOptions refuses a Proxy that is no http(s) base URL and a
// Record without Proxy.
func checkProxyOptions(o Options) error {
	if o.Proxy == "" {
		if o.Record != "" {
			return errNoProxy
		}
		return nil
	}
	_, err := proxyURL(o.Proxy)
	return err
}

// proxyURL parses Options.Proxy.
func proxyURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("options: Proxy %q: want the http(s) base URL of an Ombi, such as http://127.0.0.1:5000 or https://ombi.example/ombi", raw)
	}
	if u.User != nil {
		return nil, fmt.Errorf("options: Proxy: credentials in the URL are not supported; Ombi's own (ApiKey, a JWT) pass through")
	}
	return u, nil
}

// newProxy builds the proxy of checked options; it writes the empty
// recording when there is one.
func newProxy(o Options) (*proxy, error) {
	u, err := proxyURL(o.Proxy)
	if err != nil {
		return nil, err
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DisableCompression = true // bodies pass, are journaled and recorded as Ombi wrote them
	tr.MaxIdleConnsPerHost = 64
	p := &proxy{
		scheme: u.Scheme, host: u.Host, prefix: strings.TrimSuffix(u.EscapedPath(), "/"),
		transport: tr,
		client: &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a redirect goes back to the client
		}},
	}
	p.origin = p.scheme + "://" + p.host + p.prefix
	if o.Record != "" {
		if p.tape, err = newTape(o.Record); err != nil {
			return nil, fmt.Errorf("options: Record: %w", err)
		}
	}
	return p, nil
}

// close writes the recording and drops idle connections; nil p does nothing.
func (p *proxy) close() error {
	if p == nil {
		return nil
	}
	p.transport.CloseIdleConnections()
	if p.tape == nil {
		return nil
	}
	return p.tape.close()
}

// forward answers a call the mock's own routes do not: through the proxy,
// or from a recording of the loaded data. It names the route the mock's
// router matches in the journal entry; false when neither applies.
func (s *Server) forward(w http.ResponseWriter, r *http.Request, upstream string, body []byte, call *Call) bool {
	proxied := s.proxy != nil && (s.opts.StaticDir == "" || isAPIPath(upstream))
	if !proxied && !s.replay(w, r, upstream, body) {
		return false
	}
	if cr, _, _ := s.router.match(r.Method, upstream); cr != nil {
		call.Route = cr.pattern
	}
	if proxied {
		if g := s.opts.ProxyGate; g != nil {
			if err := g.Allow(r, upstream, body); err != nil {
				call.Fault = GateFault
				writeOmbiError(w, http.StatusForbidden, err.Error())
				return true
			}
		}
		s.proxy.serve(w, r, upstream, body, call.Fault == "", s.opts.ProxyGate)
	}
	return true
}

// GateFault is the Fault of a journaled call that Options.ProxyGate kept
// from the Ombi: the proxy answered it 403 itself.
const GateFault = "gate"

// ProxyGate decides which calls a proxy forwards (Options.ProxyGate) and
// sees what the Ombi answered them. Its methods may be called concurrently.
type ProxyGate interface {
	// Allow is asked before a call is forwarded; upstream is its escaped
	// path below the mock's base path and body its request body. A non-nil
	// error forwards nothing: the proxy answers 403 with the error's text
	// as Ombi's error message.
	Allow(r *http.Request, upstream string, body []byte) error
	// Answered is told of the status and body of the answer to each
	// forwarded call that is no GET or HEAD, before the client is answered;
	// answer is nil when it was longer than the proxy keeps, and status 0
	// when the Ombi did not answer. Such a call is forwarded to its end
	// even when its client goes away, so that what it wrote is known.
	Answered(r *http.Request, upstream string, body []byte, status int, answer []byte)
}

// serve forwards r (its path below the mock's base path is upstream, its
// body was read) to the Ombi and answers what it answered. A call that
// passes unfaulted is recorded.
func (p *proxy) serve(w http.ResponseWriter, r *http.Request, upstream string, body []byte, record bool, gate ProxyGate) {
	target := p.scheme + "://" + p.host + p.prefix + upstream
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	ctx := r.Context()
	if gate != nil && r.Method != http.MethodGet && r.Method != http.MethodHead {
		ctx = context.WithoutCancel(ctx)
	} else {
		gate = nil
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, target, bytes.NewReader(body))
	if err != nil {
		if gate != nil {
			gate.Answered(r, upstream, body, 0, nil)
		}
		// the message leaves out the URL: its query may hold the apikey
		writeOmbiError(w, http.StatusBadGateway, fmt.Sprintf("mockombi proxy: cannot forward %s %s to Ombi at %s", r.Method, upstream, p.origin))
		return
	}
	req.Header = forwardHeader(r.Header)
	resp, err := p.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL
		}
		if gate != nil {
			gate.Answered(r, upstream, body, 0, nil)
		}
		writeOmbiError(w, http.StatusBadGateway, fmt.Sprintf("mockombi proxy: Ombi at %s did not answer: %v", p.origin, err))
		return
	}
	defer resp.Body.Close()
	var src io.Reader = resp.Body
	if gate != nil {
		head, err := io.ReadAll(io.LimitReader(resp.Body, maxRecordedBody+1))
		answer := head
		if err != nil || len(head) > maxRecordedBody {
			answer = nil
		}
		gate.Answered(r, upstream, body, resp.StatusCode, answer)
		src = io.MultiReader(bytes.NewReader(head), resp.Body)
	}
	copyAnswerHeader(w.Header(), resp.Header)
	w.WriteHeader(resp.StatusCode)
	var kept *keptBody
	var dst io.Writer = w
	if record && p.tape != nil {
		kept = &keptBody{}
		dst = io.MultiWriter(w, kept)
	}
	if _, err := io.Copy(dst, src); err != nil {
		panic(http.ErrAbortHandler) // the client sees a cut answer, as it would from Ombi
	}
	if kept != nil && !kept.over {
		p.tape.record(r, upstream, body, resp.StatusCode, resp.Header, kept.buf.Bytes())
	}
}

// keptBody keeps an answer up to maxRecordedBody bytes.
type keptBody struct {
	buf  bytes.Buffer
	over bool
}

// Write keeps p, or notes that the answer is too long to record.
func (k *keptBody) Write(p []byte) (int, error) {
	if !k.over && k.buf.Len()+len(p) > maxRecordedBody {
		k.over = true
		k.buf = bytes.Buffer{}
	}
	if !k.over {
		k.buf.Write(p)
	}
	return len(p), nil
}

// hopHeaders are the hop-by-hop headers of h: the standard ones and those
// its Connection header names.
func hopHeaders(h http.Header) map[string]bool {
	hop := map[string]bool{"Connection": true, "Keep-Alive": true, "Proxy-Connection": true, "Proxy-Authenticate": true,
		"Proxy-Authorization": true, "Te": true, "Trailer": true, "Transfer-Encoding": true, "Upgrade": true}
	for _, v := range h.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				hop[http.CanonicalHeaderKey(name)] = true
			}
		}
	}
	return hop
}

// forwardHeader is the request header sent to the Ombi: the client's,
// without hop-by-hop headers and Accept-Encoding (so the answer comes
// uncompressed and is journaled and recorded as text), and without a
// User-Agent of its own.
func forwardHeader(in http.Header) http.Header {
	hop := hopHeaders(in)
	out := make(http.Header, len(in))
	for k, vs := range in {
		if !hop[k] && k != "Accept-Encoding" {
			out[k] = append([]string(nil), vs...)
		}
	}
	if _, ok := out["User-Agent"]; !ok {
		out["User-Agent"] = []string{""} // send none, as the client did
	}
	return out
}

// copyAnswerHeader adds the Ombi's answer headers, without hop-by-hop
// ones, to dst; a header the mock set on the way (CORS, a fault's) wins,
// Vary adds up.
func copyAnswerHeader(dst, src http.Header) {
	hop := hopHeaders(src)
	for k, vs := range src {
		if _, set := dst[k]; hop[k] || (set && k != "Vary") {
			continue
		}
		dst[k] = append(dst[k], vs...)
	}
	keepContentType(dst)
}

// keepContentType keeps an answer without a Content-Type without one:
// net/http would otherwise sniff one from the body.
func keepContentType(h http.Header) {
	if _, ok := h["Content-Type"]; !ok {
		h["Content-Type"] = []string{}
	}
}
