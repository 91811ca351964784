package spec

import (
	"encoding/json"
	"fmt"
	"sync"
)

// Enum is one published label map of an upstream integer enum (T1-T4 of
// 02-tool-mapping rule 4).
type Enum struct {
	ID       string      `json:"id"`       // T1..T4
	Name     string      `json:"name"`     // request_type, issue_status, notification_agent, notification_type
	Upstream string      `json:"upstream"` // the C# enum name
	Note     string      `json:"note,omitempty"`
	Values   []EnumValue `json:"values"`
}

// EnumValue pairs a public string label with its upstream integer code.
type EnumValue struct {
	Label string `json:"label"`
	Code  int    `json:"code"`
}

// NumericEnum is an upstream enum that stays numeric-only pending
// verification: no labels are published for it.
type NumericEnum struct {
	Upstream string `json:"upstream"`
	Codes    []int  `json:"codes"`
	Note     string `json:"note"`
}

// EnumTable is spec/enums.json: the label maps and the numeric-only gaps.
type EnumTable struct {
	Enums       []Enum        `json:"enums"`
	NumericOnly []NumericEnum `json:"numeric_only"`
}

// Enum names of the four published maps.
const (
	EnumRequestType       = "request_type"
	EnumIssueStatus       = "issue_status"
	EnumNotificationAgent = "notification_agent"
	EnumNotificationType  = "notification_type"
)

var loadEnums = sync.OnceValues(func() (EnumTable, error) {
	b, err := File("enums.json")
	if err != nil {
		return EnumTable{}, err
	}
	var t EnumTable
	if err := json.Unmarshal(b, &t); err != nil {
		return EnumTable{}, fmt.Errorf("decode enums.json: %w", err)
	}
	return t, nil
})

// Enums returns a copy of the enum label maps. It panics if the embedded file
// is malformed, which the package tests rule out.
func Enums() EnumTable {
	t, err := loadEnums()
	if err != nil {
		panic(err)
	}
	out := EnumTable{}
	for _, e := range t.Enums {
		e.Values = append([]EnumValue(nil), e.Values...)
		out.Enums = append(out.Enums, e)
	}
	for _, n := range t.NumericOnly {
		n.Codes = append([]int(nil), n.Codes...)
		out.NumericOnly = append(out.NumericOnly, n)
	}
	return out
}

// Lookup returns the enum with the given name (e.g. "request_type") or id
// (e.g. "T1").
func (t EnumTable) Lookup(enum string) (Enum, bool) {
	for _, e := range t.Enums {
		if e.Name == enum || e.ID == enum {
			return e, true
		}
	}
	return Enum{}, false
}

// Label maps an upstream code to its public label; false for an unknown enum
// or an unmapped code.
func (t EnumTable) Label(enum string, code int) (string, bool) {
	e, ok := t.Lookup(enum)
	if !ok {
		return "", false
	}
	for _, v := range e.Values {
		if v.Code == code {
			return v.Label, true
		}
	}
	return "", false
}

// Code maps a public label to its upstream code; false for an unknown enum or
// label.
func (t EnumTable) Code(enum, label string) (int, bool) {
	e, ok := t.Lookup(enum)
	if !ok {
		return 0, false
	}
	for _, v := range e.Values {
		if v.Label == label {
			return v.Code, true
		}
	}
	return 0, false
}

// Labels returns the labels of an enum in file order.
func (t EnumTable) Labels(enum string) []string {
	e, _ := t.Lookup(enum)
	out := make([]string, 0, len(e.Values))
	for _, v := range e.Values {
		out = append(out, v.Label)
	}
	return out
}
