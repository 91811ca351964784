package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// RawSession speaks newline-delimited JSON-RPC to a server process without
// the SDK, so that checks can see exact wire frames and send malformed ones.
type RawSession struct {
	h      *Harness
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	stderr *TailBuffer
	// Notifications collects every server notification read so far.
	Notifications []json.RawMessage
}

// RawMessage is one decoded JSON-RPC response.
type RawMessage struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data,omitempty"`
	} `json:"error"`
	Line []byte `json:"-"` // the frame as read
}

// StartRaw spawns the target with cfg and performs the initialize handshake
// by hand (protocol 2025-11-25), returning the raw initialize response.
func (h *Harness) StartRaw(ctx context.Context, cfg Config) (*RawSession, *RawMessage, error) {
	r := &RawSession{h: h, stderr: &TailBuffer{}, lines: make(chan []byte, 64)}
	r.cmd = exec.Command(h.Target.Command[0], h.Target.Command[1:]...)
	r.cmd.Env = h.Env(cfg)
	r.cmd.Stderr = r.stderr
	stdout, err := r.cmd.StdoutPipe()
	if err != nil {
		return nil, nil, fmt.Errorf("start raw session: %w", err)
	}
	if r.stdin, err = r.cmd.StdinPipe(); err != nil {
		return nil, nil, fmt.Errorf("start raw session: %w", err)
	}
	if err := r.cmd.Start(); err != nil {
		return nil, nil, &HarnessError{Action: "start " + h.Target.String(), Err: err}
	}
	go func() {
		defer close(r.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			r.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	init := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"ombi-conformance-raw","version":"1"}}}`, ProtocolVersion)
	if err := r.Send(init); err != nil {
		r.Close()
		return nil, nil, err
	}
	msg, err := r.Await(ctx, "1", h.startTimeout())
	if err != nil {
		r.Close()
		return nil, nil, err
	}
	if err := r.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		r.Close()
		return nil, nil, err
	}
	return r, msg, nil
}

// Send writes one frame (a newline is appended).
func (r *RawSession) Send(frame string) error {
	if _, err := io.WriteString(r.stdin, frame+"\n"); err != nil {
		return &HarnessError{Action: "write frame " + clip(frame, 200), Err: err, Stderr: r.stderr.Tail(20)}
	}
	return nil
}

// Await reads frames until the response with the given id (its JSON text,
// e.g. `7` or `"a"`) arrives, collecting notifications on the way. Requests
// from the server are answered with method-not-found.
func (r *RawSession) Await(ctx context.Context, id string, timeout time.Duration) (*RawMessage, error) {
	if timeout <= 0 {
		timeout = r.h.callTimeout()
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var last string
	for {
		select {
		case line, ok := <-r.lines:
			if !ok {
				return nil, &HarnessError{Action: "await response id " + id, Err: errors.New("server closed stdout (exited?)"), Stderr: r.stderr.Tail(20)}
			}
			last = string(line)
			var probe struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if err := json.Unmarshal(line, &probe); err != nil {
				return nil, &HarnessError{Action: "await response id " + id, Err: fmt.Errorf("server wrote a line that is not JSON: %s", clip(last, 300)), Stderr: r.stderr.Tail(20)}
			}
			if probe.Method != "" {
				if len(probe.ID) == 0 {
					r.Notifications = append(r.Notifications, line)
				} else {
					_ = r.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, probe.ID))
				}
				continue
			}
			if strings.TrimSpace(string(probe.ID)) != id {
				continue
			}
			var m RawMessage
			if err := json.Unmarshal(line, &m); err != nil {
				return nil, &HarnessError{Action: "await response id " + id, Err: fmt.Errorf("decode response: %w", err), Stderr: r.stderr.Tail(20)}
			}
			m.Line = line
			return &m, nil
		case <-timer.C:
			if last == "" {
				last = "(nothing)"
			}
			return nil, &HarnessError{Action: "await response id " + id, Err: fmt.Errorf("no answer within %s; last frame read: %s", timeout, clip(last, 300)), Stderr: r.stderr.Tail(20)}
		case <-ctx.Done():
			return nil, &HarnessError{Action: "await response id " + id, Err: ctx.Err(), Stderr: r.stderr.Tail(20)}
		}
	}
}

// Request sends a request frame with the given id, method and raw params
// (nil = no params member) and awaits its response.
func (r *RawSession) Request(ctx context.Context, id int, method string, params json.RawMessage) (*RawMessage, error) {
	frame := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q`, id, method)
	if params != nil {
		frame += `,"params":` + string(params)
	}
	frame += "}"
	if err := r.Send(frame); err != nil {
		return nil, err
	}
	return r.Await(ctx, fmt.Sprint(id), 0)
}

// Stderr returns the last n stderr lines.
func (r *RawSession) Stderr(n int) string { return r.stderr.Tail(n) }

// Close closes stdin and waits for the process, killing it after 3s.
func (r *RawSession) Close() {
	_ = r.stdin.Close()
	go func() {
		for range r.lines {
		}
	}()
	exited := make(chan struct{})
	go func() {
		_ = r.cmd.Wait()
		close(exited)
	}()
	select {
	case <-exited:
	case <-time.After(3 * time.Second):
		_ = r.cmd.Process.Kill()
		<-exited
	}
}
