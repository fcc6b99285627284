#!/usr/bin/env python3
"""Serves dist/ on 127.0.0.1 the way the app is meant to be hosted: with the
Content-Security-Policy it runs under (docs/embedding.md, "Content-Security-Policy")
and `Access-Control-Allow-Origin: *` (docs/embedding.md, "Sandboxing").
The end-to-end tests use it, so the whole app is tested under that policy.

usage: serve-dist.py [PORT] [DIR] [--gzip]

--gzip compresses HTML, JS, CSS and WebAssembly (gzip -9, kept in memory)
for clients that accept it, as static hosts do; the benchmarks of first
paint use it (scripts/bench-first.mjs).
"""
import functools
import gzip
import http.server
import os
import re
import sys

CSP = (
    "default-src 'self'; "
    # The hash allows the page's one inline script, the chooser of the
    # pre-rendered first screen (scripts/prerender.mjs).
    "script-src 'self' 'sha256-9NNVcRJ0TBnPoEQHrmgGZpRBdnW7t++hKqJ04ooNvxQ=' 'wasm-unsafe-eval'; "
    "style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; "
    "font-src 'self'; "
    "connect-src 'self'; "
    "frame-src 'self'; "
    "object-src 'none'; "
    "base-uri 'self'; "
    "form-action 'none'"
)


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".woff2": "font/woff2",
    }

    def end_headers(self):
        # 'self' plus the site's own origin, named: in a frame sandboxed
        # with allow-scripts (an opaque origin) Safari's WebKit matches
        # 'self' against nothing, so the app's own files would be blocked
        # there (docs/embedding.md, "Content-Security-Policy").
        host = self.headers.get("Host", "") if self.headers else ""
        csp = CSP
        if re.fullmatch(r"[A-Za-z0-9.-]+(:[0-9]+)?", host):
            csp = re.sub(r"(default|script|style|img|font|connect|frame)-src 'self'",
                         rf"\1-src 'self' http://{host}", CSP)
        self.send_header("Content-Security-Policy", csp)
        # A figure embedded with sandbox="allow-scripts" has an opaque
        # origin: its module script, wasm and fonts are
        # then cross-origin requests (static hosts such as GitHub Pages
        # send this header too).
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass


GZIP_TYPES = {".html", ".js", ".css", ".wasm", ".svg", ".json", ".txt"}
_gzipped = {}


class GzipHandler(Handler):
    """Handler, with gzip for the types a static host compresses, and
    connections kept alive between requests, as a static host keeps them."""

    protocol_version = "HTTP/1.1"

    def do_GET(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?")[0].endswith("/"):
                return super().do_GET()  # its redirect to "…/"
            path = os.path.join(path, "index.html")
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not accepts or os.path.splitext(path)[1] not in GZIP_TYPES or not os.path.isfile(path):
            return super().do_GET()
        key = (path, os.stat(path).st_mtime_ns)
        body = _gzipped.get(key)
        if body is None:
            with open(path, "rb") as f:
                body = gzip.compress(f.read(), 9)
            _gzipped[key] = body
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main():
    args = [a for a in sys.argv[1:] if a != "--gzip"]
    port = int(args[0]) if args else 8080
    directory = args[1] if len(args) > 1 else "dist"
    cls = GzipHandler if "--gzip" in sys.argv else Handler
    handler = functools.partial(cls, directory=directory)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as httpd:
        httpd.serve_forever()


if __name__ == "__main__":
    main()
