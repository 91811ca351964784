package mockombi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// readBodyBuffered is readBody as it was: the capped body read through
// bytes.Buffer.ReadFrom, the reference readSized must agree with.
func readBodyBuffered(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	rd, _, err := limitedBody(w, r, limit)
	if rd == nil || err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	_, err = buf.ReadFrom(rd)
	return buf.Bytes(), err
}

// oneByteReader hands out its text a byte per Read, as a slow client does.
type oneByteReader struct{ s string }

func (o *oneByteReader) Read(p []byte) (int, error) {
	if o.s == "" {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0], o.s = o.s[0], o.s[1:]
	return 1, nil
}

// TestReadBody_agreesWithBufferedRead compares readBody with the buffered
// read it replaced for bodies around the buffer sizes, declared lengths
// that are right, unknown, short or long, slow readers and limits on
// either side: the same bytes and the same error.
func TestReadBody_agreesWithBufferedRead(t *testing.T) {
	for _, size := range []int{0, 1, 50, 511, 512, 513, 4096, 70000} {
		text := strings.Repeat("a", size)
		for _, declared := range []int64{int64(size), -1, int64(size / 2), int64(size + 5)} {
			for _, limit := range []int64{0, 100, 70000} {
				for _, slow := range []bool{false, true} {
					name := fmt.Sprintf("size %d declared %d limit %d slow %v", size, declared, limit, slow)
					mk := func() *http.Request {
						var rd io.Reader = strings.NewReader(text)
						if slow {
							rd = &oneByteReader{text}
						}
						r := httptest.NewRequest(http.MethodPost, "/api/v1/Issues", rd)
						r.ContentLength = declared
						return r
					}
					got, gotErr := readBody(httptest.NewRecorder(), mk(), limit)
					want, wantErr := readBodyBuffered(httptest.NewRecorder(), mk(), limit)
					var gotMax, wantMax *http.MaxBytesError
					if !bytes.Equal(got, want) || (gotErr == nil) != (wantErr == nil) || errors.As(gotErr, &gotMax) != errors.As(wantErr, &wantMax) {
						t.Fatalf("%s: read %d bytes, %v; want %d bytes, %v", name, len(got), gotErr, len(want), wantErr)
					}
				}
			}
		}
	}
}

// TestBufferedBody_restIsWhatIsLeft checks that decodeBody's shortcut hands
// out exactly the unread bytes, once.
func TestBufferedBody_restIsWhatIsLeft(t *testing.T) {
	bb := newBufferedBody([]byte(`{"a":1}`))
	p := make([]byte, 2)
	if n, _ := bb.Read(p); n != 2 {
		t.Fatalf("read %d bytes", n)
	}
	if rest := string(bb.rest()); rest != `a":1}` {
		t.Errorf("rest = %q, want the unread bytes", rest)
	}
	if rest := bb.rest(); len(rest) != 0 {
		t.Errorf("rest again = %q, want nothing", rest)
	}
	if n, err := bb.Read(p); n != 0 || err != io.EOF {
		t.Errorf("read after rest = %d, %v; want EOF", n, err)
	}
}
