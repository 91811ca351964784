#!/usr/bin/env python3
"""pyombi: a small, task-shaped MCP server for Ombi (v4 REST API).

Speaks MCP over stdio (newline-delimited JSON-RPC 2.0) and fronts one Ombi
instance with API-key authentication. Standard library only.

Environment:
  OMBI_URL        Ombi base URL, e.g. http://127.0.0.1:5000 (required)
  OMBI_API_KEY    Ombi API key (required)
  OMBI_AUTH_MODE  only "api_key" is supported (unset means api_key)
  OMBI_TIMEOUT    upstream timeout as a Go duration ("10s", "500ms", "1m");
                  default 10s
  SUBJECT_BUG     switches on one planted bug (see bugs.json); unset = clean
"""

import http.client
import json
import os
import re
import socket
import sys
import threading
import time
import traceback
import urllib.parse

SERVER_NAME = "pyombi"
SERVER_VERSION = "0.1.0"
PROTOCOL_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26")
LATEST_PROTOCOL = "2025-11-25"

MAX_BODY = 2 * 1024 * 1024  # largest upstream answer read, in bytes
MAX_ERROR_BODY = 64 * 1024  # how much of an error answer is read
MAX_ITEMS = 20              # default cap on returned lists

BUG = os.environ.get("SUBJECT_BUG", "").strip()


def log(msg):
    """One line on stderr; never the API key."""
    try:
        sys.stderr.write("pyombi: " + msg.replace("\n", " ") + "\n")
        sys.stderr.flush()
    except Exception:
        pass


# ---------------------------------------------------------------------------
# Text hygiene

_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
    "\u2066-\u2069\ufeff\ud800-\udfff]"
)
_BREAKS = re.compile("[\t\n\r\x0b\x0c\u2028\u2029\x85]")
_ANSI = re.compile("\x1b\\[[0-9;?]*[ -/]*[@-~]")
_TAG = re.compile(r"<[^>]*>")
_SPACES = re.compile(r"\s{2,}")


def clean_text(value, limit=200):
    """Sanitize an upstream string: no control or bidi characters, no HTML
    tags, trimmed and capped. Anything that is not a non-empty string is
    missing (None)."""
    if not isinstance(value, str):
        return None
    s = value
    if BUG != "control-chars":
        s = _ANSI.sub("", s)
        s = _BREAKS.sub(" ", s)
        s = _CONTROL.sub("", s)
    s = _TAG.sub("", s)
    s = s.replace("<", "").replace(">", "")
    s = _SPACES.sub(" ", s).strip()
    if len(s) > limit:
        s = s[: limit - 1].rstrip() + "\u2026"
    return s or None


def clean_title(value):
    """A title as shown to the client."""
    if BUG == "null-crash":
        # Titles are assumed always present.
        return clean_text(value.strip())
    return clean_text(value)


def as_int(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,18}", value.strip()):
        return int(value.strip())
    return None


def as_bool(value):
    return value if isinstance(value, bool) else None


