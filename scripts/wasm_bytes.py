"""Reading and rewriting a WebAssembly module's sections, for the build's
scripts (scripts/postbuild.py, scripts/check-linked.py)."""
import sys
from typing import Callable, Iterator


def leb(data: bytes, at: int) -> tuple[int, int]:
    """The unsigned LEB128 number at `at`, and where it ends."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def name(data: bytes, at: int) -> tuple[str, int]:
    """The name (its length, then UTF-8) at `at`, and where it ends."""
    n, at = leb(data, at)
    return data[at:at + n].decode("utf-8", "replace"), at + n


def uleb(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def sections(wasm: bytes) -> Iterator[tuple[int, int, int, int]]:
    """Each section as (id, where it starts, where its payload starts,
    where it ends)."""
    at = 8
    while at < len(wasm):
        size, start = leb(wasm, at + 1)
        yield wasm[at], at, start, start + size
        at = start + size


def rewrite_section(wasm: bytes, sid: int, payload: Callable[[int, int], bytes]) -> bytes:
    """`wasm` with the payload of each section `sid` replaced by
    `payload(start, end)`, given where the old one lies in `wasm`."""
    out = bytearray(wasm[:8])
    for section, at, start, end in sections(wasm):
        if section == sid:
            new = payload(start, end)
            out += bytes([sid]) + uleb(len(new)) + new
        else:
            out += wasm[at:end]
    return bytes(out)


def rewrite_entries(wasm: bytes, start: int, end: int,
                    entry: Callable[[int], tuple[bytes, int]], what: str) -> bytes:
    """A section payload that is a vector (its count, then its entries),
    lying at `start`..`end` of `wasm`, with each entry replaced by
    `entry(p)`: the new entry's bytes and where the old one ends. Fails
    when the entries do not read to `end`."""
    count, p = leb(wasm, start)
    out = bytearray(uleb(count))
    for _ in range(count):
        new, p = entry(p)
        out += new
    if p != end:
        sys.exit(f"postbuild: the {what} section did not read to its end")
    return bytes(out)
