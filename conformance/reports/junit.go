package reports

import (
	"encoding/xml"
	"fmt"
	"os"
	"strings"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

// WriteJUnit writes the --junit report of a run from its Ginkgo report:
// one test case per check, the timelines of passed checks left out.
func WriteJUnit(path string, r types.Report) error {
	if err := reporters.GenerateJUnitReportWithConfig(r, path, reporters.JunitReportConfig{OmitTimelinesForSpecState: types.SpecStatePassed, OmitLeafNodeType: true}); err != nil {
		return fmt.Errorf("write junit report: %w", err)
	}
	return nil
}

// WriteHarnessJUnit writes a JUnit report of one failed test case, the
// harness, carrying the reason.
func WriteHarnessJUnit(path string, cause error) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string  `xml:"name,attr"`
		Classname string  `xml:"classname,attr"`
		Failure   failure `xml:"failure"`
	}
	type testsuite struct {
		Name     string   `xml:"name,attr"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Case     testcase `xml:"testcase"`
	}
	type testsuites struct {
		XMLName  xml.Name  `xml:"testsuites"`
		Tests    int       `xml:"tests,attr"`
		Failures int       `xml:"failures,attr"`
		Errors   int       `xml:"errors,attr"`
		Suite    testsuite `xml:"testsuite"`
	}
	msg := cause.Error()
	first, _, _ := strings.Cut(msg, "\n")
	doc := testsuites{Tests: 1, Failures: 1, Suite: testsuite{Name: "ombi-conformance", Tests: 1, Failures: 1,
		Case: testcase{Name: "harness: judge the server", Classname: "ombi-conformance",
			Failure: failure{Message: first, Type: "harness error", Text: msg}}}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("write junit report: %w", err)
	}
	if err := os.WriteFile(path, append([]byte(xml.Header), append(b, '\n')...), 0o644); err != nil {
		return fmt.Errorf("write junit report: %w", err)
	}
	return nil
}
