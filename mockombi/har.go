package mockombi

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// HAR is a journal export in the HTTP Archive format, version 1.2, the
// format browsers' developer tools and HTTP tools import.
type HAR struct {
	Log HARLog `json:"log"`
}

// HARLog is the archive's log object.
type HARLog struct {
	Version string     `json:"version"`
	Creator HARCreator `json:"creator"`
	Entries []HAREntry `json:"entries"`
	Pages   []struct{} `json:"pages"`
	Comment string     `json:"comment,omitempty"`
}

// HARCreator names the program that wrote the archive.
type HARCreator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// HAREntry is one journaled call. The fields starting with an underscore
// are the mock's own (HAR allows custom fields so named): the journal's
// number, the route the call matched, the fault or stub that answered
// and whether no route did.
type HAREntry struct {
	StartedDateTime string      `json:"startedDateTime"`
	Time            float64     `json:"time"`
	Request         HARRequest  `json:"request"`
	Response        HARResponse `json:"response"`
	Cache           struct{}    `json:"cache"`
	Timings         HARTimings  `json:"timings"`
	Comment         string      `json:"comment,omitempty"`
	Seq             int         `json:"_seq"`
	Route           string      `json:"_route,omitempty"`
	Fault           string      `json:"_fault,omitempty"`
	Stub            string      `json:"_stub,omitempty"`
	Unmatched       bool        `json:"_unmatched,omitempty"`
}

// HARRequest is an entry's request.
type HARRequest struct {
	Method      string         `json:"method"`
	URL         string         `json:"url"`
	HTTPVersion string         `json:"httpVersion"`
	Cookies     []HARNameValue `json:"cookies"`
	Headers     []HARNameValue `json:"headers"`
	QueryString []HARNameValue `json:"queryString"`
	PostData    *HARPostData   `json:"postData,omitempty"`
	HeadersSize int            `json:"headersSize"`
	BodySize    int            `json:"bodySize"`
}

// HARResponse is an entry's response.
type HARResponse struct {
	Status      int            `json:"status"`
	StatusText  string         `json:"statusText"`
	HTTPVersion string         `json:"httpVersion"`
	Cookies     []HARNameValue `json:"cookies"`
	Headers     []HARNameValue `json:"headers"`
	Content     HARContent     `json:"content"`
	RedirectURL string         `json:"redirectURL"`
	HeadersSize int            `json:"headersSize"`
	BodySize    int64          `json:"bodySize"`
}

// HARNameValue is a header or query parameter.
type HARNameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// HARPostData is a request body.
type HARPostData struct {
	MimeType string         `json:"mimeType"`
	Params   []HARNameValue `json:"params"`
	Text     string         `json:"text"`
}

// HARContent is a response body; Text is present when the journal
// recorded the answer (Options.JournalResponses).
type HARContent struct {
	Size     int64  `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text,omitempty"`
	Comment  string `json:"comment,omitempty"`
}

// HARTimings splits an entry's time; the mock measures only the whole,
// which it reports as wait.
type HARTimings struct {
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
}

// harHTTPVersion is the protocol the journal's calls are written with.
const harHTTPVersion = "HTTP/1.1"

// JournalHAR is the journal as a HAR 1.2 archive, once the requests in
// flight are recorded. origin (such as http://127.0.0.1:5000) starts each
// entry's URL. Credentials are scrubbed as a recording scrubs them: the
// values of ApiKey, Authorization, UserAccessToken, cookies and every
// header, query parameter or JSON member with a secret name (password,
// token, ...) become REDACTED, and so do those values and JWTs wherever
// else they appear; e-mail addresses become placeholders.
func (s *Server) JournalHAR(origin string) HAR {
	calls := s.journal.list()
	sc := newScrubber()
	for _, c := range calls {
		sc.learn(&http.Request{Header: c.Header, URL: &url.URL{RawQuery: c.Query}}, journalText(c.Body))
	}
	h := HAR{Log: HARLog{Version: "1.2", Creator: HARCreator{Name: "mockombi", Version: "1"}, Entries: []HAREntry{}, Pages: []struct{}{}}}
	origin = strings.TrimSuffix(origin, "/")
	for _, c := range calls {
		h.Log.Entries = append(h.Log.Entries, harEntry(c, origin, sc))
	}
	return h
}

