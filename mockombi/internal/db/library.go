package db

import (
	"fmt"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// newLibraryState loads library.json, anchoring day offsets at load time.
func newLibraryState(sd *seedSet) (state.Library, error) {
	var seed struct {
		RecentMovies []map[string]any   `json:"recentMovies"`
		RecentTV     []map[string]any   `json:"recentTv"`
		Calendar     []map[string]any   `json:"calendar"`
		Backgrounds  []state.Background `json:"backgrounds"`
	}
	if err := sd.decode("library.json", &seed); err != nil {
		return state.Library{}, err
	}
	day := sd.now().UTC().Truncate(24 * time.Hour)
	items := func(raws []map[string]any) ([]state.LibraryItem, error) {
		out := make([]state.LibraryItem, 0, len(raws))
		for _, raw := range raws {
			off, ok := JsonNumber(raw["offsetDays"])
			if !ok {
				return nil, fmt.Errorf("decode library item %v: offsetDays missing", raw["title"])
			}
			out = append(out, state.LibraryItem{Raw: raw, OffsetDays: off, When: day.AddDate(0, 0, off).Add(20 * time.Hour)})
		}
		return out, nil
	}
	var ls state.Library
	var err error
	if ls.RecentMovies, err = items(seed.RecentMovies); err != nil {
		return state.Library{}, err
	}
	if ls.RecentTV, err = items(seed.RecentTV); err != nil {
		return state.Library{}, err
	}
	if ls.Calendar, err = items(seed.Calendar); err != nil {
		return state.Library{}, err
	}
	ls.Backgrounds = seed.Backgrounds
	return ls, nil
}
