package mockombi

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strconv"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// writeJSON answers v as JSON the way Ombi's Newtonsoft settings write it:
// nulls kept, <, > and & not escaped, no newline after the value. Views
// are maps (encoding/json writes their members sorted by name) or structs
// whose fields are declared in that same order.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := encodeJSON(v)
	writeEncoded(w, status, b, err)
}

// encodeJSON is the encoding writeJSON answers (state.Encode).
func encodeJSON(v any) ([]byte, error) { return state.Encode(v) }

// writeEncoded answers b, the JSON encoding of an answer, or a 500 naming
// err when the encoding failed.
func writeEncoded(w http.ResponseWriter, status int, b []byte, err error) {
	if err != nil {
		writeOmbiError(w, http.StatusInternalServerError, "encode response: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeOmbiError answers like Ombi's ErrorHandlingMiddleware: {"error": message}.
func writeOmbiError(w http.ResponseWriter, status int, message string) {
	b, _ := json.Marshal(map[string]string{"error": message})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writePlain answers a text body with no JSON framing.
func writePlain(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, text)
}

// problemTypes are the RFC 9110 section links ASP.NET Core puts in ProblemDetails.
var problemTypes = map[int]string{
	http.StatusBadRequest:   "https://tools.ietf.org/html/rfc9110#section-15.5.1",
	http.StatusUnauthorized: "https://tools.ietf.org/html/rfc9110#section-15.5.2",
	http.StatusForbidden:    "https://tools.ietf.org/html/rfc9110#section-15.5.4",
	http.StatusNotFound:     "https://tools.ietf.org/html/rfc9110#section-15.5.5",
}

// writeProblem answers an ASP.NET Core ProblemDetails body.
func writeProblem(w http.ResponseWriter, status int) {
	writeProblemErrors(w, status, nil)
}

// writeProblemErrors answers ProblemDetails with validation errors.
func writeProblemErrors(w http.ResponseWriter, status int, errs map[string][]string) {
	trace := make([]byte, 16)
	_, _ = rand.Read(trace)
	body := map[string]any{
		"type":    problemTypes[status],
		"title":   http.StatusText(status),
		"status":  status,
		"traceId": "00-" + hex.EncodeToString(trace) + "-" + hex.EncodeToString(trace[:8]) + "-00",
	}
	if errs != nil {
		body["title"] = "One or more validation errors occurred."
		body["errors"] = errs
	}
	b, _ := json.Marshal(body)
	w.Header().Set("Content-Type", "application/problem+json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// decodeBody decodes a required JSON body; a missing or malformed body gets
// the [ApiController] 400 ProblemDetails and false.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	var b []byte
	if bb, ok := r.Body.(*bufferedBody); ok {
		b = bb.rest()
	} else {
		b, _ = io.ReadAll(r.Body)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		writeProblemErrors(w, http.StatusBadRequest, map[string][]string{"": {"A non-empty request body is required."}})
		return false
	}
	if err := json.Unmarshal(b, v); err != nil {
		writeProblemErrors(w, http.StatusBadRequest, map[string][]string{"$": {err.Error()}})
		return false
	}
	return true
}

// intParam reads an int path value; a non-int answers 404 like a failed
// {x:int} route constraint and returns false.
func intParam(w http.ResponseWriter, r *http.Request, name string) (int, bool) {
	n, err := strconv.Atoi(r.PathValue(name))
	if err != nil {
		w.WriteHeader(http.StatusNotFound)
		return 0, false
	}
	return n, true
}

// noContent answers 204, what ASP.NET does for a null action result.
func noContent(w http.ResponseWriter) { w.WriteHeader(http.StatusNoContent) }

// writeRecord answers a single-record lookup: the record as JSON, or 204
// when the action found nothing (ASP.NET's answer to a null result): out
// is a view pointer or map, nil for none.
func writeRecord(w http.ResponseWriter, out any) {
	if v := reflect.ValueOf(out); !v.IsValid() || v.IsNil() {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// notModelled answers 501 for behaviour the mock deliberately leaves out:
// {"error": "mockombi does not model <what>"}, naming the call.
func notModelled(w http.ResponseWriter, what string) {
	writeOmbiError(w, http.StatusNotImplemented, "mockombi does not model "+what)
}

// okEmpty answers 200 with an empty body (void actions).
func okEmpty(w http.ResponseWriter) { w.WriteHeader(http.StatusOK) }

// msgNullReference is .NET's NullReferenceException message, the body of
// many Ombi 500s.
const msgNullReference = "Object reference not set to an instance of an object."
