#!/usr/bin/env python3
"""No module imports in a circle (docs/architecture.md, "The gates").

Reads the module graph of each crate of the workspace from its source:
the files (`foo.rs`, `foo/mod.rs`, `foo/bar.rs`) are its modules, and a
module depends on another when its code names it: a `use` path or a path
in the code that starts with `crate::`, `super::` or `self::`, or with the
name of a sibling module (reachable by name after `use super::*`). Each
dependency counts between the two modules that are siblings under their
nearest common parent (`app::page` naming `app::layers::x` is page ->
layers); a module naming its own parent or child is not a dependency
between siblings. Any cycle among siblings fails the check, with the
modules and one line that makes each step.

Test modules (`tests.rs`, `tests/…`, `#[cfg(test)] mod tests { … }`) are
left out: a test may reach anything it tests.

    python3 scripts/check-cycles.py [CRATE_SRC_DIR …]
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = [ROOT / "src"] + sorted(p / "src" for p in (ROOT / "crates").iterdir() if (p / "src").is_dir())

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def modules(src: Path) -> dict:
    """Module path (tuple) -> file, for every module file of the crate."""
    out = {}
    for f in sorted(src.rglob("*.rs")):
        rel = f.relative_to(src).with_suffix("")
        parts = list(rel.parts)
        if parts in (["lib"], ["main"]):
            parts = []
        elif parts[-1] == "mod":
            parts = parts[:-1]
        if "tests" in parts or any(p.endswith("_tests") for p in parts):
            continue
        if parts and parts[0] in ("bin",):
            continue
        out[tuple(parts)] = f
    return out


def strip(text: str) -> str:
    """The code without comments, strings, and `#[cfg(test)]` modules."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\])'", "' '", text)
    # A test module written inline: drop from its header to its closing brace.
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\((?:all\()?test[^\]]*\]\s*(?:pub\s+)?mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def use_paths(code: str):
    """Every path a `use` declaration names, expanded from its braces."""
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        yield from expand(m.group(1).replace(" ", "").replace("\n", ""))


def expand(tree: str):
    depth, start = 0, None
    for i, c in enumerate(tree):
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}":
            depth -= 1
    if start is None:
        yield tree.split(" as ")[0]
        return
    prefix, inner = tree[:start], tree[start + 1:tree.rindex("}")]
    parts, depth, last = [], 0, 0
    for i, c in enumerate(inner):
        depth += {"{": 1, "}": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(inner[last:i])
            last = i + 1
    parts.append(inner[last:])
    for p in parts:
        if p:
            yield from expand(prefix + p)


def resolve(path: str, here: tuple, mods: dict):
    """The module a path names (the longest module prefix), or None."""
    segs = [s for s in path.split("::") if s and s != "*"]
    if not segs:
        return None
    if segs[0] == "crate":
        base, segs = (), segs[1:]
    elif segs[0] in ("super", "self"):
        base = here
        while segs and segs[0] in ("super", "self"):
            base = base[:-1] if segs[0] == "super" else base
            segs = segs[1:]
    else:
        # A sibling's (or a child's) name, reachable after `use super::*`.
        if here + (segs[0],) in mods:
            base = here
        elif here and here[:-1] + (segs[0],) in mods:
            base = here[:-1]
        else:
            return None
    best = base if base in mods else None
    for k in range(1, len(segs) + 1):
        if base + tuple(segs[:k]) in mods:
            best = base + tuple(segs[:k])
        else:
            break
    return best


def sibling_edge(a: tuple, b: tuple):
    """(x, y): the children of a and b's common parent that contain them,
    or None when one contains the other."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    if n == len(a) or n == len(b):
        return None
    return a[: n + 1], b[: n + 1]


def cycles(src: Path):
    mods = modules(src)
    edges = {}
    for here, f in mods.items():
        code = strip(f.read_text(encoding="utf-8"))
        lines = f.read_text(encoding="utf-8").splitlines()
        paths = set(use_paths(code))
        paths |= set(re.findall(rf"\b(?:crate|super|self)(?:::{IDENT})+", code))
        paths |= set(re.findall(rf"(?<![:\w]){IDENT}(?:::{IDENT})+", code))
        for p in paths:
            target = resolve(p, here, mods)
            if target is None:
                continue
            e = sibling_edge(here, target)
            if e is None:
                continue
            last = p.split("::")[-1]
            line = next((i + 1 for i, l in enumerate(lines) if last in l and not l.strip().startswith("//")), 0)
            edges.setdefault(e[0], {}).setdefault(e[1], f"{f.relative_to(ROOT)}:{line} ({p})")
    # Strongly connected components (Tarjan).
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in list(edges):
        if v not in index:
            visit(v)
    return found, edges


def main():
    dirs = [Path(a) for a in sys.argv[1:]] or DEFAULT
    bad = 0
    for src in dirs:
        found, edges = cycles(src.resolve())
        for comp in found:
            bad += 1
            names = ", ".join("::".join(m) for m in comp)
            print(f"check-cycles: {src.relative_to(ROOT) if src.is_relative_to(ROOT) else src}: modules import each other in a circle: {names}", file=sys.stderr)
            for a in comp:
                for b, why in edges.get(a, {}).items():
                    if b in comp:
                        print(f"  {'::'.join(a)} -> {'::'.join(b)}: {why}", file=sys.stderr)
    if bad:
        sys.exit(1)
    print(f"check-cycles: no module imports in a circle ({len(dirs)} crates)")


if __name__ == "__main__":
    main()
