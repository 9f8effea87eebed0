#!/usr/bin/env python3
"""Unique sudoku puzzles made by a method other than `sudoku generate` (#18).

    python3 -m venv target/ortools-venv && target/ortools-venv/bin/pip install ortools
    cargo build --release -p csp-sudoku
    nice -n 19 python3 benches/generators/outside_sudoku.py --base 5 --count 20 --seed 9001 --jobs 2 \
        --sudoku target/release/csp-sudoku \
        --outside "target/ortools-venv/bin/python benches/generators/cpsat_sudoku.py" \
        --output crates/sudoku/tests/data/bench-25x25-outside.txt

(crates/sudoku/tests/data/bench-25x25-outside.txt holds the puzzles of such
a run; its header says how many, the seeds and the command. Progress, each
puzzle with its seed, goes to stderr as soon as it is confirmed; `--output`
rewrites the file, header included, after each one, so a run stopped early
leaves a true file.)

Standard library only. The method is the one common in tutorials and
question-and-answer sites, not ours:

1. A full grid from the pattern `(base*(r%base) + r//base + c) % side`, then
   random permutations of the rows within each band, of the bands, of the
   columns within each stack, of the stacks and of the symbols.
2. A target number of givens drawn uniformly in [ceil(0.40*cells),
   floor(0.46*cells)].
3. The cells in a random order, each removed in turn and the removal kept
   only if the puzzle still has exactly one solution, until the target is
   reached (one pass: a puzzle whose pass ends above its target is reported
   on stderr and replaced by the next seed).

Each step's question is narrow: the puzzle P was unique with solution S
(the full grid at first), so P with cell c emptied is still unique iff it
has no solution with c != S[c] (a second solution must differ at c). It is
asked first of our own `sudoku count` (under `--node-limit`; 0 skips it),
and when that is undecided, of the outside solver (`--outside`, e.g.
OR-tools CP-SAT: `cpsat_sudoku.py unique` told S and c, so its model is the
puzzle plus `x[c] != S[c]`: infeasible = still unique), so the puzzles do
not depend on what our solver finds easy to prove. Both answer the same
exact question (a check the outside solver leaves unknown at
`--outside-timeout` keeps the given). Every final puzzle is then confirmed
unique by the outside solver alone (two solves, not told the solution). Each puzzle
comes from its own `random.Random(seed)`; the seeds are consecutive from
`--seed`. The output is the bench-file format: `#` comment lines, then one
puzzle per line, `.` for an empty cell and the symbols 1-9, A-Z.
"""

import argparse
import concurrent.futures
import math
import os
import random
import shlex
import subprocess
import sys
import time

from sudoku_file import SYMBOLS


