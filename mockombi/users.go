package mockombi

// ref is a pointer to a copy of v, for a view's nullable member that is
// set.
func ref[T any](v T) *T { return &v }

// nullIfEmpty maps "" to JSON null, as Ombi serialises unset strings.
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
