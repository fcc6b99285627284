#!/usr/bin/env python3
"""After `trunk build` (the page, its stylesheet and static files) and
the WebAssembly's own build (scripts/build.sh): link the code into dist/
and make dist/ small and strict.

1. Link the one module and its chunks (wasm-bindgen's output for the main
   module, its snippets, the split-off chunks and wasm_split's loader,
   given as the second argument: docs/architecture.md, "One module and
   its chunks") into dist/ under names that change with their content:
   attention-lab-<hash>.js and attention-lab-<hash>_bg.wasm (the main
   module, as Trunk named it), split-<hash>.js (the chunks' loader),
   labs-<hash>.wasm, train-<hash>.wasm and shared-<hash>.wasm (what the
   two share). Each .wasm file holds its module compressed with LZMA
   (scripts/lzma_pack.py), which the chunks' loader decodes
   (static/unlzma.js, inlined into it): about a fifth smaller than gzip
   alone (docs/architecture.md, "Modules compressed with LZMA"). The JS
   is minified with terser; index.html gets preloads
   with subresource-integrity hashes and a start script, start-<hash>.js,
   in its own file so the page runs under a Content-Security-Policy
   without 'unsafe-inline' for scripts (its one inline script, the chooser
   scripts/prerender.mjs writes, is allowed by its hash: docs/embedding.md,
   "Content-Security-Policy").
2. Give the main module's imports from its glue short names: wasm-bindgen
   names each one after the JS function and a hash of it
   (`__wbg_querySelectorAll_bd785907acdf7800`), and every name is written
   twice, in the wasm's import section and as a key of the glue's imports
   object, where its 16 random hex digits do not compress (about 6 KB
   gzip for the 210 imports; docs/performance.md, "Names and glyphs no
   reader sees"); likewise the closure shims the main module exports to
   its glue, named after trait paths and crate hashes.
3. Name each language's words (strings-LANG.txt, the page's,
   strings-labs-LANG.txt, the labs', and strings-tokens-LANG.txt, the
   tokens lab's, which examples/strings.rs wrote beside the WebAssembly)
   strings-LANG-<hash>.txt, strings-labs-LANG-<hash>.txt and
   strings-tokens-LANG-<hash>.txt: the app fetches its language's through
   the start script, which starts fetching the page's words in the
   language the app will open in while the WebAssembly compiles; the labs'
   come with the first lab's chunk, the tokens lab's with its chunk
   (src/app/i18n/load.rs).
4. Put the stylesheet inline (Trunk writes it to style-<hash>.css), so
   nothing but the page itself stands between the request and the first
   paint.
"""
import base64
import collections
import hashlib
import pathlib
import re
import shutil
import subprocess
import sys

import lzma_pack
from wasm_bytes import leb, rewrite_entries, rewrite_section, uleb
from wasm_bytes import name as name_at

dist = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "dist")
web = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None
root = pathlib.Path(__file__).resolve().parent.parent
terser = root / "node_modules" / ".bin" / "terser"
index = dist / "index.html"
html = index.read_text(encoding="utf-8")


def sri(path: pathlib.Path) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(path.read_bytes()).digest()).decode()


