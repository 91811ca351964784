// mockombi dashboard: polls the control API next to this page (relative
// URLs, so it works at /_mock/ and under a base path). No build step, no
// dependencies; every value reaches the page through textContent.
"use strict";

const maxRows = 500;
let lastSeq = 0;
let epoch = null;        // X-Mock-Journal-Epoch: changes when the journal is cleared
let calls = [];          // newest last, at most maxRows
const open = new Set();  // seq of expanded rows
let busy = false;

const $ = (sel) => document.querySelector(sel);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(c == null ? "" : String(c)));
  return e;
}

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  const text = await res.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = text; }
  }
  if (!res.ok) {
    const msg = data && data.error ? data.error : res.status + " " + res.statusText;
    const err = new Error(msg);
    err.data = data;
    throw err;
  }
  return { res, data };
}

function say(text, isError) {
  const m = $("#message");
  m.textContent = text;
  m.className = "message" + (isError ? " error" : "");
  m.hidden = !text;
}

// ---- journal

function pretty(raw) {
  if (raw === undefined || raw === null) return "";
  if (typeof raw === "string") {
    try { return JSON.stringify(JSON.parse(raw), null, 2); } catch { return raw; }
  }
  return JSON.stringify(raw, null, 2);
}

function headerText(h) {
  if (!h) return "";
  return Object.keys(h).sort().map((k) => h[k].map((v) => k + ": " + v).join("\n")).join("\n");
}

function matches(c, filter) {
  if (!filter) return true;
  const hay = [c.method, c.path, c.query, String(c.status), c.route, c.fault, c.stub, c.unmatched ? "unmatched" : ""].join(" ").toLowerCase();
  return filter.toLowerCase().split(/\s+/).every((w) => hay.includes(w));
}

function detailRow(c) {
  const parts = [];
  const add = (label, text) => { if (text) parts.push(el("h4", {}, label), el("pre", {}, text)); };
  add("query", c.query);
  add("request headers", headerText(c.headers));
  add("request body" + (c.body_truncated ? " (truncated, " + c.body_bytes + " bytes)" : ""), pretty(c.body));
  add("response headers", headerText(c.response_headers));
  add("response body" + (c.response_truncated ? " (truncated, " + c.response_bytes + " bytes)" : ""), pretty(c.response_body));
  if (!parts.length) parts.push(el("p", { class: "muted" }, "no body"));
  const td = el("td", { colSpan: 8 }, ...parts);
  return el("tr", { class: "detail", "data-seq": c.seq }, td);
}

function renderJournal() {
  const filter = $("#journal-filter").value.trim();
  const body = $("#journal tbody");
  const rows = [];
  for (let i = calls.length - 1; i >= 0; i--) {
    const c = calls[i];
    if (!matches(c, filter)) continue;
    const status = String(c.status);
    const tr = el("tr", { class: "call" + (open.has(c.seq) ? " open" : "") + (c.unmatched ? " unmatched" : ""), "data-seq": c.seq, "data-method": c.method,
      "data-path": c.path, "data-status": status, "data-fault": c.fault || "", "data-stub": c.stub || "" },
      el("td", {}, c.seq),
      el("td", { class: "muted" }, c.time ? new Date(c.time).toLocaleTimeString() : ""),
      el("td", {}, c.method),
      el("td", { class: "path" }, c.path + (c.query ? "?" + c.query : "")),
      el("td", { class: "s" + status[0] }, c.status === 0 ? "reset" : status),
      el("td", { class: "muted" }, c.route),
      c.stub ? el("td", { class: "stub-name" }, c.stub) : el("td", { class: "fault-name" }, c.fault || ""),
      el("td", { class: "muted" }, c.duration_ms === undefined ? "" : c.duration_ms.toFixed(1)));
    tr.addEventListener("click", () => {
      if (open.has(c.seq)) open.delete(c.seq); else open.add(c.seq);
      renderJournal();
    });
    rows.push(tr);
    if (open.has(c.seq)) rows.push(detailRow(c));
  }
  body.replaceChildren(...rows);
  $("#journal-empty").hidden = calls.length > 0;
  $("#journal-count").textContent = calls.length ? "(" + calls.length + " shown, last #" + lastSeq + ")" : "";
}

async function pollJournal(force) {
  if ($("#pause").checked && !force) return;
  const { res, data } = await api("GET", "journal?since=" + lastSeq + "&limit=" + maxRows);
  const last = Number(res.headers.get("X-Mock-Journal-Last") || "0");
  const now = res.headers.get("X-Mock-Journal-Epoch");
  if ((epoch !== null && now !== epoch) || last < lastSeq) { // cleared or reset: start over
    epoch = now; lastSeq = 0; calls = []; open.clear();
    return pollJournal(true);
  }
  epoch = now;
  if (data.length) {
    calls = calls.concat(data).slice(-maxRows);
    lastSeq = data[data.length - 1].seq;
  }
  if (data.length || force) renderJournal();
  if (data.length) await Promise.all([refreshInfo(), refreshHits()]);
}

