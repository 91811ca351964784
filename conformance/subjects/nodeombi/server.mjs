#!/usr/bin/env node
// nodeombi: an MCP server over stdio that fronts Ombi's REST API (v4) with an
// API key. Nine tools: search, details, movie and show requests, the pending
// request lists, approve and decline, open issues and issue comments.
//
// Environment: OMBI_URL, OMBI_API_KEY (required), OMBI_AUTH_MODE (api_key
// only), OMBI_TIMEOUT (a Go duration, default 10s). SUBJECT_BUG=<name>
// switches on one planted bug (see bugs.json); unset, the server is clean.
//
// stdout carries JSON-RPC only; every log line goes to stderr.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const NAME = 'nodeombi';
const VERSION = '0.1.0';

function log(line) {
  try {
    process.stderr.write(`${NAME}: ${line}\n`);
  } catch {
    // stderr gone: nothing to do
  }
}

function die(line) {
  log(line);
  process.exit(2);
}

// ---------------------------------------------------------------------------
// Planted bugs

const BUG_NAMES = [
  'key-in-error',
  'key-in-stderr',
  'readonly-write',
  'follow-redirect',
  'html-verbatim',
  'retry-write',
  'unbounded-list',
  'null-crash',
  'no-timeout',
  'misnamed-body',
  'unauthorized-empty',
  'control-chars',
  'stack-trace',
  'rpc-error',
  'wrong-method',
];
const BUG = (process.env.SUBJECT_BUG ?? '').trim();
if (BUG !== '' && !BUG_NAMES.includes(BUG)) {
  die('SUBJECT_BUG names no known bug');
}
const bug = (name) => BUG === name;

// ---------------------------------------------------------------------------
// Configuration

const authMode = process.env.OMBI_AUTH_MODE;
if (authMode !== undefined && authMode !== '' && authMode !== 'api_key') {
  die('only api_key auth is supported');
}

const rawURL = (process.env.OMBI_URL ?? '').trim();
const API_KEY = (process.env.OMBI_API_KEY ?? '').trim();
if (rawURL === '') die('OMBI_URL is required');
if (API_KEY === '') die('OMBI_API_KEY is required');

let BASE;
try {
  const u = new URL(rawURL);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  if (u.search !== '' || u.hash !== '') throw new Error('query');
  BASE = u.href.replace(/\/+$/, '');
} catch {
  die('OMBI_URL must be an http or https URL');
}

// parseGoDuration reads a Go duration ("10s", "500ms", "1m30s", "1.5h") and
// returns milliseconds, or NaN when the text is not one.
function parseGoDuration(text) {
  const s = text.trim();
  if (s === '0' || s === '+0' || s === '-0') return 0;
  const m = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(s);
  if (!m) return NaN;
  const unit = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3 };
  let total = 0;
  for (const part of s.replace(/^[+-]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(part[1]) * unit[part[2]];
  }
  return m[1] === '-' ? -total : total;
}

const DEFAULT_TIMEOUT_MS = 10_000;
let TIMEOUT_MS = DEFAULT_TIMEOUT_MS;
if ((process.env.OMBI_TIMEOUT ?? '').trim() !== '') {
  const ms = parseGoDuration(process.env.OMBI_TIMEOUT);
  if (Number.isNaN(ms)) die('OMBI_TIMEOUT must be a duration such as 10s or 500ms');
  if (ms > 0) TIMEOUT_MS = Math.max(1, Math.ceil(ms));
}

const MAX_BODY = 2 * 1024 * 1024; // bytes of an upstream answer read at most
const SEARCH_CAP = 20; // search results returned at most
const TEXT_CAP = 200; // characters kept of a short string
const LONG_TEXT_CAP = 400; // characters kept of an overview or description

// ---------------------------------------------------------------------------
// Text hygiene

// C0, DEL, C1 and the bidirectional controls.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const TAG = /<[^<>]*>/g;
const OPEN_TAG = /<[A-Za-z!/?][^<>]*$/;