def as_number(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value == value and abs(value) != float("inf"):
        return round(value, 2)
    return None


def year_of(value):
    if isinstance(value, str):
        m = re.match(r"\s*([0-9]{4})", _CONTROL.sub("", value))
        if m and m.group(1) not in ("0001", "0000"):
            return int(m.group(1))
    return None


def date_of(value):
    if isinstance(value, str):
        m = re.match(r"\s*([0-9]{4}-[0-9]{2}-[0-9]{2})", _CONTROL.sub("", value))
        if m and not m.group(1).startswith("0001"):
            return m.group(1)
    return None


def as_dict(value):
    return value if isinstance(value, dict) else {}


def as_list(value):
    return value if isinstance(value, list) else []


def compact(d):
    """Drop missing members."""
    return {k: v for k, v in d.items() if v is not None}


def request_status(value):
    s = clean_text(value, 60)
    if s and s.startswith("Common."):
        s = s[len("Common."):]
    return s


def engine_message(value):
    """A short, safe reason from a RequestEngineResult message."""
    s = value if isinstance(value, str) else None
    if not s:
        return None
    first = s.strip().splitlines()[0] if s.strip() else ""
    if re.search(r"Exception|Traceback|\bat [A-Z][\w.]+\(|\.cs:line", first):
        return None
    return clean_text(first, 200)


# ---------------------------------------------------------------------------
# Configuration


def parse_duration(text):
    """Parse a Go duration ("10s", "1m30s", "500ms"); seconds as float."""
    s = text.strip()
    if s in ("0",):
        return 0.0
    units = {"ns": 1e-9, "us": 1e-6, "\u00b5s": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
    parts = re.findall(r"([0-9]*\.?[0-9]+)(ns|us|\u00b5s|ms|s|m|h)", s)
    if not parts or "".join(n + u for n, u in parts) != s:
        raise ValueError("invalid duration %r" % text)
    return sum(float(n) * units[u] for n, u in parts)


class Config:
    def __init__(self):
        mode = os.environ.get("OMBI_AUTH_MODE", "")
        if mode and mode != "api_key":
            log("only api_key auth is supported, OMBI_AUTH_MODE=%s" % clean_text(mode, 40))
            sys.exit(2)
        url = os.environ.get("OMBI_URL", "").strip()
        key = os.environ.get("OMBI_API_KEY", "")
        if not url:
            log("OMBI_URL is required")
            sys.exit(2)
        if not key:
            log("OMBI_API_KEY is required")
            sys.exit(2)
        if url.endswith("/"):
            url = url[:-1]
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            log("OMBI_URL must be an http or https URL")
            sys.exit(2)
        try:
            port = parts.port
        except ValueError:
            log("OMBI_URL has an invalid port")
            sys.exit(2)
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.port = port
        self.base_path = parts.path.rstrip("/")
        self.api_key = key
        timeout = 10.0
        raw = os.environ.get("OMBI_TIMEOUT", "").strip()
        if raw:
            try:
                timeout = parse_duration(raw)
            except ValueError:
                log("OMBI_TIMEOUT is not a duration")
                sys.exit(2)
            if timeout <= 0:
                timeout = 10.0
        self.timeout = timeout


# ---------------------------------------------------------------------------
# Upstream


class Upstream(Exception):
    """An upstream failure, told to the client as a short plain message."""

    def __init__(self, message, status=None):
        Exception.__init__(self, message)
        self.message = message
        self.status = status


class _ConnFail(Exception):
    pass


def _no_constants(name):
    raise ValueError("non-finite number")


def _is_write(method):
    return method in ("POST", "PUT", "DELETE", "PATCH")


class Ombi:
    """A client for one Ombi instance; one per tool call."""

    def __init__(self, cfg, tool):
        self.cfg = cfg
        self.tool = tool

    def _headers(self, has_body):
        h = {
            "ApiKey": self.cfg.api_key,
            "Accept": "application/json",
            "User-Agent": "%s/%s" % (SERVER_NAME, SERVER_VERSION),
        }
        if has_body:
            h["Content-Type"] = "application/json"
        return h

    def _once(self, target, method, path, headers, data, deadline, read_limit):
        scheme, host, port = target
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise socket.timeout("deadline")
        timeout = None if BUG == "no-timeout" else remaining
        cls = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
        conn = cls(host, port, timeout=timeout)
        try:
            conn.request(method, path, body=data, headers=headers)
            sock = conn.sock  # kept: the connection lets go of it once the answer closes it
            resp = conn.getresponse()
            status = resp.status
            rheaders = {k.lower(): v for k, v in resp.getheaders()}
            if 300 <= status < 400:
                return status, rheaders, b""
            ok = 200 <= status < 300
            limit = read_limit if ok else MAX_ERROR_BODY
            length = as_int(rheaders.get("content-length"))
            if ok and limit is not None and length is not None and length > limit:
                raise Upstream("upstream answer too large", status)
            chunks = []
            size = 0
            while True:
                if BUG != "no-timeout" and sock is not None:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise socket.timeout("deadline")
                    sock.settimeout(left)
                want = 65536 if limit is None else min(65536, limit + 1 - size)
                if want <= 0:
                    break
                chunk = resp.read(want)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if limit is not None and size > limit:
                    if ok:
                        raise Upstream("upstream answer too large", status)
                    break
            return status, rheaders, b"".join(chunks)
        except (Upstream, socket.timeout, http.client.IncompleteRead):
            raise
        except http.client.RemoteDisconnected as e:
            raise _ConnFail(type(e).__name__)
        except http.client.HTTPException:
            raise
        except OSError as e:
            if isinstance(e, TimeoutError):
                raise
            raise _ConnFail(type(e).__name__)
        finally:
            try:
                conn.close()
            except Exception:
                pass

    def call(self, method, template, path, body=None, read_limit=MAX_BODY):
        """Send one request; return the decoded JSON answer (None when empty)."""
        cfg = self.cfg
        data = None
        if body is not None:
            data = json.dumps(body, separators=(",", ":")).encode("utf-8")
        headers = self._headers(data is not None)
        target = (cfg.scheme, cfg.host, cfg.port)
        full = cfg.base_path + path
        deadline = time.monotonic() + cfg.timeout
        attempt = 0
        redirects = 0
        while True:
            attempt += 1
            if BUG == "key-in-stderr":
                log("%s %s %s headers=%s" % (self.tool, method, template, headers))
            try:
                status, rheaders, raw = self._once(target, method, full, headers, data, deadline, read_limit)
            except _ConnFail:
                if not _is_write(method) and attempt == 1 and deadline - time.monotonic() > 0.05:
                    log("%s %s %s -> connection failed, retrying once" % (self.tool, method, template))
                    continue
                log("%s %s %s -> connection failed" % (self.tool, method, template))
                if BUG == "stack-trace":
                    raise ConnectionError("connection to %s:%s failed" % (target[1], target[2]))
                raise Upstream("cannot reach Ombi")
            except (socket.timeout, TimeoutError):
                log("%s %s %s -> timed out" % (self.tool, method, template))
                if BUG == "stack-trace":
                    raise
                raise Upstream("Ombi did not answer in time")
            except http.client.IncompleteRead:
                log("%s %s %s -> answer cut short" % (self.tool, method, template))
                raise Upstream("Ombi's answer was cut short")
            except http.client.HTTPException as e:
                log("%s %s %s -> invalid answer (%s)" % (self.tool, method, template, type(e).__name__))
                raise Upstream("Ombi sent an invalid answer")
            log("%s %s %s -> %d" % (self.tool, method, template, status))

            if 300 <= status < 400:
                loc = rheaders.get("location")
                if BUG == "follow-redirect" and loc and redirects < 5:
                    redirects += 1
                    base = "%s://%s%s" % (target[0], target[1], "" if target[2] is None else ":%d" % target[2])
                    nxt = urllib.parse.urlsplit(urllib.parse.urljoin(base + full, loc))
                    if nxt.scheme in ("http", "https") and nxt.hostname:
                        target = (nxt.scheme, nxt.hostname, nxt.port)
                        full = nxt.path or "/"
                        if nxt.query:
                            full += "?" + nxt.query
                        attempt = 0
                        continue
                raise Upstream("upstream redirected", status)

            if BUG == "retry-write" and _is_write(method) and 500 <= status < 600 and attempt <= 3:
                log("%s %s %s -> %d, retrying" % (self.tool, method, template, status))
                continue

            if 200 <= status < 300:
                if not raw.strip():
                    return None
                try:
                    return json.loads(raw.decode("utf-8"), parse_constant=_no_constants)
                except Exception:
                    if BUG == "stack-trace":
                        return json.loads(raw.decode("utf-8", "replace"))
                    if BUG == "html-verbatim":
                        raise Upstream(raw.decode("utf-8", "replace"), status)
                    raise Upstream("Ombi answered %d" % status, status)
            if status in (401, 403):
                raise Upstream("Ombi refused the API key", status)
            if status == 404:
                raise Upstream("not found", status)
            if status == 429:
                raise Upstream("rate limited", status)
            if BUG == "html-verbatim" and not _looks_json(raw):
                raise Upstream(raw.decode("utf-8", "replace"), status)
            if BUG == "key-in-error" and status >= 500:
                raise Upstream("Ombi answered %d for %s %s (request headers: %s)"
                               % (status, method, template, headers), status)
            raise Upstream("Ombi answered %d" % status, status)


def _looks_json(raw):
    try:
        json.loads(raw.decode("utf-8"))
        return True
    except Exception:
        return False


def engine_result(answer, what):
    """Check a RequestEngineResult; raise when Ombi declined."""
    if not isinstance(answer, dict):
        raise Upstream("Ombi answered 200 without a result")
    if answer.get("isError") is True or answer.get("result") is False:
        reason = engine_message(answer.get("errorMessage")) or engine_message(answer.get("message"))
        if reason:
            raise Upstream("Ombi declined the %s: %s" % (what, reason))
        raise Upstream("Ombi declined the %s" % what)
    return answer


# ---------------------------------------------------------------------------
# Tools

MEDIA_TYPE = {"type": "string", "enum": ["movie", "tv"], "default": "movie",
              "description": "movie or tv"}
ID_MAX = 2147483647


def _id(desc):
    return {"type": "integer", "minimum": 1, "maximum": ID_MAX, "description": desc}


def seg(text):
    """One URL path segment."""
    raw = text.encode("utf-8", "replace")
    return urllib.parse.quote(raw, safe="").replace(".", "%2E")


def shape_movie_hit(m):
    m = as_dict(m)
    return compact({
        "tmdb_id": as_int(m.get("id")) or as_int(m.get("theMovieDbId")),
        "title": clean_title(m.get("title")),
        "year": year_of(m.get("releaseDate")),
        "overview": clean_text(m.get("overview"), 300),
        "requested": as_bool(m.get("requested")),
        "approved": as_bool(m.get("approved")),
        "available": as_bool(m.get("available")),
    })


def shape_tv_hit(t):
    t = as_dict(t)
    return compact({
        "tvdb_id": as_int(t.get("id")),
        "title": clean_title(t.get("title")),
        "year": year_of(t.get("firstAired")),
        "network": clean_text(t.get("network"), 80),
        "status": clean_text(t.get("status"), 40),
        "overview": clean_text(t.get("overview"), 300),
        "requested": as_bool(t.get("requested")),
        "available": as_bool(t.get("available")),
    })


def tool_search_media(ombi, args):
    query = args["query"].strip()
    media = args.get("media_type", "movie")
    if not query:
        raise BadArgument("query must not be blank")
    path = "/api/v1/Search/%s/%s" % (media, seg(query))
    if BUG == "stray-query":
        # asks for English titles, a parameter this action of Ombi does not read
        path += "?languageCode=en"
    answer = ombi.call("GET", "/api/v1/Search/%s/{searchTerm}" % media, path)
    if answer is None:
        raise Upstream("Ombi answered 200 without data", 200)
    items = as_list(answer)
    shape = shape_movie_hit if media == "movie" else shape_tv_hit
    results = [shape(x) for x in items[:MAX_ITEMS]]
    return {"media_type": media, "query": clean_text(query), "count": len(results),
            "results": results}


def tool_get_media_details(ombi, args):
    media = args.get("media_type")
    if media is None:
        media = "tv" if "tvdb_id" in args and "tmdb_id" not in args else "movie"
    if media == "movie":
        if "tmdb_id" not in args:
            raise BadArgument("tmdb_id is required for a movie")
        mid = args["tmdb_id"]
        m = ombi.call("GET", "/api/v2/Search/movie/{movieDbId}", "/api/v2/Search/movie/%d" % mid)
        if not isinstance(m, dict) or not as_int(m.get("id")):
            raise Upstream("not found", 404)
        if BUG == "readonly-write":
            # Keep the user posted on titles they look at.
            rid = as_int(m.get("requestId")) or mid
            try:
                ombi.call("POST", "/api/v1/Request/movie/subscribe/{requestId}",
                          "/api/v1/Request/movie/subscribe/%d" % rid)
            except Upstream:
                pass
        genres = [clean_text(as_dict(g).get("name"), 40) for g in as_list(m.get("genres"))[:10]]
        imdb = clean_text(m.get("imdbId"), 20) or clean_text(as_dict(m.get("externalIds")).get("imdbId"), 20)
        return compact({
            "media_type": "movie",
            "tmdb_id": as_int(m.get("id")),
            "title": clean_title(m.get("title")),
            "year": year_of(m.get("releaseDate")),
            "release_date": date_of(m.get("releaseDate")),
            "overview": clean_text(m.get("overview"), 600),
            "runtime": as_int(m.get("runtime")),
            "genres": [g for g in genres if g],
            "imdb_id": imdb,
            "rating": as_number(m.get("voteAverage")),
            "status": clean_text(m.get("status"), 40),
            "requested": as_bool(m.get("requested")),
            "approved": as_bool(m.get("approved")),
            "available": as_bool(m.get("available")),
            "denied": as_bool(m.get("denied")),
            "request_id": as_int(m.get("requestId")) or None,
        })
    if "tvdb_id" not in args:
        raise BadArgument("tvdb_id is required for a tv show")
    tid = args["tvdb_id"]
    t = ombi.call("GET", "/api/v1/Search/tv/info/{tvdbId}", "/api/v1/Search/tv/info/%d" % tid)
    if not isinstance(t, dict) or not as_int(t.get("id")):
        raise Upstream("not found", 404)
    if BUG == "readonly-write":
        rid = as_int(t.get("requestId")) or tid
        try:
            ombi.call("POST", "/api/v1/Request/tv/subscribe/{requestId}",
                      "/api/v1/Request/tv/subscribe/%d" % rid)
        except Upstream:
            pass
    seasons = sorted({n for n in (as_int(as_dict(s).get("seasonNumber")) for s in as_list(t.get("seasonRequests")))
                      if n is not None})
    return compact({
        "media_type": "tv",
        "tvdb_id": as_int(t.get("id")),
        "title": clean_title(t.get("title")),
        "year": year_of(t.get("firstAired")),
        "first_aired": date_of(t.get("firstAired")),
        "network": clean_text(t.get("network"), 80),
        "status": clean_text(t.get("status"), 40),
        "overview": clean_text(t.get("overview"), 600),
        "runtime": as_int(t.get("runtime")),
        "imdb_id": clean_text(t.get("imdbId"), 20),
        "season_count": len(seasons) if seasons else None,
        "requested": as_bool(t.get("requested")),
        "approved": as_bool(t.get("approved")),
        "available": as_bool(t.get("fullyAvailable")) if as_bool(t.get("fullyAvailable")) is not None
        else as_bool(t.get("available")),
        "partly_available": as_bool(t.get("partlyAvailable")),
        "request_id": as_int(t.get("requestId")) or None,
    })


def tool_request_movie(ombi, args):
    mid = args["tmdb_id"]
    body = {"tmdbId": mid} if BUG == "misnamed-body" else {"theMovieDbId": mid}
    answer = ombi.call("POST", "/api/v1/Request/movie", "/api/v1/Request/movie", body)
    res = engine_result(answer, "request")
    return compact({
        "requested": True,
        "media_type": "movie",
        "tmdb_id": mid,
        "request_id": as_int(res.get("requestId")) or None,
        "message": engine_message(res.get("message")),
    })


def tool_request_tv(ombi, args):
    tid = args["tvdb_id"]
    every = args.get("all_seasons", True)
    body = {"tvDbId": tid, "requestAll": every, "latestSeason": not every}
    answer = ombi.call("POST", "/api/v1/Request/tv", "/api/v1/Request/tv", body)
    res = engine_result(answer, "request")
    return compact({
        "requested": True,
        "media_type": "tv",
        "tvdb_id": tid,
        "seasons": "all" if every else "latest",
        "request_id": as_int(res.get("requestId")) or None,
        "message": engine_message(res.get("message")),
    })


def shape_movie_request(r):
    r = as_dict(r)
    return compact({
        "request_id": as_int(r.get("id")),
        "tmdb_id": as_int(r.get("theMovieDbId")),
        "title": clean_title(r.get("title")),
        "year": year_of(r.get("releaseDate")),
        "status": request_status(r.get("requestStatus")),
        "approved": as_bool(r.get("approved")),
        "available": as_bool(r.get("available")),
        "denied": as_bool(r.get("denied")),
        "denied_reason": clean_text(r.get("deniedReason"), 200),
        "requested_date": date_of(r.get("requestedDate")),
    })


def shape_tv_request(r):
    r = as_dict(r)
    parent = as_dict(r.get("parentRequest"))
    title = parent.get("title") if "title" in parent else r.get("title")
    seasons = sorted({n for n in (as_int(as_dict(s).get("seasonNumber")) for s in as_list(r.get("seasonRequests")))
                      if n is not None})
    return compact({
        "request_id": as_int(r.get("id")),
        "tvdb_id": as_int(parent.get("tvDbId")),
        "title": clean_title(title),
        "status": request_status(r.get("requestStatus")),
        "approved": as_bool(r.get("approved")),
        "available": as_bool(r.get("available")),
        "denied": as_bool(r.get("denied")),
        "denied_reason": clean_text(r.get("deniedReason"), 200),
        "seasons": seasons[:60] or None,
        "requested_date": date_of(r.get("requestedDate")),
    })


def tool_list_requests(ombi, args):
    media = args.get("media_type", "movie")
    limit = args.get("limit", MAX_ITEMS)
    read_limit = MAX_BODY
    count = limit
    if BUG == "unbounded-list":
        count, read_limit = 1000, None
    answer = ombi.call("GET", "/api/v2/Requests/%s/{count}/{position}/RequestedDate/{sortOrder}" % media,
                       "/api/v2/Requests/%s/%d/0/RequestedDate/desc" % (media, count), read_limit=read_limit)
    if answer is None:
        raise Upstream("Ombi answered 200 without data", 200)
    if isinstance(answer, dict):
        items = as_list(answer.get("collection"))
        total = as_int(answer.get("total"))
    else:
        items, total = as_list(answer), None
    if BUG != "unbounded-list":
        items = items[:limit]
    shape = shape_movie_request if media == "movie" else shape_tv_request
    results = [shape(x) for x in items]
    return compact({"media_type": media, "count": len(results), "total": total, "results": results})


def _moderate_result(answer, what):
    if answer is None:
        raise Upstream("not found", 404)
    return engine_result(answer, what)


def tool_approve_request(ombi, args):
    rid = args["request_id"]
    media = args.get("media_type", "movie")
    method = "PUT" if BUG == "wrong-method" else "POST"
    answer = ombi.call(method, "/api/v1/Request/%s/approve" % media,
                       "/api/v1/Request/%s/approve" % media, {"id": rid})
    _moderate_result(answer, "approval")
    return {"approved": True, "media_type": media, "request_id": rid}


def tool_deny_request(ombi, args):
    rid = args["request_id"]
    media = args.get("media_type", "movie")
    body = {"id": rid}
    reason = args.get("reason")
    if reason is not None:
        body["reason"] = reason
    answer = ombi.call("PUT", "/api/v1/Request/%s/deny" % media,
                       "/api/v1/Request/%s/deny" % media, body)
    _moderate_result(answer, "denial")
    return compact({"denied": True, "media_type": media, "request_id": rid,
                    "reason": clean_text(reason, 500) if reason is not None else None})


ISSUE_STATUS = {"pending": ("Pending", 0), "in_progress": ("InProgress", 1), "resolved": ("Resolved", 2)}
ISSUE_STATUS_NAME = {0: "pending", 1: "in_progress", 2: "resolved", 3: "deleted"}
REQUEST_TYPE_NAME = {0: "tv", 1: "movie", 2: "album"}


def shape_issue(x):
    x = as_dict(x)
    return compact({
        "issue_id": as_int(x.get("id")),
        "title": clean_title(x.get("title")),
        "subject": clean_text(x.get("subject"), 200),
        "description": clean_text(x.get("description"), 300),
        "category": clean_text(as_dict(x.get("issueCategory")).get("value"), 60),
        "status": ISSUE_STATUS_NAME.get(as_int(x.get("status"))),
        "media_type": REQUEST_TYPE_NAME.get(as_int(x.get("requestType"))),
        "created": date_of(x.get("createdDate")),
    })


def tool_list_issues(ombi, args):
    limit = args.get("limit", MAX_ITEMS)
    status = args.get("status", "pending")
    route_status = ISSUE_STATUS[status][0]
    answer = ombi.call("GET", "/api/v1/Issues/{take}/{skip}/{status}",
                       "/api/v1/Issues/%d/0/%s" % (limit, route_status))
    if answer is None:
        raise Upstream("Ombi answered 200 without data", 200)
    items = as_list(answer)[:limit]
    results = [shape_issue(x) for x in items]
    return {"status": status, "count": len(results), "results": results}


def tool_comment_on_issue(ombi, args):
    iid = args["issue_id"]
    comment = args["comment"]
    answer = ombi.call("POST", "/api/v1/Issues/comments", "/api/v1/Issues/comments",
                       {"issueId": iid, "comment": comment})
    if answer is None:
        raise Upstream("not found", 404)
    if not isinstance(answer, dict):
        raise Upstream("Ombi answered 200 without a comment")
    return compact({
        "commented": True,
        "issue_id": iid,
        "comment_id": as_int(answer.get("id")),
        "comment": clean_text(answer.get("comment"), 500) or clean_text(comment, 500),
    })


def _annotations(title, read_only, idempotent):
    return {"title": title, "readOnlyHint": read_only, "destructiveHint": False,
            "idempotentHint": idempotent, "openWorldHint": True}


def _schema(props, required):
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


LIMIT = {"type": "integer", "minimum": 1, "maximum": 50, "default": 20,
         "description": "most items to return (1-50)"}

TOOLS = [
    {
        "name": "search_media",
        "description": "Search Ombi for movies or TV shows by title. Returns up to 20 matches with their "
                       "TMDB (movie) or TVDB (tv) id, year and request state.",
        "inputSchema": _schema({
            "query": {"type": "string", "minLength": 1, "maxLength": 200, "description": "title to search for"},
            "media_type": MEDIA_TYPE,
        }, ["query"]),
        "annotations": _annotations("Search movies and TV", True, True),
        "fn": tool_search_media,
        "empty": {"media_type": "movie", "count": 0, "results": []},
    },
    {
        "name": "get_media_details",
        "description": "Details of one movie (by tmdb_id) or TV show (by tvdb_id): overview, year, genres "
                       "and whether it is requested or available in Ombi.",
        "inputSchema": _schema({
            "media_type": {"type": "string", "enum": ["movie", "tv"],
                           "description": "movie or tv; when left out, tv if only tvdb_id is given, else movie"},
            "tmdb_id": _id("TMDB id of the movie (media_type movie)"),
            "tvdb_id": _id("TVDB id of the show (media_type tv)"),
        }, []),
        "annotations": _annotations("Movie or show details", True, True),
        "fn": tool_get_media_details,
        "empty": {},
    },
    {
        "name": "request_movie",
        "description": "Ask Ombi to request a movie by its TMDB id.",
        "inputSchema": _schema({"tmdb_id": _id("TMDB id of the movie")}, ["tmdb_id"]),
        "annotations": _annotations("Request a movie", False, False),
        "fn": tool_request_movie,
        "empty": {},
    },
    {
        "name": "request_tv",
        "description": "Ask Ombi to request a TV show by its TVDB id: every season, or only the latest "
                       "one when all_seasons is false.",
        "inputSchema": _schema({
            "tvdb_id": _id("TVDB id of the show"),
            "all_seasons": {"type": "boolean", "default": True,
                            "description": "request every season (true) or only the latest (false)"},
        }, ["tvdb_id"]),
        "annotations": _annotations("Request a TV show", False, False),
        "fn": tool_request_tv,
        "empty": {},
    },
    {
        "name": "list_requests",
        "description": "The most recent movie or TV requests in Ombi, newest first, with their status.",
        "inputSchema": _schema({"media_type": MEDIA_TYPE, "limit": LIMIT}, []),
        "annotations": _annotations("List requests", True, True),
        "fn": tool_list_requests,
        "empty": {"media_type": "movie", "count": 0, "results": []},
    },
    {
        "name": "approve_request",
        "description": "Approve a pending movie or TV request by its request id (for TV, the child "
                       "request id that list_requests shows). Needs a power user or admin key.",
        "inputSchema": _schema({"request_id": _id("request id from list_requests"),
                                "media_type": MEDIA_TYPE}, ["request_id"]),
        "annotations": _annotations("Approve a request", False, True),
        "fn": tool_approve_request,
        "empty": {},
    },
    {
        "name": "deny_request",
        "description": "Deny a movie or TV request by its request id, with an optional reason shown to "
                       "the requester. Needs a power user or admin key.",
        "inputSchema": _schema({
            "request_id": _id("request id from list_requests"),
            "media_type": MEDIA_TYPE,
            "reason": {"type": "string", "maxLength": 500, "description": "why the request is denied"},
        }, ["request_id"]),
        "annotations": _annotations("Deny a request", False, True),
        "fn": tool_deny_request,
        "empty": {},
    },
    {
        "name": "list_issues",
        "description": "Issues reported in Ombi (pending by default), with title, subject and category.",
        "inputSchema": _schema({
            "limit": LIMIT,
            "status": {"type": "string", "enum": ["pending", "in_progress", "resolved"], "default": "pending",
                       "description": "which issues to list"},
        }, []),
        "annotations": _annotations("List issues", True, True),
        "fn": tool_list_issues,
        "empty": {"status": "pending", "count": 0, "results": []},
    },
    {
        "name": "comment_on_issue",
        "description": "Add a comment to an Ombi issue.",
        "inputSchema": _schema({
            "issue_id": _id("issue id from list_issues"),
            "comment": {"type": "string", "minLength": 1, "maxLength": 500, "description": "the comment text"},
        }, ["issue_id", "comment"]),
        "annotations": _annotations("Comment on an issue", False, False),
        "fn": tool_comment_on_issue,
        "empty": {},
    },
]
TOOL_BY_NAME = {t["name"]: t for t in TOOLS}


def public_tool(t):
    return {k: t[k] for k in ("name", "description", "inputSchema", "annotations")}


# ---------------------------------------------------------------------------
# Argument validation


class BadArgument(Exception):
    pass


def _safe_name(name):
    return clean_text(name, 60) or "?"


def validate(schema, args):
    """Check args against a tool's input schema; return them with defaults."""
    props = schema["properties"]
    out = {}
    for name in args:
        if name not in props:
            raise BadArgument("unknown argument: %s" % _safe_name(name))
    for name in schema["required"]:
        if name not in args:
            raise BadArgument("missing argument: %s" % name)
    for name, spec in props.items():
        if name not in args:
            if "default" in spec:
                out[name] = spec["default"]
            continue
        v = args[name]
        kind = spec["type"]
        if kind == "integer":
            if isinstance(v, float) and v.is_integer():
                v = int(v)
            if isinstance(v, bool) or not isinstance(v, int):
                raise BadArgument("%s must be an integer" % name)
            if "minimum" in spec and v < spec["minimum"]:
                raise BadArgument("%s must be at least %d" % (name, spec["minimum"]))
            if "maximum" in spec and v > spec["maximum"]:
                raise BadArgument("%s must be at most %d" % (name, spec["maximum"]))
        elif kind == "string":
            if not isinstance(v, str):
                raise BadArgument("%s must be a string" % name)
            if "enum" in spec and v not in spec["enum"]:
                raise BadArgument("%s must be one of %s" % (name, ", ".join(spec["enum"])))
            if "minLength" in spec and len(v) < spec["minLength"]:
                raise BadArgument("%s must not be empty" % name)
            if "maxLength" in spec and len(v) > spec["maxLength"]:
                raise BadArgument("%s must be at most %d characters" % (name, spec["maxLength"]))
        elif kind == "boolean":
            if not isinstance(v, bool):
                raise BadArgument("%s must be a boolean" % name)
        out[name] = v
    return out


# ---------------------------------------------------------------------------
# Tool calls


class RPCError(Exception):
    def __init__(self, code, message):
        Exception.__init__(self, message)
        self.code = code
        self.message = message


def text_result(data):
    return {"content": [{"type": "text", "text": json.dumps(data, ensure_ascii=False, allow_nan=False)}],
            "structuredContent": data, "isError": False}


def error_result(message):
    return {"content": [{"type": "text", "text": message}], "isError": True}


def call_tool(cfg, tool, arguments):
    """Run one tool; returns a CallToolResult or raises RPCError."""
    name = tool["name"]
    try:
        args = validate(tool["inputSchema"], arguments)
    except BadArgument as e:
        return error_result(str(e))
    ombi = Ombi(cfg, name)
    try:
        data = tool["fn"](ombi, args)
        return text_result(data)
    except BadArgument as e:
        return error_result(str(e))
    except Upstream as e:
        if BUG == "unauthorized-empty" and e.status == 401:
            return text_result(dict(tool["empty"]))
        if BUG == "rpc-error":
            raise RPCError(-32000, e.message)
        return error_result(e.message)
    except Exception as e:
        if BUG == "null-crash" and isinstance(e, AttributeError):
            raise
        log("%s failed: %s" % (name, type(e).__name__))
        if BUG == "stack-trace":
            return error_result(traceback.format_exc())
        return error_result("internal error")


# ---------------------------------------------------------------------------
# JSON-RPC over stdio


class Server:
    def __init__(self, cfg):
        self.cfg = cfg
        self.out_lock = threading.Lock()
        self.workers = set()
        self.workers_lock = threading.Lock()

    def send(self, msg):
        try:
            line = json.dumps(msg, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        except Exception:
            line = json.dumps({"jsonrpc": "2.0", "id": msg.get("id"),
                               "error": {"code": -32603, "message": "internal error"}})
        with self.out_lock:
            try:
                sys.stdout.write(line + "\n")
                sys.stdout.flush()
            except Exception:
                pass

    def reply(self, rid, result):
        self.send({"jsonrpc": "2.0", "id": rid, "result": result})

    def fail(self, rid, code, message):
        self.send({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}})

    def handle_line(self, line):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            self.fail(None, -32700, "parse error")
            return
        if not text.strip():
            return
        try:
            msg = json.loads(text, parse_constant=_no_constants)
        except Exception:
            self.fail(None, -32700, "parse error")
            return
        if not isinstance(msg, dict):
            self.fail(None, -32600, "invalid request")
            return
        has_id = "id" in msg
        rid = msg.get("id")
        if has_id and not (rid is None or isinstance(rid, str)
                           or (isinstance(rid, (int, float)) and not isinstance(rid, bool))):
            self.fail(None, -32600, "invalid request: bad id")
            return
        method = msg.get("method")
        if "method" not in msg:
            if "result" in msg or "error" in msg:
                return  # an answer to a request of ours; none are sent
            self.fail(rid, -32600, "invalid request: no method")
            return
        if not has_id:
            return  # notifications are never answered
        if msg.get("jsonrpc") != "2.0" or not isinstance(method, str):
            self.fail(rid, -32600, "invalid request")
            return
        params = msg.get("params", {}) if "params" in msg else {}
        if not isinstance(params, dict):
            self.fail(rid, -32602, "params must be an object")
            return
        try:
            self.dispatch(rid, method, params)
        except Exception as e:
            log("dispatch failed: %s" % type(e).__name__)
            self.fail(rid, -32603, "internal error")

    def dispatch(self, rid, method, params):
        if method == "initialize":
            asked = params.get("protocolVersion")
            version = asked if asked in PROTOCOL_VERSIONS else LATEST_PROTOCOL
            self.reply(rid, {"protocolVersion": version, "capabilities": {"tools": {}},
                             "serverInfo": {"name": SERVER_NAME, "version": SERVER_VERSION}})
        elif method == "ping":
            self.reply(rid, {})
        elif method == "tools/list":
            self.reply(rid, {"tools": [public_tool(t) for t in TOOLS]})
        elif method == "tools/call":
            name = params.get("name")
            if not isinstance(name, str):
                self.fail(rid, -32602, "tools/call needs a string name")
                return
            tool = TOOL_BY_NAME.get(name)
            if tool is None:
                self.fail(rid, -32602, "unknown tool: %s" % _safe_name(name))
                return
            arguments = params.get("arguments")
            if arguments is None:
                arguments = {}
            if not isinstance(arguments, dict):
                self.fail(rid, -32602, "arguments must be an object")
                return
            t = threading.Thread(target=self.run_call, args=(rid, tool, arguments), daemon=True)
            with self.workers_lock:
                self.workers.add(t)
            t.start()
        else:
            self.fail(rid, -32601, "method not found: %s" % _safe_name(method))

    def run_call(self, rid, tool, arguments):
        try:
            try:
                result = call_tool(self.cfg, tool, arguments)
            except RPCError as e:
                self.fail(rid, e.code, e.message)
                return
            except Exception as e:
                # Nothing below lets an exception out but a planted bug.
                self.fail(rid, -32603, str(e))
                return
            self.reply(rid, result)
        finally:
            with self.workers_lock:
                self.workers.discard(threading.current_thread())

    def serve(self):
        stdin = sys.stdin.buffer
        while True:
            try:
                line = stdin.readline()
            except Exception:
                break
            if not line:
                break
            try:
                self.handle_line(line)
            except Exception as e:
                log("line failed: %s" % type(e).__name__)
        deadline = time.monotonic() + self.cfg.timeout * 2 + 5
        while True:
            with self.workers_lock:
                pending = list(self.workers)
            if not pending:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                break
            pending[0].join(min(left, 0.5))


def main():
    cfg = Config()
    Server(cfg).serve()


if __name__ == "__main__":
    main()
