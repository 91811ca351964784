package mockombi

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// uiPageHTML and uiPageJS are a small stand-in for Ombi's web UI (the built
// UI is not in the repo): served from Options.StaticDir, same origin, the
// page makes the calls the real UI makes on login, discover, details, the
// requests list, issues and two settings pages, in its order and with its
// casing and trailing slashes (ClientApp/src/app/services/*.ts), and reads
// the answers the way the UI's components do (tv-details.component.ts,
// carousel-list.component.ts, issue-chat.component.ts, tv-grid.component.html,
// discover-actor.component.ts, artist-details). A read that would throw in
// the UI (a TypeError on a missing field) is recorded as an error.
const uiPageHTML = `<!doctype html>
<html><head><meta charset="utf-8"><base href="/"><title>Ombi stand-in</title></head>
<body data-state="loading"><pre id="log"></pre><script src="app.js"></script></body></html>
`

const uiPageJS = `"use strict";
const out = { errors: [], seen: {} };
window.addEventListener("error", e => out.errors.push("uncaught: " + e.message));
window.addEventListener("unhandledrejection", e => out.errors.push("unhandled: " + e.reason));
let token = "";
async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(method + " " + path + " answered " + res.status + " " + text.slice(0, 200));
  return text ? JSON.parse(text) : null;
}
async function step(name, fn) {
  try { out.seen[name] = await fn(); }
  catch (e) { out.errors.push(name + ": " + (e && e.message || e)); }
}
async function run() {
  // every page load, before login
  await step("features", async () => (await api("GET", "/api/v2/Features/")).map(f => f.name).length);
  await step("customization", async () => (await api("GET", "/api/v1/Settings/customization")).applicationName);
  await step("wizard", async () => (await api("GET", "/api/v1/status/Wizard/")).result);
  // login page submit
  await step("login", async () => {
    await api("POST", "/api/v1/token/requirePassword", { username: "admin", password: "", rememberMe: false, usePlexOAuth: false, plexTvPin: { id: 0, code: "" } });
    const t = await api("POST", "/api/v1/token/", { username: "admin", password: "OmbiAdmin1!", rememberMe: false, usePlexOAuth: false, plexTvPin: { id: 0, code: "" } });
    token = t.access_token;
    return !!token;
  });
  // admin start-up
  await step("sonarrVersion", async () => await api("GET", "/api/v1/Sonarr/version/"));
  await step("radarrSettings", async () => Object.keys(await api("GET", "/api/v1/Settings/Radarr")).sort().join(","));
  // discover
  await step("remaining", async () => (await api("GET", "/api/v1/Request/movie/remaining")).hasLimit);
  await step("lidarrEnabled", async () => await api("GET", "/api/v1/Lidarr/enabled/"));
  await step("discoverMovies", async () => (await api("GET", "/api/v2/search/Movie/Popular/0/20")).map(m => ({
    id: m.id, rating: m.voteAverage, requested: m.requested, has4K: m.has4KRequest, approved4K: m.approved4K })));
  await step("discoverTvPercent", async () => {
    const shows = await api("GET", "/api/v2/search/Tv/popular/0/20");
    let maxPercent = 0;
    for (const m of shows) {
      const card = { rating: +m.rating, available: m.fullyAvailable || m.partlyAvailable };
      const full = await api("GET", "/api/v2/search/Tv/moviedb/" + m.id);
      maxPercent = Math.max(maxPercent, card.rating * 10, (+full.rating) * 10); // tv-information-panel: rating * 10 %
    }
    return maxPercent;
  });
  // TV details page of a requested show, as an admin (tv-details.component.ts load())
  await step("tvDetails", async () => {
    const tv = await api("GET", "/api/v2/search/Tv/1396");
    const kids = await api("GET", "/api/v1/Request/tv/" + tv.requestId + "/child");
    const showRequest = kids.length > 0 ? kids[0].parentRequest : undefined;
    return { requestId: tv.requestId, parentTitle: showRequest.title, parentTmdb: showRequest.externalProviderId,
      seasons: kids[0].seasonRequests.length, childBackRefNull: tv.seasonRequests.every(s => s.childRequest === null) };
  });
  await step("movieDetails", async () => {
    const m = await api("GET", "/api/v2/search/Movie/157336");
    return { has4K: m.has4KRequest, requested: m.requested };
  });
  // actor page (discover-actor.component.ts): movie and TV credits by title
  await step("actorTv", async () => (await api("GET", "/api/v2/search/actor/17419/tv")).cast.map(c => ({ id: c.id, title: c.title, date: c.release_date })));
  // artist page: release groups and members
  await step("artist", async () => {
    const a = await api("GET", "/api/v2/search/artist/a74b1b7f-71a5-4011-9441-d0b5e4122711");
    return { groups: a.releaseGroups.map(g => g.releaseType + ":" + g.type + ":" + g.requested),
      members: a.members.map(m => m.isCurrentMember), spotify: a.links.spotify };
  });
  // requests list (movie tab, then the TV grid reads item.parentRequest)
  await step("movieRequests", async () => (await api("GET", "/api/v2/Requests/movie/15/0/requestedDate/desc")).total);
  await step("tvGrid", async () => (await api("GET", "/api/v2/Requests/tv/15/0/requestedDate/desc")).collection.map(item => item.parentRequest.externalProviderId));
  // issues: list, details, chat (issue-chat.component.ts addComment)
  await step("issues", async () => {
    const summary = await api("GET", "/api/v2/Issues/0/10/0");
    const details = await api("GET", "/api/v2/Issues/details/" + summary[0].providerId);
    const first = details.issues[0];
    const comments = await api("GET", "/api/v1/Issues/" + first.id + "/comments");
    const c = await api("POST", "/api/v1/Issues/comments", { comment: "from the page", issueId: first.id });
    return { comments: comments.length, sender: c.user.userName, said: c.comment };
  });
  // settings: Plex servers for the user-management page, notification templates
  await step("plexServers", async () => (await api("GET", "/api/v1/Plex/servers")).servers.map(s => s.serverName));
  await step("plexLibraries", async () => (await api("GET", "/api/v1/Plex/Libraries/a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4")).data.map(l => l.id + "=" + l.title));
  await step("discordTemplates", async () => (await api("GET", "/api/v1/Settings/notifications/discord")).notificationTemplates.length);
  await step("whatsAppTemplates", async () => (await api("GET", "/api/v1/Settings/notifications/twilio")).whatsAppSettings.notificationTemplates.length);
  await step("sonarrLanguages", async () => (await api("POST", "/api/v1/Sonarr/v3/languageprofiles/", { apiKey: "CANARY-sonarr_apikey-4d5e6f708192", ip: "sonarr", port: 8989 })).map(l => l.name));
  document.getElementById("log").textContent = JSON.stringify(out, null, 1);
  window.__out = out;
  document.body.dataset.state = "done";
}
run();
`

