package mockombi

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkThroughputRatio measures what the mock serves over real loopback
// connections, 16 in flight, against its floor measured in the same run: a
// bare net/http handler answering the same bytes. It reports both rates and
// their ratio (goal: at least 0.5), for the movie search route (auth and
// journal on) and a write route.
func BenchmarkThroughputRatio(b *testing.B) {
	cases := []struct {
		name, method, path, body string
	}{
		{"search_movie", http.MethodGet, "/api/v1/Search/movie/the", ""},
		{"issue_comment", http.MethodPost, "/api/v1/Issues/comments", `{"issueId":1,"comment":"Playback fails again."}`},
	}
	s := mustNew(b, Options{JournalSize: 1024})
	if err := s.Start("127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			answer := sample(b, s.URL(), tc.method, tc.path, tc.body)
			bare := bareServer(b, answer)
			const window = 300 * time.Millisecond
			var mockRate, bareRate float64
			for b.Loop() { // alternate the two, one window each
				mockRate += rate(b, s.URL(), tc.method, tc.path, tc.body, window)
				bareRate += rate(b, bare, tc.method, tc.path, tc.body, window)
			}
			b.ReportMetric(mockRate/float64(b.N), "mock-req/s")
			b.ReportMetric(bareRate/float64(b.N), "bare-req/s")
			b.ReportMetric(mockRate/bareRate, "x-bare")
		})
	}
}

func newBenchRequest(b *testing.B, base, method, path, body string) *http.Request {
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("ApiKey", DefaultAPIKey)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// sample is the mock's answer to one request: the bytes the bare handler
// serves.
func sample(b *testing.B, base, method, path, body string) []byte {
	resp, err := http.DefaultTransport.RoundTrip(newBenchRequest(b, base, method, path, body))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("%s %s: %d %v %s", method, path, resp.StatusCode, err, out)
	}
	return out
}

// bareServer serves answer to every request on a loopback port.
func bareServer(b *testing.B, answer []byte) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(answer)
	})}
	go func() { _ = srv.Serve(ln) }()
	b.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

// rate is the requests per second 16 concurrent keep-alive clients get
// from base during window.
func rate(b *testing.B, base, method, path, body string, window time.Duration) float64 {
	const conns = 16
	tr := &http.Transport{MaxIdleConnsPerHost: conns}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var done atomic.Int64
	var failed atomic.Value
	stop := time.Now().Add(window)
	var wg sync.WaitGroup
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				req := newBenchRequest(b, base, method, path, body)
				if body != "" {
					req.Body = io.NopCloser(bytes.NewReader([]byte(body)))
				}
				resp, err := client.Do(req)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					failed.Store(resp.Status)
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	if f := failed.Load(); f != nil {
		b.Fatalf("%s %s: %v", method, path, f)
	}
	return float64(done.Load()) / window.Seconds()
}
