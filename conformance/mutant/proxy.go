package mutant

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sync"
)

// Proxy runs command as a child and relays newline-delimited JSON-RPC
// between in/out and the child's stdio, corrupting it as m says. The
// child's stderr goes to errOut. It returns when the child exits.
func Proxy(ctx context.Context, m Mutant, command []string, in io.Reader, out, errOut io.Writer) error {
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Stderr = errOut
	childIn, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("start mutant child: %w", err)
	}
	childOut, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("start mutant child: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start mutant child: %w", err)
	}
	p := &proxy{m: m, out: out, calls: map[string]call{}}
	go func() {
		defer childIn.Close()
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			line := p.fromClient(sc.Bytes())
			if line == nil {
				continue
			}
			if _, err := childIn.Write(append(line, '\n')); err != nil {
				return
			}
		}
	}()
	sc := bufio.NewScanner(childOut)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		if line := p.fromServer(sc.Bytes()); line != nil {
			p.write(line)
		}
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("mutant child: %w", err)
	}
	return nil
}

type proxy struct {
	m     Mutant
	outMu sync.Mutex
	out   io.Writer
	mu    sync.Mutex
	calls map[string]call
}

func (p *proxy) write(line []byte) {
	p.outMu.Lock()
	defer p.outMu.Unlock()
	_, _ = p.out.Write(append(line, '\n'))
}

func decode(line []byte) (Frame, bool) {
	var f Frame
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	if err := d.Decode(&f); err != nil {
		return nil, false
	}
	return f, true
}

func idKey(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// fromClient records the request, lets the mutant answer or rewrite it, and
// returns the line to forward (nil = answered here).
func (p *proxy) fromClient(line []byte) []byte {
	line = append([]byte(nil), line...)
	f, ok := decode(line)
	if !ok {
		return line
	}
	method, _ := f["method"].(string)
	id, hasID := f["id"]
	if method == "" || !hasID {
		return line
	}
	c := call{method: method}
	if params, ok := f["params"].(map[string]any); ok {
		c.tool, _ = params["name"].(string)
		c.args = params["arguments"]
	}
	if p.m.answer != nil {
		if reply, done := p.m.answer(f, c); done {
			b, _ := json.Marshal(reply)
			p.write(b)
			return nil
		}
	}
	p.mu.Lock()
	p.calls[idKey(id)] = c
	p.mu.Unlock()
	if p.m.rewriteRequest != nil {
		p.m.rewriteRequest(f, c)
		line, _ = json.Marshal(f)
	}
	if p.m.extra != nil {
		if x := p.m.extra(f, c); x != nil {
			p.mu.Lock()
			p.calls[idKey(x["id"])] = call{method: swallowed}
			p.mu.Unlock()
			b, _ := json.Marshal(x)
			line = append(append(line, '\n'), b...)
		}
	}
	return line
}

// swallowed marks a request the proxy sent itself: its response never
// reaches the client.
const swallowed = "\x00swallowed"

// fromServer rewrites a response to a remembered request; nil = swallowed.
func (p *proxy) fromServer(line []byte) []byte {
	line = append([]byte(nil), line...)
	f, ok := decode(line)
	if !ok {
		return line
	}
	id, hasID := f["id"]
	if _, isReq := f["method"]; isReq || !hasID || (p.m.rewrite == nil && p.m.extra == nil) {
		return line
	}
	p.mu.Lock()
	c, known := p.calls[idKey(id)]
	delete(p.calls, idKey(id))
	p.mu.Unlock()
	if c.method == swallowed {
		return nil
	}
	if !known || p.m.rewrite == nil {
		return line
	}
	p.m.rewrite(f, c)
	b, err := json.Marshal(f)
	if err != nil {
		return line
	}
	return b
}
