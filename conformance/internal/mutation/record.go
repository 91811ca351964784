package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// record is what a measure found, as -record writes it and -print reads
// it: the draw and every verdict.
type record struct {
	Sites     int       `json:"sites"`
	Sample    int       `json:"sample"`
	Seed      uint64    `json:"seed"`
	SuiteSeed int       `json:"suite_seed"`
	Verdicts  []verdict `json:"verdicts"`
}

func writeRecord(path string, r record) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func readRecord(path string) (record, error) {
	var r record
	b, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// printRecords prints the record at before; with a record at after (some
// of the same mutants judged again), the score before and after, after's
// verdicts replacing before's, and the survivors after.
func printRecords(w io.Writer, before, after string) error {
	b, err := readRecord(before)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "operator mutation: %d sites in server/, %d drawn with seed %d, %d judged with suite seed %d\n", b.Sites, b.Sample, b.Seed, len(b.Verdicts), b.SuiteSeed)
	sortVerdicts(b.Verdicts)
	if after == "" {
		report(w, b.Verdicts)
		return nil
	}
	a, err := readRecord(after)
	if err != nil {
		return err
	}
	merged, err := replace(b, a)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "before:")
	scores(w, b.Verdicts)
	fmt.Fprintf(w, "after (%d survivors judged again with the checks of now; the killed ones keep their verdict):\n", len(a.Verdicts))
	scores(w, merged)
	survivors(w, merged)
	return nil
}

// replace is before's verdicts with after's in place of those of the same
// mutants; after must hold mutants of before's draw only.
func replace(before, after record) ([]verdict, error) {
	if before.Sample != after.Sample || before.Seed != after.Seed || before.Sites != after.Sites {
		return nil, fmt.Errorf("the records are of other draws: %d of %d sites with seed %d, and %d of %d with seed %d",
			before.Sample, before.Sites, before.Seed, after.Sample, after.Sites, after.Seed)
	}
	again := map[string]verdict{}
	for _, v := range after.Verdicts {
		again[v.Name] = v
	}
	var out []verdict
	for _, v := range before.Verdicts {
		if a, ok := again[v.Name]; ok {
			v = a
			delete(again, v.Name)
		}
		out = append(out, v)
	}
	if len(again) > 0 {
		return nil, fmt.Errorf("%d verdicts of the second record are of mutants the first does not hold", len(again))
	}
	return out, nil
}

func sortVerdicts(vs []verdict) {
	sort.Slice(vs, func(i, j int) bool { return vs[i].Name < vs[j].Name })
}

// report prints the kill score per package and the survivors.
func report(w io.Writer, vs []verdict) {
	scores(w, vs)
	survivors(w, vs)
}

// score counts the verdicts of a package: not-covered mutants are
// survivors, not-viable ones do not count.
type score struct{ killed, viable, notCovered, notViable int }

func (s *score) add(v verdict) {
	switch v.State {
	case notViable:
		s.notViable++
		return
	case killed:
		s.killed++
	case notCovered:
		s.notCovered++
	}
	s.viable++
}

// scores prints the kill score per package and of all.
func scores(w io.Writer, vs []verdict) {
	per := map[string]*score{}
	var pkgs []string
	var all score
	for _, v := range vs {
		s := per[v.Package]
		if s == nil {
			s = &score{}
			per[v.Package] = s
			pkgs = append(pkgs, v.Package)
		}
		s.add(v)
		all.add(v)
	}
	sort.Strings(pkgs)
	fmt.Fprintln(w, "kill score per package (not-covered mutants are survivors; not-viable mutants do not compile and do not count):")
	line := func(name string, s score) {
		fmt.Fprintf(w, "  %-22s %d/%d killed (%s), %d survivors not covered, %d not viable\n", name, s.killed, s.viable, pct(s.killed, s.viable), s.notCovered, s.notViable)
	}
	for _, p := range pkgs {
		line(p, *per[p])
	}
	line("all", all)
}

// survivors prints the survivors the checks judged, then those no check
// reaches.
func survivors(w io.Writer, vs []verdict) {
	for _, state := range []string{survived, notCovered} {
		title := "survivors judged by the checks that reach them:"
		if state == notCovered {
			title = "survivors no check reaches (not covered):"
		}
		fmt.Fprintln(w, title)
		n := 0
		for _, v := range vs {
			if v.State == state {
				n++
				fmt.Fprintf(w, "  %s: %s%s\n", v.Name, v.Description, detail(v))
			}
		}
		if n == 0 {
			fmt.Fprintln(w, "  none")
		}
	}
}

// detail is what a verdict adds to its mutant's line: the checks that
// killed it or why it survived, and the transport when it was judged over
// Streamable HTTP.
func detail(v verdict) string {
	over := ""
	if v.Transport != "" {
		over = " over " + v.Transport
	}
	switch {
	case len(v.By) > 0:
		return " (by " + strings.Join(v.By, ", ") + over + ")"
	case v.Note != "" && v.State != notCovered:
		return " (" + v.Note + over + ")"
	}
	return ""
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}
