#!/usr/bin/env python3
"""After the release build: the main module and each chunk split off it
(docs/architecture.md, "One module and its chunks") carry only the string
tables they show (src/app/i18n/mod.rs).

A table (`strings! { NAME, TABLE; … }` in src/app/i18n/) is linked whole by
any code that uses one of its keys, so one stray key links a whole
table's text, in both languages, where it is never shown (the training
lab once carried the page's 22 KB this way: docs/performance.md, "First
paint"), and a key the page uses keeps a lab's table in the first screen.
This looks for every long string of every table in each wasm file: a table
a file may not carry must have none there, and each table it must carry
must have some (so the search can see strings at all). A table the page
and a lab both show is the main module's; its strings only the lab uses
may go with the lab's chunk.

Usage: python3 scripts/check-strings.py DIST
"""
import collections
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
dist = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "dist")

# Each wasm file: the tables it may carry, and those it must. What the
# labs and the training lab share (shared-*.wasm: none, one or more) may
# carry only what both show.
MODULES = {
    "attention-lab-*_bg.wasm": ({"C", "S", "H", "TP"}, {"C", "S", "H", "TP"}),
    "labs-*.wasm": ({"C", "L"}, {"L"}),
    "train-*.wasm": ({"C", "T", "H"}, {"T"}),
    "shared-*.wasm": ({"C"}, set()),
}
OPTIONAL = {"shared-*.wasm"}
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
missing = {t for shown, _ in MODULES.values() for t in shown} - tables.keys()
if missing:
    sys.exit(f"check-strings: tables {sorted(missing)} not found in src/app/i18n/")

failed = False
for module, (shown, needed) in MODULES.items():
    wasm = sorted(dist.glob(module))
    if len(wasm) != 1 and module not in OPTIONAL:
        sys.exit(f"check-strings: expected one {module} in {dist}, found {len(wasm)}")
    data = b"".join(w.read_bytes() for w in wasm)
    for name, strings in sorted(tables.items()):
        found = [s for s in strings if s.encode() in data]
        if name in needed:
            if strings and not found:
                print(f"check-strings: {module} shows table {name} but none of its strings was found", file=sys.stderr)
                failed = True
        elif name not in shown:
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
summary = ", ".join(m + ": " + "+".join(sorted(t)) for m, (t, _) in MODULES.items())
print(f"check-strings: each module and chunk carries only the string tables it shows ({summary})")
