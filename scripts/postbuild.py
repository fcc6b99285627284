#!/usr/bin/env python3
"""After `trunk build`: make dist/ small and strict.

1. Minify the JS glue with terser (Trunk does not minify it) and keep
   index.html's subresource-integrity hashes true.
2. Move Trunk's inline start-up script into its own file (start-<hash>.js),
   so the page runs under a Content-Security-Policy without 'unsafe-inline'
   for scripts (see README, "Content-Security-Policy").
"""
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


def sri(path: pathlib.Path) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(path.read_bytes()).digest()).decode()


for js in sorted(dist.glob("attention-lab-*.js")):
    subprocess.run([str(terser), str(js), "--module", "--compress", "--mangle", "--output", str(js)], check=True)
    pattern = re.compile(r"(href=\./" + re.escape(js.name) + r"\s+integrity=)sha384-[A-Za-z0-9+/=]+")
    html, count = pattern.subn(lambda m: m.group(1) + sri(js), html)
    if count == 0 and "integrity" in html:
        sys.exit(f"postbuild: could not update the integrity of {js.name} in index.html")

inline = re.compile(r"<script type=\"?module\"?>(.*?)</script>", re.S)
match = inline.search(html)
if not match:
    sys.exit("postbuild: Trunk's inline start-up script was not found in index.html")
code = match.group(1)
name = "start-" + hashlib.sha256(code.encode()).hexdigest()[:16] + ".js"
(dist / name).write_text(code, encoding="utf-8")
subprocess.run([str(terser), str(dist / name), "--module", "--compress", "--mangle", "--output", str(dist / name)], check=True)
tag = f'<script type=module src=./{name} integrity={sri(dist / name)}></script>'
html = html[: match.start()] + tag + html[match.end():]
# The stylesheet is fetched with CORS like the scripts, so its integrity
# check also passes in a sandboxed iframe (an opaque origin).
html, count = re.subn(r"(<link href=\./style-[0-9a-f]+\.css integrity=\S+) rel=stylesheet>", r"\1 crossorigin rel=stylesheet>", html)
if count != 1:
    sys.exit("postbuild: the stylesheet link was not found in index.html")
index.write_text(html, encoding="utf-8")
