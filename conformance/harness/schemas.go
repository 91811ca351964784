package harness

import (
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

// SchemaCache keeps the compiled outputSchemas servers advertise, keyed by
// tool and the exact schema bytes, so the many servers of a run that
// advertise the same schema compile it once. Safe for concurrent use; the
// zero value is ready.
type SchemaCache struct {
	mu sync.Mutex
	m  map[string]*jsonschema.Schema
}

// compile returns the compiled schema of raw, advertised for tool; nil when
// it does not compile.
func (c *SchemaCache) compile(tool string, raw []byte) *jsonschema.Schema {
	if c == nil {
		s, _ := spec.Compile("mem://advertised/"+tool+".json", raw, false)
		return s
	}
	key := tool + "\x00" + string(raw)
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.m[key]; ok {
		return s
	}
	s, _ := spec.Compile("mem://advertised/"+tool+".json", raw, false)
	if c.m == nil {
		c.m = map[string]*jsonschema.Schema{}
	}
	c.m[key] = s
	return s
}
