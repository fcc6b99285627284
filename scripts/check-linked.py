#!/usr/bin/env python3
"""After wasm-split (scripts/build.sh): no module links a function of the
standard library that brings a large table along for a call the app can
make without it (docs/performance.md, "Tables no reader needs").

Each entry is a piece of the function's mangled name, the table it brings,
and what to write instead. The modules are read before wasm-opt, while
they still have their names section; a module that links one fails the
build and names it.

Usage: python3 scripts/check-linked.py SPLIT_DIR
"""
import pathlib
import sys

from wasm_bytes import leb, sections
from wasm_bytes import name as name_at

UNWANTED = [
    ("12unicode_data10alphabetic",
     "Unicode's table of letters (1.7 KB), for char::is_alphabetic or char::is_alphanumeric",
     "the app's markup and the scenario's keys are ASCII: is_ascii_alphabetic, is_ascii_alphanumeric"),
    ("12unicode_data1n",
     "Unicode's table of numerals (0.5 KB), for char::is_numeric or char::is_alphanumeric",
     "is_ascii_digit, is_ascii_alphanumeric"),
    ("4exp2",
     "libm's exp2 and its 4 KB table, which `2f64.powf(x)` also becomes",
     "f64::powi for a whole power, a shift for an integer one"),
]


def function_names(wasm: bytes) -> list[str]:
    """The names of the names section's function subsection."""
    names = []
    for sid, _, start, end in sections(wasm):
        if sid != 0:
            continue
        section, p = name_at(wasm, start)
        if section != "name":
            continue
        while p < end:
            kind = wasm[p]
            size, q = leb(wasm, p + 1)
            p = q + size
            if kind != 1:
                continue
            count, q = leb(wasm, q)
            for _ in range(count):
                _, q = leb(wasm, q)
                function, q = name_at(wasm, q)
                names.append(function)
    return names


split = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/wasm-split")
modules = sorted(split.glob("*.wasm"))
if not modules:
    sys.exit(f"check-linked: no modules in {split}")
failed = False
for module in modules:
    names = function_names(module.read_bytes())
    if not names:
        sys.exit(f"check-linked: {module.name} has no function names to read")
    for piece, table, instead in UNWANTED:
        found = [n for n in names if piece in n]
        if found:
            print(f"check-linked: {module.name} links {found[0][:100]}: {table}; instead: {instead}",
                  file=sys.stderr)
            failed = True
if failed:
    sys.exit(1)
print(f"check-linked: none of {len(modules)} modules links a table of {len(UNWANTED)} named in scripts/check-linked.py")
