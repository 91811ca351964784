package mockombi_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// A fault fires once, then the route answers normally; the journal records both calls.
func ExampleServer_InjectFault() {
	srv, err := mockombi.New(mockombi.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
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
	srv, err := mockombi.New(mockombi.Options{APIKey: "secret"})
	if err != nil {
		fmt.Println(err)
		return
	}
	req := httptest.NewRequest("GET", "/api/v1/Status", nil)
	req.Header.Set("ApiKey", "wrong")
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Body.String())
	// Output:
	// 401 Invalid API Key
}

// Each fault has an id: list it, then remove it alone.
func ExampleServer_AddFault() {
	srv, err := mockombi.New(mockombi.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	id, _ := srv.AddFault(mockombi.Fault{Path: "/api/v2/Requests/**", Kind: mockombi.FaultOversized, Size: 1 << 30})
	_, err = srv.AddFault(mockombi.Fault{Path: "/api/v1/Status", Status: 101})
	fmt.Println(err)
	for _, f := range srv.Faults() {
		fmt.Println(f.ID, f.Name, f.Path, f.Remaining == nil)
	}
	fmt.Println(srv.RemoveFault(id), len(srv.Faults()))
	// Output:
	// inject fault: status: 101 is out of range; want 0 (the kind's default) or 200-599
	// 1 oversized#1 /api/v2/Requests/** true
	// true 0
}

// A data file replaces the seed; its users with a password are the logins.
func ExampleNew() {
	srv, err := mockombi.New(mockombi.Options{DataFile: "testdata/example-data.json"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range srv.Credentials().Users {
		fmt.Println(u.Username, u.Role)
	}
	_, err = mockombi.New(mockombi.Options{DataSet: "huge"})
	fmt.Println(err)
	// Output:
	// admin admin
	// alice power_user
	// bob user
	// options: DataSet "huge": want "default" or "large" (or a DataFile)
}
