package mockombi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"
)

// browser is headless Chromium driven over the DevTools protocol on
// --remote-debugging-pipe: we write NUL-terminated JSON commands to its fd 3
// and read NUL-terminated JSON messages from its fd 4. Standard library only.
type browser struct {
	t      *testing.T
	cmd    *exec.Cmd
	w      io.WriteCloser
	stderr *bytes.Buffer

	mu      sync.Mutex
	nextID  int
	pending map[int]chan cdpReply
	dead    error
	done    chan struct{}
}

// cdpReply is the answer to one command.
type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// chromiumPath finds the browser; make browsers installs it.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("chromium not found on PATH: run `make browsers` (apt-get install -y chromium)")
	return ""
}

// startBrowser launches headless Chromium with a fresh profile; cleanup
// closes it and kills whatever is left of its process group.
func startBrowser(t *testing.T) *browser {
	t.Helper()
	profile := t.TempDir()
	toChrome, ourW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ourR, fromChrome, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(chromiumPath(t), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--user-data-dir="+profile, "--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{toChrome, fromChrome} // fd 3: commands in, fd 4: messages out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	b := &browser{t: t, cmd: cmd, w: ourW, stderr: &bytes.Buffer{}, pending: map[int]chan cdpReply{}, done: make(chan struct{})}
	cmd.Stderr = &lockedWriter{w: b.stderr}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	_ = toChrome.Close()
	_ = fromChrome.Close()
	go b.read(ourR)
	t.Cleanup(b.close)
	return b
}

// lockedWriter serialises writes to a buffer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// read dispatches replies by id; events are ignored.
func (b *browser) read(r io.ReadCloser) {
	defer close(b.done)
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<20)
	var err error
	for {
		var msg []byte
		msg, err = br.ReadBytes(0)
		if err != nil {
			break
		}
		var m struct {
			ID int `json:"id"`
			cdpReply
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
			continue
		}
		b.mu.Lock()
		ch := b.pending[m.ID]
		delete(b.pending, m.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- m.cdpReply
		}
	}
	b.mu.Lock()
	b.dead = fmt.Errorf("chromium pipe closed: %v", err)
	for id, ch := range b.pending {
		close(ch)
		delete(b.pending, id)
	}
	b.mu.Unlock()
}

// call sends one command (to a page when session is set) and waits for its result.
func (b *browser) call(ctx context.Context, session, method string, params any, out any) error {
	b.mu.Lock()
	if b.dead != nil {
		b.mu.Unlock()
		return b.dead
	}
	b.nextID++
	id := b.nextID
	ch := make(chan cdpReply, 1)
	b.pending[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if params == nil {
		msg["params"] = map[string]any{}
	}
	if session != "" {
		msg["sessionId"] = session
	}
	raw, _ := json.Marshal(msg)
	if _, err := b.w.Write(append(raw, 0)); err != nil {
		return fmt.Errorf("%s: write: %w", method, err)
	}
	select {
	case rep, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: %v", method, b.dead)
		}
		if rep.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, rep.Error.Message, rep.Error.Code)
		}
		if out != nil {
			return json.Unmarshal(rep.Result, out)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// close asks Chromium to quit, then kills its process group if it lingers.
func (b *browser) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = b.call(ctx, "", "Browser.close", nil, nil)
	_ = b.w.Close()
	exited := make(chan struct{})
	go func() { _ = b.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	// helpers (zygote, renderers) share the group; make sure none survive
	_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL)
	<-b.done
	if b.t.Failed() {
		b.t.Logf("chromium stderr (tail): %s", tail(b.stderr.String(), 2000))
	}
}

// tail is the end of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// tab is one browser tab attached with a flat session.
type tab struct {
	b       *browser
	session string
}

// newPage opens a tab of the given size.
func (b *browser) newPage(ctx context.Context, width, height int) *tab {
	b.t.Helper()
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		b.t.Fatal(err)
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		b.t.Fatal(err)
	}
	p := &tab{b: b, session: att.SessionID}
	if err := b.call(ctx, p.session, "Emulation.setDeviceMetricsOverride",
		map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		b.t.Fatal(err)
	}
	return p
}

// navigate loads url.
func (p *tab) navigate(ctx context.Context, url string) {
	p.b.t.Helper()
	var res struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.b.call(ctx, p.session, "Page.navigate", map[string]any{"url": url}, &res); err != nil || res.ErrorText != "" {
		p.b.t.Fatalf("navigate %s: %v %s", url, err, res.ErrorText)
	}
}

// eval runs a JavaScript expression (promises awaited) and decodes its value.
func (p *tab) eval(ctx context.Context, expr string, out any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := p.b.call(ctx, p.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &res); err != nil {
		return err
	}
	if e := res.ExceptionDetails; e != nil {
		return fmt.Errorf("%s: %s %s", expr, e.Text, e.Exception.Description)
	}
	if out != nil && len(res.Result.Value) > 0 {
		return json.Unmarshal(res.Result.Value, out)
	}
	return nil
}

// run evaluates expr for its side effects and fails the test on an error.
func (p *tab) run(ctx context.Context, expr string) {
	p.b.t.Helper()
	if err := p.eval(ctx, expr, nil); err != nil {
		p.b.t.Fatal(err)
	}
}

// waitFor polls a boolean expression until it is true or ctx ends.
func (p *tab) waitFor(ctx context.Context, what, expr string) {
	p.b.t.Helper()
	var last error
	for {
		var ok bool
		last = p.eval(ctx, "Boolean("+expr+")", &ok)
		if last == nil && ok {
			return
		}
		select {
		case <-ctx.Done():
			var text string
			_ = p.eval(context.Background(), "document.body ? document.body.innerText.slice(0, 1500) : ''", &text)
			p.b.t.Fatalf("waiting for %s (%s): %v; last error %v; page text:\n%s", what, expr, ctx.Err(), last, text)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// screenshot captures the viewport as PNG.
func (p *tab) screenshot(ctx context.Context) ([]byte, error) {
	var res struct {
		Data string `json:"data"`
	}
	if err := p.b.call(ctx, p.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &res); err != nil {
		return nil, err
	}
	png, err := base64.StdEncoding.DecodeString(res.Data)
	if err == nil && !bytes.HasPrefix(png, []byte("\x89PNG")) {
		err = errors.New("screenshot is not a PNG")
	}
	return png, err
}