// clean returns a printable, tag-free string capped at max characters, or
// undefined when v is not a string (null members count as missing).
function clean(v, max = TEXT_CAP) {
  if (typeof v !== 'string') return undefined;
  let s = bug('control-chars') ? v : v.replace(/[\t\n\r]/g, ' ').replace(CONTROL, '');
  for (let i = 0; i < 8; i++) {
    const next = s.replace(TAG, '');
    if (next === s) break;
    s = next;
  }
  s = s.replace(OPEN_TAG, '');
  if (API_KEY.length >= 6 && s.includes(API_KEY)) s = s.split(API_KEY).join('[redacted]');
  s = s.trim();
  if (s.length > max) s = `${s.slice(0, max - 1).trimEnd()}…`;
  return s;
}

// titleOf cleans a title; the null-crash bug trims it as if it could never
// be null.
function titleOf(v) {
  if (bug('null-crash')) return clean(v.trim());
  return clean(v);
}

const int = (v) => (Number.isSafeInteger(v) ? v : undefined);
const bool = (v) => (typeof v === 'boolean' ? v : undefined);
const obj = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined);
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function year(v) {
  const s = typeof v === 'string' ? v : undefined;
  const m = s && /^(\d{4})-/.exec(s);
  return m ? Number(m[1]) : undefined;
}

function dateOf(v) {
  const s = clean(v, 40);
  if (!s || s.startsWith('0001-01-01')) return undefined;
  return s;
}

