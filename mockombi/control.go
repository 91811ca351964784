package mockombi

import (
	"encoding/json"
	"net/http"
	"strings"
)

// controlPrefix is where the control API lives, at the root and under BasePath.
const controlPrefix = "/_mock/"

// controlPath reports whether an escaped path is a control call and returns
// the part after /_mock/.
func (s *Server) controlPath(escaped string) (string, bool) {
	p := escaped
	if s.basePath != "" && len(p) > len(s.basePath) && strings.EqualFold(p[:len(s.basePath)], s.basePath) {
		p = p[len(s.basePath):]
	}
	if !strings.HasPrefix(p, controlPrefix) {
		return "", false
	}
	return strings.TrimSuffix(p[len(controlPrefix):], "/"), true
}

// serveControl answers the control API; it is never journaled and needs no
// Ombi credentials.
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request, rest string) {
	s.cors(w, r)
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	switch r.Method + " " + rest {
	case "GET journal":
		writeJSON(w, http.StatusOK, s.Journal())
	case "DELETE journal":
		s.ClearJournal()
		w.WriteHeader(http.StatusNoContent)
	case "POST reset":
		s.Reset()
		w.WriteHeader(http.StatusNoContent)
	case "POST faults":
		var f Fault
		if err := json.NewDecoder(r.Body).Decode(&f); err != nil {
			writeControlError(w, http.StatusBadRequest, "decode fault: "+err.Error())
			return
		}
		if err := s.InjectFault(f); err != nil {
			writeControlError(w, http.StatusBadRequest, err.Error())
			return
		}
		w.WriteHeader(http.StatusCreated)
	case "DELETE faults":
		s.ClearFaults()
		w.WriteHeader(http.StatusNoContent)
	case "GET quirks":
		out := map[string]bool{}
		for _, n := range s.Quirks() {
			out[n] = s.quirk(n)
		}
		writeJSON(w, http.StatusOK, out)
	case "POST quirks":
		var q struct {
			Name    string `json:"name"`
			Enabled *bool  `json:"enabled"`
		}
		if err := json.NewDecoder(r.Body).Decode(&q); err != nil || q.Enabled == nil {
			writeControlError(w, http.StatusBadRequest, `decode quirk: want {"name": string, "enabled": bool}`)
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
	default:
		writeControlError(w, http.StatusNotFound, "unknown control route "+r.Method+" "+controlPrefix+rest)
	}
}

// writeControlError answers a control-API failure.
func writeControlError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