// ---- faults

function faultRow(f) {
  const del = el("button", { type: "button", class: "delete-fault", "data-id": f.id, title: "Delete fault " + f.name }, "Delete");
  del.addEventListener("click", async () => {
    try { await api("DELETE", "faults/" + f.id); } catch (e) { say(e.message, true); }
    await refreshFaults();
  });
  return el("tr", { class: "fault", "data-id": f.id, "data-path": f.path },
    el("td", {}, f.id), el("td", {}, f.method || "any"), el("td", { class: "path" }, f.path),
    el("td", {}, f.kind || (f.status ? "status" : "delay")), el("td", {}, f.status || ""),
    el("td", {}, f.delay_ms ? f.delay_ms + " ms" : ""), el("td", {}, f.fired),
    el("td", {}, f.remaining === null ? "∞" : f.remaining), el("td", {}, del));
}

async function refreshFaults() {
  const { data } = await api("GET", "faults");
  $("#faults tbody").replaceChildren(...data.map(faultRow));
  $("#faults-empty").hidden = data.length > 0;
  $("#fault-count").textContent = data.length ? "(" + data.length + ")" : "";
}

function formFault(form) {
  const v = (name) => form.elements[name].value.trim();
  const f = { path: v("path") };
  if (v("method")) f.method = v("method");
  if (v("kind")) f.kind = v("kind");
  for (const name of ["status", "delay_ms", "times", "size"]) {
    if (v(name) !== "") f[name] = Number(v(name));
  }
  const headers = {};
  for (const line of v("headers").split("\n")) {
    if (!line.trim()) continue;
    const i = line.indexOf(":");
    if (i <= 0) throw new Error("headers: write one \"Name: value\" a line");
    headers[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  if (Object.keys(headers).length) f.headers = headers;
  if (form.elements.body.value !== "") f.body = form.elements.body.value;
  return f;
}

async function addFault(ev) {
  ev.preventDefault();
  const form = ev.target;
  const err = $("#fault-error");
  err.textContent = "";
  try {
    const { data } = await api("POST", "faults", formFault(form));
    say("Fault " + data.name + " added.", false);
  } catch (e) {
    err.textContent = e.message;
  }
  await refreshFaults();
}

// ---- stubs

function stubRow(st) {
  const del = el("button", { type: "button", class: "delete-stub", "data-id": st.id, title: "Delete " + st.name }, "Delete");
  del.addEventListener("click", async () => {
    try { await api("DELETE", "stubs/" + st.id); } catch (e) { say(e.message, true); }
    await refreshStubs();
  });
  return el("tr", { class: "stub", "data-id": st.id, "data-path": st.path, "data-hits": st.hits },
    el("td", {}, st.id), el("td", {}, st.method === "*" ? "any" : st.method), el("td", { class: "path" }, st.path),
    el("td", {}, st.status), el("td", { class: "num" }, st.hits), el("td", {}, st.remaining === null ? "∞" : st.remaining), el("td", {}, del));
}

async function refreshStubs() {
  const { data } = await api("GET", "stubs");
  $("#stubs tbody").replaceChildren(...data.map(stubRow));
  $("#stubs-empty").hidden = data.length > 0;
  $("#stub-count").textContent = data.length ? "(" + data.length + ")" : "";
}

function headerLines(text) {
  const headers = {};
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const i = line.indexOf(":");
    if (i <= 0) throw new Error("headers: write one \"Name: value\" a line");
    headers[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return headers;
}

function formStub(form) {
  const v = (name) => form.elements[name].value.trim();
  const st = { method: v("method"), path: v("path"), status: Number(v("status")) };
  if (v("times") !== "") st.times = Number(v("times"));
  const headers = headerLines(v("headers"));
  if (Object.keys(headers).length) st.headers = headers;
  if (form.elements.body.value !== "") st.body = form.elements.body.value;
  return st;
}

async function addStub(ev) {
  ev.preventDefault();
  const err = $("#stub-error");
  err.textContent = "";
  try {
    const { data } = await api("POST", "stubs", formStub(ev.target));
    say("Stub " + data.name + " added: " + data.method + " " + data.path + " answers " + data.status + ".", false);
  } catch (e) {
    err.textContent = e.message;
  }
  await refreshStubs();
}

// ---- route hits and unmatched calls

async function refreshHits() {
  const [{ data: routes }, { data: unmatched }] = await Promise.all([api("GET", "routes"), api("GET", "unmatched")]);
  const all = $("#all-routes").checked;
  const hit = routes.filter((r) => r.hits > 0);
  const shown = (all ? routes : hit).slice().sort((a, b) => b.hits - a.hits);
  $("#routes tbody").replaceChildren(...shown.map((r) =>
    el("tr", { class: "route", "data-route": r.method + " " + r.path, "data-hits": r.hits },
      el("td", {}, r.method), el("td", { class: "path" }, r.path), el("td", { class: "num" }, r.hits))));
  $("#routes-empty").hidden = shown.length > 0;
  $("#hit-count").textContent = "(" + hit.length + " of " + routes.length + " routes hit)";
  const recent = unmatched.slice(-maxRows).reverse();
  $("#unmatched tbody").replaceChildren(...recent.map((c) =>
    el("tr", { class: "unmatched-call", "data-seq": c.seq, "data-path": c.path },
      el("td", {}, c.seq), el("td", {}, c.method), el("td", { class: "path" }, c.path + (c.query ? "?" + c.query : "")),
      el("td", { class: "s" + String(c.status)[0] }, c.status))));
  $("#unmatched-empty").hidden = unmatched.length > 0;
  $("#unmatched-count").textContent = unmatched.length ? "(" + unmatched.length + ")" : "";
}

// ---- quirks, credentials, info

async function refreshQuirks() {
  const { data } = await api("GET", "quirks");
  const items = data.map((q) => {
    const box = el("input", { type: "checkbox", checked: q.enabled, "data-quirk": q.name });
    box.addEventListener("change", async () => {
      try { await api("POST", "quirks", { name: q.name, enabled: box.checked }); } catch (e) { say(e.message, true); }
      await refreshQuirks();
    });
    return el("li", { "data-quirk": q.name }, el("label", { title: q.explanation }, box, " ", q.name, q.enabled === q.default ? "" : " (changed)"),
      el("span", { class: "why" }, q.explanation));
  });
  $("#quirks").replaceChildren(...items);
}

async function refreshCredentials() {
  const { data } = await api("GET", "credentials");
  $("#api-key").textContent = data.api_key;
  $("#users tbody").replaceChildren(...data.users.map((u) =>
    el("tr", { "data-user": u.username }, el("td", {}, u.username), el("td", {}, el("code", {}, u.password)), el("td", {}, u.role))));
}

async function refreshInfo() {
  const { data } = await api("GET", "info");
  const c = data.counts;
  $("#info").textContent = "data set " + data.data_set + (data.base_path ? " · base path " + data.base_path : "") +
    " · " + c.movies + " movies, " + c.shows + " shows, " + c.artists + " artists, " + c.users + " users, " +
    (c.movie_requests + c.tv_child_requests + c.album_requests) + " requests · journal " + data.journal.kept + " kept" +
    (data.journal.dropped ? ", " + data.journal.dropped + " dropped" : "");
}

// ---- actions

async function resetAll() {
  if (!confirm("Reset the mock? Store back to the seed; journal, faults and quirks cleared; tokens rotated.")) return;
  await api("POST", "reset");
  say("Mock reset.", false);
  await Promise.all([pollJournal(true), refreshFaults(), refreshStubs(), refreshHits(), refreshQuirks(), refreshCredentials(), refreshInfo()]);
}

async function importState(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  try {
    await api("POST", "state", await file.text());
    say("State loaded from " + file.name + ".", false);
  } catch (e) {
    const problems = e.data && e.data.problems ? "\n" + e.data.problems.join("\n") : "";
    say("Import failed: " + e.message + problems, true);
  }
  ev.target.value = "";
  await Promise.all([refreshCredentials(), refreshInfo(), refreshStubs()]);
}

function every(ms, fn) {
  const tick = async () => {
    try { await fn(); } catch (e) { say("mock unreachable: " + e.message, true); }
    setTimeout(tick, ms);
  };
  setTimeout(tick, ms);
}

async function start() {
  $("#fault-form").addEventListener("submit", addFault);
  $("#stub-form").addEventListener("submit", addStub);
  $("#clear-stubs").addEventListener("click", async () => { await api("DELETE", "stubs"); await refreshStubs(); });
  $("#all-routes").addEventListener("change", () => refreshHits().catch((e) => say(e.message, true)));
  $("#clear-faults").addEventListener("click", async () => { await api("DELETE", "faults"); await refreshFaults(); });
  $("#clear-journal").addEventListener("click", async () => { await api("DELETE", "journal"); await Promise.all([pollJournal(true), refreshHits()]); });
  $("#reset").addEventListener("click", () => resetAll().catch((e) => say(e.message, true)));
  $("#import-state").addEventListener("change", importState);
  $("#journal-filter").addEventListener("input", renderJournal);
  try {
    await Promise.all([pollJournal(true), refreshFaults(), refreshStubs(), refreshHits(), refreshQuirks(), refreshCredentials(), refreshInfo()]);
    document.body.dataset.state = "ready";
  } catch (e) {
    document.body.dataset.state = "error";
    say("mock unreachable: " + e.message, true);
  }
  every(1000, () => pollJournal(false));
  every(2000, () => Promise.all([refreshFaults(), refreshStubs()]));
  every(5000, () => Promise.all([refreshInfo(), refreshQuirks()]));
}

document.addEventListener("DOMContentLoaded", start);
