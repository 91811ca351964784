// Package reports writes what a run of the suite came to: the text summary
// (per area and per tool), the --json report (JSON, read back by ReadJSON),
// the --junit report (from Ginkgo's, or one harness case when the run could
// not judge the server) and the self-contained --html page. Each reads the
// typed Result of package checks; none parses a check's text.
package reports
