package mockombi

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestConcurrency_mixedTraffic hammers one server from many goroutines:
// logins, request creation, list reads, moderation, journal reads, fault
// injection, quirk switching, auth rotation and resets. Run it with -race.
func TestConcurrency_mixedTraffic(t *testing.T) {
	s := newTestServer(t, Options{})
	base := startServer(t, s)
	client := &http.Client{}
	send := func(method, path, body string, header map[string]string) (int, error) {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequest(method, base+path, rd)
		if err != nil {
			return 0, err
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		_, err = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, err
	}
	key := map[string]string{"ApiKey": DefaultAPIKey}
	var movieIDs []int
	s.store.Read(func(st *store) {
		for _, m := range st.Search.Movies {
			movieIDs = append(movieIDs, m.TheMovieDbID)
		}
	})
	workers := []func(i int) error{
		func(i int) error { // creates and moderates
			id := movieIDs[i%len(movieIDs)]
			if _, err := send("POST", "/api/v1/Request/movie", fmt.Sprintf(`{"theMovieDbId":%d}`, id), key); err != nil {
				return err
			}
			_, err := send("POST", "/api/v1/Request/movie/approve", fmt.Sprintf(`{"id":%d}`, i%12+1), key)
			return err
		},
		func(i int) error { // TV creates and deletes
			if _, err := send("POST", "/api/v2/Requests/tv", fmt.Sprintf(`{"theMovieDbId":456,"seasons":[{"seasonNumber":%d,"episodes":[{"episodeNumber":1}]}]}`, 4+i%30), key); err != nil {
				return err
			}
			_, err := send("DELETE", fmt.Sprintf("/api/v1/Request/tv/child/%d", 7+i%5), "", key)
			return err
		},
		func(i int) error { // reads
			for _, p := range []string{"/api/v2/Requests/movie/10/0/requestedDate/desc", "/api/v2/Requests/tv/10/0/title/asc", "/api/v2/Requests/recentlyRequested", "/api/v1/Search/movie/the", "/api/v1/Request/count"} {
				if _, err := send("GET", p, "", key); err != nil {
					return err
				}
			}
			return nil
		},
		func(i int) error { // logins with JWT use
			code, err := send("POST", "/api/v1/Token", `{"username":"power","password":"OmbiPower1!"}`, nil)
			if err == nil && code != 200 {
				return fmt.Errorf("login: %d", code)
			}
			return err
		},
		func(i int) error { // control plane
			_ = s.InjectFault(Fault{Path: "/api/v1/Status", Status: 503, Times: 1})
			_ = s.SetQuirk(QuirkV2ListNullReference, i%2 == 0)
			_ = s.Journal()
			_ = s.Canaries()
			if i%7 == 0 {
				s.RotateAuth()
			}
			if i%11 == 0 {
				s.Reset()
			}
			_, err := send("GET", "/api/v1/Status", "", nil)
			return err
		},
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for w, fn := range workers {
		for g := 0; g < 3; g++ {
			wg.Add(1)
			go func(w, g int, fn func(int) error) {
				defer wg.Done()
				for i := 0; i < 25; i++ {
					if err := fn(i + g*100); err != nil {
						errs <- fmt.Errorf("worker %d/%d step %d: %w", w, g, i, err)
						return
					}
				}
			}(w, g, fn)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	j := s.Journal()
	for i := 1; i < len(j); i++ {
		if j[i].Seq != j[i-1].Seq+1 {
			t.Fatalf("journal sequence broken at %d: %d after %d", i, j[i].Seq, j[i-1].Seq)
		}
	}
}
