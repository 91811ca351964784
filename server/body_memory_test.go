package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// memChildEnv switches TestBodyBudget_peakMemoryBounded into the measured
// child process.
const memChildEnv = "OMBI_MCP_BODY_MEMORY_CHILD"

// Shape of the measurement: 256 concurrent reads of 20 MiB streamed
// (chunked, no Content-Length) answers, with the default per-call cap and
// the default shared budget; the whole process must stay under 128 MiB RSS.
const (
	memCalls     = 256
	memBodyBytes = 20 << 20
	memMaxRSS    = 128 << 20
)

// TestBodyBudget_peakMemoryBounded measures the peak RSS (VmHWM) and the
// peak Go heap of a fresh process of this test binary running the load, so
// the figure is the whole process: client, loopback upstream and runtime.
func TestBodyBudget_peakMemoryBounded(t *testing.T) {
	if os.Getenv(memChildEnv) == "1" {
		runMemoryChild()
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from /proc/self/status")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-test.run=^TestBodyBudget_peakMemoryBounded$", "-test.count=1")
	cmd.Env = append(os.Environ(), memChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	m := map[string]int64{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "bodymem "); ok {
			for _, f := range strings.Fields(rest) {
				k, v, _ := strings.Cut(f, "=")
				n, _ := strconv.ParseInt(v, 10, 64)
				m[k] = n
			}
		}
	}
	if m["peak_rss"] == 0 {
		t.Fatalf("child printed no measurement:\n%s", out)
	}
	t.Logf("%d concurrent reads of %d MiB streamed answers: peak RSS %.1f MiB, peak heap %.1f MiB (too large %d, budget refused %d, other %d)",
		memCalls, memBodyBytes>>20, float64(m["peak_rss"])/(1<<20), float64(m["peak_heap"])/(1<<20), m["too_large"], m["budget"], m["other"])
	if m["other"] != 0 {
		t.Errorf("%d calls failed otherwise than too large or over budget", m["other"])
	}
	if m["peak_rss"] >= memMaxRSS {
		t.Errorf("peak RSS %.1f MiB, want under %d MiB", float64(m["peak_rss"])/(1<<20), memMaxRSS>>20)
	}
}

// runMemoryChild runs the load and prints one "bodymem" line.
func runMemoryChild() {
	block := []byte("[" + strings.Repeat(`"xxxxxxxxxxxxxx",`, (64<<10)/17))
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for sent := 0; sent < memBodyBytes; sent += len(block) {
			if _, err := w.Write(block); err != nil {
				return
			}
		}
	}))
	defer up.Close()
	c, err := newClient(Options{URL: up.URL, AuthMode: AuthAPIKey, APIKey: "k", Timeout: 2 * time.Minute})
	if err != nil {
		fmt.Println("bodymem-error", err)
		return
	}

	var peakHeap uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peakHeap = max(peakHeap, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()

	var (
		wg                      sync.WaitGroup
		mu                      sync.Mutex
		tooLarge, budget, other int64
		gate                    = make(chan struct{})
	)
	for range memCalls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			_, err := c.SearchMovie(readCtx(), "x")
			mu.Lock()
			defer mu.Unlock()
			switch o := errorObject(err, false); {
			case errors.Is(err, ombi.ErrBodyTooLarge):
				tooLarge++
			case err != nil && o.Code == codeRateLimited:
				budget++
			default:
				other++
			}
		}()
	}
	close(gate)
	wg.Wait()
	close(stop)
	<-sampled
	c.CloseIdle()
	fmt.Printf("bodymem peak_rss=%d peak_heap=%d too_large=%d budget=%d other=%d\n", vmHWM(), peakHeap, tooLarge, budget, other)
}

// vmHWM reads this process's peak resident set size in bytes.
func vmHWM() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return -1
}
