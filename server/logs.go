package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves read_logs: Ombi's v2 System logs routes. File ids are
// opaque, derived from a vetted basename, and resolved again through the
// list on every read; lines are sanitised and bounded. The download route
// is never called.

// Log defaults (input outline read_logs, C21).
const (
	defaultLogLines = 200
	maxLogLineRunes = 1000
)

// Output types of the logs family.
type (
	logsResult struct {
		Kind       string    `json:"kind"` // "logs"
		Files      []logFile `json:"files,omitempty"`
		Lines      []string  `json:"lines,omitempty"`
		Offset     *int      `json:"offset,omitempty"`
		NextOffset *int      `json:"next_offset"`
		Truncated  bool      `json:"truncated"`
	}
	logFile struct {
		FileID string `json:"file_id"`
		Name   string `json:"name"`
	}
)

// ---- file ids ----

var logBasename = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// vettedLogName accepts a plain basename: no separators, no traversal, no
// hidden files, text logs only.
func vettedLogName(name string) bool {
	return logBasename.MatchString(name) && !strings.Contains(name, "..") &&
		(strings.HasSuffix(strings.ToLower(name), ".txt") || strings.HasSuffix(strings.ToLower(name), ".log"))
}

// logFileID derives the opaque id bound to a vetted basename.
func logFileID(name string) string {
	sum := sha256.Sum256([]byte("ombi-log-file\x00" + name))
	return "log_" + hex.EncodeToString(sum[:12])
}

// logNames decodes the list answer: a string array, an array of objects
// with a name, or an object holding such an array.
func logNames(raw json.RawMessage) ([]string, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return nil, nil
	}
	var items []json.RawMessage
	if t[0] == '{' {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(t, &obj); err != nil {
			return nil, &ombi.SchemaError{Op: "GET /api/v2/System/logs", Reason: "not a list of file names"}
		}
		for _, k := range []string{"files", "logs", "fileNames", "names"} {
			if v, ok := obj[k]; ok {
				t = bytes.TrimSpace(v)
				break
			}
		}
	}
	if err := json.Unmarshal(t, &items); err != nil {
		return nil, &ombi.SchemaError{Op: "GET /api/v2/System/logs", Reason: "not a list of file names"}
	}
	var names []string
	for _, it := range items {
		var s string
		if json.Unmarshal(it, &s) != nil {
			var o struct {
				Name     string `json:"name"`
				FileName string `json:"fileName"`
			}
			if json.Unmarshal(it, &o) != nil {
				continue
			}
			s = o.Name
			if s == "" {
				s = o.FileName
			}
		}
		names = append(names, strings.TrimSpace(s))
	}
	return names, nil
}

// ---- sanitising ----

var logRedactions = []*regexp.Regexp{
	// an Authorization value's scheme (Bearer, Basic, Token) is kept and
	// the credential after it redacted
	regexp.MustCompile(`(?i)(api[-_ ]?key|apikey|token|password|passwd|pwd|secret|authorization|cookie|webhook)(["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token)\s+)?)[^\s"',;&]+`),
	regexp.MustCompile(`(?i)bearer\s+[A-Za-z0-9._~+/=-]+`),
	regexp.MustCompile(`eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`),
	regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s/@]+@`),
	regexp.MustCompile(`\b[0-9a-fA-F]{32,}\b`),
	regexp.MustCompile(`[A-Za-z0-9+/_-]{40,}={0,2}`),
}

// sanitizeLogLine removes control characters, credentials, tokens, keys
// and credentialed URLs, and bounds the line length.
func sanitizeLogLine(line string, secrets []string) string {
	line = strings.Map(func(r rune) rune {
		if r == '\t' {
			return ' '
		}
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, line)
	for _, s := range secrets {
		if len(s) >= 4 {
			line = strings.ReplaceAll(line, s, "[redacted]")
		}
	}
	for i, re := range logRedactions {
		if i == 0 {
			line = re.ReplaceAllString(line, "$1$2[redacted]")
			continue
		}
		line = re.ReplaceAllString(line, "[redacted]")
	}
	if utf8.RuneCountInString(line) > maxLogLineRunes {
		line = string([]rune(line)[:maxLogLineRunes-1]) + "…"
	}
	return line
}

// ---- read_logs ----

type logsInput struct {
	Action string   `json:"action"`
	FileID string   `json:"file_id"`
	Page   *pageArg `json:"page"`
	Lines  *lineArg `json:"lines"`
}

// lineArg is read_logs' "lines" window: offset defaults to 0, limit to
// 200 (at most 500).
type lineArg struct {
	Offset *int `json:"offset"`
	Limit  *int `json:"limit"`
}

func (a *lineArg) window() (offset, limit int) {
	offset, limit = 0, defaultLogLines
	if a != nil && a.Offset != nil {
		offset = max(*a.Offset, 0)
	}
	if a != nil && a.Limit != nil {
		limit = min(max(*a.Limit, 1), maxLogLines)
	}
	return offset, limit
}

// readLogs serves read_logs (administration bundle).
// Implements S-ROUTING-0276 to S-ROUTING-0280 and S-RESULTS-0087.
func readLogs(d *deps) tool {
	return tool{name: "read_logs", handle: func(ctx context.Context, c *call) (any, error) {
		var in logsInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		raw, err := d.client.LogFiles(ctx)
		if err != nil {
			return nil, err
		}
		names, err := logNames(raw)
		if err != nil {
			return nil, err
		}
		var files []logFile
		skipped := 0
		for _, n := range names {
			if !vettedLogName(n) {
				skipped++
				continue
			}
			files = append(files, logFile{FileID: logFileID(n), Name: n})
		}
		switch in.Action {
		case "list":
			if skipped > 0 {
				c.warn("%d upstream log entries were left out: not plain log file names", skipped)
			}
			window, pg := localPage(files, in.Page, true, unitReferences)
			for _, f := range window {
				c.link("ombi://logs/"+f.FileID, "logs/"+f.FileID, f.Name)
			}
			res := logsResult{Kind: "logs", Files: nonNilSlice(window), Offset: ptr(pg.Offset), NextOffset: pg.NextOffset}
			return res, nil
		case "read":
			name := ""
			for _, f := range files {
				if f.FileID == in.FileID {
					name = f.Name
				}
			}
			if name == "" {
				return nil, &ombi.ArgumentError{Field: "/file_id", Message: "unknown file_id; list the log files first"}
			}
			offset, limit := in.Lines.window()
			w, err := d.client.LogLines(ctx, name, offset, limit)
			if err != nil {
				return nil, err
			}
			return logResult(c, w, offset, d.client.Secrets()), nil
		}
		return nil, &unsupportedError{Message: "read_logs: unknown branch"}
	}}
}

// logResult sanitises a line window into the logs family.
func logResult(c *call, w ombi.LineWindow, offset int, secrets []string) logsResult {
	lines := make([]string, 0, len(w.Lines))
	for _, l := range w.Lines {
		lines = append(lines, sanitizeLogLine(l, secrets))
	}
	res := logsResult{Kind: "logs", Lines: lines, Offset: ptr(offset)}
	if w.More {
		end := offset + len(lines)
		res.NextOffset = ptr(end)
		res.Truncated = true
		c.warn("returned lines %d-%d; continue with lines.offset %d", offset, end, end)
	}
	if len(lines) == 0 && offset > 0 {
		c.warn("the file has %d lines; offset %d is past the end", w.Seen, offset)
	}
	return res
}
