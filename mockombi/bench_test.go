package mockombi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkOversizedBody measures requests per second and allocations while
// the mock streams an 8 MiB oversized JSON body over a real connection.
func BenchmarkOversizedBody(b *testing.B) {
	const size = 8 << 20
	s := mustNew(b, Options{})
	if err := s.Start("127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	if err := s.InjectFault(Fault{Path: "/api/v1/Status", Kind: FaultOversized, Size: size}); err != nil {
		b.Fatal(err)
	}
	url := s.URL() + "/api/v1/Status"
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		resp, err := http.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || n != size {
			b.Fatalf("read %d bytes: %v", n, err)
		}
		if i%64 == 63 {
			s.ClearJournal() // keep the journal from growing across iterations
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// BenchmarkSearch measures an in-process v1 movie search with API-key auth.
func BenchmarkSearch(b *testing.B) {
	s := mustNew(b, Options{})
	h := s.Handler()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest("GET", "/api/v1/Search/movie/the", nil)
		req.Header.Set("ApiKey", DefaultAPIKey)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("status %d", rec.Code)
		}
		if i%256 == 255 {
			s.ClearJournal()
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}
