package checks

import (
	"encoding/json"
	"fmt"

	"github.com/onsi/ginkgo/v2"
)

// This file judges the target a request write names as a class (04-results:
// a mutation's target is the record it changed, by kind and id): every
// successful write_request_reprocess names the request it reprocessed, of
// the kind its request_type says (movie, tv_child for a series request,
// album), under the request_id given.

// requestTargetKind is the target kind of each request_type.
var requestTargetKind = map[string]string{"movie": "movie", "tv": "tv_child", "album": "album"}

func (s *Suite) mutationTargetChecks() {
	ginkgo.Describe("wire mutation targets", ginkgo.Label("wire"), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("RESULTS-PROJECTION-001", "write_request_reprocess.target-of-request", func(ctx ginkgo.SpecContext) {
			s.requireTool("write_request_reprocess")
			srv := s.shared(ctx, apiKeyConfig())
			var e errs
			judged := map[string]int{}
			for _, ex := range s.table("write_request_reprocess").Valid {
				var args struct {
					RequestType string `json:"request_type"`
					RequestID   int    `json:"request_id"`
				}
				if json.Unmarshal(ex.Args, &args) != nil {
					continue
				}
				s.clean()
				o := s.call(ctx, srv, "write_request_reprocess", ex.Args)
				var data struct {
					Target *struct {
						Kind string `json:"kind"`
						ID   int    `json:"id"`
					} `json:"target"`
				}
				if !o.OK() || json.Unmarshal(o.Envelope.Data, &data) != nil {
					continue
				}
				judged[args.RequestType]++
				want := requestTargetKind[args.RequestType]
				if data.Target == nil || data.Target.Kind != want || data.Target.ID != args.RequestID {
					e.addf("write_request_reprocess %s: want the target %s %d, got %s", clip(ex.Args, 160), want, args.RequestID, clip(o.Envelope.Data, 300))
				}
			}
			s.expectNone(e, "a reprocessed request is the write's target, of its request_type's kind")
			// a live run reprocesses only requests it made itself (its proxy
			// keeps the others from the Ombi), and the examples name the
			// embedded mock's
			s.liveNeedsData(judged["movie"] > 0 && judged["tv"] > 0, fmt.Sprintf("movie and TV requests the valid examples of write_request_reprocess name that the run may reprocess (judged %v)", judged))
			s.expect(judged["movie"] > 0 && judged["tv"] > 0, nil, "no movie and tv reprocess succeeded (%v); nothing was judged for both kinds", judged)
		})
	})
}
