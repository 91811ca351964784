package mockombi

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// deleteGate refuses every DELETE and keeps what it was told of the
// answers of the calls it let through.
type deleteGate struct {
	mu       sync.Mutex
	answered []string
}

func (g *deleteGate) Allow(r *http.Request, upstream string, _ []byte) error {
	if r.Method == http.MethodDelete {
		return errors.New("not created by this run: " + upstream)
	}
	return nil
}

func (g *deleteGate) Answered(r *http.Request, upstream string, _ []byte, status int, answer []byte) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.answered = append(g.answered, r.Method+" "+upstream+" "+http.StatusText(status)+" "+string(answer[:min(len(answer), 1)]))
}

func TestProxy_gateKeepsRefusedCallsFromTheOmbi(t *testing.T) {
	up, upURL := startUpstream(t, Options{})
	g := &deleteGate{}
	p, base := startProxy(t, Options{Proxy: upURL, ProxyGate: g})
	key := map[string]string{"ApiKey": upstreamKey}
	before := len(up.Journal())
	r := send(t, base, call{method: http.MethodDelete, path: "/api/v1/Issues/1", header: key})
	if r.status != http.StatusForbidden || !strings.Contains(string(r.body), "not created by this run: /api/v1/Issues/1") {
		t.Errorf("a refused call: %d %s, want 403 with the gate's reason", r.status, r.body)
	}
	if n := len(up.Journal()); n != before {
		t.Errorf("a refused call reached the Ombi: %d calls, want %d", n, before)
	}
	if c := lastCall(t, p); c.Fault != GateFault || c.Status != http.StatusForbidden {
		t.Errorf("the proxy journaled the refused call with fault %q status %d, want %q 403", c.Fault, c.Status, GateFault)
	}
	r = send(t, base, call{method: http.MethodGet, path: "/api/v1/Issues/categories", header: key})
	if r.status != http.StatusOK || len(up.Journal()) != before+1 {
		t.Errorf("an allowed read: %d, %d calls reached the Ombi, want 200 and 1", r.status, len(up.Journal())-before)
	}
	r = send(t, base, call{method: http.MethodPost, path: "/api/v1/Issues/categories", header: key, body: `{"value":"x"}`})
	if r.status != http.StatusOK || string(r.body) != "true" || len(up.Journal()) != before+2 {
		t.Errorf("an allowed write: %d %s, %d calls reached the Ombi, want 200 true and 2", r.status, r.body, len(up.Journal())-before)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if want := []string{"POST /api/v1/Issues/categories OK t"}; strings.Join(g.answered, "|") != strings.Join(want, "|") {
		t.Errorf("the gate was told of %q, want %q", g.answered, want)
	}
}
