package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// mockEnv makes the test binary a mockombi process holding the data set
// its value names: the benchmarks' upstream lives in a process of its own,
// as Ombi does, so that ombi-mcp's upstream calls and a floor's direct
// ones both cross a process boundary to reach it. The process prints one
// JSON line (its URL and ApiKey) and serves until its stdin closes.
const mockEnv = "OMBI_MCP_BENCH_MOCK"

// serveMock is the mock process's main.
func serveMock(data string) int {
	m, err := loadMock(data)
	if err == nil {
		err = m.Start("127.0.0.1:0")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer m.Close()
	if err := json.NewEncoder(os.Stdout).Encode(mockAddress{URL: m.URL(), APIKey: m.Credentials().APIKey}); err != nil {
		return 1
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// mockAddress is what the mock process prints when it is up.
type mockAddress struct {
	URL    string `json:"url"`
	APIKey string `json:"api_key"`
}

// loadMock builds the mock for data; pageData is the large data set with
// its movie requests cut to pageRequests, loaded as POST /_mock/state
// would.
func loadMock(data string) (*mockombi.Server, error) {
	o := mockombi.Options{DataSet: data}
	if data == pageData {
		o.DataSet = "large"
	}
	m, err := mockombi.New(o)
	if err != nil || data != pageData {
		return m, err
	}
	var state bytes.Buffer
	if err := m.WriteState(&state); err != nil {
		return nil, err
	}
	var doc, requests map[string]json.RawMessage
	var movies []json.RawMessage
	if err := json.Unmarshal(state.Bytes(), &doc); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(doc["requests"], &requests); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(requests["movies"], &movies); err != nil || len(movies) < pageRequests {
		return nil, fmt.Errorf("large data set: %d movie requests, %v", len(movies), err)
	}
	var errs [2]error
	requests["movies"], errs[0] = json.Marshal(movies[:pageRequests])
	doc["requests"], errs[1] = json.Marshal(requests)
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return m, m.ReplaceState(out)
}

// remoteMock drives a mock process through its control API.
type remoteMock struct {
	mockAddress
	client *http.Client
}

// mockFor starts a mock process holding data, stopped when b ends.
func mockFor(b *testing.B, data string) *remoteMock {
	b.Helper()
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), mockEnv+"="+orDefault(data, "default"))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = stdin.Close()
		if err := cmd.Wait(); err != nil {
			b.Errorf("mock process: %v", err)
		}
	})
	m := &remoteMock{client: &http.Client{}}
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err == nil {
		err = json.Unmarshal(line, &m.mockAddress)
	}
	if err != nil {
		b.Fatalf("mock process: %v (%q)", err, line)
	}
	b.Cleanup(m.client.CloseIdleConnections)
	return m
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// control sends one control request and decodes its JSON answer into out
// (nil: none).
func (m *remoteMock) control(b *testing.B, method, path string, in, out any) {
	b.Helper()
	var body io.Reader
	if in != nil {
		raw, err := json.Marshal(in)
		if err != nil {
			b.Fatal(err)
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, m.URL+path, body)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := m.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode >= 300 {
		b.Fatalf("%s %s: %d %v %s", method, path, resp.StatusCode, err, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			b.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// ClearJournal forgets the mock's journal.
func (m *remoteMock) ClearJournal(b *testing.B) {
	m.control(b, http.MethodDelete, "/_mock/journal", nil, nil)
}

// Journal is the mock's journal.
func (m *remoteMock) Journal(b *testing.B) []mockombi.Call {
	var calls []mockombi.Call
	m.control(b, http.MethodGet, "/_mock/journal", nil, &calls)
	return calls
}

// InjectFault injects f.
func (m *remoteMock) InjectFault(b *testing.B, f mockombi.Fault) {
	m.control(b, http.MethodPost, "/_mock/faults", f, nil)
}

// ClearFaults removes every fault.
func (m *remoteMock) ClearFaults(b *testing.B) {
	m.control(b, http.MethodDelete, "/_mock/faults", nil, nil)
}