// TestUIPage_inChromium serves the stand-in page from the mock and runs it in
// headless Chromium: every step must succeed without a page error, and the
// answers must read as the real UI needs them.
func TestUIPage_inChromium(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"index.html": uiPageHTML, "app.js": uiPageJS} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newTestServer(t, Options{StaticDir: dir})
	base := startServer(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	b := startBrowser(t)
	p := b.newPage(ctx, 1200, 900)
	p.navigate(ctx, base+"/discover")
	wctx, wcancel := context.WithTimeout(ctx, 60*time.Second)
	defer wcancel()
	p.waitFor(wctx, "the stand-in UI to finish", `document.body.dataset.state === "done"`)
	var raw string
	if err := p.eval(ctx, `JSON.stringify(window.__out)`, &raw); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Errors []string                   `json:"errors"`
		Seen   map[string]json.RawMessage `json:"seen"`
	}
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("decode page result %q: %v", truncate(raw, 300), err)
	}
	for _, e := range got.Errors {
		t.Errorf("page error: %s", e)
	}
	want := map[string]string{
		"login":             `true`,
		"tvDetails":         `{"requestId":1,"parentTitle":"Breaking Bad","parentTmdb":1396,"seasons":2,"childBackRefNull":true}`,
		"movieDetails":      `{"has4K":true,"requested":true}`,
		"actorTv":           `[{"id":1396,"title":null,"date":null},{"id":60059,"title":null,"date":null}]`,
		"issues":            `{"comments":2,"sender":"admin","said":"from the page"}`,
		"plexServers":       `["Living Room Plex","Cabin Plex"]`,
		"plexLibraries":     `["1=Movies","2=TV Shows"]`,
		"discordTemplates":  `12`,
		"whatsAppTemplates": `12`,
		"sonarrLanguages":   `["English","Japanese"]`,
	}
	for k, w := range want {
		if g := string(got.Seen[k]); g != w {
			t.Errorf("%s = %s, want %s", k, g, w)
		}
	}
	var pct float64
	if err := json.Unmarshal(got.Seen["discoverTvPercent"], &pct); err != nil || pct <= 0 || pct > 100 {
		t.Errorf("TV rating as the details page shows it (rating * 10 %%) = %s, want a percentage", got.Seen["discoverTvPercent"])
	}
	if g := string(got.Seen["artist"]); !strings.Contains(g, `"Album:2:true"`) || !strings.Contains(g, `"members":[true,true,true]`) {
		t.Errorf("artist = %s, want release groups typed 2 with releaseType and flags, members with isCurrentMember", g)
	}
	var grid []any
	if err := json.Unmarshal(got.Seen["tvGrid"], &grid); err != nil || len(grid) == 0 {
		t.Errorf("tv grid = %s, want each child's parentRequest.externalProviderId", got.Seen["tvGrid"])
	}
}
