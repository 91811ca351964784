package mockombi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

// controlPrefix is where the control API lives, at the root and under BasePath.
const controlPrefix = "/_mock/"

// controlPath reports whether an escaped path is a control call and returns
// the part after /_mock/ ("" for the dashboard, also for "/_mock" itself).
func (s *Server) controlPath(escaped string) (string, bool) {
	p := escaped
	if s.basePath != "" && len(p) > len(s.basePath) && strings.EqualFold(p[:len(s.basePath)], s.basePath) {
		p = p[len(s.basePath):]
	}
	if p == strings.TrimSuffix(controlPrefix, "/") {
		return "", true
	}
	if !strings.HasPrefix(p, controlPrefix) {
		return "", false
	}
	return strings.TrimSuffix(p[len(controlPrefix):], "/"), true
}

// serveControl answers the control API; it is never journaled and needs no
// Ombi credentials. Browsers may call it from the dashboard's own origin or
// from Options.CORSOrigins; requests from any other origin get 403.
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request, rest string) {
	if !s.controlOrigin(w, r) {
		writeControlError(w, http.StatusForbidden, fmt.Sprintf("origin %s may not call the control API; start mockombi with --cors-origin %s (Options.CORSOrigins) to allow it",
			r.Header.Get("Origin"), r.Header.Get("Origin")))
		return
	}
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	limit := int64(MaxControlBody)
	switch {
	case rest == "state":
		limit = orDefault(s.opts.MaxStateBytes, DefaultMaxStateBytes)
	case (rest == "faults" || rest == "stubs") && r.Method == http.MethodPost:
		limit = maxFaultRequest // the fault's or stub's body, JSON-escaped, and its fields
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, limit)
	}
	if s.serveDashboard(w, r, rest) {
		return
	}
	if id, ok := strings.CutPrefix(rest, "faults/"); ok {
		s.controlFault(w, r, id)
		return
	}
	if id, ok := strings.CutPrefix(rest, "stubs/"); ok {
		s.controlStub(w, r, id)
		return
	}
	switch r.Method + " " + rest {
	case "GET journal":
		s.controlJournal(w, r)
	case "DELETE journal":
		s.ClearJournal()
		w.WriteHeader(http.StatusNoContent)
	case "POST reset":
		s.Reset()
		w.WriteHeader(http.StatusNoContent)
	case "GET faults":
		writeJSON(w, http.StatusOK, s.Faults())
	case "POST faults":
		f, err := decodeFault(r.Body)
		if err != nil {
			writeControlError(w, bodyErrorStatus(err), err.Error())
			return
		}
		id, err := s.AddFault(f)
		if err != nil {
			writeControlError(w, http.StatusBadRequest, err.Error())
			return
		}
		af, _ := s.LookupFault(id)
		w.Header().Set("Location", s.basePath+controlPrefix+"faults/"+strconv.Itoa(id))
		writeJSON(w, http.StatusCreated, af)
	case "DELETE faults":
		s.ClearFaults()
		w.WriteHeader(http.StatusNoContent)
	case "GET journal.har":
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="mockombi-journal.har"`)
		w.Header().Set("Cache-Control", "no-store")
		_ = s.WriteHAR(w, scheme+"://"+r.Host)
	case "GET unmatched":
		writeJSON(w, http.StatusOK, db.NonNil(s.Unmatched()))
	case "GET routes":
		writeJSON(w, http.StatusOK, s.RouteHits())
	case "GET stubs":
		writeJSON(w, http.StatusOK, s.Stubs())
	case "POST stubs":
		st, err := decodeStub(r.Body)
		if err != nil {
			if status := bodyErrorStatus(err); status != http.StatusBadRequest {
				writeControlError(w, status, err.Error())
				return
			}
			writeStubError(w, err)
			return
		}
		id, err := s.AddStub(st)
		if err != nil {
			writeStubError(w, err)
			return
		}
		as, _ := s.LookupStub(id)
		w.Header().Set("Location", s.basePath+controlPrefix+"stubs/"+strconv.Itoa(id))
		writeJSON(w, http.StatusCreated, as)
	case "DELETE stubs":
		s.ClearStubs()
		w.WriteHeader(http.StatusNoContent)
	case "GET quirks":
		writeJSON(w, http.StatusOK, s.QuirkStates())
	case "POST quirks":
		var q struct {
			Name    string `json:"name"`
			Enabled *bool  `json:"enabled"`
		}
		if err := json.NewDecoder(r.Body).Decode(&q); err != nil || q.Enabled == nil {
			status := http.StatusBadRequest
			if err != nil {
				status = bodyErrorStatus(err)
			}
			writeControlError(w, status, `decode quirk: want {"name": string, "enabled": bool}`)
			return
		}
		if err := s.SetQuirk(q.Name, *q.Enabled); err != nil {
			writeControlError(w, http.StatusBadRequest, err.Error())
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case "GET canaries":
		writeJSON(w, http.StatusOK, s.Canaries())
	case "POST auth/rotate":
		s.RotateAuth()
		w.WriteHeader(http.StatusNoContent)
	case "GET credentials":
		writeJSON(w, http.StatusOK, s.Credentials())
	case "GET info":
		writeJSON(w, http.StatusOK, s.info())
	case "GET state":
		b, err := s.store.Export()
		if err != nil {
			writeControlError(w, http.StatusInternalServerError, err.Error())
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		_, _ = w.Write(b)
	case "POST state":
		s.controlReplaceState(w, r)
	default:
		writeControlError(w, http.StatusNotFound, "unknown control route "+r.Method+" "+controlPrefix+rest)
	}
}

// controlOrigin applies the control API's CORS policy: no Origin (curl, Go
// clients) and the request's own origin (the dashboard) pass; an origin in
// Options.CORSOrigins passes with CORS headers; any other origin fails.
func (s *Server) controlOrigin(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	w.Header().Add("Vary", "Origin")
	if origin == "" {
		return true
	}
	if u, err := url.Parse(origin); err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host) {
		return true
	}
	if !slices.Contains(s.opts.CORSOrigins, "*") && !slices.ContainsFunc(s.opts.CORSOrigins, func(o string) bool {
		return strings.EqualFold(strings.TrimSuffix(o, "/"), origin)
	}) {
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Expose-Headers", "Location, X-Mock-Journal-Last, X-Mock-Journal-Dropped, X-Mock-Journal-Epoch")
	if r.Method == http.MethodOptions {
		h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
		h.Set("Access-Control-Allow-Headers", "Content-Type")
		h.Set("Access-Control-Max-Age", "600")
	}
	return true
}

// controlJournal answers GET /_mock/journal[?since=SEQ][&limit=N]: the calls
// numbered above since, at most the last limit of them, streamed one call
// at a time. X-Mock-Journal-Last is the number to pass as since next (every
// call up to it was in this answer or an earlier one; a call still being
// answered holds it back),
// X-Mock-Journal-Dropped how many calls the journal's bounds have dropped and
// X-Mock-Journal-Epoch how many clears (and resets) there were: when it
// changes, numbering restarted at 1.
func (s *Server) controlJournal(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	since, limit := 0, 0
	for name, dst := range map[string]*int{"since": &since, "limit": &limit} {
		if v := q.Get(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				writeControlError(w, http.StatusBadRequest, fmt.Sprintf("journal: %s=%q: want a non-negative integer", name, v))
				return
			}
			*dst = n
		}
	}
	calls, st, next := s.journal.poll(since, limit)
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Mock-Journal-Last", strconv.Itoa(next))
	h.Set("X-Mock-Journal-Dropped", strconv.Itoa(st.Dropped))
	h.Set("X-Mock-Journal-Epoch", strconv.Itoa(st.Epoch))
	w.WriteHeader(http.StatusOK)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_, _ = io.WriteString(w, "[")
	for i := range calls {
		buf.Reset()
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(&calls[i]); err != nil {
			return
		}
		if _, err := w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))); err != nil {
			return
		}
		calls[i] = Call{} // done with it
	}
	_, _ = io.WriteString(w, "]")
}

// controlFault answers GET and DELETE /_mock/faults/{id}.
func (s *Server) controlFault(w http.ResponseWriter, r *http.Request, raw string) {
	controlByID(w, r, raw, "fault", "never injected", s.LookupFault, s.RemoveFault)
}

// controlStub answers GET and DELETE /_mock/stubs/{id}.
func (s *Server) controlStub(w http.ResponseWriter, r *http.Request, raw string) {
	controlByID(w, r, raw, "stub", "never added", s.LookupStub, s.RemoveStub)
}

// controlByID answers GET (the record) and DELETE (204) of one record of a
// control collection (/_mock/faults/{id}, /_mock/stubs/{id}) by its
// positive id; kind names the record and never says how a record that was
// never there went missing.
func controlByID[T any](w http.ResponseWriter, r *http.Request, raw, kind, never string, lookup func(int) (T, bool), remove func(int) bool) {
	id, err := strconv.Atoi(raw)
	if err != nil || id <= 0 {
		writeControlError(w, http.StatusNotFound, fmt.Sprintf("no %s %q: ids are positive integers", kind, raw))
		return
	}
	missing := fmt.Sprintf("no %s %d (spent, removed or %s)", kind, id, never)
	switch r.Method {
	case http.MethodGet:
		v, ok := lookup(id)
		if !ok {
			writeControlError(w, http.StatusNotFound, missing)
			return
		}
		writeJSON(w, http.StatusOK, v)
	case http.MethodDelete:
		if !remove(id) {
			writeControlError(w, http.StatusNotFound, missing)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "GET, DELETE")
		writeControlError(w, http.StatusMethodNotAllowed, r.Method+" "+controlPrefix+kind+"s/"+raw+": want GET or DELETE")
	}
}

// stubBody is a stub as the control API reads it: body may be a string or
// any JSON value (kept as its JSON text).
type stubBody struct {
	Method  string          `json:"method"`
	Path    string          `json:"path"`
	Status  int             `json:"status"`
	Headers map[string]any  `json:"headers"`
	Body    json.RawMessage `json:"body"`
	Times   int             `json:"times"`
}

// decodeStub reads one stub object; errors name the field at fault.
func decodeStub(r io.Reader) (Stub, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var in stubBody
	if err := dec.Decode(&in); err != nil {
		var typ *json.UnmarshalTypeError
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			return Stub{}, err
		case errors.As(err, &typ):
			return Stub{}, &StubError{Field: typ.Field, Problem: fmt.Sprintf("want %s, got a JSON %s", jsonTypeName(typ.Type.String()), typ.Value)}
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return Stub{}, fmt.Errorf("stub: %s; want method, path, status, headers, body, times", strings.TrimPrefix(err.Error(), "json: "))
		case errors.Is(err, io.EOF):
			return Stub{}, errors.New(`stub: empty body; want a JSON object such as {"method":"GET","path":"/api/v1/Status","status":200,"body":"503"}`)
		}
		return Stub{}, fmt.Errorf("stub: invalid JSON: %v", err)
	}
	st := Stub{Method: in.Method, Path: in.Path, Status: in.Status, Times: in.Times}
	for _, k := range db.SortedKeys(in.Headers) {
		v, ok := in.Headers[k].(string)
		if !ok {
			return Stub{}, &StubError{Field: "headers." + k, Problem: "want a string, got " + db.DescribeJSON(in.Headers[k])}
		}
		if st.Headers == nil {
			st.Headers = map[string]string{}
		}
		st.Headers[k] = v
	}
	if len(in.Body) > 0 && string(in.Body) != "null" {
		if in.Body[0] == '"' {
			if err := json.Unmarshal(in.Body, &st.Body); err != nil {
				return Stub{}, &StubError{Field: "body", Problem: err.Error()}
			}
		} else {
			var buf bytes.Buffer
			if err := json.Compact(&buf, in.Body); err != nil {
				return Stub{}, &StubError{Field: "body", Problem: err.Error()}
			}
			st.Body = buf.String()
		}
	}
	return st, nil
}

// writeStubError answers a refused stub: 400 with the message and, for a
// *StubError, the field at fault.
func writeStubError(w http.ResponseWriter, err error) {
	var se *StubError
	if errors.As(err, &se) {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error(), "field": se.Field})
		return
	}
	writeControlError(w, http.StatusBadRequest, err.Error())
}

// controlReplaceState answers POST /_mock/state.
func (s *Server) controlReplaceState(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		writeControlError(w, bodyErrorStatus(err), "read state: "+err.Error())
		return
	}
	if err := s.ReplaceState(b); err != nil {
		var se *StateError
		if errors.As(err, &se) {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": se.Error(), "problems": se.Problems})
			return
		}
		writeControlError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, s.info())
}

// faultBody is a fault as the control API reads it: body may be a string or
// any JSON value (kept as its JSON text).
type faultBody struct {
	Method  string          `json:"method"`
	Path    string          `json:"path"`
	Status  int             `json:"status"`
	Headers map[string]any  `json:"headers"`
	Body    json.RawMessage `json:"body"`
	DelayMS int             `json:"delay_ms"`
	Kind    string          `json:"kind"`
	Size    int64           `json:"size"`
	Times   int             `json:"times"`
}

// decodeFault reads one fault object; errors name the field at fault.
func decodeFault(r io.Reader) (Fault, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var in faultBody
	if err := dec.Decode(&in); err != nil {
		var typ *json.UnmarshalTypeError
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			return Fault{}, err
		case errors.As(err, &typ):
			return Fault{}, fmt.Errorf("inject fault: %s: want %s, got a JSON %s", typ.Field, jsonTypeName(typ.Type.String()), typ.Value)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return Fault{}, fmt.Errorf("inject fault: %s; want method, path, status, headers, body, delay_ms, kind, size, times",
				strings.TrimPrefix(err.Error(), "json: "))
		case errors.Is(err, io.EOF):
			return Fault{}, errors.New(`inject fault: empty body; want a JSON object such as {"path":"/api/v1/Status","status":500}`)
		}
		return Fault{}, fmt.Errorf("inject fault: invalid JSON: %v", err)
	}
	f := Fault{Method: in.Method, Path: in.Path, Status: in.Status, DelayMS: in.DelayMS, Kind: in.Kind, Size: in.Size, Times: in.Times}
	for _, k := range db.SortedKeys(in.Headers) {
		v, ok := in.Headers[k].(string)
		if !ok {
			return Fault{}, fmt.Errorf("inject fault: headers.%s: want a string, got %s", k, db.DescribeJSON(in.Headers[k]))
		}
		if f.Headers == nil {
			f.Headers = map[string]string{}
		}
		f.Headers[k] = v
	}
	if len(in.Body) > 0 && string(in.Body) != "null" {
		if in.Body[0] == '"' {
			if err := json.Unmarshal(in.Body, &f.Body); err != nil {
				return Fault{}, fmt.Errorf("inject fault: body: %v", err)
			}
		} else {
			var buf bytes.Buffer
			if err := json.Compact(&buf, in.Body); err != nil {
				return Fault{}, fmt.Errorf("inject fault: body: %v", err)
			}
			f.Body = buf.String()
		}
	}
	return f, nil
}

// jsonTypeName names a Go type of faultBody the way a JSON user reads it.
func jsonTypeName(goType string) string {
	switch goType {
	case "int", "int64":
		return "an integer"
	case "string":
		return "a string"
	case "map[string]interface {}":
		return `an object of strings, e.g. {"Retry-After": "30"}`
	}
	return goType
}

// bodyErrorStatus is 413 for a body over the control API's cap, else 400.
func bodyErrorStatus(err error) int {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}

// mockInfo is what GET /_mock/info returns: where the data comes from, what
// the store holds, the journal's state and the limits in force.
type mockInfo struct {
	DataSet  string         `json:"data_set"`
	BasePath string         `json:"base_path"`
	Counts   map[string]int `json:"counts"`
	Journal  journalStats   `json:"journal"`
	Faults   int            `json:"faults"`
	Limits   map[string]any `json:"limits"`
}

// info collects mockInfo.
func (s *Server) info() mockInfo {
	in := mockInfo{BasePath: s.basePath, Faults: len(s.Faults())}
	s.store.Read(func(st *store) {
		in.DataSet = st.Label
		children := 0
		for _, p := range st.Requests.Tv {
			children += len(st.Requests.ChildrenOf(p.ID))
		}
		in.Counts = map[string]int{"movies": len(st.Search.Movies), "shows": len(st.Search.Shows), "artists": len(st.Search.Artists),
			"users": len(st.Users.Accounts), "movie_requests": len(st.Requests.Movies), "tv_requests": len(st.Requests.Tv),
			"tv_child_requests": children, "album_requests": len(st.Requests.Albums), "issues": len(st.Issues.List), "votes": len(st.Votes.List)}
	})
	in.Journal = s.journal.stats()
	in.Limits = map[string]any{
		"max_body_bytes": orDefault(s.opts.MaxBodyBytes, DefaultMaxBodyBytes), "journal_body_bytes": orDefault(s.opts.JournalBodyBytes, DefaultJournalBodyBytes),
		"max_state_bytes": orDefault(s.opts.MaxStateBytes, DefaultMaxStateBytes), "max_control_body": MaxControlBody,
		"max_fault_delay_ms": MaxFaultDelay.Milliseconds(), "max_fault_size": int64(MaxFaultSize), "max_fault_body": MaxFaultBody,
		"journal_responses": s.opts.JournalResponses,
	}
	return in
}

// writeControlError answers a control-API failure.
func writeControlError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
