package checks

import "testing"

// TestLiveSameTitle holds the evidence the id checks judge by: an id both
// sides name decides, a title alone decides only where it came from the
// same provider.
func TestLiveSameTitle(t *testing.T) {
	item := func(title string, ids ...string) mdItem {
		it := mdItem{Media: "tv", Title: title}
		for i := 0; i+1 < len(ids); i += 2 {
			it.Identifiers = append(it.Identifiers, mdIdentifier{Namespace: ids[i], Value: ids[i+1]})
		}
		return it
	}
	tests := []struct {
		name     string
		it       mdItem
		found    liveIDFound
		provider bool
		want     liveIDVerdict
	}{
		{"the same TVDB id, a localised title", item("Severance", "tmdb", "95396", "tvdb", "371980"), liveIDFound{Title: "Separación", TheTvDbID: "371980"}, false, liveIDSame},
		{"the same IMDb id", item("Severance", "imdb", "tt11280740"), liveIDFound{Title: "Other", ImdbID: "TT11280740"}, false, liveIDSame},
		{"the same title, no ids", item("The Bear!"), liveIDFound{Title: "the bear"}, false, liveIDSame},
		{"another TVDB id and title", item("Severance", "tvdb", "371980"), liveIDFound{Title: "Dark", TheTvDbID: "334824"}, false, liveIDOther},
		{"another title alone, a media server's", item("Severance", "tmdb", "95396"), liveIDFound{Title: "Separación"}, false, liveIDUnknown},
		{"another title alone, the provider's", item("Severance", "tmdb", "95396"), liveIDFound{Title: "Dark"}, true, liveIDOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, why := liveSameTitle(tt.it, tt.found, tt.provider); got != tt.want {
				t.Errorf("liveSameTitle = %d (%s), want %d", got, why, tt.want)
			}
		})
	}
}
