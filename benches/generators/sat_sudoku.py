#!/usr/bin/env python3
"""Sudoku with a SAT solver (PySAT), the second outside solver of #18's comparisons.

    python3 -m venv V && V/bin/pip install python-sat
    V/bin/python benches/generators/sat_sudoku.py solve crates/sudoku/tests/data/bench-25x25-outside.txt

The encoding is the exact-cover one SAT solvers are known to do well on:
one boolean per cell and symbol, and for each cell, and each symbol in each
row, column and box, "exactly one" as one clause and pairwise exclusions;
the givens as unit clauses. `--solver` names a PySAT solver (default
CaDiCaL 1.9.5, `cadical195`; `kissat404`, `glucose4`, ... also work). One
line per puzzle, in the format of `cpsat_sudoku.py solve`: `file:line`,
status, wall and CPU seconds of the solve call (the clauses' loading not
included), conflicts and decisions; then the median and worst. Every
solution is checked against the givens and the rules.
"""

import argparse
import time

from pysat.solvers import Solver

from sudoku_file import read, summary, valid


def clauses(base, cells):
    side = base * base

    def var(cell, value):
        return cell * side + value  # value in 1..=side

    def exactly_one(lits):
        yield lits
        for i, a in enumerate(lits):
            for b in lits[i + 1:]:
                yield [-a, -b]

    for cell in range(side * side):
        yield from exactly_one([var(cell, v) for v in range(1, side + 1)])
    for v in range(1, side + 1):
        for k in range(side):
            br, bc = (k // base) * base, (k % base) * base
            yield from exactly_one([var(k * side + c, v) for c in range(side)])
            yield from exactly_one([var(r * side + k, v) for r in range(side)])
            yield from exactly_one([var((br + r) * side + bc + c, v) for r in range(base) for c in range(base)])
    for cell, v in enumerate(cells):
        if v:
            yield [var(cell, v)]


def solve(paths, name):
    rows = []
    for path in paths:
        for where, base, cells, _, _ in read(path):
            side = base * base
            with Solver(name=name, bootstrap_with=clauses(base, cells)) as s:
                wall, cpu = time.perf_counter(), time.process_time()
                found = s.solve()
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                try:
                    stats = s.accum_stats()
                except NotImplementedError:  # Kissat's PySAT binding has no statistics
                    stats = {}
                if found:
                    model = s.get_model()
                    values = [next(v for v in range(1, side + 1) if model[c * side + v - 1] > 0)
                              for c in range(side * side)]
                    if not valid(base, cells, values):
                        raise SystemExit(f"{where}: the SAT solver's solution does not check")
                verdict = "solved" if found else "unsatisfiable"
            rows.append((where, verdict, wall, cpu))
            print(f"{where}\t{verdict}\twall {wall:.3f} s\tcpu {cpu:.3f} s"
                  f"\tconflicts {stats.get('conflicts', '-')}\tdecisions {stats.get('decisions', '-')}", flush=True)
    summary(rows, f"PySAT {name}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["solve"])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--solver", default="cadical195", help="a PySAT solver name")
    args = parser.parse_args()
    solve(args.files, args.solver)


if __name__ == "__main__":
    main()
