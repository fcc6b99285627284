#!/usr/bin/env python3
"""After the release build: the main module and its chunks (docs/architecture.md,
"One module and its chunks") carry none of the string tables' text
(src/app/i18n/mod.rs), and each language's file, strings-LANG-<hash>.txt,
carries that language's.

The browser's build reads each language's words from its file when the
reader first sees that language (src/app/i18n/load.rs), so that no reader
fetches both languages (docs/performance.md, "Each language's words when
it is read"). A table's text in a module would mean the build took the
tables in after all (a `strings!` table compiled without the `split`
feature): both languages, for every reader. This looks for every long
string of every table: no wasm file may have one (unless the same words
are also written outside the tables, in a caption, say), the language
files together must have them all, and each table's are only in the files
of its part (the page's, the labs', the tokens lab's).

Usage: python3 scripts/check-strings.py DIST
"""
import collections
import pathlib
import re
import sys

import lzma_pack

root = pathlib.Path(__file__).resolve().parent.parent
dist = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "dist")

# Each wasm file. What the labs and the training lab share is
# shared-*.wasm (none, one or more).
MODULES = ["attention-lab-*_bg.wasm", "labs-*.wasm", "train-*.wasm", "tokens-*.wasm", "shared-*.wasm"]
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
    for block in re.finditer(r"^strings! \{\s*(\w+), \w+, [^;]+;(.*?)\n\}", text, re.S | re.M):
        literals = re.findall(LITERAL, block.group(2))
        in_table[block.group(1)] = collections.Counter(literals)
        tables[block.group(1)] = {s for s in literals if "\\" not in s and len(s.encode()) >= MIN_LEN}
if uses != len(tables):
    sys.exit(f"check-strings: {uses} tables written with strings! but {len(tables)} read")
# The text written outside each table (a caption, another table's sentence):
# a string of the table that is part of it proves nothing.
outside = {name: [s for s, n in everywhere.items() if n > counts[s]] for name, counts in in_table.items()}
missing = {"CommonText", "PageText", "MapText", "LabText", "TrainText", "TrainPageText", "TokensText"} - tables.keys()
if missing:
    sys.exit(f"check-strings: tables {sorted(missing)} not found in src/app/i18n/")

failed = False
for module in MODULES:
    wasm = sorted(dist.glob(module))
    if len(wasm) != 1 and module not in OPTIONAL:
        sys.exit(f"check-strings: expected one {module} in {dist}, found {len(wasm)}")
    # Each file holds its module compressed with LZMA (scripts/lzma_pack.py).
    data = b"".join(lzma_pack.unpack(w.read_bytes()) for w in wasm)
    for name, strings in sorted(tables.items()):
        # Text also written elsewhere (the same words or a sentence
        # containing them, in a caption) proves nothing.
        stray = [s for s in strings if s.encode() in data and not any(s in o for o in outside[name])]
        if stray:
            print(f"check-strings: {module} carries table {name}'s text, which the language files hold "
                  f"({len(stray)} of its strings, e.g. {stray[0][:60]!r})", file=sys.stderr)
            failed = True
# Each language's files: the build's words, every long string of every
# table in one of them, and each table's only in its part's files: the
# page's tables in the page's, the labs' and the training lab's in the
# labs', the tokens lab's in the tokens lab's (each part fetched only with
# what shows it).
PART_OF = {"LabText": "labs", "TrainText": "labs", "TokensText": "tokens"}
PARTS = {"page": ("zh", "en"), "labs": ("labs-zh", "labs-en"), "tokens": ("tokens-zh", "tokens-en")}
words = {key: sorted(dist.glob(f"strings-{key}-*.txt")) for keys in PARTS.values() for key in keys}
if any(len(files) != 1 for files in words.values()):
    sys.exit(f"check-strings: expected one strings-KEY-*.txt for each of {sorted(words)} in {dist}")
# Each file holds its words compressed with LZMA, as the modules.
part_text = {part: b"\0".join(lzma_pack.unpack(words[key][0].read_bytes()) for key in keys)
             for part, keys in PARTS.items()}
text = b"\0".join(part_text.values())
for name, strings in sorted(tables.items()):
    absent = [s for s in strings if s.encode() not in text]
    if absent or not strings:
        print(f"check-strings: table {name}'s words are not all in the language files "
              f"({len(absent)} missing, e.g. {absent[:1]})", file=sys.stderr)
        failed = True
    own = PART_OF.get(name, "page")
    for part, data in part_text.items():
        stray = [s for s in strings if part != own and s.encode() in data and not any(s in o for o in outside[name])]
        if stray:
            print(f"check-strings: the {part} words carry table {name}'s, which are the {own} words' "
                  f"({len(stray)} of its strings, e.g. {stray[0][:60]!r})", file=sys.stderr)
            failed = True
if failed:
    sys.exit(1)
print(f"check-strings: no module or chunk carries the string tables; "
      f"the language files ({', '.join(f[0].name for f in words.values())}) hold all {len(tables)}, "
      f"each in its part's files")