// compact drops undefined members so the JSON holds only what is known.
function compact(o) {
  const out = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

// ---------------------------------------------------------------------------
// Upstream calls

// Failure is an upstream failure told to the caller as a short message.
class Failure extends Error {
  constructor(message) {
    super(message);
    this.name = 'Failure';
  }
}

// Unauthorized stands for a 401 answer under the unauthorized-empty bug.
class Unauthorized extends Error {}

function timeoutFailure() {
  return new Failure('Ombi did not answer in time');
}

function isAbort(e) {
  return e && (e.name === 'TimeoutError' || e.name === 'AbortError');
}

async function discard(res) {
  try {
    await res.body?.cancel();
  } catch {
    // already closed
  }
}

// readBody reads at most limit bytes of an answer and fails beyond them.
async function readBody(res, limit) {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await discard(res);
    throw new Failure('upstream answer too large');
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    let step;
    try {
      step = await reader.read();
    } catch (e) {
      if (isAbort(e)) throw timeoutFailure();
      throw new Failure("Ombi's answer was cut short");
    }
    if (step.done) break;
    n += step.value.byteLength;
    if (n > limit) {
      reader.cancel().catch(() => {});
      throw new Failure('upstream answer too large');
    }
    chunks.push(step.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJSON(text) {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

// upstream sends one request to Ombi and returns the decoded JSON answer
// (null for an empty 2xx answer). route is the ledger's path template, the
// only form of the path that is logged.
async function upstream(tool, method, path, route, body) {
  const headers = { ApiKey: API_KEY, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const init = { method, headers, redirect: bug('follow-redirect') ? 'follow' : 'manual' };
  if (body !== undefined) init.body = JSON.stringify(body);
  if (!bug('no-timeout')) init.signal = AbortSignal.timeout(TIMEOUT_MS);
  if (bug('key-in-stderr')) log(`${tool} ${method} ${route} headers ${JSON.stringify(headers)}`);

  const write = method !== 'GET';
  const attempts = write && bug('retry-write') ? 4 : 1;
  let res;
  for (let i = 0; ; i++) {
    try {
      res = await fetch(BASE + path, init);
    } catch (e) {
      if (isAbort(e)) {
        log(`${tool} ${method} ${route} -> no answer in time`);
        throw timeoutFailure();
      }
      log(`${tool} ${method} ${route} -> unreachable`);
      throw new Failure('Ombi could not be reached');
    }
    if (res.status >= 500 && i + 1 < attempts) {
      log(`${tool} ${method} ${route} -> ${res.status}, sending again`);
      await discard(res);
      continue;
    }
    break;
  }
  const status = res.status;
  log(`${tool} ${method} ${route} -> ${status}`);

  if (bug('html-verbatim') && status >= 400) {
    const text = await readBody(res, MAX_BODY);
    if (!parseJSON(text).ok && text.trim() !== '') throw new Failure(text);
  }
  if (status >= 300 && status < 400) {
    await discard(res);
    throw new Failure(`Ombi answered ${status}; the redirect was not followed`);
  }
  if (status === 401 || status === 403) {
    await discard(res);
    if (status === 401 && bug('unauthorized-empty')) throw new Unauthorized();
    throw new Failure('Ombi refused the API key');
  }
  if (status === 404) {
    await discard(res);
    throw new Failure('not found');
  }
  if (status === 429) {
    await discard(res);
    throw new Failure('rate limited');
  }
  if (status >= 500 && bug('key-in-error')) {
    await discard(res);
    throw new Failure(`Ombi answered ${status} (request headers ${JSON.stringify(headers)})`);
  }
  if (status < 200 || status >= 300) {
    await discard(res);
    throw new Failure(`Ombi answered ${status}`);
  }
  const text = await readBody(res, bug('unbounded-list') ? Infinity : MAX_BODY);
  if (text.trim() === '') return null;
  const parsed = parseJSON(text);
  if (!parsed.ok) throw new Failure(`Ombi answered ${status} with a body that is not JSON`);
  return parsed.value;
}

const seg = (v) => encodeURIComponent(String(v).toWellFormed());

// engineOutcome reads Ombi's RequestEngineResult and fails when Ombi said no.
function engineOutcome(data) {
  const r = obj(data);
  if (!r) throw new Failure('Ombi gave no answer to the request');
  if (r.isError === true || r.result === false) {
    const why = clean(r.errorMessage) || clean(r.message);
    throw new Failure(why ? `Ombi declined: ${why}` : 'Ombi declined the request');
  }
  return r;
}

// ---------------------------------------------------------------------------
// Tools

const KIND = { type: 'string', enum: ['movie', 'tv'] };
const ID = { type: 'integer', minimum: 1, maximum: 2147483647 };
const MAX = { type: 'integer', minimum: 1, maximum: 25, default: 10 };

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

function capList(list, max) {
  return bug('unbounded-list') ? list : list.slice(0, max);
}

function movieHit(m) {
  return compact({
    tmdb: int(m.id),
    title: titleOf(m.title),
    year: year(m.releaseDate),
    overview: clean(m.overview, LONG_TEXT_CAP),
    requested: bool(m.requested),
    available: bool(m.available),
  });
}

function showHit(s) {
  return compact({
    tvdb: int(s.id),
    title: titleOf(s.title),
    first_aired: dateOf(s.firstAired),
    network: clean(s.network),
    status: clean(s.status),
    overview: clean(s.overview, LONG_TEXT_CAP),
    requested: bool(s.requested),
    available: bool(s.available),
  });
}

function requestRow(kind, r) {
  if (kind === 'movie') {
    return compact({
      request: int(r.id),
      tmdb: int(r.theMovieDbId),
      title: titleOf(r.title),
      requested: dateOf(r.requestedDate),
      status: clean(r.requestStatus),
      approved: bool(r.approved),
      available: bool(r.available),
    });
  }
  const parent = obj(r.parentRequest) ?? {};
  const own = typeof r.title === 'string' && r.title.trim() !== '' ? r.title : parent.title;
  return compact({
    request: int(r.id),
    tvdb: int(parent.tvDbId),
    title: titleOf(own),
    requested: dateOf(r.requestedDate),
    status: clean(r.requestStatus),
    approved: bool(r.approved),
    available: bool(r.available),
  });
}

const TOOLS = [
  {
    name: 'find_titles',
    title: 'Find titles',
    description: 'Search Ombi for movies or TV shows by name. Returns up to 20 hits with their TMDB id (movies) or TVDB id (shows), year and request state.',
    annotations: READ,
    properties: {
      text: { type: 'string', minLength: 1, maxLength: 200, description: 'Words of the title to look for.' },
      kind: { ...KIND, default: 'movie', description: 'movie or tv; movie when left out.' },
    },
    required: ['text'],
    async run(a) {
      const kind = a.kind ?? 'movie';
      // a term of dots only would be read as a path step, so nothing is sent
      if (/^\.+$/.test(a.text)) return { kind, list: [] };
      const route = `/api/v1/Search/${kind}/{searchTerm}`;
      const data = await upstream('find_titles', 'GET', `/api/v1/Search/${kind}/${seg(a.text)}`, route);
      if (!Array.isArray(data)) throw new Failure('Ombi answered with no list of titles');
      return { kind, list: data };
    },
    shape({ kind, list }) {
      const rows = capList(list, SEARCH_CAP).map((x) => obj(x) ?? {}).map(kind === 'movie' ? movieHit : showHit);
      return { kind, count: rows.length, results: rows };
    },
  },
  {
    name: 'title_info',
    title: 'Title details',
    description: 'Details of one title: a movie by its TMDB id or a TV show by its TVDB id, with its request and availability state.',
    annotations: READ,
    properties: {
      kind: { ...KIND, description: 'movie or tv.' },
      id: { ...ID, description: 'TMDB id for a movie, TVDB id for a TV show.' },
    },
    required: ['kind', 'id'],
    async run(a) {
      const data =
        a.kind === 'movie'
          ? await upstream('title_info', 'GET', `/api/v2/Search/movie/${a.id}`, '/api/v2/Search/movie/{movieDbId}')
          : await upstream('title_info', 'GET', `/api/v1/Search/tv/info/${a.id}`, '/api/v1/Search/tv/info/{tvdbId}');
      const d = obj(data);
      if (!d || (!int(d.id) && typeof d.title !== 'string')) throw new Failure('not found');
      if (bug('readonly-write')) {
        // keeps the user informed of the title's progress
        const rid = int(d.requestId) || a.id;
        const route = `/api/v1/Request/${a.kind}/subscribe/{requestId}`;
        await upstream('title_info', 'POST', `/api/v1/Request/${a.kind}/subscribe/${rid}`, route).catch(() => null);
      }
      return { kind: a.kind, d };
    },
    shape({ kind, d }) {
      const common = {
        title: titleOf(d.title),
        overview: clean(d.overview, LONG_TEXT_CAP),
        status: clean(d.status),
        requested: bool(d.requested),
        approved: bool(d.approved),
        available: bool(d.available),
        request: int(d.requestId) || undefined,
      };
      if (kind === 'movie') {
        return compact({
          kind,
          tmdb: int(d.id),
          imdb: clean(d.imdbId, 20),
          year: year(d.releaseDate),
          released: dateOf(d.releaseDate),
          runtime: num(d.runtime),
          tagline: clean(d.tagline),
          ...common,
        });
      }
      return compact({
        kind,
        tvdb: int(d.id),
        imdb: clean(d.imdbId, 20),
        first_aired: dateOf(d.firstAired),
        network: clean(d.network),
        seasons: Array.isArray(d.seasonRequests) ? d.seasonRequests.length : undefined,
        ...common,
      });
    },
  },
  {
    name: 'ask_for_movie',
    title: 'Request a movie',
    description: 'Ask Ombi for a movie by its TMDB id. Answers with the new request id, or the reason Ombi declined.',
    annotations: WRITE,
    properties: { tmdb: { ...ID, description: 'The movie TMDB id.' } },
    required: ['tmdb'],
    async run(a) {
      const body = bug('misnamed-body') ? { tmdbId: a.tmdb } : { theMovieDbId: a.tmdb };
      const data = await upstream('ask_for_movie', 'POST', '/api/v1/Request/movie', '/api/v1/Request/movie', body);
      return { tmdb: a.tmdb, r: engineOutcome(data) };
    },
    shape({ tmdb, r }) {
      return compact({ requested: true, tmdb, request: int(r.requestId) || undefined, message: clean(r.message) || undefined });
    },
  },
  {
    name: 'ask_for_show',
    title: 'Request a TV show',
    description: 'Ask Ombi for every season of a TV show by its TVDB id. Answers with the new request id, or the reason Ombi declined.',
    annotations: WRITE,
    properties: { tvdb: { ...ID, description: 'The show TVDB id.' } },
    required: ['tvdb'],
    async run(a) {
      const body = { tvDbId: a.tvdb, requestAll: true };
      const data = await upstream('ask_for_show', 'POST', '/api/v1/Request/tv', '/api/v1/Request/tv', body);
      return { tvdb: a.tvdb, r: engineOutcome(data) };
    },
    shape({ tvdb, r }) {
      return compact({ requested: true, tvdb, request: int(r.requestId) || undefined, message: clean(r.message) || undefined });
    },
  },
  {
    name: 'pending_requests',
    title: 'Pending requests',
    description: 'Movie or TV requests waiting for approval, newest first, at most max of them.',
    annotations: READ,
    properties: {
      kind: { ...KIND, default: 'movie', description: 'movie or tv; movie when left out.' },
      max: { ...MAX, description: 'How many requests to return, 1 to 25 (10 when left out).' },
    },
    required: [],
    async run(a) {
      const kind = a.kind ?? 'movie';
      const max = a.max ?? 10;
      const data = await upstream(
        'pending_requests',
        'GET',
        `/api/v2/Requests/${kind}/pending/${max}/0/RequestedDate/desc`,
        `/api/v2/Requests/${kind}/pending/{count}/{position}/RequestedDate/{sortOrder}`,
      );
      const page = obj(data);
      if (!page || !Array.isArray(page.collection)) throw new Failure('Ombi answered with no list of requests');
      return { kind, max, page };
    },
    shape({ kind, max, page }) {
      const rows = capList(page.collection, max).map((x) => requestRow(kind, obj(x) ?? {}));
      return compact({ kind, count: rows.length, total: int(page.total), requests: rows });
    },
  },
  {
    name: 'approve',
    title: 'Approve a request',
    description: 'Approve a pending movie request, or a TV request by its child request id.',
    annotations: WRITE,
    properties: {
      kind: { ...KIND, description: 'movie or tv.' },
      request: { ...ID, description: 'The request id (for tv, the child request id).' },
    },
    required: ['kind', 'request'],
    async run(a) {
      const method = bug('wrong-method') ? 'PUT' : 'POST';
      const route = `/api/v1/Request/${a.kind}/approve`;
      const data = await upstream('approve', method, route, route, { id: a.request });
      engineOutcome(data);
      return a;
    },
    shape(a) {
      return { approved: true, kind: a.kind, request: a.request };
    },
  },
  {
    name: 'decline',
    title: 'Decline a request',
    description: 'Deny a movie request, or a TV request by its child request id, with an optional reason shown to the requester.',
    annotations: WRITE,
    properties: {
      kind: { ...KIND, description: 'movie or tv.' },
      request: { ...ID, description: 'The request id (for tv, the child request id).' },
      why: { type: 'string', minLength: 1, maxLength: 500, description: 'Reason for the denial.' },
    },
    required: ['kind', 'request'],
    async run(a) {
      const route = `/api/v1/Request/${a.kind}/deny`;
      const body = { id: a.request };
      if (a.why !== undefined) body.reason = a.why;
      const data = await upstream('decline', 'PUT', route, route, body);
      engineOutcome(data);
      return a;
    },
    shape(a) {
      return { declined: true, kind: a.kind, request: a.request };
    },
  },
  {
    name: 'open_issues',
    title: 'Open issues',
    description: 'Issues reported on titles that are still pending, at most max of them.',
    annotations: READ,
    properties: { max: { ...MAX, description: 'How many issues to return, 1 to 25 (10 when left out).' } },
    required: [],
    async run(a) {
      const max = a.max ?? 10;
      const data = await upstream('open_issues', 'GET', `/api/v1/Issues/${max}/0/0`, '/api/v1/Issues/{take}/{skip}/{status}');
      if (!Array.isArray(data)) throw new Failure('Ombi answered with no list of issues');
      return { max, list: data };
    },
    shape({ max, list }) {
      const rows = capList(list, max).map((x) => {
        const i = obj(x) ?? {};
        return compact({
          issue: int(i.id),
          title: titleOf(i.title),
          subject: clean(i.subject),
          description: clean(i.description, LONG_TEXT_CAP),
          category: clean(obj(i.issueCategory)?.value),
          created: dateOf(i.createdDate),
          request: int(i.requestId) || undefined,
        });
      });
      return { count: rows.length, issues: rows };
    },
  },
  {
    name: 'add_issue_comment',
    title: 'Comment on an issue',
    description: 'Add a comment to an Ombi issue.',
    annotations: WRITE,
    properties: {
      issue: { ...ID, description: 'The issue id.' },
      text: { type: 'string', minLength: 1, maxLength: 500, description: 'The comment.' },
    },
    required: ['issue', 'text'],
    async run(a) {
      const body = { comment: a.text, issueId: a.issue };
      const data = await upstream('add_issue_comment', 'POST', '/api/v1/Issues/comments', '/api/v1/Issues/comments', body);
      const c = obj(data);
      if (!c) throw new Failure('not found');
      return { a, c };
    },
    shape({ a, c }) {
      return compact({ commented: true, issue: a.issue, comment: int(c.id), date: dateOf(c.date) });
    },
  },
];

// ---------------------------------------------------------------------------
// Schemas: one description per parameter gives both the advertised JSON
// Schema and the zod validator that checks arguments before any call.

function codePoints(s) {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function zodOf(p) {
  let t;
  if (p.enum) t = z.enum(p.enum);
  else if (p.type === 'integer') t = z.number().int().min(p.minimum).max(p.maximum);
  else {
    // JSON Schema counts characters (code points), not UTF-16 units
    const min = p.minLength ?? 0;
    const max = p.maxLength ?? Infinity;
    t = z.string().refine(
      (s) => {
        const n = codePoints(s);
        return n >= min && n <= max;
      },
      { message: 'length out of range' },
    );
  }
  return t;
}

for (const t of TOOLS) {
  const shape = {};
  for (const [k, p] of Object.entries(t.properties)) {
    shape[k] = t.required.includes(k) ? zodOf(p) : zodOf(p).optional();
  }
  t.validator = z.object(shape).strict();
  t.inputSchema = { type: 'object', properties: t.properties };
  if (t.required.length > 0) t.inputSchema.required = t.required;
  t.inputSchema.additionalProperties = false;
}
const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

// ---------------------------------------------------------------------------
// Results

function ok(data) {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

function fail(text) {
  return { content: [{ type: 'text', text }], isError: true };
}

function argumentProblem(error, args) {
  const first = error.issues?.[0];
  if (!first) return 'invalid arguments';
  const where = first.path?.length ? first.path.join('.') : '';
  if (first.path?.length === 1 && obj(args) && args[first.path[0]] === undefined) return `invalid arguments: ${clean(where, 40)}: missing`;
  if (first.code === 'unrecognized_keys') return `invalid arguments: unexpected ${first.keys.map((k) => clean(k, 40)).join(', ')}`;
  const what = { invalid_type: 'wrong type', too_small: 'too small', too_big: 'too big', invalid_value: 'not allowed', invalid_format: 'bad format', custom: 'wrong length' }[first.code] ?? 'invalid';
  return where ? `invalid arguments: ${clean(where, 40)}: ${what}` : `invalid arguments: ${what}`;
}

function failure(tool, e) {
  if (e instanceof Failure) {
    if (bug('rpc-error')) throw new McpError(-32000, e.message);
    return fail(bug('stack-trace') ? String(e.stack) : e.message);
  }
  log(`${tool.name} internal error (${e?.name ?? 'unknown'})`);
  return fail(bug('stack-trace') && e?.stack ? String(e.stack) : 'internal error');
}

async function callTool(tool, args) {
  const parsed = tool.validator.safeParse(args ?? {});
  if (!parsed.success) return fail(argumentProblem(parsed.error, args));
  let raw;
  try {
    raw = await tool.run(parsed.data);
    if (!bug('null-crash')) return ok(tool.shape(raw, parsed.data));
  } catch (e) {
    if (e instanceof Unauthorized) return ok({});
    return failure(tool, e);
  }
  // null-crash: the answer is shaped outside the guard, so a throw escapes
  return ok(tool.shape(raw, parsed.data));
}

// ---------------------------------------------------------------------------
// Server

const server = new Server({ name: NAME, version: VERSION }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    annotations: t.annotations,
  })),
}));

let inflight = 0;
let inputClosed = false;

function maybeExit() {
  if (inputClosed && inflight === 0) setImmediate(() => process.exit(0));
}

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = BY_NAME.get(request.params.name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, 'unknown tool');
  inflight++;
  try {
    return await callTool(tool, request.params.arguments);
  } finally {
    inflight--;
    maybeExit();
  }
});

process.stdout.on('error', () => process.exit(0));
process.stdin.on('end', () => {
  inputClosed = true;
  maybeExit();
});

await server.connect(new StdioServerTransport());
log(`ready (${BASE.startsWith('https:') ? 'https' : 'http'}, timeout ${TIMEOUT_MS} ms${BUG ? `, bug ${BUG}` : ''})`);
