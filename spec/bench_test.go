package spec

import "testing"

// BenchmarkOutputSchemas reports the bytes of all 31 composed output schemas
// as tools/list carries them, next to the unpruned size.
func BenchmarkOutputSchemas(b *testing.B) {
	var pruned, unpruned int
	for b.Loop() {
		pruned, unpruned = outputSizes(b)
	}
	b.ReportMetric(float64(pruned), "bytes/pruned")
	b.ReportMetric(float64(unpruned), "bytes/unpruned")
}

// BenchmarkProject measures projecting every strict input schema.
func BenchmarkProject(b *testing.B) {
	var raws [][]byte
	for _, t := range Tools() {
		r, err := InputSchema(t.Name)
		if err != nil {
			b.Fatal(err)
		}
		raws = append(raws, r)
	}
	for b.Loop() {
		for _, r := range raws {
			if _, err := Project(r); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkValidateInput measures validating one valid argument object of
// read_search (a oneOf of four actions) against its strict input schema, as
// the server does on every call.
func BenchmarkValidateInput(b *testing.B) {
	v, err := NewValidator()
	if err != nil {
		b.Fatal(err)
	}
	args := []byte(`{"action":"text","media":"movie","query":"matrix"}`)
	b.ReportAllocs()
	for b.Loop() {
		if err := v.ValidateInput("read_search", args); err != nil {
			b.Fatal(err)
		}
	}
}
