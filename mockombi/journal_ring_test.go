package mockombi

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
)

// TestJournal_ringAgreesWithASlice drives the journal's ring through
// thousands of random adds (of random sizes, so the byte budget evicts
// too, and the ring grows once it has wrapped), clears and reads, and checks every read against the plain
// oldest-first slice the journal used to be: the ring must keep the same
// calls in the same order across wraps and growths.
func TestJournal_ringAgreesWithASlice(t *testing.T) {
	bounds := []struct {
		calls int
		bytes int64
	}{{5, 0}, {1, 0}, {0, 4000}, {7, 3000}, {0, 0}, {1024, 0}, {0, 40000}, {300, 60000}}
	for _, b := range bounds {
		rng := rand.New(rand.NewPCG(uint64(b.calls), uint64(b.bytes)))
		j := newJournal(b.calls, b.bytes)
		var model []Call // the old journal: append, then drop from the front
		var bytes int64
		seq, dropped := 0, 0
		for step := range 5000 {
			switch op := rng.IntN(1000); {
			case op < 3:
				j.clear()
				model, bytes, seq, dropped = nil, 0, 0, 0
			case op < 800:
				// phases of long and short paths: under a byte budget the
				// kept count swings, so the ring grows after it wrapped
				n := rng.IntN(900)
				if step/700%2 == 1 {
					n = rng.IntN(10)
				}
				c := Call{Method: http.MethodGet, Path: "/api/v1/" + strings.Repeat("x", n)}
				j.add(c, arrival{})
				seq++
				c.Seq = seq
				model = append(model, c)
				bytes += c.size()
				for len(model) > 1 && ((b.calls > 0 && len(model) > b.calls) || (b.bytes > 0 && bytes > b.bytes)) {
					bytes -= model[0].size()
					model = model[1:]
					dropped++
				}
			default:
				since, limit := rng.IntN(seq+2), rng.IntN(8)
				got := j.since(since, limit)
				first := len(model)
				for first > 0 && model[first-1].Seq > since {
					first--
				}
				if limit > 0 && len(model)-first > limit {
					first = len(model) - limit
				}
				want := model[first:]
				if len(got) != len(want) {
					t.Fatalf("bounds %+v step %d: since(%d, %d) = %d calls, want %d", b, step, since, limit, len(got), len(want))
				}
				for i := range want {
					if got[i].Seq != want[i].Seq || got[i].Path != want[i].Path {
						t.Fatalf("bounds %+v step %d: since(%d, %d)[%d] = call %d, want call %d", b, step, since, limit, i, got[i].Seq, want[i].Seq)
					}
				}
			}
			st := j.stats()
			if st.Kept != len(model) || st.Bytes != bytes || st.Last != seq || st.Dropped != dropped {
				t.Fatalf("bounds %+v step %d: stats %+v, want kept %d bytes %d last %d dropped %d", b, step, st, len(model), bytes, seq, dropped)
			}
		}
		if b.calls > 0 && len(j.ring) > b.calls+1 {
			t.Errorf("bounds %+v: ring of %d slots, want at most %d", b, len(j.ring), b.calls+1)
		}
	}
}
