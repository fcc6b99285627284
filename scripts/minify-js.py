#!/usr/bin/env python3
"""Minify the JS glue of dist/ with terser and keep index.html's subresource
integrity hashes true (Trunk does not minify the wasm-bindgen glue)."""
import base64
import hashlib
import pathlib
import re
import subprocess
import sys

dist = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "dist")
terser = pathlib.Path(__file__).resolve().parent.parent / "node_modules" / ".bin" / "terser"
index = dist / "index.html"
html = index.read_text(encoding="utf-8")
for js in sorted(dist.glob("*.js")):
    subprocess.run([str(terser), str(js), "--module", "--compress", "--mangle", "--output", str(js)], check=True)
    digest = base64.b64encode(hashlib.sha384(js.read_bytes()).digest()).decode()
    # Every tag that names this file carries its integrity right after href.
    pattern = re.compile(r'(href=\./' + re.escape(js.name) + r'\s+integrity=)sha384-[A-Za-z0-9+/=]+')
    html, count = pattern.subn(r'\g<1>sha384-' + digest, html)
    if count == 0 and "integrity" in html and js.name in html:
        sys.exit(f"minify-js: could not update the integrity of {js.name} in index.html")
index.write_text(html, encoding="utf-8")
