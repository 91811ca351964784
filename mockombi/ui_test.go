package mockombi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// shape is a check of one answer the Ombi Angular UI decodes.
type shape func(t *testing.T, v any)

// isArrayOf checks a JSON array whose items carry the keys.
func isArrayOf(keys ...string) shape {
	return func(t *testing.T, v any) {
		t.Helper()
		arr, ok := v.([]any)
		if !ok {
			t.Fatalf("want an array, got %T", v)
		}
		for _, it := range arr {
			obj, ok := it.(map[string]any)
			if !ok {
				t.Fatalf("array item %T", it)
			}
			for _, k := range keys {
				if _, ok := obj[k]; !ok {
					t.Fatalf("array item lacks %q: %v", k, obj)
				}
			}
		}
	}
}

// nonEmptyArrayOf also requires at least one item.
func nonEmptyArrayOf(keys ...string) shape {
	return func(t *testing.T, v any) {
		t.Helper()
		if arr, _ := v.([]any); len(arr) == 0 {
			t.Fatalf("want a non-empty array, got %v", v)
		}
		isArrayOf(keys...)(t, v)
	}
}

// isObjectWith checks a JSON object carrying the keys.
func isObjectWith(keys ...string) shape {
	return func(t *testing.T, v any) {
		t.Helper()
		obj, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("want an object, got %T %v", v, v)
		}
		for _, k := range keys {
			if _, ok := obj[k]; !ok {
				t.Fatalf("object lacks %q: %v", k, obj)
			}
		}
	}
}

// isBool checks a JSON boolean.
func isBool(t *testing.T, v any) {
	t.Helper()
	if _, ok := v.(bool); !ok {
		t.Fatalf("want a bool, got %T %v", v, v)
	}
}

// equalsField checks one field's value.
func equalsField(key string, want any) shape {
	return func(t *testing.T, v any) {
		t.Helper()
		obj, _ := v.(map[string]any)
		if obj[key] != want {
			t.Fatalf("%s = %v, want %v", key, obj[key], want)
		}
	}
}

// uiStep is one call the UI makes.
type uiStep struct {
	name   string
	c      call
	status int
	shapes []shape
}

// runUISteps replays steps against s with the given auth header.
func runUISteps(t *testing.T, s *Server, auth map[string]string, steps []uiStep) {
	t.Helper()
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.c.header == nil {
				st.c.header = auth
			}
			res := do(t, s, st.c)
			want := st.status
			if want == 0 {
				want = 200
			}
			if res.status != want {
				t.Fatalf("%s %s = %d %s", st.c.method, st.c.path, res.status, truncate(string(res.body), 200))
			}
			if len(st.shapes) == 0 {
				return
			}
			var v any
			if err := json.Unmarshal(res.body, &v); err != nil {
				t.Fatalf("decode %s: %v", truncate(string(res.body), 200), err)
			}
			for _, sh := range st.shapes {
				sh(t, v)
			}
		})
	}
}

func TestUI_loginPageAndLogin(t *testing.T) {
	s := newTestServer(t, Options{})
	anon := map[string]string{}
	runUISteps(t, s, anon, []uiStep{
		{"features", call{method: "GET", path: "/api/v2/Features/"}, 0, []shape{isArrayOf("name", "enabled")}},
		{"customization", call{method: "GET", path: "/api/v1/Settings/customization"}, 0, []shape{isObjectWith("applicationName", "logo", "useCustomPage")}},
		{"landing page", call{method: "GET", path: "/api/v1/Settings/LandingPage"}, 0, []shape{equalsField("enabled", false)}},
		{"wizard done", call{method: "GET", path: "/api/v1/status/Wizard/"}, 0, []shape{equalsField("result", true)}},
		{"authentication settings", call{method: "GET", path: "/api/v1/Settings/Authentication"}, 0, []shape{isObjectWith("allowNoPassword", "enableOAuth")}},
		{"client id", call{method: "GET", path: "/api/v1/Settings/clientid"}, 0, nil},
		{"background", call{method: "GET", path: "/api/v1/Images/background/info"}, 0, []shape{isObjectWith("url", "name")}},
		{"vote enabled", call{method: "GET", path: "/api/v1/Settings/voteenabled"}, 0, []shape{isBool}},
		{"issues enabled", call{method: "GET", path: "/api/v1/Settings/issuesenabled"}, 0, []shape{isBool}},
		{"require password", call{method: "POST", path: "/api/v1/token/requirePassword", body: `{"username":"user","password":"","rememberMe":false,"usePlexOAuth":false,"plexTvPin":{"id":0,"code":""}}`}, 0, []shape{isBool}},
		{"protected call logs the UI out", call{method: "GET", path: "/api/v1/Identity/"}, 401, nil},
	})
	res := do(t, s, call{method: "POST", path: "/api/v1/token/", body: `{"username":"user","password":"OmbiUser1!","rememberMe":false,"usePlexOAuth":false,"plexTvPin":{"id":0,"code":""}}`})
	var tok map[string]string
	res.json(t, &tok)
	_, claims := decodeJWT(t, tok["access_token"])
	if exp := int64(claims["exp"].(float64)); exp <= testNow.Unix() || claims["sub"] != "user" || claims["role"] == nil || claims["Email"] == nil {
		t.Fatalf("claims the UI decodes = %v", claims)
	}
	if _, err := time.Parse(time.RFC3339, tok["expiration"]); err != nil {
		t.Fatalf("expiration %q: %v", tok["expiration"], err)
	}
}

