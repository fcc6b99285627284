#!/usr/bin/env python3
"""Writes data/digits/digits.txt from scikit-learn's digits.csv.gz.

Usage: python3 data/digits/make.py PATH/TO/digits.csv.gz > data/digits/digits.txt

The csv (scikit-learn's sklearn/datasets/data/digits.csv.gz, a copy of the
test set of the UCI "Optical Recognition of Handwritten Digits" data) has
one image a line: 64 pixels 0..16, row-major, then the label 0..9. Each
becomes one line of the output, in the csv's order: the label, a space,
then the 64 pixels, each one character of 0123456789abcdefg (its value).
README.md in this folder describes the file.
"""

import csv
import gzip
import sys

PIXEL = "0123456789abcdefg"


def whole(text, low, high, where):
    value = float(text)
    if value != int(value) or not low <= value <= high:
        sys.exit(f"{where}: expected a whole number {low}..{high}, got {text!r}")
    return int(value)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    out = []
    with gzip.open(sys.argv[1], "rt", newline="") as f:
        for number, row in enumerate(csv.reader(f), start=1):
            if not row:
                continue
            if len(row) != 65:
                sys.exit(f"line {number}: expected 65 values, got {len(row)}")
            pixels = [whole(v, 0, 16, f"line {number}") for v in row[:64]]
            label = whole(row[64], 0, 9, f"line {number}")
            out.append(f"{label} {''.join(PIXEL[p] for p in pixels)}\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
