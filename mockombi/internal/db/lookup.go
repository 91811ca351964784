package db

// findBy returns the first of items that match accepts, or nil: the one loop
// behind the by-id and by-key finders of the request and catalogue state.
func findBy[T any](items []*T, match func(*T) bool) *T {
	for _, it := range items {
		if match(it) {
			return it
		}
	}
	return nil
}
