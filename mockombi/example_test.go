package mockombi_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// A fault fires once, then the route answers normally; the journal records both calls.
func ExampleServer_InjectFault() {
	srv := mockombi.New(mockombi.Options{})
	_ = srv.InjectFault(mockombi.Fault{Method: "GET", Path: "/api/v1/Status", Status: 429,
		Headers: map[string]string{"Retry-After": "30"}, Times: 1})
	for range 2 {
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/Status", nil))
		fmt.Println(rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
	}
	for _, c := range srv.Journal() {
		fmt.Println(c.Seq, c.Method, c.Path, c.Status, c.Fault)
	}
	// Output:
	// 429 30 {"error":"429 Too Many Requests"}
	// 200  200
	// 1 GET /api/v1/Status 429 status_429#1
	// 2 GET /api/v1/Status 200
}

// An invalid API key is refused even on an anonymous route, as Ombi does.
func ExampleServer_Handler() {
	srv := mockombi.New(mockombi.Options{APIKey: "secret"})
	req := httptest.NewRequest("GET", "/api/v1/Status", nil)
	req.Header.Set("ApiKey", "wrong")
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Body.String())
	// Output:
	// 401 Invalid API Key
}