def full_grid(base, rng):
    """A full grid: the classic pattern under random band/row/stack/column/symbol permutations."""
    side = base * base

    def pattern(r, c):
        return (base * (r % base) + r // base + c) % side

    def shuffled(seq):
        seq = list(seq)
        rng.shuffle(seq)
        return seq

    rbase = range(base)
    rows = [g * base + r for g in shuffled(rbase) for r in shuffled(rbase)]
    cols = [g * base + c for g in shuffled(rbase) for c in shuffled(rbase)]
    nums = shuffled(range(1, side + 1))
    return [nums[pattern(r, c)] for r in rows for c in cols]


def is_valid_full(grid, base):
    side = base * base
    want = set(range(1, side + 1))
    for i in range(side):
        if set(grid[i * side:(i + 1) * side]) != want:
            return False
        if set(grid[i::side]) != want:
            return False
        br, bc = (i // base) * base, (i % base) * base
        box = {grid[(br + r) * side + bc + c] for r in range(base) for c in range(base)}
        if box != want:
            return False
    return True


def line(cells):
    return "".join("." if v == 0 else SYMBOLS[v - 1] for v in cells)


class Checker:
    """Asks `sudoku count` first, the outside solver when ours is undecided."""

    def __init__(self, sudoku, node_limit, outside, outside_timeout):
        self.sudoku = sudoku
        self.node_limit = node_limit
        self.outside = shlex.split(outside)
        self.outside_timeout = outside_timeout
        self.ours = 0
        self.by_outside = 0
        self.undecided = 0
        self.process = None

    def ours_unique(self, puzzle):
        """True, False, or None (node limit)."""
        cmd = [self.sudoku, "count", "--jobs", "1", "-q", "--node-limit", str(self.node_limit)]
        run = subprocess.run(cmd, input=line(puzzle) + "\n", capture_output=True, text=True)
        out = run.stdout  # exit 1 when the node limit was reached
        verdict = out.split("\t", 1)[0].strip()
        if verdict == "unique":
            return True
        if verdict in ("multiple", "none"):
            return False
        if verdict.startswith("at least") or "limit" in verdict:
            return None
        raise RuntimeError(f"unexpected verdict from sudoku count: {out!r}")

    def outside_unique(self, puzzle, solution, cell):
        """True, False, or None (time limit): whether `puzzle` (a unique
        puzzle with `solution`, `cell` just emptied) is still unique. The
        outside solver looks only for a solution with another value at
        `cell`: any second solution must differ there, since the puzzle with
        `cell` given was unique. One process answers every check of a
        generator's worker, a line each."""
        if self.process is None:
            cmd = self.outside + ["unique", "--timeout", str(self.outside_timeout), "-"]
            self.process = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.process.stdin.write(f"{line(puzzle)} {line(solution)} {cell}\n")
        self.process.stdin.flush()
        verdict = self.process.stdout.readline().split("\t", 1)[0].strip()
        return {"unique": True, "multiple": False, "none": False, "unknown": None}[verdict]

    def confirm(self, puzzle):
        """The outside solver alone, without a time limit and not told the
        solution (two solves): True when it proves the puzzle unique."""
        cmd = self.outside + ["unique", "-"]
        out = subprocess.run(cmd, input=line(puzzle) + "\n", capture_output=True, text=True, check=True).stdout
        return out.split("\t", 1)[0].strip() == "unique"

    def close(self):
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait()
            self.process = None

    def unique_with(self, puzzle, solution, cell):
        """Whether `puzzle`, unique with `solution` before `cell` was emptied, still is."""
        if self.node_limit > 0:
            verdict = self.ours_unique(puzzle)
            if verdict is not None:
                self.ours += 1
                return verdict
        verdict = self.outside_unique(puzzle, solution, cell)
        if verdict is None:
            self.undecided += 1
            return False  # not proved unique: the given stays
        self.by_outside += 1
        return verdict


def make(base, seed, checker, lo, hi):
    """One puzzle from `seed`, or None when the single pass ends above the target."""
    rng = random.Random(seed)
    side = base * base
    grid = full_grid(base, rng)
    assert is_valid_full(grid, base)
    target = rng.randint(lo, hi)
    order = list(range(side * side))
    rng.shuffle(order)
    puzzle = list(grid)
    givens = side * side
    for cell in order:
        if givens == target:
            break
        puzzle[cell] = 0
        if checker.unique_with(puzzle, grid, cell):
            givens -= 1
        else:
            puzzle[cell] = grid[cell]
    return (puzzle, target) if givens == target else (None, (target, givens))


def make_checked(base, seed, checker, lo, hi):
    """`make` in a worker, the final puzzle confirmed unique by the outside solver alone."""
    checker = Checker(checker.sudoku, checker.node_limit, shlex.join(checker.outside), checker.outside_timeout)
    puzzle, target = make(base, seed, checker, lo, hi)
    checker.close()
    if puzzle is not None and not checker.confirm(puzzle):
        raise SystemExit(f"seed {seed}: the outside solver does not confirm uniqueness")
    counts = {"ours": checker.ours, "by_outside": checker.by_outside, "undecided": checker.undecided}
    return puzzle, target, counts


def header(args, checker, made, skipped, last_seed, command):
    """The bench file's comment lines for the puzzles made so far."""
    side = args.base * args.base
    cells = side * side
    lo, hi = math.ceil(args.min_frac * cells), math.floor(args.max_frac * cells)
    ours = (f"`sudoku count --node-limit {args.node_limit}` first, then " if args.node_limit > 0 else "")
    done = "" if len(made) >= args.count else f" (so far: the run asks for {args.count})"
    return [
        f"# {len(made)} {side}x{side} puzzles ({args.base}x{args.base} boxes){done} NOT made by `sudoku generate`: "
        "benches/generators/outside_sudoku.py (stdlib Python).",
        "# Full grid: the pattern (base*(r%base) + r//base + c) % side, rows within bands, bands, columns within stacks,",
        "# stacks and symbols randomly permuted; then cells removed in random order, a removal kept only if the",
        f"# puzzle stays unique, down to a target drawn in [{lo}, {hi}] givens ({args.min_frac:.0%}-{args.max_frac:.0%}).",
        f"# Step check (the puzzle was unique with solution S; is it still, cell c emptied?): {ours}OR-tools CP-SAT",
        "# (one worker, AllDifferent model) asked for a solution with c != S[c], infeasible = still unique",
        f"# ({checker.ours} checks by ours, {checker.by_outside} by CP-SAT, {checker.undecided} undecided kept as givens);",
        "# every puzzle below confirmed unique by CP-SAT alone (cpsat_sudoku.py unique: a second solve that forbids the first).",
        f"# Seeds {args.seed}..{last_seed} (each puzzle random.Random(seed)); skipped (pass ended above target): "
        f"{', '.join(f'{s} ({g} givens, target {t})' for s, (t, g) in skipped) or 'none'}.",
        f"# Seeds and givens: {', '.join(f'{s}: {t}' for s, t, _ in made)}.",
        f"# {command}",
    ]


def write(path, lines):
    """`lines` into `path` through a temporary file, so the file is always whole."""
    with open(path + ".tmp", "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=int, default=5, help="box side (5: 25x25)")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1, help="the first puzzle's seed; then seed+1, ...")
    parser.add_argument("--min-frac", type=float, default=0.40)
    parser.add_argument("--max-frac", type=float, default=0.46)
    parser.add_argument("--sudoku", required=True, help="our sudoku tool (target/release/csp-sudoku)")
    parser.add_argument("--node-limit", type=int, default=2000,
                        help="our count's node limit before asking outside at each step; 0: the outside solver only")
    parser.add_argument("--outside", required=True, help="the outside solver's command (takes: unique --timeout S -)")
    parser.add_argument("--outside-timeout", type=float, default=120.0)
    parser.add_argument("--jobs", type=int, default=1, help="seeds made in parallel (the output does not change)")
    parser.add_argument("--output", help="also (re)write this bench file after each puzzle, header included")
    args = parser.parse_args()
    if not 2 <= args.base <= 5:
        parser.error("--base must be 2..5 (symbols 1-9, A-P)")
    cells = args.base ** 4
    lo, hi = math.ceil(args.min_frac * cells), math.floor(args.max_frac * cells)
    checker = Checker(args.sudoku, args.node_limit, args.outside, args.outside_timeout)
    command = " ".join(shlex.quote(a) for a in sys.argv)
    made, skipped, seed = [], [], args.seed
    start = time.time()
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        pending = {}
        next_seed = args.seed
        # Every seed still needed queued, `--jobs` running at a time, the
        # results taken in seed order: the same puzzles as one job.
        while len(made) < args.count:
            while len(pending) < args.count - len(made):
                pending[next_seed] = pool.submit(make_checked, args.base, next_seed, checker, lo, hi)
                next_seed += 1
            try:
                puzzle, target, counts = pending.pop(seed).result()
            except BaseException:
                for future in pending.values():
                    future.cancel()  # the queued seeds, not the running ones
                raise
            for k, v in counts.items():
                setattr(checker, k, getattr(checker, k) + v)
            if puzzle is None:
                skipped.append((seed, target))
                print(f"seed {seed}: pass ended at {target[1]} givens above target {target[0]}", file=sys.stderr)
            else:
                made.append((seed, target, puzzle))
                print(f"seed {seed}: {target} givens, confirmed unique by the outside solver "
                      f"({time.time() - start:.0f} s): {line(puzzle)}", file=sys.stderr, flush=True)
            if args.output:
                write(args.output, header(args, checker, made, skipped, seed, command) + [line(p) for _, _, p in made])
            seed += 1
        pool.shutdown(cancel_futures=True)
    for text in header(args, checker, made, skipped, seed - 1, command) + [line(p) for _, _, p in made]:
        print(text)
    print(f"generation: {time.time() - start:.0f} s wall", file=sys.stderr)


if __name__ == "__main__":
    main()