// WriteHAR writes JournalHAR(origin) as indented JSON.
func (s *Server) WriteHAR(w io.Writer, origin string) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(s.JournalHAR(origin))
}

// harEntry turns one call into an entry, scrubbed by sc.
func harEntry(c Call, origin string, sc *scrubber) HAREntry {
	query := sc.query(c.Query)
	u := origin + c.Path
	if query != "" {
		u += "?" + query
	}
	e := HAREntry{
		StartedDateTime: c.Time.UTC().Format(time.RFC3339Nano),
		Time:            c.DurationMS,
		Request: HARRequest{Method: c.Method, URL: u, HTTPVersion: harHTTPVersion, Cookies: []HARNameValue{},
			Headers: harHeaders(c.Header, sc), QueryString: harQuery(query), HeadersSize: -1, BodySize: 0},
		Response: HARResponse{Status: c.Status, StatusText: http.StatusText(c.Status), HTTPVersion: harHTTPVersion,
			Cookies: []HARNameValue{}, Headers: harHeaders(c.ResponseHeader, sc), HeadersSize: -1, BodySize: c.ResponseBytes},
		Timings: HARTimings{Send: 0, Wait: c.DurationMS, Receive: 0},
		Seq:     c.Seq, Route: c.Route, Fault: c.Fault, Stub: c.Stub, Unmatched: c.Unmatched,
	}
	if body := journalText(c.Body); len(body) > 0 {
		e.Request.BodySize = len(body)
		if c.BodyBytes > 0 {
			e.Request.BodySize = c.BodyBytes
		}
		e.Request.PostData = &HARPostData{MimeType: c.Header.Get("Content-Type"), Params: []HARNameValue{}, Text: string(sc.body(body))}
		if c.BodyTruncated {
			e.Comment = "request body cut to the journal's body cap"
		}
	}
	e.Response.Content = HARContent{Size: c.ResponseBytes, MimeType: c.ResponseHeader.Get("Content-Type")}
	if body := journalText(c.ResponseBody); len(body) > 0 {
		e.Response.Content.Text = string(sc.body(body))
		if c.ResponseTruncated {
			e.Response.Content.Comment = "cut to the journal's body cap"
		}
	}
	if c.Status == 0 {
		e.Comment = "the connection was reset: no answer"
		e.Response.BodySize = 0
	}
	return e
}

// journalText is a journaled body's text: JSON as it came, any other body
// from the JSON string the journal keeps it in.
func journalText(raw json.RawMessage) []byte {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return []byte(s)
		}
	}
	return raw
}

// harHeaders lists a header sorted by name, credentials scrubbed.
func harHeaders(h http.Header, sc *scrubber) []HARNameValue {
	out := []HARNameValue{}
	for _, k := range slices.Sorted(maps.Keys(h)) {
		for _, v := range h[k] {
			if secretName(k) || strings.EqualFold(k, "Cookie") || strings.EqualFold(k, "Set-Cookie") {
				v = redactedValue
			} else {
				v = string(sc.text([]byte(v)))
			}
			out = append(out, HARNameValue{Name: k, Value: v})
		}
	}
	return out
}

// harQuery splits a raw query into its parameters, unescaped.
func harQuery(q string) []HARNameValue {
	out := []HARNameValue{}
	if q == "" {
		return out
	}
	for _, part := range strings.Split(q, "&") {
		name, value, _ := strings.Cut(part, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if v, err := url.QueryUnescape(value); err == nil {
			value = v
		}
		out = append(out, HARNameValue{Name: name, Value: value})
	}
	return out
}
