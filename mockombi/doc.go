// Package mockombi is a stateful mock of the Ombi HTTP API for tests and
// frontend development. It enforces Ombi's authentication (JWT and ApiKey),
// keeps requests, issues, users and settings in memory, records every call in
// a journal, injects faults, and reproduces known upstream quirks. A control
// API under /_mock/ (and its Go twins on Server) drives it.
//
//	srv := mockombi.New(mockombi.Options{})
//	if err := srv.Start("127.0.0.1:0"); err != nil { ... }
//	defer srv.Close()
//	_ = srv.InjectFault(mockombi.Fault{Method: "GET", Path: "/api/v1/Status", Status: 429,
//		Headers: map[string]string{"Retry-After": "30"}, Times: 1})
//	resp, _ := http.Get(srv.URL() + "/api/v1/Status")
package mockombi
