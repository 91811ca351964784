package ombi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// LogFiles lists the log file names (a string array, or the legacy object
// form).
//
// upstream: GET /api/v2/System/logs
func (c *Client) LogFiles(ctx context.Context) (json.RawMessage, error) {
	return send[json.RawMessage](ctx, c, http.MethodGet, "api/v2/System/logs", nil)
}

// LogLines reads one window of a log file's lines (plain text, or a JSON
// string), streaming: only the window is kept, however long the file.
//
// upstream: GET /api/v2/System/logs/{logFileName}
func (c *Client) LogLines(ctx context.Context, name string, offset, limit int) (LineWindow, error) {
	req, err := c.NewRequest(ctx, http.MethodGet, "api/v2/System/logs/"+seg(name), nil)
	if err != nil {
		return LineWindow{}, err
	}
	// Plain text can be streamed; a JSON string cannot.
	req.Header.Set("Accept", "text/plain")
	resp, op, cancel, err := c.openText(req)
	if err != nil {
		return LineWindow{}, err
	}
	defer cancel()
	defer drain(resp)
	br := bufio.NewReaderSize(io.LimitReader(resp.Body, maxLogScanBytes), 64<<10)
	if first, err := br.Peek(1); err == nil && first[0] == '"' {
		// A JSON string body: bounded by the body cap and the shared
		// budget, then split.
		l := c.lease()
		defer l.done()
		buf, err := c.readBody(&http.Response{Body: io.NopCloser(br), ContentLength: -1}, op, false, l)
		if err != nil {
			return LineWindow{}, err
		}
		var text string
		if err := json.Unmarshal(bytes.TrimSpace(buf), &text); err != nil {
			return LineWindow{}, &SchemaError{Op: op, Reason: "not text and not a JSON string"}
		}
		br = bufio.NewReader(strings.NewReader(text))
	}
	return ScanWindow(br, op, offset, limit)
}

// LineWindow is a window of raw lines and whether more follow.
type LineWindow struct {
	Lines []string
	More  bool
	Seen  int // lines read (all of them when more is false)
}

// maxLogScanBytes bounds how much of one log file is scanned.
const maxLogScanBytes = 256 << 20

// ScanWindow skips offset lines, keeps limit lines (each cut to a bounded
// length while reading) and peeks whether another line follows.
func ScanWindow(br *bufio.Reader, op string, offset, limit int) (LineWindow, error) {
	var w LineWindow
	for {
		line, err := readLine(br)
		if err == io.EOF {
			return w, nil
		}
		if err != nil {
			return w, &TransportError{Op: op, Err: err}
		}
		switch {
		case w.Seen < offset:
		case len(w.Lines) < limit:
			w.Lines = append(w.Lines, line)
		default:
			w.More = true
			return w, nil
		}
		w.Seen++
	}
}

// readLine reads one line, keeping at most 4 KiB of it; io.EOF only when
// nothing was left.
func readLine(br *bufio.Reader) (string, error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(b) < 4<<10 {
			b = append(b, chunk[:min(len(chunk), 4<<10-len(b))]...)
		}
		switch err {
		case nil:
			return strings.TrimRight(string(b), "\r\n"), nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(b) == 0 {
				return "", io.EOF
			}
			return strings.TrimRight(string(b), "\r\n"), nil
		default:
			return "", err
		}
	}
}

// openText sends req like do: the same deadline, authentication, single
// retry of a read after a re-login (a write is never replayed) and status
// mapping. It returns the checked response; the caller reads and drains
// it, then calls cancel.
func (c *Client) openText(req *http.Request) (*http.Response, string, context.CancelFunc, error) {
	write := isWrite(req.Context())
	op := req.Method + " " + strings.TrimPrefix(req.URL.EscapedPath(), c.base.EscapedPath())
	ctx, cancel := context.WithTimeout(req.Context(), c.timeout)
	fail := func(err error) (*http.Response, string, context.CancelFunc, error) {
		cancel()
		return nil, op, nil, err
	}
	req = req.WithContext(ctx)
	used, err := c.authorize(ctx, req)
	if err != nil {
		return fail(err)
	}
	// the one send path: a write goes through the no-replay transport and
	// is marked sent, a redirect off the origin is refused
	resp, sent, err := c.send(req, write, op)
	if err != nil {
		if !sent {
			err = unsent(ctx, err)
		}
		return fail(err)
	}
	if resp.StatusCode == http.StatusUnauthorized && c.mode == AuthJWT && !write {
		drain(resp)
		c.invalidate(used)
		retry := req.Clone(ctx)
		if _, err := c.authorize(ctx, retry); err != nil {
			return fail(unsent(ctx, err))
		}
		if resp, _, err = c.send(retry, false, op); err != nil {
			return fail(err)
		}
	}
	if err := CheckResponse(resp); err != nil {
		drain(resp)
		return fail(err)
	}
	if ct := strings.ToLower(resp.Header.Get("Content-Type")); strings.Contains(ct, "html") {
		drain(resp)
		return fail(&SchemaError{Op: op, Reason: "content type html instead of text"})
	}
	return resp, op, cancel, nil
}

// doText is openText plus a read of the whole body through the cap; a
// JSON string body is unquoted.
func (c *Client) doText(req *http.Request) (string, error) {
	resp, op, cancel, err := c.openText(req)
	if err != nil {
		return "", err
	}
	defer cancel()
	defer drain(resp)
	l := c.lease()
	defer l.done()
	buf, err := c.readBody(resp, op, isWrite(req.Context()), l)
	if err != nil {
		return "", err
	}
	var text string
	if t := bytes.TrimSpace(buf); len(t) > 0 && t[0] == '"' && json.Unmarshal(t, &text) == nil {
		return text, nil
	}
	return string(buf), nil
}
