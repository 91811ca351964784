package server

import "testing"

func TestSafeImageURI(t *testing.T) {
	for uri, ok := range map[string]bool{
		"https://image.tmdb.org/t/p/w500/a.jpg":    true,
		"http://assets.fanart.tv/x.jpg":            true,
		"https://user:pw@host/x.jpg":               false,
		"https://host/x.jpg?apikey=secret":         false,
		"https://host/x.jpg?X-Plex-Token=secret":   false,
		"javascript:alert(1)":                      false,
		"/relative/x.jpg":                          false,
		"https://host/x.jpg#frag":                  false,
		"https://host/x.jpg?size=w500":             true,
		"https://host/<script>":                    false,
		"ftp://host/x.jpg":                         false,
		"https://host/x.jpg?access_token=abc":      false,
		"https://host/a b.jpg":                     false,
		"https://host/x.jpg?signature=deadbeef":    false,
		"https://image.tmdb.org/t/p/original/.jpg": true,
	} {
		if got := safeImageURI(uri); got != ok {
			t.Errorf("safeImageURI(%q) = %v, want %v", uri, got, ok)
		}
	}
}
