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
# Latin, Latin-1, Greek, punctuation, super/subscripts, ℎ ℝ, arrows, math
# operators, brackets and their pieces, math italic Latin and Greek.
pyftsubset "$work/package/files/stix-two-math-latin-400-normal.woff2" \
  --unicodes="U+0020-007E,U+00A0-00FF,U+0391-03C9,U+2010-2044,U+2070-209F,U+210E,U+211D,U+2190-21FF,U+2200-22FF,U+2308-230B,U+239B-23B3,U+27E8-27E9,U+1D434-1D467,U+1D6E2-1D71B" \
  --layout-features='*' --flavor=woff2 --output-file=static/fonts/stix-two-math-subset.woff2
cp "$work/package/LICENSE" static/fonts/OFL-STIX-Two.txt
ls -l static/fonts/stix-two-math-subset.woff2