def short(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def minify(text: str, module: bool = True) -> str:
    """The text of one ES module (or, with `module` false, of a classic
    script, left in the syntax it is written in), minified by terser
    (string literals, so file names, are kept as written)."""
    tmp = dist / ".minify.js"
    tmp.write_text(text, encoding="utf-8")
    kind = ["--module"] if module else []
    subprocess.run([str(terser), str(tmp), *kind, "--compress", "--mangle", "--output", str(tmp)], check=True)
    out = tmp.read_text(encoding="utf-8")
    tmp.unlink()
    return out


def replace_once(text: str, old: str, new: str, what: str) -> str:
    count = text.count(old)
    if count != 1:
        sys.exit(f"postbuild: expected {old!r} once in {what}, found it {count} times")
    return text.replace(old, new)


# The first entry of the standard library's table of 128-bit powers of five
# (5^-342, its high word, little-endian), which `str::parse::<f64>` brings
# along: 11 KB gzip of random bits. The page reads decimals with serde_json's
# reader (attention::json::decimal), which it carries for its files anyway;
# one call of the standard reader anywhere puts the table back, and the
# build says where to look.
FLOAT_TABLE = (0xEEF453D6923BD65A).to_bytes(8, "little")


def no_float_table(name: str, data: bytes) -> None:
    if FLOAT_TABLE in data:
        sys.exit(f"postbuild: {name} carries the standard library's table for reading decimals "
                 "(a str::parse::<f64> or f64::from_str call): read them with attention::json::decimal")


def short_imports(wasm: bytes, glue: str, module: str) -> tuple[bytes, str]:
    """`wasm` and its `glue` with every function the wasm imports from
    `module` (the glue's imports object) renamed `a`, `b`, …, `aa`, …:
    the import section is rewritten and each name's one key in the glue
    follows."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def name_of(k: int) -> str:
        out = letters[k % 52]
        while k >= 52:
            k = k // 52 - 1
            out = letters[k % 52] + out
        return out

    if wasm[:8] != b"\0asm\x01\0\0\0":
        sys.exit("postbuild: the main module is not WebAssembly 1")
    renamed = 0

    def one_import(p: int) -> tuple[bytes, int]:
        nonlocal glue, renamed
        mod, p = name_at(wasm, p)
        name, p = name_at(wasm, p)
        kind, q = wasm[p], p + 1
        if kind == 0:  # a function: its type index
            _, q = leb(wasm, q)
        elif kind in (1, 2):  # a table (its element type first) or a memory: limits
            q += kind == 1
            flags, q = leb(wasm, q)
            _, q = leb(wasm, q)
            if flags & 1:
                _, q = leb(wasm, q)
        elif kind == 3:  # a global: type and mutability
            q += 2
        else:
            sys.exit(f"postbuild: import {name!r} of unknown kind {kind}")
        if mod == module and kind == 0:
            new = name_of(renamed)
            renamed += 1
            glue = replace_once(glue, f"\n        {name}: function", f"\n        {new}: function", "the glue's imports")
            if name in glue:
                sys.exit(f"postbuild: the glue names {name} outside its imports object")
            name = new
        return b"".join(uleb(len(t.encode())) + t.encode() for t in (mod, name)) + wasm[p:q], q

    wasm = rewrite_section(wasm, 2, lambda start, end: rewrite_entries(wasm, start, end, one_import, "import"))
    if renamed == 0:
        sys.exit(f"postbuild: the main module imports nothing from {module}")
    return wasm, glue


# wasm-bindgen's shims for the closures JS calls back, exported under the
# path of the trait impl and a hash of each crate
# (`wasm_bindgen_2ecf14568f8d53ff___convert__closures_____invoke___…`,
# up to 190 characters each, written in the export section and again in
# the glue; about 400 B gzip for the seven).
CLOSURE_SHIM = re.compile(r"wasm_bindgen_[0-9a-f]{16}___convert__closures_\w*")


def short_exports(wasm: bytes, glue: str) -> tuple[bytes, str]:
    """`wasm` and its `glue` with each closure shim the wasm exports
    renamed `$0`, `$1`, …: the export section is rewritten and the glue's
    calls (`wasm.NAME(`) follow. The chunks import only the memory, the
    table and the stack pointer, so no other module names them."""
    renamed = 0

    def one_export(p: int) -> tuple[bytes, int]:
        nonlocal glue, renamed
        name, p = name_at(wasm, p)
        _, q = leb(wasm, p + 1)  # its kind, then its index
        if CLOSURE_SHIM.fullmatch(name):
            new = f"${renamed}"
            renamed += 1
            if glue.count(f"wasm.{name}(") == 0:
                sys.exit(f"postbuild: the glue never calls the export {name}")
            glue = glue.replace(f"wasm.{name}(", f"wasm.{new}(")
            name = new
        return uleb(len(name.encode())) + name.encode() + wasm[p:q], q

    wasm = rewrite_section(wasm, 7, lambda start, end: rewrite_entries(wasm, start, end, one_export, "export"))
    for name in CLOSURE_SHIM.findall(glue):
        if f"function {name}(" not in glue:
            sys.exit(f"postbuild: the glue names {name}, which the wasm does not export")
    return wasm, glue


if web is None:
    sys.exit("postbuild: usage: postbuild.py DIST WEB (the WebAssembly's build, scripts/build.sh)")
# Where the code goes: the Rust link Trunk skipped (index.html). Checked
# before anything is removed, so a dist/ already linked is left whole.
SKIPPED = re.compile(r"<link data-trunk [^>]*\bdata-trunk-skip\b[^>]*\brel=rust>")
if len(SKIPPED.findall(html)) != 1:
    sys.exit("postbuild: the skipped Rust link was not found in index.html (run trunk build first)")
for old in [*dist.glob("attention-lab-*"), *dist.glob("split-*.js"), *dist.glob("start-*.js"),
            *dist.glob("labs-*.wasm"), *dist.glob("train-*.wasm"), *dist.glob("tokens-*.wasm"),
            *dist.glob("shared-*.wasm"), *dist.glob("digits-*.txt"),
            *dist.glob("strings-*.txt")]:
    old.unlink()
# The chunks: split_NAME.wasm is what only NAME's split points reach,
# chunk_K.wasm what several of them share. A shared chunk is named after
# the chunks that load it, in alphabetical order (shared-labs-tokens-…),
# so the build can count it with the part that fetches it
# (scripts/build.sh).
loader_text = (web / "__wasm_split.js").read_text(encoding="utf-8")
users = collections.defaultdict(list)
for name, deps in re.findall(r'fetch\(new URL\("\./split_(\w+)\.wasm".*?\[([^\]]*)\]\)', loader_text, re.S):
    for dep in re.findall(r"__chunk_(\d+)", deps):
        users[f"chunk_{dep}.wasm"].append(name)
chunks = {}
for wasm in sorted(web.glob("*.wasm")):
    if wasm.name == "attention-lab_bg.wasm":
        continue
    m = re.fullmatch(r"split_(\w+)\.wasm|chunk_\d+\.wasm", wasm.name)
    if not m:
        sys.exit(f"postbuild: {wasm.name}: not a chunk wasm_split writes")
    data = wasm.read_bytes()
    no_float_table(wasm.name, data)
    data = lzma_pack.pack(data)
    if not m.group(1) and not users[wasm.name]:
        sys.exit(f"postbuild: {wasm.name}: no chunk loads it")
    part = m.group(1) or "-".join(["shared", *sorted(users[wasm.name])])
    name = f"{part}-{short(data)}.wasm"
    (dist / name).write_bytes(data)
    chunks[wasm.name] = name
if {"split_labs.wasm", "split_train.wasm", "split_tokens.wasm"} - chunks.keys():
    sys.exit("postbuild: the labs', the training lab's or the tokens lab's chunk is missing")
loader = (web / "__wasm_split.js").read_text(encoding="utf-8")
for old, new in chunks.items():
    loader = replace_once(loader, f'"./{old}"', f'"./{new}"', "the chunks' loader")
# Each chunk is LZMA: its response decoded, then compiled (no streaming
# compile). The decoder goes first in the loader, which also exports it to
# the start script for the main module.
STREAMING = "WebAssembly.instantiateStreaming(src, imports)"
if loader.count(STREAMING) != len(chunks):
    sys.exit(f"postbuild: expected {len(chunks)} streaming instantiations in the chunks' loader, "
             f"found {loader.count(STREAMING)}")
loader = loader.replace(STREAMING, "instantiateLzma(src, imports)")
unlzma = (root / "static" / "unlzma.js").read_text(encoding="utf-8")
loader = unlzma + """
// A response's bytes: the .lzma file decoded (a failed response rejects).
export async function bytesOf(response) {
  const r = await response;
  if (!r.ok) throw new Error(`${r.url}: HTTP ${r.status}`);
  return unlzma(await r.arrayBuffer());
}
const instantiateLzma = async (src, imports) => WebAssembly.instantiate(await bytesOf(src), imports);
""" + loader
glue = (web / "attention-lab.js").read_text(encoding="utf-8")
no_float_table("attention-lab_bg.wasm", (web / "attention-lab_bg.wasm").read_bytes())
main_wasm, glue = short_imports((web / "attention-lab_bg.wasm").read_bytes(), glue, "./attention-lab_bg.js")
main_wasm, glue = short_exports(main_wasm, glue)
main_wasm = lzma_pack.pack(main_wasm)
wasm_name = f"attention-lab-{short(main_wasm)}_bg.wasm"
(dist / wasm_name).write_bytes(main_wasm)
glue = replace_once(glue, "'attention-lab_bg.wasm'", f"'{wasm_name}'", "the glue")
# The glue imports the chunks' loader and the loader imports the glue:
# both names come from one hash of both texts, the names left out. (The
# glue's imports object keeps the module name the wasm imports from; only
# its import statements name the file.)
glue, count = re.subn(r"""(\bfrom\s*)(["'])\./__wasm_split\.js\2""", r"\1'./SPLIT_JS'", glue)
if count == 0:
    sys.exit("postbuild: the glue does not import ./__wasm_split.js")
glue = minify(glue)
loader = minify(replace_once(loader, '"./main.js"', '"./GLUE_JS"', "the chunks' loader"))
both = short((glue + loader).encode())
glue_name, loader_name = f"attention-lab-{both}.js", f"split-{both}.js"
if "./SPLIT_JS" not in glue:
    sys.exit("postbuild: the minified glue lost its import of the loader")
(dist / glue_name).write_text(glue.replace("./SPLIT_JS", f"./{loader_name}"), encoding="utf-8")
(dist / loader_name).write_text(replace_once(loader, "./GLUE_JS", f"./{glue_name}", "the loader"), encoding="utf-8")
# The page's classic script (static/support.js: the app's start, and the
# message for a browser that cannot run it), minified like the rest; it is
# ES5, which terser keeps, so the oldest browsers still read it.
support = dist / "support.js"
support.write_text(minify(support.read_text(encoding="utf-8"), module=False), encoding="utf-8")
snippets = web / "snippets"
if snippets.is_dir():
    shutil.rmtree(dist / "snippets", ignore_errors=True)
    shutil.copytree(snippets, dist / "snippets")
# Each language's words, the page's, the labs' and the tokens lab's, each
# in a file named after its content; `attentionLabText` knows them by key
# (zh, en, labs-zh, labs-en, tokens-zh, tokens-en: src/app/i18n/load.rs).
# Compressed with LZMA like the modules, decoded by the loader's `bytesOf`
# (5–9 % smaller than gzip -9 of the text).
words = {}
for key in ["zh", "en", "labs-zh", "labs-en", "tokens-zh", "tokens-en"]:
    text = lzma_pack.pack((web / f"strings-{key}.txt").read_bytes())
    words[key] = f"strings-{key}-{short(text)}.txt"
    (dist / words[key]).write_bytes(text)
    words[key] = (words[key], sri(dist / words[key]))
# The start, as Trunk's own start script does it (the app reads nothing
# of it but the module's start), and `attentionLabText(lang)`, a promise of
# a language's words (null when they cannot be fetched; asked again
# then). The language the app will open in is asked for at once, while the
# WebAssembly compiles: the rule of src/app/web/storage.rs, `initial_lang`
# (?lang=, then the remembered one, then the browser's), as the chooser of
# scripts/prerender.mjs has it. Were they ever to disagree, the app would
# ask for its own language when it starts, a round trip later.
ASK_FIRST = """try {
  const code = (c) => ((c = (c || '').trim().toLowerCase()) === 'zh' || /^zh[-_]/.test(c) ? 'zh' : c === 'en' || /^en[-_]/.test(c) ? 'en' : null);
  window.attentionLabText(code(new URLSearchParams(location.search).get('lang')) || code(localStorage.getItem('attention-lab.lang'))
    || (code(navigator.language) === 'zh' ? 'zh' : 'en'));
} catch (e) {
  // No storage (a sandboxed frame): the app asks for its language itself.
}"""
texts = ", ".join(f"'{key}': ['./{name}', '{integrity}']" for key, (name, integrity) in words.items())
# The data a lab fetches when it needs it, named after its content:
# `attentionLabData(key)` (src/app/start.rs), the digits of the training
# lab's `digits` task (data/digits/README.md).
data = {}
for key, source in [("digits", root / "data" / "digits" / "digits.txt")]:
    body = lzma_pack.pack(source.read_bytes())
    name = f"{key}-{short(body)}.txt"
    (dist / name).write_bytes(body)
    data[key] = (name, sri(dist / name))
data_js = ", ".join(f"'{key}': ['./{name}', '{integrity}']" for key, (name, integrity) in data.items())
start = minify(f"""import init, * as bindings from './{glue_name}';
import {{ bytesOf }} from './{loader_name}';
const texts = {{{texts}}}, data = {{{data_js}}}, asked = {{}};
const ask = (files, key) => asked[key] || (asked[key] = bytesOf(fetch(files[key][0], {{ integrity: files[key][1] }}))
  .then((bytes) => new TextDecoder().decode(bytes), () => null)
  .then((text) => {{ if (text === null) delete asked[key]; return text; }}));
window.attentionLabText = (key) => ask(texts, key);
window.attentionLabData = (key) => ask(data, key);
{ASK_FIRST}
const wasm = await init({{ module_or_path: bytesOf(fetch('./{wasm_name}', {{ integrity: '{sri(dist / wasm_name)}' }})) }});
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent("TrunkApplicationStarted", {{detail: {{wasm}}}}));
""")
start_name = f"start-{short(start.encode())}.js"
(dist / start_name).write_text(start, encoding="utf-8")
tags = [f"<link crossorigin=anonymous href=./{n} integrity={sri(dist / n)} rel=modulepreload>"
        for n in [glue_name, loader_name, *sorted(str(p.relative_to(dist)) for p in (dist / "snippets").rglob("*.js"))]]
tags.append(f"<link as=fetch crossorigin=anonymous href=./{wasm_name} integrity={sri(dist / wasm_name)} rel=preload>")
tags.append(f"<script type=module src=./{start_name} integrity={sri(dist / start_name)}></script>")
html = SKIPPED.sub(lambda m: "".join(tags), html)
# The stylesheet goes inline: it is render-blocking, so a separate file
# would cost the first paint one more round trip (about 220 ms on a phone
# link: docs/performance.md, "First paint"). The Content-Security-Policy
# already allows inline styles.
sheet = re.search(r"<link href=\./(style-[0-9a-f]+\.css) integrity=\S+ rel=stylesheet>", html)
if not sheet:
    sys.exit("postbuild: the stylesheet link was not found in index.html")
css = (dist / sheet.group(1)).read_text(encoding="utf-8")
if "</style" in css.lower():
    sys.exit("postbuild: the stylesheet cannot be inlined (it contains </style)")
html = html[: sheet.start()] + "<style>" + css + "</style>" + html[sheet.end():]
(dist / sheet.group(1)).unlink()

index.write_text(html, encoding="utf-8")
