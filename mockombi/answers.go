package mockombi

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// answerCacheEntries bounds the answers kept; a full cache starts over.
const answerCacheEntries = 512

// answerCache keeps the encoded answers of read routes whose answer is a
// function of the request, the caller, the state and the quirks only (the
// search routes): an answer is served again while neither the store nor the
// quirks changed since it was encoded. It is safe for concurrent use.
//
// It is the one piece of performance machinery the mock keeps: without it
// BenchmarkThroughputRatio/search_movie falls from about 1.0 to about 0.15
// of a bare net/http server (docs/mockombi.md, "Performance").
type answerCache struct {
	mu      sync.Mutex
	entries map[string]cachedAnswer
}

type cachedAnswer struct {
	state, quirks uint64 // the revisions the answer was built at
	body          []byte
}

func (c *answerCache) get(key string, state, quirks uint64) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.entries[key]
	if !ok || a.state != state || a.quirks != quirks {
		return nil, false
	}
	return a.body, true
}

func (c *answerCache) put(key string, state, quirks uint64, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= answerCacheEntries {
		c.entries = make(map[string]cachedAnswer, answerCacheEntries)
	}
	c.entries[key] = cachedAnswer{state: state, quirks: quirks, body: body}
}

// callerKey names what of the caller an answer may depend on.
func callerKey(p *principal) string {
	if p == nil {
		return "-"
	}
	return p.name + "\x1f" + p.id + "\x1f" + strings.Join(p.roles, ",") + "\x1f" + strconv.FormatBool(p.apiKey) + "\x1f" + p.alias
}

// writeView answers 200 with view's JSON, built under the store's read
// lock. key names the request's inputs the view reads (route, path values,
// query, body fields); the caller is added to it. An identical request
// made while the store and the quirks are unchanged gets the bytes encoded
// the first time.
func (s *Server) writeView(w http.ResponseWriter, r *http.Request, key string, view func(st *store) any) {
	key += "\x00" + callerKey(principalOf(r))
	var (
		body []byte
		err  error
	)
	s.store.Read(func(st *store) {
		// the quirks' revision is read before the view is built: a quirk
		// switched meanwhile leaves an entry that no later request matches
		quirks := s.quirks.revision()
		if b, ok := s.answers.get(key, st.Revision, quirks); ok {
			body = b
			return
		}
		if body, err = encodeJSON(view(st)); err == nil {
			s.answers.put(key, st.Revision, quirks, body)
		}
	})
	writeEncoded(w, http.StatusOK, body, err)
}
