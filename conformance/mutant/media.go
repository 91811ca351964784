package mutant

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Mutants of the media, search and reference tools and of the write and
// credential rules every tool shares. Each is killed by one short run of
// the checks labelled media.
// mdUndocumentedKeys are upstream fields Ombi sends that the contract does
// not document (the seed carries them on every record).
var mdUndocumentedKeys = map[string]bool{"tmdbFetchedAt": true, "tvMazeUpdated": true, "barcode": true}

// mdFindUndocumented returns the first scalar value of an undocumented
// field anywhere in a decoded upstream answer.
func mdFindUndocumented(v any) string {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if mdUndocumentedKeys[k] {
				switch y := c.(type) {
				case string:
					return y
				case float64:
					return fmt.Sprint(int64(y))
				}
			}
		}
		for _, c := range x {
			if s := mdFindUndocumented(c); s != "" {
				return s
			}
		}
	case []any:
		for _, c := range x {
			if s := mdFindUndocumented(c); s != "" {
				return s
			}
		}
	}
	return ""
}

// mdCallArgs returns the remembered tools/call arguments object.
func mdCallArgs(c call) map[string]any {
	a, _ := c.args.(map[string]any)
	return a
}

var mediaMutants = []Mutant{
	{
		Name: "forward-undocumented-field", Area: "wire",
		Filter: "media", Focus: `RESULTS-PROJECTION-001\.media\.undocumented-fields`,
		Description: "copies the value of an undocumented upstream field into a warning of read results",
		rewrite: func(resp Frame, c call) {
			env := toolEnvelope(resp, c)
			if ok, _ := env["ok"].(bool); !ok || !strings.HasPrefix(c.tool, "read_") {
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
			if v := mdFindUndocumented(doc); v != "" {
				w, _ := env["warnings"].([]any)
				env["warnings"] = append(w, "upstream note: "+v)
				syncText(resp, env)
			}
		},
	},
	{
		Name: "v1-tv-id-as-tmdb", Area: "wire",
		Filter: "media", Focus: `RESULTS-PROJECTION-001\.read_search\.text\.tv\.v1-namespaces`,
		Description: "relabels tvdb identifiers as tmdb in read_search text tv results",
		rewrite: func(resp Frame, c call) {
			a := mdCallArgs(c)
			if c.tool != "read_search" || a["action"] != "text" || a["media"] != "tv" {
				return
			}
			env := toolEnvelope(resp, c)
			data, _ := env["data"].(map[string]any)
			items, _ := data["items"].([]any)
			changed := false
			for _, x := range items {
				it, _ := x.(map[string]any)
				ids, _ := it["identifiers"].([]any)
				for _, y := range ids {
					if id, ok := y.(map[string]any); ok && id["namespace"] == "tvdb" {
						id["namespace"] = "tmdb"
						changed = true
					}
				}
			}
			if changed {
				syncText(resp, env)
			}
		},
	},
	{
		Name: "replay-write-after-401", Area: "auth",
		Filter: "media", Focus: `VERIFY-AUTHZ-NO-REPLAY-001\.write_request_create\.401-once`,
		Description: "sends every write tools/call to the server twice, the second under a fresh id whose answer is swallowed",
		extra: func(req Frame, c call) Frame {
			if c.method != "tools/call" || !isWrite(c.tool) {
				return nil
			}
			return Frame{"jsonrpc": "2.0", "id": fmt.Sprintf("replay-%v", req["id"]), "method": "tools/call", "params": req["params"]}
		},
	},
	{
		Name: "leak-authorization-in-error", Area: "errors",
		Filter: "media", Focus: `RESULTS-ERRORS-SANITIZE-001\.read_search\.500\.no-credentials`,
		Description: "appends the Authorization header the server last sent upstream to every error message",
		rewrite: func(resp Frame, c call) {
			env := toolEnvelope(resp, c)
			e, ok := env["error"].(map[string]any)
			if !ok {
				return
			}
			last, found := lastUpstream(func(j journalCall) bool { return j.Header.Get("Authorization") != "" })
			if !found {
				return
			}
			e["message"] = fmt.Sprintf("%v (Authorization: %s)", e["message"], last.Header.Get("Authorization"))
			syncText(resp, env)
		},
	},
}
