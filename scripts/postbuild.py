#!/usr/bin/env python3
"""After `trunk build`: make dist/ small and strict.

1. Minify the JS glue with terser (Trunk does not minify it) and keep
   index.html's subresource-integrity hashes true.
2. Move Trunk's inline start-up script into its own file (start-<hash>.js),
   so the page runs under a Content-Security-Policy without 'unsafe-inline'
   for scripts (its one inline script, the chooser scripts/prerender.mjs
   writes, is allowed by its hash: docs/embedding.md,
   "Content-Security-Policy").
2b. Put the stylesheet inline (Trunk writes it to style-<hash>.css), so
   nothing but the page itself stands between the request and the first
   paint.
3. With a second argument (the labs module's wasm-bindgen output, see
   scripts/build.sh): copy it into dist/ as labs-<hash>_bg.wasm and
   labs-<hash>.js (names that change with the content, the glue naming
   its wasm), and name the glue in index.html's
   <meta name=attention-lab-labs content=./labs-<hash>.js>, where the page
   finds it (relative, so dist/ works under any sub-path and in iframes).
4. With a third argument (the training module's output), the same for
   it: train-<hash>_bg.wasm, train-<hash>.js and
   <meta name=attention-lab-train content=./train-<hash>.js>.
"""
import base64
import hashlib
import pathlib
import re
import subprocess
import sys

dist = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "dist")
labs = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None
train = pathlib.Path(sys.argv[3]) if len(sys.argv) > 3 else None
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
# The stylesheet goes inline: it is render-blocking, so a separate file
# cost the first paint one more round trip (about 240 ms on a phone link:
# docs/performance.md, "First paint"). The Content-Security-Policy already
# allows inline styles.
sheet = re.search(r"<link href=\./(style-[0-9a-f]+\.css) integrity=\S+ rel=stylesheet>", html)
if not sheet:
    sys.exit("postbuild: the stylesheet link was not found in index.html")
css = (dist / sheet.group(1)).read_text(encoding="utf-8")
if "</style" in css.lower():
    sys.exit("postbuild: the stylesheet cannot be inlined (it contains </style)")
html = html[: sheet.start()] + "<style>" + css + "</style>" + html[sheet.end():]
(dist / sheet.group(1)).unlink()

def add_module(name: str, out: pathlib.Path) -> None:
    """Copies a module's wasm-bindgen output (`NAME.js`, `NAME_bg.wasm`)
    into dist/ as NAME-<hash>_bg.wasm and NAME-<hash>.js and names the glue
    in <meta name=attention-lab-NAME content=./NAME-<hash>.js>."""
    global html
    for old in dist.glob(f"{name}-*"):
        old.unlink()
    wasm = (out / f"{name}_bg.wasm").read_bytes()
    wasm_name = f"{name}-" + hashlib.sha256(wasm).hexdigest()[:16] + "_bg.wasm"
    (dist / wasm_name).write_bytes(wasm)
    glue = (out / f"{name}.js").read_text(encoding="utf-8")
    if "snippets/" in glue:
        sys.exit(f"postbuild: the {name} module's glue imports a snippet; copy it too")
    glue, count = re.subn(r"(['\"])" + name + r"_bg\.wasm\1", lambda m: m.group(1) + wasm_name + m.group(1), glue)
    if count != 1:
        sys.exit(f"postbuild: the {name} module's glue does not name {name}_bg.wasm once")
    tmp = dist / f"{name}-glue.js"
    tmp.write_text(glue, encoding="utf-8")
    subprocess.run([str(terser), str(tmp), "--module", "--compress", "--mangle", "--output", str(tmp)], check=True)
    js_name = f"{name}-" + hashlib.sha256(tmp.read_bytes()).hexdigest()[:16] + ".js"
    tmp.rename(dist / js_name)
    html, count = re.subn(r"(<meta charset=utf-8>)", lambda m: m.group(1) + f"<meta content=./{js_name} name=attention-lab-{name}>", html)
    if count != 1:
        sys.exit("postbuild: <meta charset=utf-8> was not found in index.html")


if labs is not None:
    add_module("labs", labs)
if train is not None:
    add_module("train", train)

index.write_text(html, encoding="utf-8")
