package checks

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
)

// This file judges the ids of the answers the stdio guard writes itself
// as a class (docs/server.md: a frame over the size limit is discarded and
// answered with -32600, its id echoed when it shows in the frame's head).
// JSON-RPC 2.0 ids are strings or numbers: an id of another type the
// guard finds in a refused frame is answered as null, never echoed, or the
// answer is not a JSON-RPC response at all.

// oversizeFrameBytes is a frame size over the reference server's stdio
// limit (4 MiB).
const oversizeFrameBytes = 4<<20 + 1024

// unusableIDs are JSON values that are not JSON-RPC ids.
var unusableIDs = []string{`true`, `false`, `{"n":7}`, `[7]`}

func (s *Suite) guardIDChecks() {
	ginkgo.Describe("transport guard ids", ginkgo.Label("protocol", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("MCP-JSONRPC-CODES-001", "oversize-unusable-id-null", func(ctx ginkgo.SpecContext) {
			raw := s.rawStdio(ctx)
			defer raw.Close()
			pad := strings.Repeat("x", oversizeFrameBytes)
			var e errs
			for _, id := range unusableIDs {
				f := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/list","params":{"pad":"%s"}}`, id, pad)
				if err := raw.Send(f); err != nil {
					s.fail(nil, "send an oversize frame with id %s: %v", id, err)
				}
				msg, err := raw.Await(ctx, "null", 10*time.Second)
				if err != nil {
					e.addf("an oversize frame with id %s: no refusal under id null arrived (an id that is not a string or number must not be echoed): %v", id, err)
					continue
				}
				if msg.Error == nil {
					e.addf("an oversize frame with id %s: want a JSON-RPC error under id null, got %s", id, clip(msg.Line, 300))
				}
			}
			msg, err := raw.Request(ctx, 999, "ping", nil)
			if err != nil || msg.Error != nil {
				e.addf("a valid ping after the refused frames: want a result, got %v %v", msg, err)
			}
			s.expectNone(e, "a refused frame's id that is not a string or a number is answered as null")
		})
		// A frame with an id but neither method, result nor error is a
		// request without a method: refused under its id, not taken for a
		// response.
		s.ClauseItFor("MCP-JSONRPC-CODES-001", "method-missing-refused", func(ctx ginkgo.SpecContext) {
			raw := s.rawStdio(ctx)
			defer raw.Close()
			var e errs
			for i, frame := range []string{`{"jsonrpc":"2.0","id":%d}`, `{"jsonrpc":"2.0","id":%d,"params":{}}`} {
				id := 810 + i
				f := fmt.Sprintf(frame, id)
				if err := raw.Send(f); err != nil {
					s.fail(nil, "send %s: %v", f, err)
				}
				msg, err := raw.Await(ctx, fmt.Sprint(id), 10*time.Second)
				var code int
				switch {
				case err != nil:
					e.addf("%s: no answer under id %d: %v", f, id, err)
				case msg.Error == nil || json.Unmarshal(msg.Error.Code, &code) != nil || code != -32600:
					e.addf("%s: want a JSON-RPC error -32600 (a request without a method) under id %d, got %s", f, id, clip(msg.Line, 300))
				}
			}
			msg, err := raw.Request(ctx, 999, "ping", nil)
			if err != nil || msg.Error != nil {
				e.addf("a valid ping after those frames: want a result, got %v %v", msg, err)
			}
			s.expectNone(e, "a frame without a method, a result or an error is refused under its id")
		})
	})
}

// rawStdio starts a raw stdio session of the server under test, for
// frames a client library would not send; a check of the stdio guard is
// not applicable to a run that speaks HTTP.
func (s *Suite) rawStdio(ctx context.Context) *harness.RawSession {
	ginkgo.GinkgoHelper()
	if s.h.Target.IsHTTP() {
		skipAs(framework.StateNotApplicable, "the stdio guard's frames; this run speaks HTTP")
	}
	raw, _, err := s.h.StartRaw(ctx, s.allConfig())
	if err != nil {
		s.fail(nil, "start a raw session: %v", err)
	}
	return raw
}
