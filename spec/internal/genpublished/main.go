// Command genpublished writes the portable projection of every strict input
// schema to spec/published/<tool>.json (DECISIONS D1). Run it through
// "go generate ./spec". With -outputs FILE it instead writes one JSON object
// mapping each tool to its composed output schema, for the independent
// validator check in spec/independent.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

func main() {
	dir := flag.String("dir", "published", "directory the published schemas are written to")
	outputs := flag.String("outputs", "", "write the composed output schemas of every tool to this file instead")
	flag.Parse()
	var err error
	if *outputs != "" {
		err = writeOutputs(*outputs)
	} else {
		err = writePublished(*dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genpublished:", err)
		os.Exit(1)
	}
}

func writePublished(dir string) error {
	for _, t := range spec.Tools() {
		strict, err := spec.InputSchema(t.Name)
		if err != nil {
			return err
		}
		p, err := spec.Project(strict)
		if err != nil {
			return fmt.Errorf("project %s: %w", t.Name, err)
		}
		var buf bytes.Buffer
		if err := json.Indent(&buf, p, "", "  "); err != nil {
			return fmt.Errorf("indent %s: %w", t.Name, err)
		}
		buf.WriteByte('\n')
		if err := os.WriteFile(filepath.Join(dir, t.Name+".json"), buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("write published schema of %s: %w", t.Name, err)
		}
	}
	return nil
}

func writeOutputs(file string) error {
	all := map[string]json.RawMessage{}
	for _, t := range spec.Tools() {
		o, err := spec.OutputSchema(t.Name)
		if err != nil {
			return err
		}
		all[t.Name] = o
	}
	b, err := json.Marshal(all)
	if err != nil {
		return fmt.Errorf("encode output schemas: %w", err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		return fmt.Errorf("write output schemas: %w", err)
	}
	return nil
}
