#!/usr/bin/env python3
"""Keep a fraction of the cells of full sudoku grids at random: satisfiable puzzles, not unique.

    S=target/release/csp-sudoku
    $S generate --size 49 --count 3 --seed 2000 --givens 2401 --jobs 1 > /tmp/full49.txt
    python3 benches/generators/random_givens.py /tmp/full49.txt --fraction 0.4 --seed 12

Reads full grids in the tool's line layout (one grid a line: side*side
characters, or side*side numbers separated by spaces beyond 35x35; `#` lines
are comments, `-` is stdin) and prints, for each grid in order, the same grid
with exactly round(fraction * cells) cells kept: the cell indices are shuffled
with Python's `random.Random(seed)` (one generator for the whole file) and the
first ones kept. The output starts with `#` lines naming the input's own header
and this command, so a file made this way says how to make it again. A kept
grid is a quasigroup completion problem with its box constraints: satisfiable
(the full grid is a solution), usually with many solutions.
"""

import argparse
import math
import random
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="full grids, one a line ('-' for stdin)")
    parser.add_argument("--fraction", type=float, default=0.4, help="the fraction of the cells kept (default 0.4)")
    parser.add_argument("--seed", type=int, default=12, help="the seed of the shuffles (default 12)")
    args = parser.parse_args()
    if not 0.0 <= args.fraction <= 1.0:
        raise SystemExit(f"--fraction {args.fraction}: not between 0 and 1")
    handle = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    rng = random.Random(args.seed)
    header, grids = [], []
    for number, text in enumerate(handle, 1):
        text = text.strip()
        if not text:
            continue
        if text.startswith("#"):
            header.append(text)
            continue
        cells = text.split() if " " in text else list(text)
        side = math.isqrt(len(cells))
        if side * side != len(cells):
            raise SystemExit(f"{args.file}:{number}: {len(cells)} cells is not a square grid")
        if any(c in (".", "0") for c in cells):
            raise SystemExit(f"{args.file}:{number}: not a full grid (an empty cell)")
        grids.append((" " in text, cells))
    percent = round(100 * args.fraction)
    print(f"# {len(grids)} puzzles with {percent}% of the cells of full grids given at random: satisfiable, not unique.")
    print(f"# Full grids: {' / '.join(h.lstrip('# ') for h in header) or args.file}")
    print(f"# then: python3 benches/generators/random_givens.py FULL --fraction {args.fraction} --seed {args.seed}")
    for numbers, cells in grids:
        keep = round(args.fraction * len(cells))
        order = list(range(len(cells)))
        rng.shuffle(order)
        kept = set(order[:keep])
        empty = "0" if numbers else "."
        out = [c if i in kept else empty for i, c in enumerate(cells)]
        print(" ".join(out) if numbers else "".join(out))


if __name__ == "__main__":
    main()
