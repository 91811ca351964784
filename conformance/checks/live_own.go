package checks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file gives the write checks of a live run with --allow-mutations
// entities of their own to act on. Before the first of them, the suite
// creates a movie request, an issue on it and a comment on the issue
// through the proxy in front of the Ombi (whose ledger notes each from
// Ombi's answer, and removes it when the run ends); the arguments of the
// write tools then name those ids. A write that names anything else is
// kept from the Ombi by the proxy (harness.Ledger).

// ownEntities are the ids of what the run created for its write checks;
// err says why it could not.
type ownEntities struct {
	request, issue, comment int64
	err                     error
}

// liveWrites reports whether the run writes to a live Ombi.
func (s *Suite) liveWrites() bool {
	return s.h.Upstream.IsLive() && s.opts.AllowMutations && s.h.Upstream.Ledger() != nil
}

// ownEntities creates, once a run, the entities the write checks of a live
// run act on.
func (s *Suite) ownEntities() ownEntities {
	s.anyMu.Lock()
	defer s.anyMu.Unlock()
	if s.own != nil && s.own.err == nil && !s.ownStillThere(*s.own) {
		s.own = nil // a check removed one with a tool of the server: made again
	}
	if s.own == nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		o := s.createOwn(ctx)
		s.own = &o
	}
	return *s.own
}

// ownStillThere reports whether the entities the run made for its write
// checks are all still there (the ledger lists what the run created and
// has not removed).
func (s *Suite) ownStillThere(o ownEntities) bool {
	made := s.h.Upstream.Ledger().Created()
	has := func(kind string, id int64) bool { return slices.Contains(made[kind], int(id)) }
	return has("movie request", o.request) && has("issue", o.issue) && has("issue comment", o.comment)
}

// ownCall makes one call of the suite's own through the proxy and decodes
// its 200 answer into out.
func (s *Suite) ownCall(ctx context.Context, header http.Header, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(s.h.Upstream.URL(), "/")+path, rd)
	if err != nil {
		return err
	}
	req.Header = header.Clone()
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return errors.New("no answer")
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s answered %d: %s", method, path, resp.StatusCode, ClipString(string(b), 200))
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%s %s: %v", method, path, err)
	}
	return nil
}

// createOwn creates a movie request (of a title the Ombi's popular list
// names and nobody requested yet), an issue on it and a comment.
func (s *Suite) createOwn(ctx context.Context) ownEntities {
	header, err := s.h.Upstream.AuthHeader(ctx, s.opts.AuthMode)
	if err != nil {
		return ownEntities{err: err}
	}
	var o ownEntities
	var tmdb int64
	var popular []struct {
		ID        int64 `json:"id"`
		Requested bool  `json:"requested"`
		Available bool  `json:"available"`
	}
	_ = s.ownCall(ctx, header, http.MethodGet, "/api/v2/Search/movie/popular/0/40", nil, &popular)
	var cands []int64
	for _, m := range popular {
		if !m.Requested && !m.Available && m.ID > 0 {
			cands = append(cands, m.ID)
		}
	}
	for _, id := range cands {
		var res struct {
			Result    bool  `json:"result"`
			IsError   bool  `json:"isError"`
			RequestID int64 `json:"requestId"`
		}
		if s.ownCall(ctx, header, http.MethodPost, "/api/v1/Request/movie", map[string]any{"theMovieDbId": id, "languageCode": "en"}, &res) == nil && !res.IsError && res.RequestID > 0 {
			o.request, tmdb = res.RequestID, id
			break
		}
	}
	if o.request == 0 {
		return ownEntities{err: errors.New("no movie of the Ombi's popular list that nobody requested could be requested")}
	}
	var cats []struct {
		ID int64 `json:"id"`
	}
	_ = s.ownCall(ctx, header, http.MethodGet, "/api/v1/Issues/categories", nil, &cats)
	issue := map[string]any{"title": "ombi-conformance", "subject": "ombi-conformance",
		"description": "made by a conformance run, which removes it when it ends", "requestType": 1,
		"requestId": o.request, "providerId": strconv.FormatInt(tmdb, 10)}
	if len(cats) > 0 {
		issue["issueCategoryId"] = cats[0].ID
	}
	if err := s.ownCall(ctx, header, http.MethodPost, "/api/v1/Issues", issue, &o.issue); err != nil {
		o.err = err
		return o
	}
	var c struct {
		ID int64 `json:"id"`
	}
	if err := s.ownCall(ctx, header, http.MethodPost, "/api/v1/Issues/comments", map[string]any{"comment": "ombi-conformance", "issueId": o.issue}, &c); err != nil {
		o.err = err
		return o
	}
	o.comment = c.ID
	return o
}

// argPool is the pool a tool's arguments are drawn from: in a live run
// that writes, a write tool's ids are those of the entities the run
// created (the titles and media ids stay the Ombi's own, which a request
// needs).
func (s *Suite) argPool(t *mcp.Tool) mockPool {
	p := s.pool()
	if !s.liveWrites() || (t.Annotations != nil && t.Annotations.ReadOnlyHint) {
		return p
	}
	o := s.ownEntities()
	own := mockPool{ids: map[string][]int64{}, titles: p.titles}
	for _, k := range []string{"themoviedbid", "tvdbid"} {
		own.ids[k] = p.ids[k]
	}
	if o.request > 0 {
		own.ids["requestid"] = []int64{o.request}
		own.ids["id"] = []int64{o.request}
	}
	if o.issue > 0 {
		own.ids["issueid"] = []int64{o.issue}
		own.ids["id"] = append(own.ids["id"], o.issue)
	}
	if o.comment > 0 {
		own.ids["id"] = append(own.ids["id"], o.comment)
	}
	return own
}

// ownArgs are a write tool's example arguments for a live run that
// writes: the request, issue and comment they name are the run's own.
func (s *Suite) ownArgs(tool string, args json.RawMessage) json.RawMessage {
	if !s.liveWrites() || !strings.HasPrefix(tool, "write_") {
		return args
	}
	var obj map[string]any
	if json.Unmarshal(args, &obj) != nil {
		return args
	}
	o := s.ownEntities()
	changed := false
	for k, v := range map[string]int64{"request_id": o.request, "issue_id": o.issue, "comment_id": o.comment} {
		if _, ok := obj[k]; ok && v > 0 {
			obj[k] = v
			changed = true
		}
	}
	if !changed {
		return args
	}
	ids, _ := json.Marshal(obj)
	if _, ok := obj["request_id"]; ok {
		// the run's request is a movie's: the kind of request named follows
		for _, k := range []string{"media", "kind", "request_type"} {
			if _, ok := obj[k]; ok {
				obj[k] = "movie"
			}
		}
	}
	movie, _ := json.Marshal(obj)
	for _, b := range []json.RawMessage{movie, ids} {
		if s.h.Validator.ValidateInput(tool, b) == nil {
			return b
		}
	}
	return args
}
