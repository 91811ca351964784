package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// TestSoak_RSS measures the resident memory of the standalone binary over a
// long run on loopback. It is not part of make test; run it with
//
//	MOCKOMBI_SOAK=1000000 go test -run Soak -v -timeout 30m ./cmd/mockombi/
//
// MOCKOMBI_SOAK_SETTLE (default 15s) is how long to idle before the last
// reading. MOCKOMBI_SOAK_BINARY=<path> measures another build (for example one made
// before a change) instead of building this one; only --addr and --quiet are
// passed, so older builds work too.
func TestSoak_RSS(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("MOCKOMBI_SOAK"))
	if n <= 0 {
		t.Skip("set MOCKOMBI_SOAK=<requests> to run the memory soak")
	}
	bin := os.Getenv("MOCKOMBI_SOAK_BINARY")
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "mockombi")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
	}
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--quiet")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	sc := bufio.NewScanner(stdout)
	var base string
	re := regexp.MustCompile(`listening on (http://\S+)`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			base = m[1]
			break
		}
	}
	if base == "" {
		t.Fatal("no listening line")
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	mem := func() (rss, hwm int) {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && f[0] == "VmRSS:" {
				rss, _ = strconv.Atoi(f[1])
			}
			if len(f) >= 2 && f[0] == "VmHWM:" {
				hwm, _ = strconv.Atoi(f[1])
			}
		}
		return rss, hwm
	}
	report := func(phase string) {
		rss, hwm := mem()
		t.Logf("%-42s RSS %7.1f MB   peak %7.1f MB", phase, float64(rss)/1024, float64(hwm)/1024)
	}
	report("idle after start")

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}, Timeout: 2 * time.Minute}
	send := func(method, path string, body []byte, header ...string) (int, error) {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, _ := http.NewRequest(method, base+path, rd)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	small := []byte(`{"username":"user","password":"nope","rememberMe":false}`)
	medium := []byte(`{"level":"Information","message":"` + strings.Repeat("m", 2<<10) + `"}`)
	large := []byte(`{"level":"Information","message":"` + strings.Repeat("l", 256<<10) + `"}`)
	var next, failed atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(n) {
					return
				}
				var err error
				switch {
				case i%10_000 == 0:
					_, err = send("POST", "/api/v1/Logging", large, "ApiKey", mockombi.DefaultAPIKey)
				case i%10 < 6:
					_, err = send("GET", "/api/v1/Status", nil)
				case i%10 == 6:
					_, err = send("GET", "/api/v1/Search/movie/matrix", nil, "ApiKey", mockombi.DefaultAPIKey)
				case i%10 == 7:
					_, err = send("POST", "/api/v1/Token/requirePassword", small)
				case i%10 == 8:
					_, err = send("GET", "/api/v1/Request/count", nil)
				default:
					_, err = send("POST", "/api/v1/Logging", medium, "ApiKey", mockombi.DefaultAPIKey)
				}
				if err != nil {
					failed.Add(1)
				}
				if i%(int64(n)/4) == 0 {
					report(fmt.Sprintf("after %d requests", i))
				}
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	t.Logf("%d requests in %v (%.0f req/s), %d failed", n, el.Round(time.Millisecond), float64(n)/el.Seconds(), failed.Load())
	report(fmt.Sprintf("after %d requests", n))

	huge := []byte(`{"level":"Information","message":"` + strings.Repeat("h", 20<<20) + `"}`)
	for range 10 {
		if _, err := send("POST", "/api/v1/Logging", huge, "ApiKey", mockombi.DefaultAPIKey); err != nil {
			t.Logf("20 MB POST: %v", err)
		}
	}
	report("after ten 20 MB POSTs")
	st, err := send("GET", "/_mock/journal", nil)
	t.Logf("GET /_mock/journal = %d %v", st, err)
	report("after one GET /_mock/journal")
	fault := []byte(`{"path":"/x","body":"` + strings.Repeat("f", 200<<20) + `"}`)
	st, err = send("POST", "/_mock/faults", fault)
	t.Logf("POST /_mock/faults with 200 MB = %d %v", st, err)
	report("after a 200 MB POST /_mock/faults")
	// the runtime hands freed pages back after its next GC (forced every
	// 2 minutes on an idle process)
	settle := 15 * time.Second
	if d, err := time.ParseDuration(os.Getenv("MOCKOMBI_SOAK_SETTLE")); err == nil {
		settle = d
	}
	time.Sleep(settle)
	report(fmt.Sprintf("%v later, idle", settle))
}
