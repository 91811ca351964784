package mutant

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// The mutants of the property checks. Their bugs live between the server
// and its upstream, which a stdio proxy cannot see, so they read the mock's
// journal through its control API (OMBI_URL/_mock/journal) and replay the
// server's last upstream request to get the answer the server got.
var propertyMutants = []Mutant{
	{
		Name: "echo-error-body", Area: "leak",
		Filter: "property", Focus: `VERIFY-OUTPUT-NESTED-SECRETS-001\.property\.read_requests\]`,
		Description: "appends the upstream error body to the envelope's error message",
		rewrite: func(resp Frame, c call) {
			env := toolEnvelope(resp, c)
			e, ok := env["error"].(map[string]any)
			if !ok {
				return
			}
			last, ok := lastUpstream(func(j journalCall) bool { return j.Status >= 400 })
			if !ok {
				return
			}
			if _, body, err := replay(last, 4<<10); err == nil && len(body) > 0 {
				e["message"] = fmt.Sprintf("%v: %s", e["message"], body)
				syncText(resp, env)
			}
		},
	},
	{
		Name: "forward-user-email", Area: "leak",
		Filter: "property", Focus: `VERIFY-OUTPUT-NESTED-SECRETS-001\.property\.read_issues\]`,
		Description: "adds the email of a nested upstream user object to the warnings",
		rewrite: func(resp Frame, c call) {
			env := toolEnvelope(resp, c)
			if ok, _ := env["ok"].(bool); !ok {
				return
			}
			last, found := lastUpstream(func(j journalCall) bool { return j.Method == http.MethodGet && j.Status == 200 })
			if !found {
				return
			}
			_, body, err := replay(last, 8<<20)
			if err != nil {
				return
			}
			var doc any
			if json.Unmarshal(body, &doc) != nil {
				return
			}
			if email := nestedEmail(doc, 0); email != "" {
				w, _ := env["warnings"].([]any)
				env["warnings"] = append(w, "requested by "+email)
				syncText(resp, env)
			}
		},
	},
	{
		Name: "skip-truncation", Area: "budget",
		Filter: "property", Focus: `RESULTS-BUDGET-001\.property\.read_requests\]`,
		Description: "reports cut results as whole: truncated false and no warnings",
		rewrite: func(resp Frame, c call) {
			env := toolEnvelope(resp, c)
			if t, _ := env["truncated"].(bool); t {
				env["truncated"] = false
				env["warnings"] = []any{}
				syncText(resp, env)
			}
		},
	},
	{
		Name: "unbounded-body", Area: "budget",
		Focus:       `RESULTS-BUDGET-BOUNDED-READ-001\.`,
		Filter:      "property",
		Description: "re-reads the last upstream answer whole into memory after every tool call",
		rewrite: func(resp Frame, c call) {
			if c.method != "tools/call" {
				return
			}
			if last, ok := lastUpstream(func(j journalCall) bool { return j.Method == http.MethodGet }); ok {
				_, _, _ = replay(last, -1)
			}
		},
	},
	{
		Name: "deep-array-crash", Area: "fuzz",
		Filter:      "property",
		Description: "exits when tool arguments nest deeper than 32 levels",
		answer: func(req Frame, c call) (Frame, bool) {
			if c.method == "tools/call" && depth(c.args) > 32 {
				fmt.Fprintln(os.Stderr, "mutant deep-array-crash: stack overflow")
				os.Exit(3)
			}
			return nil, false
		},
	},
}

// toolEnvelope returns the structuredContent of a tools/call result, or nil.
func toolEnvelope(resp Frame, c call) map[string]any {
	r := result(resp)
	if c.method != "tools/call" || r == nil {
		return nil
	}
	return envelopeOf(r)
}

// syncText rewrites the text block to carry the changed envelope, so only
// the property the mutant breaks is broken.
func syncText(resp Frame, env map[string]any) {
	b, err := json.Marshal(env)
	if err != nil {
		return
	}
	result(resp)["content"] = []any{map[string]any{"type": "text", "text": string(b)}}
}

// journalCall is the part of a mock journal entry the mutants use.
type journalCall struct {
	Method string      `json:"method"`
	Path   string      `json:"path"`
	Query  string      `json:"query"`
	Header http.Header `json:"headers"`
	Status int         `json:"status"`
}

// mockClient asks the mock for its journal and answers; a client per
// question, so the package holds no shared state.
func mockClient() *http.Client { return &http.Client{Timeout: 60 * time.Second} }

// lastUpstream returns the newest journaled non-login call that keep
// accepts.
func lastUpstream(keep func(journalCall) bool) (journalCall, bool) {
	base := os.Getenv("OMBI_URL")
	if base == "" {
		return journalCall{}, false
	}
	resp, err := mockClient().Get(strings.TrimSuffix(base, "/") + "/_mock/journal")
	if err != nil {
		return journalCall{}, false
	}
	defer resp.Body.Close()
	var calls []journalCall
	if json.NewDecoder(resp.Body).Decode(&calls) != nil {
		return journalCall{}, false
	}
	for i := len(calls) - 1; i >= 0; i-- {
		j := calls[i]
		if strings.Contains(strings.ToLower(j.Path), "/api/v1/token") {
			continue
		}
		if keep(j) {
			return j, true
		}
	}
	return journalCall{}, false
}

// replay repeats a journaled request (without its body) and reads at most
// limit bytes of the answer; limit < 0 reads all of it.
func replay(j journalCall, limit int64) (int, []byte, error) {
	u, err := url.Parse(os.Getenv("OMBI_URL"))
	if err != nil {
		return 0, nil, fmt.Errorf("replay upstream call: %w", err)
	}
	target := u.Scheme + "://" + u.Host + j.Path
	if j.Query != "" {
		target += "?" + j.Query
	}
	req, err := http.NewRequest(j.Method, target, nil)
	if err != nil {
		return 0, nil, fmt.Errorf("replay upstream call: %w", err)
	}
	for _, h := range []string{"Authorization", "ApiKey", "UserName"} {
		if v := j.Header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	resp, err := mockClient().Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("replay upstream call: %w", err)
	}
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	if limit >= 0 {
		r = io.LimitReader(resp.Body, limit)
	}
	var buf bytes.Buffer
	_, err = buf.ReadFrom(r)
	return resp.StatusCode, buf.Bytes(), err
}

// nestedEmail finds an "email" string inside an object nested below the
// top level (a requestedUser, userReported, ...).
func nestedEmail(v any, d int) string {
	switch x := v.(type) {
	case map[string]any:
		if e, ok := x["email"].(string); ok && e != "" && d > 0 {
			return e
		}
		for _, c := range x {
			if e := nestedEmail(c, d+1); e != "" {
				return e
			}
		}
	case []any:
		for _, c := range x {
			if e := nestedEmail(c, d); e != "" {
				return e
			}
		}
	}
	return ""
}

// depth is the nesting depth of a decoded JSON value.
func depth(v any) int {
	best := 0
	switch x := v.(type) {
	case map[string]any:
		for _, c := range x {
			best = max(best, depth(c))
		}
		return best + 1
	case []any:
		for _, c := range x {
			best = max(best, depth(c))
		}
		return best + 1
	}
	return 0
}
