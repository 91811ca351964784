package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// RawSession speaks newline-delimited JSON-RPC to a server process without
// the SDK, so that checks can see exact wire frames and send malformed ones.
type RawSession struct {
	h      *Harness
	cfg    Config
	proc   *proc
	stdin  io.Writer
	lines  chan []byte
	stderr *TailBuffer
	wire   *wireLog
	stop   func() // HTTP targets: stops the endpoint and ends lines; nil on stdio
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
// by hand (protocol 2025-11-25), returning the raw initialize response. On
// failure the process is stopped by the time StartRaw returns.
func (h *Harness) StartRaw(ctx context.Context, cfg Config) (*RawSession, *RawMessage, error) {
	if h.Target.IsHTTP() {
		return h.startRawHTTP(ctx, cfg)
	}
	r := &RawSession{h: h, cfg: cfg, stderr: &TailBuffer{}, lines: make(chan []byte, 64)}
	p, err := startProc(h.Target.Command, h.Env(cfg), r.stderr, h.StopGrace, h.Processes)
	if err != nil {
		return nil, nil, &HarnessError{Action: "start " + h.Target.String(), Err: err, Stderr: r.stderr.Tail(20)}
	}
	r.wire = newWireLog()
	r.proc, r.stdin = p, procStdin{p, r.wire}
	go func() {
		defer close(r.lines)
		sc := bufio.NewScanner(r.wire.reader(p.stdout))
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			r.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	init := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"ombi-conformance-raw","version":"1"}}}`, ProtocolVersion)
	if err := r.Send(init); err != nil {
		return nil, nil, r.abort(err)
	}
	msg, err := r.Await(ctx, "1", h.startTimeout())
	if err != nil {
		return nil, nil, r.abort(err)
	}
	if err := r.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return nil, nil, r.abort(err)
	}
	return r, msg, nil
}

// abort kills a server that failed the handshake, releases it and returns
// err with the complete stderr tail (the server is reaped by then).
func (r *RawSession) abort(err error) error {
	r.proc.kill()
	r.Close()
	if he, ok := errors.AsType[*HarnessError](err); ok {
		he.Stderr = r.stderr.Tail(20)
	}
	return err
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
		timeout = r.h.callTimeout(r.cfg)
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
			return nil, r.h.timedOut("await response id "+id, fmt.Errorf("last frame read: %s", clip(last, 300)), timeout, r.proc, r.stderr, r.wire)
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

// Close stops the server like Server.Close: it closes stdin, waits
// StopGrace, sends SIGTERM to the server's process group, waits StopGrace
// again, then sends SIGKILL to the group. It returns within 2*StopGrace+3s
// whatever the server does.
func (r *RawSession) Close() {
	go func() {
		for range r.lines {
		}
	}()
	if r.stop != nil {
		r.stop()
		return
	}
	_ = r.proc.Close()
}
