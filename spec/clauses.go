package spec

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sync"
)

// Clause is one contract clause the conformance suite cites: a stable id, the
// design document it comes from, the section or rule inside that document,
// and the clause text quoted or closely paraphrased.
type Clause struct {
	ID       string `json:"id"`
	Document string `json:"document"`
	Rule     string `json:"rule"`
	Text     string `json:"text"`
}

// Documents a clause may cite.
var clauseDocuments = map[string]bool{
	"04-results":      true,
	"02-tool-mapping": true,
	"06-verification": true,
	"DECISIONS":       true,
	"MCP 2025-11-25":  true,
	"any-profile":     true,
}

var clauseID = regexp.MustCompile(`^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*-[0-9]{3}$`)

var loadClauses = sync.OnceValues(func() ([]Clause, error) {
	b, err := File("clauses.json")
	if err != nil {
		return nil, err
	}
	var f struct {
		Clauses []Clause `json:"clauses"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("decode clauses.json: %w", err)
	}
	seen := map[string]bool{}
	for _, c := range f.Clauses {
		switch {
		case !clauseID.MatchString(c.ID):
			return nil, fmt.Errorf("load clauses: malformed id %q", c.ID)
		case seen[c.ID]:
			return nil, fmt.Errorf("load clauses: duplicate id %q", c.ID)
		case !clauseDocuments[c.Document]:
			return nil, fmt.Errorf("load clauses: %s cites unknown document %q", c.ID, c.Document)
		case c.Rule == "" || c.Text == "":
			return nil, fmt.Errorf("load clauses: %s has no rule or text", c.ID)
		}
		seen[c.ID] = true
	}
	return f.Clauses, nil
})

// Clauses returns every contract clause in file order. It panics if the
// embedded clause file is malformed (bad or duplicate id, unknown document,
// empty rule or text), which the package tests rule out.
func Clauses() []Clause {
	c, err := loadClauses()
	if err != nil {
		panic(err)
	}
	return append([]Clause(nil), c...)
}

// LookupClause returns the clause with the given id.
func LookupClause(id string) (Clause, bool) {
	for _, c := range Clauses() {
		if c.ID == id {
			return c, true
		}
	}
	return Clause{}, false
}
