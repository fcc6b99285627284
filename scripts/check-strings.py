#!/usr/bin/env python3
"""After the release build: each WebAssembly module links only the string
tables it shows (src/app/i18n/mod.rs).

A table (`strings! { NAME, TABLE; … }` in src/app/i18n/) is linked whole by
any module that uses one of its keys, so one stray key links a whole
table's text, in both languages, into a module that never shows it (the
training module once carried the page's 22 KB this way: docs/performance.md,
"First paint"). This looks for every long string of every table in each
module's wasm: a table a module may not link must have none there, and each
table a module shows must have some (so the search can see strings at all).

Usage: python3 scripts/check-strings.py DIST
"""
import collections
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
dist = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "dist")

# The tables each module shows (see src/app/i18n/mod.rs).
MODULES = {
    "attention-lab": {"C", "S", "H", "TP"},
    "labs": {"C", "L"},
    "train": {"C", "T", "H"},
}
MIN_LEN = 20  # shorter strings ("Seed", "权重") recur across tables

LITERAL = r'"((?:[^"\\]|\\.)*)"'
tables = {}
in_table = {}  # each table's name -> how often each literal is written in it
everywhere = collections.Counter()  # every literal of src/app/i18n/
uses = 0
for src in sorted((root / "src/app/i18n").glob("*.rs")):
    text = src.read_text(encoding="utf-8")
    everywhere.update(re.findall(LITERAL, text))
    uses += len(re.findall(r"^strings! \{", text, re.M))
    for block in re.finditer(r"^strings! \{\s*(\w+), \w+;(.*?)\n\}", text, re.S | re.M):
        literals = re.findall(LITERAL, block.group(2))
        in_table[block.group(1)] = collections.Counter(literals)
        tables[block.group(1)] = {s for s in literals if "\\" not in s and len(s.encode()) >= MIN_LEN}
if uses != len(tables):
    sys.exit(f"check-strings: {uses} tables written with strings! but {len(tables)} read")
# The text written outside each table (a caption, another table's sentence):
# a string of the table that is part of it proves nothing.
outside = {name: [s for s, n in everywhere.items() if n > counts[s]] for name, counts in in_table.items()}
missing = {t for shown in MODULES.values() for t in shown} - tables.keys()
if missing:
    sys.exit(f"check-strings: tables {sorted(missing)} not found in src/app/i18n/")

failed = False
for module, shown in MODULES.items():
    wasm = sorted(dist.glob(f"{module}-*_bg.wasm"))
    if len(wasm) != 1:
        sys.exit(f"check-strings: expected one {module}-*_bg.wasm in {dist}, found {len(wasm)}")
    data = wasm[0].read_bytes()
    for name, strings in sorted(tables.items()):
        found = [s for s in strings if s.encode() in data]
        if name in shown:
            if strings and not found:
                print(f"check-strings: {module} shows table {name} but none of its strings was found", file=sys.stderr)
                failed = True
        else:
            # Text also written elsewhere (the same words or a sentence
            # containing them, in a table the module shows or a caption)
            # proves nothing.
            stray = [s for s in found if not any(s in o for o in outside[name])]
            if stray:
                print(f"check-strings: {module} links table {name}, which it never shows "
                      f"({len(stray)} of its strings, e.g. {stray[0][:60]!r})", file=sys.stderr)
                failed = True
if failed:
    sys.exit(1)
summary = ", ".join(m + ": " + "+".join(sorted(t)) for m, t in MODULES.items())
print(f"check-strings: each module links only its own string tables ({summary})")
