"""Sudoku puzzle files and solution checks for the outside solvers of #18 (standard library).

Puzzles are lines of side*side characters, `.` or `0` for an empty cell,
symbols 1-9 then A-Z, or (the tool's layout beyond 35x35) side*side numbers
separated by spaces, 0 for an empty cell; `#` lines are comments; `-` reads
stdin. A puzzle line of symbols may be followed by a space and one of its
solutions, then a space and cell numbers (see cpsat_sudoku.py's `unique`).
"""

import math
import statistics
import sys

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def read(path):
    handle = sys.stdin if path == "-" else open(path, encoding="utf-8")
    name = "<stdin>" if path == "-" else path
    for number, text in enumerate(handle, 1):
        tokens = text.split()
        if len(tokens) > 3 and not tokens[0].startswith("#"):
            # The tool's layout beyond 35x35: side*side numbers, 0 for an empty cell.
            side = math.isqrt(len(tokens))
            base = math.isqrt(side)
            if side * side != len(tokens) or base * base != side or not all(t.isdigit() for t in tokens):
                raise SystemExit(f"{name}:{number}: not a square sudoku of square boxes ({len(tokens)} numbers)")
            cells = [int(t) for t in tokens]
            if any(v > side for v in cells):
                raise SystemExit(f"{name}:{number}: a number larger than the side, {side}")
            yield f"{name}:{number}", base, cells, None, None
            continue
        text, _, rest = text.strip().partition(" ")
        if not text or text.startswith("#"):
            continue
        known, _, at = rest.strip().partition(" ")
        side = math.isqrt(len(text))
        base = math.isqrt(side)
        if side * side != len(text) or base * base != side:
            raise SystemExit(f"{name}:{number}: not a square sudoku of square boxes ({len(text)} characters)")
        cells = [0 if ch in ".0" else SYMBOLS.index(ch.upper()) + 1 for ch in text]
        known = [SYMBOLS.index(ch.upper()) + 1 for ch in known] or None
        at = [int(c) for c in at.split(",") if c.strip()] or None
        if at is not None and (known is None or any(not 0 <= c < len(cells) or cells[c] for c in at)):
            raise SystemExit(f"{name}:{number}: cells to differ at need a solution and must be empty in the puzzle")
        yield f"{name}:{number}", base, cells, known, at


def valid(base, cells, values):
    side = base * base
    if any(g and g != v for g, v in zip(cells, values)):
        return False
    want = set(range(1, side + 1))
    for k in range(side):
        br, bc = (k // base) * base, (k % base) * base
        units = (
            values[k * side:(k + 1) * side],
            values[k::side],
            [values[(br + r) * side + bc + c] for r in range(base) for c in range(base)],
        )
        if any(set(u) != want for u in units):
            return False
    return True


def summary(rows, solver):
    """The median, worst and total wall and CPU seconds of `rows`
    (`(where, verdict, wall, cpu, ...)`), and how many were solved."""
    if not rows:
        return
    for label, k in (("wall", 2), ("cpu", 3)):
        values = [r[k] for r in rows]
        worst = max(rows, key=lambda r: r[k])
        print(f"# {len(rows)} puzzles, {label}: median {statistics.median(values):.3f} s, "
              f"worst {worst[k]:.3f} s ({worst[0]}), all {sum(values):.3f} s")
    print(f"# solved {sum(r[1] == 'solved' for r in rows)}/{len(rows)}; {solver}")