func TestUI_adminStartup(t *testing.T) {
	s := newTestServer(t, Options{})
	runUISteps(t, s, asAdmin(t, s), []uiStep{
		{"sonarr version", call{method: "GET", path: "/api/v1/Sonarr/version/"}, 0, nil},
		{"sonarr settings", call{method: "GET", path: "/api/v1/Settings/Sonarr"}, 0, []shape{isObjectWith("enabled")}},
		{"radarr settings", call{method: "GET", path: "/api/v1/Settings/Radarr"}, 0, []shape{isObjectWith("radarr", "radarr4K")}},
		{"access token", call{method: "GET", path: "/api/v1/Identity/accesstoken"}, 0, nil},
		{"current user", call{method: "GET", path: "/api/v1/Identity/"}, 0, []shape{isObjectWith("id", "userName", "claims")}},
	})
}

func TestUI_discoverRequestAndList(t *testing.T) {
	s := newTestServer(t, Options{})
	movieCard := isArrayOf("id", "title", "posterPath", "requested", "available", "approved", "overview")
	tvCard := isArrayOf("id", "title", "posterPath", "requested", "available", "approved", "theMovieDbId")
	steps := []uiStep{
		{"movie quota", call{method: "GET", path: "/api/v1/Request/movie/remaining"}, 0, []shape{isObjectWith("hasLimit", "limit", "remaining", "nextRequest")}},
		{"tv quota", call{method: "GET", path: "/api/v1/Request/tv/remaining"}, 0, []shape{isObjectWith("hasLimit", "limit", "remaining", "nextRequest")}},
		{"music quota", call{method: "GET", path: "/api/v1/Request/music/remaining"}, 0, []shape{isObjectWith("hasLimit", "limit", "remaining", "nextRequest")}},
		{"lidarr enabled", call{method: "GET", path: "/api/v1/Lidarr/enabled/"}, 0, []shape{isBool}},
		{"now playing strip", call{method: "GET", path: "/api/v2/search/Movie/nowplaying/0/5"}, 0, []shape{movieCard}},
		{"movie genres", call{method: "GET", path: "/api/v2/search/Genres/movie"}, 0, []shape{nonEmptyArrayOf("id", "name")}},
		{"tv genres", call{method: "GET", path: "/api/v2/search/Genres/tv"}, 0, []shape{nonEmptyArrayOf("id", "name")}},
		{"recently requested", call{method: "GET", path: "/api/v2/Requests/recentlyRequested"}, 0, []shape{nonEmptyArrayOf("requestId", "type", "title", "posterPath", "mediaId", "approved", "available", "denied")}},
		{"popular movies", call{method: "GET", path: "/api/v2/search/Movie/Popular/0/20"}, 0, []shape{movieCard}},
		{"popular movies page 2", call{method: "GET", path: "/api/v2/search/Movie/Popular/20/20"}, 0, []shape{movieCard}},
		{"popular tv", call{method: "GET", path: "/api/v2/search/Tv/popular/0/20"}, 0, []shape{tvCard}},
		{"now playing", call{method: "GET", path: "/api/v2/search/Movie/nowplaying/0/20"}, 0, []shape{movieCard}},
		{"trending tv", call{method: "GET", path: "/api/v2/search/Tv/trending/0/20"}, 0, []shape{tvCard}},
		{"upcoming", call{method: "GET", path: "/api/v2/search/Movie/upcoming/0/20"}, 0, []shape{movieCard}},
		{"anticipated tv", call{method: "GET", path: "/api/v2/search/Tv/anticipated/0/20"}, 0, []shape{tvCard}},
		{"movie card details", call{method: "GET", path: "/api/v2/search/Movie/950396"}, 0, []shape{isObjectWith("imdbId", "requested", "available", "approved", "title")}},
		{"tv card details", call{method: "GET", path: "/api/v2/search/Tv/moviedb/95396"}, 0, []shape{isObjectWith("seasonRequests", "requested", "title", "images")}},
		{"request button", call{method: "POST", path: "/api/v1/Request/Movie/", body: `{"theMovieDbId":950396,"languageCode":"en","requestOnBehalf":null,"qualityPathOverride":null,"rootFolderOverride":null,"is4KRequest":false}`}, 0,
			[]shape{isObjectWith("result", "message", "errorMessage", "errorCode", "requestId"), equalsField("result", true)}},
		{"card now requested", call{method: "GET", path: "/api/v2/search/Movie/950396"}, 0, []shape{equalsField("requested", true)}},
		{"requests list", call{method: "GET", path: "/api/v2/Requests/movie/15/0/requestedDate/desc"}, 0, []shape{isObjectWith("total", "collection")}},
	}
	for _, tab := range []string{"movie", "tv", "Album"} {
		for _, status := range []string{"", "/pending", "/processing", "/available", "/denied", "/unavailable"} {
			if tab == "Album" && status == "/unavailable" {
				continue
			}
			steps = append(steps, uiStep{"tab " + tab + status, call{method: "GET", path: "/api/v2/Requests/" + tab + status + "/15/0/requestedDate/desc"}, 0, []shape{isObjectWith("total", "collection")}})
		}
	}
	runUISteps(t, s, asUser(t, s), steps)
	var list page
	getJSON(t, s, call{method: "GET", path: "/api/v2/Requests/movie/15/0/requestedDate/desc", header: asUser(t, s)}, &list)
	if list.Collection[0]["title"] != "The Gorge" || !strings.HasPrefix(list.Collection[0]["requestStatus"].(string), "Common.") {
		t.Errorf("the new request is not on top of the list: %v", list.Collection[0]["title"])
	}
}
