package spec

import (
	"encoding/json"
	"fmt"
	"sync"
)

// Route purposes, as spec/routes.json spells them.
const (
	PurposePrimary     = "primary"      // the operation the branch exists for
	PurposePrivateRead = "private_read" // a read the server makes on its own behalf
	PurposeFallback    = "fallback"     // used only when the primary answer allows it
	PurposeGatedAlias  = "gated_alias"  // a compatibility spelling, off unless enabled
)

// Route is one entry of the upstream ledger (spec/routes.json): an Ombi
// operation a tool branch routes to. Path is the literal template with
// upstream spelling and case; PathParams, Query and Body hold wire names.
type Route struct {
	Tool       string   `json:"tool"`
	Branch     string   `json:"branch"` // title of a branch of the tool's strict input schema
	Method     string   `json:"method"`
	Path       string   `json:"path"`
	PathParams []string `json:"path_params"`
	Query      []string `json:"query"`
	Body       []string `json:"body"`
	// BodyModel names the Ombi model the route binds its whole body to
	// when that body is a document the caller reads from Ombi first and
	// sends back (a saved integration's settings, a saved media server):
	// Body then lists that model's serialized members (Ombi v4.59.3).
	BodyModel string `json:"body_model,omitempty"`
	Purpose   string `json:"purpose"` // one of the Purpose* constants
	Auth      string `json:"auth"`    // anon, user, power_user or admin (upstream requirement)
	Note      string `json:"note,omitempty"`
}

var loadRoutes = sync.OnceValues(func() ([]Route, error) {
	b, err := File("routes.json")
	if err != nil {
		return nil, err
	}
	var l struct {
		Routes []Route `json:"routes"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("decode routes.json: %w", err)
	}
	return l.Routes, nil
})

// Routes returns the whole upstream ledger in catalogue order. It panics if
// the embedded ledger is malformed, which the package tests rule out.
func Routes() []Route {
	r, err := loadRoutes()
	if err != nil {
		panic(err)
	}
	out := make([]Route, len(r))
	for i, x := range r {
		out[i] = x.clone()
	}
	return out
}

// RoutesFor returns the ledger entries of one tool, in ledger order.
func RoutesFor(tool string) []Route {
	var out []Route
	for _, r := range Routes() {
		if r.Tool == tool {
			out = append(out, r)
		}
	}
	return out
}

func (r Route) clone() Route {
	r.PathParams = append([]string(nil), r.PathParams...)
	r.Query = append([]string(nil), r.Query...)
	r.Body = append([]string(nil), r.Body...)
	return r
}
