#!/usr/bin/env python3
"""LZMA, as dist/ ships its WebAssembly (docs/architecture.md, "Modules
compressed with LZMA"), and as static/unlzma.js reads it back.

The container is liblzma's "lzma_alone" (.lzma) format: one byte of
properties (lc, lp, pb), four bytes of dictionary size, eight bytes of
uncompressed size, then the range coder's bytes. liblzma writes the size
as unknown and ends the data with an end marker; `pack` writes the size,
which the decoder needs to allocate its output at once (the end marker
stays: the decoder stops at the size and never reads it). `xz -d
--format=lzma` reads the result.

    python3 scripts/lzma_pack.py IN OUT [LC LP PB]
"""
import lzma
import struct
import sys

# lc = 3, lp = 0, pb = 0: the literal coder keyed on the previous byte's
# three high bits, positions ignored (WebAssembly's code has no alignment
# to exploit). Of lc 0-4 and pb 0-2 this gives the smallest files for the
# app's modules (docs/performance.md, "Modules compressed with LZMA").
LC, LP, PB = 3, 0, 0


def pack(data: bytes, lc: int = LC, lp: int = LP, pb: int = PB) -> bytes:
    """`data` compressed at liblzma's strongest preset (9, extreme), its
    dictionary as large as `data` needs, in the .lzma format with the size
    written."""
    dict_size = max(4096, 1 << max(len(data) - 1, 1).bit_length())
    filters = [{"id": lzma.FILTER_LZMA1, "preset": 9 | lzma.PRESET_EXTREME, "lc": lc, "lp": lp, "pb": pb,
                "dict_size": dict_size, "nice_len": 273}]
    raw = lzma.compress(data, format=lzma.FORMAT_ALONE, filters=filters)
    if raw[5:13] != b"\xff" * 8:
        sys.exit("lzma_pack: liblzma wrote a size where an unknown one was expected")
    return raw[:5] + struct.pack("<Q", len(data)) + raw[13:]


def unpack(data: bytes) -> bytes:
    """What `pack` packed (liblzma's own decoder)."""
    return lzma.decompress(data, format=lzma.FORMAT_ALONE)


if __name__ == "__main__":
    if len(sys.argv) not in (3, 6):
        sys.exit("usage: lzma_pack.py IN OUT [LC LP PB]")
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    params = [int(x) for x in sys.argv[3:]]
    with open(sys.argv[2], "wb") as f:
        f.write(pack(data, *params))
