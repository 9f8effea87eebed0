#!/usr/bin/env python3
"""Sudoku with OR-tools CP-SAT, one worker: the outside solver of #18's comparisons.

    python3 -m venv target/ortools-venv && target/ortools-venv/bin/pip install ortools
    P=target/ortools-venv/bin/python
    $P benches/generators/cpsat_sudoku.py solve crates/sudoku/tests/data/bench-25x25-outside.txt
    $P benches/generators/cpsat_sudoku.py unique crates/sudoku/tests/data/bench-25x25-outside.txt

The model: one integer variable 1..side per cell, the givens fixed, one
AllDifferent per row, column and box; `num_workers = 1`. `solve` prints one
line per puzzle (`file:line`, status, wall and CPU seconds of the solve
call, CP-SAT's own wall time, branches, conflicts) and then the median and
worst; every solution is checked against the givens and the rules.
`unique` solves, then solves again with the first solution forbidden (some
empty cell must differ): `unique`, `multiple`, `none`, or `unknown` when
`--timeout` ran out; one `verdict<TAB>file:line` per puzzle, like `sudoku
count`, printed as soon as it is known (so a generator can keep one process
and feed it puzzles). A puzzle line may be followed by a space and one of its
solutions: then only the second solve runs. After the solution, a space and
cell numbers (0-based, row-major, comma-separated, each empty in the puzzle)
ask for another solution that differs at one of those cells only; a
generator that removes cell c from a puzzle proved unique with that solution
asks `P-minus-c S c`: any second solution of P minus c must differ at c, and
`x[c] != S[c]` alone is a much easier model than "some empty cell differs".
Puzzles are lines of side*side characters, `.` or `0` for an empty cell,
symbols 1-9 then A-Z, or side*side numbers (0 empty) beyond 35x35; `#`
lines are comments; `-` reads stdin.
"""

import argparse
import time

from ortools.sat.python import cp_model

from sudoku_file import read, summary, valid

def model(base, cells):
    side = base * base
    m = cp_model.CpModel()
    x = [m.NewIntVar(1, side, f"c{i}") for i in range(side * side)]
    for i, v in enumerate(cells):
        if v:
            m.Add(x[i] == v)
    for k in range(side):
        m.AddAllDifferent([x[k * side + c] for c in range(side)])
        m.AddAllDifferent([x[r * side + k] for r in range(side)])
        br, bc = (k // base) * base, (k % base) * base
        m.AddAllDifferent([x[(br + r) * side + bc + c] for r in range(base) for c in range(base)])
    return m, x


def solver(timeout=None):
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    if timeout:
        s.parameters.max_time_in_seconds = timeout
    return s


def solve(paths, timeout):
    rows = []
    for path in paths:
        for where, base, cells, _, _ in read(path):
            wall, cpu = time.perf_counter(), time.process_time()
            m, x = model(base, cells)
            s = solver(timeout)
            status = s.Solve(m)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                if not valid(base, cells, [s.Value(v) for v in x]):
                    raise SystemExit(f"{where}: CP-SAT's solution does not check")
                verdict = "solved"
            else:
                verdict = s.StatusName(status).lower()
            rows.append((where, verdict, wall, cpu, s.WallTime(), s.NumBranches(), s.NumConflicts()))
            print(f"{where}\t{verdict}\twall {wall:.3f} s\tcpu {cpu:.3f} s\tcp-sat wall {s.WallTime():.3f} s"
                  f"\tbranches {s.NumBranches()}\tconflicts {s.NumConflicts()}", flush=True)
    summary(rows, f"OR-tools {cp_model.__name__} {__import__('ortools').__version__}, num_workers=1")


def unique(paths, timeout):
    for path in paths:
        for where, base, cells, known, at in read(path):
            m, x = model(base, cells)
            if known is not None:
                # A solution given after the puzzle: only the second solve.
                if len(known) != len(cells) or not valid(base, cells, known):
                    raise SystemExit(f"{where}: the solution given is not one of the puzzle")
                status, first, used = cp_model.OPTIMAL, known, 0.0
            else:
                s = solver(timeout)
                status = s.Solve(m)
                first, used = None, s.WallTime()
            if status == cp_model.INFEASIBLE:
                verdict = "none"
            elif status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                verdict = "unknown"
            else:
                first = first or [s.Value(v) for v in x]
                if not valid(base, cells, first):
                    raise SystemExit(f"{where}: CP-SAT's solution does not check")
                if at is not None and len(at) == 1:
                    m.Add(x[at[0]] != first[at[0]])
                else:
                    differs = []
                    for i, v in enumerate(cells):
                        if not v and (at is None or i in at):
                            d = m.NewBoolVar(f"d{i}")
                            m.Add(x[i] != first[i]).OnlyEnforceIf(d)
                            differs.append(d)
                    m.AddBoolOr(differs)
                left = None if timeout is None else max(timeout - used, 0.1)
                s2 = solver(left)
                status = s2.Solve(m)
                verdict = {cp_model.INFEASIBLE: "unique", cp_model.FEASIBLE: "multiple",
                           cp_model.OPTIMAL: "multiple"}.get(status, "unknown")
            print(f"{verdict}\t{where}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["solve", "unique"])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--timeout", type=float, default=None, help="seconds per puzzle (per solve call)")
    args = parser.parse_args()
    (solve if args.command == "solve" else unique)(args.files, args.timeout)


if __name__ == "__main__":
    main()
