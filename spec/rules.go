package spec

import (
	"encoding/json"
	"fmt"
	"sync"
)

// RuntimeRule is one rule that JSON Schema cannot express and the server must
// enforce at call time (spec/runtime_rules.json). Empty Tools means every
// tool; empty Branches means every branch of the listed tools.
type RuntimeRule struct {
	ID       string   `json:"id"`
	Tools    []string `json:"tools"`
	Branches []string `json:"branches"`
	Rule     string   `json:"rule"`
	Error    string   `json:"error"` // the envelope error code a violation ends in
	Source   string   `json:"source"`
}

var loadRules = sync.OnceValues(func() ([]RuntimeRule, error) {
	b, err := File("runtime_rules.json")
	if err != nil {
		return nil, err
	}
	var f struct {
		Rules []RuntimeRule `json:"rules"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("decode runtime_rules.json: %w", err)
	}
	return f.Rules, nil
})

// RuntimeRules returns the runtime-only rules in file order. It panics if the
// embedded file is malformed, which the package tests rule out.
func RuntimeRules() []RuntimeRule {
	r, err := loadRules()
	if err != nil {
		panic(err)
	}
	out := make([]RuntimeRule, len(r))
	for i, x := range r {
		x.Tools = append([]string(nil), x.Tools...)
		x.Branches = append([]string(nil), x.Branches...)
		out[i] = x
	}
	return out
}
