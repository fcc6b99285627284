#!/usr/bin/env bash
# Regenerates static/fonts/stix-two-math-subset.woff2, the math font the
# formulas (MathML) are drawn with: STIX Two Math (SIL Open Font License,
# static/fonts/OFL-STIX-Two.txt) from the npm package @fontsource/stix-two-math,
# cut down to the characters the formulas use, keeping the OpenType MATH
# table (stretchy brackets, radicals, sums). Run by hand when the formulas
# need new characters; the result is committed, so builds need no font tools.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent @fontsource/stix-two-math@5.3.0 >/dev/null && tar xzf ./*.tgz)
python3 -m pip install --quiet --disable-pip-version-check fonttools==4.68.0 brotli
# The characters of crates/lesson/formula-chars.txt: exactly those the
# formulas draw, with the mathematical italic letters MathML draws a lone
# <mi> with (tests in crates/lesson/src/formulas.rs and src/app/heads/split.rs
# fail on a missing or a spare one; the second names both).
# The MATH table's variants of those (larger radicals, sums, brackets) come
# with them. No hinting: the formulas are drawn at text sizes on screens
# that smooth them (it halves the file). No OpenType layout features: of
# those the subset could keep, only kerning (GPOS `kern`) was left, and of
# the formulas' runs of letters it moves only "Attention" and "row", by
# at most 0.015 em a pair (0.2 px at text size), for 476 B of the 11,376.
pyftsubset "$work/package/files/stix-two-math-latin-400-normal.woff2" \
  --text-file=crates/lesson/formula-chars.txt --layout-features='' --no-hinting \
  --flavor=woff2 --output-file=static/fonts/stix-two-math-subset.woff2
cp "$work/package/LICENSE" static/fonts/OFL-STIX-Two.txt
ls -l static/fonts/stix-two-math-subset.woff2
