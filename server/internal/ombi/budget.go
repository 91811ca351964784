package ombi

import "sync"

// bodyBudget bounds the upstream answer bytes held by all calls in flight of
// one client (Options.BodyBudgetBytes). A call reserves before it
// allocates and releases when it ends; a reservation that does not fit
// fails at once, it never waits.
type bodyBudget struct {
	mu    sync.Mutex
	limit int64
	used  int64
}

// reserve takes n bytes of the budget; false (nothing taken) when they do
// not fit.
func (b *bodyBudget) reserve(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n < 0 || b.used+n > b.limit {
		return false
	}
	b.used += n
	return true
}

// release gives n reserved bytes back.
func (b *bodyBudget) release(n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used = max(b.used-n, 0)
}

// inUse reports the bytes reserved now.
func (b *bodyBudget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}
