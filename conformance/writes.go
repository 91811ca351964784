package conformance

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
)

// undoTimeout bounds the calls that take a live run's writes back.
const undoTimeout = 2 * time.Minute

// settleTimeout bounds the wait for the answers of the writes let through
// before the ledger is read.
const settleTimeout = 30 * time.Second

// stopWritesOn closes the proxy's gate to every write once ctx ends (the
// run was interrupted), so that nothing is written after the run was told
// to stop; the returned func ends the watch.
func stopWritesOn(ctx context.Context, up *harness.Upstream) func() {
	l := up.Ledger()
	if l == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			l.Stop()
		case <-done:
		}
	}()
	return func() { close(done) }
}

// undoWrites takes back what a live run wrote, unless it was interrupted,
// and says what it removed, put back and left; nil when the upstream is
// not a live Ombi.
func undoWrites(ctx context.Context, opts Options, up *harness.Upstream, w io.Writer) *harness.WriteReport {
	l := up.Ledger()
	if l == nil {
		return nil
	}
	var rep *harness.WriteReport
	if ctx.Err() != nil {
		l.Stop()
		l.Settle(settleTimeout)
		rep = l.Report()
	} else {
		l.Settle(settleTimeout)
		uctx, cancel := context.WithTimeout(context.Background(), undoTimeout)
		rep = up.UndoWrites(uctx, opts.AuthMode)
		cancel()
	}
	writeWrites(w, rep)
	return rep
}

// writeWrites says what a live run wrote to the Ombi and what it left.
func writeWrites(w io.Writer, rep *harness.WriteReport) {
	if !rep.Allowed && len(rep.Refused) == 0 {
		fmt.Fprintf(w, "writes to the Ombi: none (a read-only run)\n")
		return
	}
	refused := 0
	for _, n := range rep.Refused {
		refused += n
	}
	fmt.Fprintf(w, "writes to the Ombi: %d taken back, %d left, %d kinds that cannot be undone; %d writes kept from the Ombi by the proxy (not the run's entities, or not allowed)\n",
		len(rep.Undone), len(rep.Left), len(rep.Irreversible), refused)
	for _, u := range rep.Undone {
		fmt.Fprintf(w, "  taken back: %s (%s %s)\n", u.What, u.Method, u.Path)
	}
	for _, e := range rep.Irreversible {
		fmt.Fprintf(w, "  cannot be undone: %s, %d× (%s)\n", e.What, e.Count, e.Call)
	}
	for _, e := range rep.Errors {
		fmt.Fprintf(w, "  undo failed: %s\n", e)
	}
	if len(rep.Left) == 0 {
		return
	}
	why := "an undo call failed"
	if rep.Interrupted {
		why = "the run was stopped"
	}
	fmt.Fprintf(w, "LEFT on the Ombi (%s); each line is the Ombi call that takes it back:\n", why)
	for _, u := range slices.Backward(rep.Left) {
		fmt.Fprintf(w, "  left: %s: %s\n", u.What, u.Line())
	}
}
