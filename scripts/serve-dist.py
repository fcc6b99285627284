#!/usr/bin/env python3
"""Serves dist/ on 127.0.0.1 the way the app is meant to be hosted: with the
Content-Security-Policy it runs under (README, "Content-Security-Policy")
and `Access-Control-Allow-Origin: *` (README, "Embedding").
The end-to-end tests use it, so the whole app is tested under that policy.

usage: serve-dist.py [PORT] [DIR]
"""
import functools
import http.server
import re
import sys

CSP = (
    "default-src 'self'; "
    "script-src 'self' 'wasm-unsafe-eval'; "
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
        # origin: its module script, wasm, fonts and SRI-checked CSS are
        # then cross-origin requests (static hosts such as GitHub Pages
        # send this header too).
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8080
    directory = sys.argv[2] if len(sys.argv) > 2 else "dist"
    handler = functools.partial(Handler, directory=directory)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as httpd:
        httpd.serve_forever()


if __name__ == "__main__":
    main()
