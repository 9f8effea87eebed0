#!/usr/bin/env python3
"""Our solver and OR-tools CP-SAT side by side on one file of sudokus, interleaved (#18).

    P=target/ortools-venv/bin/python
    nice python3 benches/generators/side_by_side.py crates/sudoku/tests/data/bench-25x25-outside.txt \
        --sudoku target/release/csp-sudoku --cpsat "$P benches/generators/cpsat_sudoku.py" \
        [--sat "SATVENV/bin/python benches/generators/sat_sudoku.py"]

Standard library only. For each puzzle in turn, one process each:
`sudoku solve --output json --stats --jobs 1` (our default), the same with
`--learn`, the same with each `--also` option list given,
`cpsat_sudoku.py solve` (one worker) and, with `--sat`, `sat_sudoku.py
solve` (a SAT solver on the exact-cover encoding; CPU of the solve call,
the clauses' loading not included; its nodes are conflicts, 0 for Kissat,
whose binding gives none). Ours runs under the
tool's `--timeout` (`--timeout` here, 60 s by default; wall clock, per
puzzle): a puzzle that reaches it counts as unsolved, slower than any solved
one, in the median and the worst. Ours: CPU time of the
child process (user + system, from `wait4`; process start and parsing
included, a few ms), nodes and the tool's own `time_ms` (wall). CP-SAT: CPU
and wall of the solve call (model building included, the Python start and
import not). Then per solver the median and the worst CPU, and the number
over 100 ms and over 1 s. `--format md` prints the table rows of
BENCHMARKS.md.
"""

import argparse
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import tempfile


def puzzles(path):
    with open(path, encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            text = text.strip()
            if text and not text.startswith("#"):
                yield number, text


def child(cmd, stdin_text):
    """stdout and the CPU seconds (user + system) of the child."""
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=out, stderr=subprocess.DEVNULL, text=True)
        proc.stdin.write(stdin_text)
        proc.stdin.close()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return out.read(), usage.ru_utime + usage.ru_stime


def ours(sudoku, text, extra, timeout):
    """A solve's CPU, wall and nodes; `None` for the wall and nodes when the time limit stopped it."""
    cmd = [sudoku, "solve", "--output", "json", "--stats", "--jobs", "1", "--timeout", str(timeout), *extra, "-"]
    out, cpu = child(cmd, text + "\n")
    record = json.loads(out.splitlines()[0])
    if record.get("status") == "limit":
        return {"cpu": cpu, "wall": None, "nodes": None}
    if record.get("status") != "solved":
        raise SystemExit(f"our solver did not solve: {record}")
    return {"cpu": cpu, "wall": record["time_ms"] / 1000, "nodes": record["nodes"]}


def cpsat(command, text):
    out, _ = child(shlex.split(command) + ["solve", "-"], text + "\n")
    fields = out.splitlines()[0].split("\t")
    if fields[1] != "solved":
        raise SystemExit(f"CP-SAT did not solve: {fields}")
    value = {f.split(" ")[0]: f.split(" ")[1] for f in fields[2:] if not f.startswith("cp-sat")}
    return {"cpu": float(value["cpu"]), "wall": float(value["wall"]), "nodes": int(value["branches"])}


def sat(command, text):
    out, _ = child(shlex.split(command) + ["solve", "-"], text + "\n")
    fields = out.splitlines()[0].split("\t")
    if fields[1] != "solved":
        raise SystemExit(f"the SAT solver did not solve: {fields}")
    value = {f.split(" ")[0]: f.split(" ")[1] for f in fields[2:]}
    conflicts = value["conflicts"]
    return {"cpu": float(value["cpu"]), "wall": float(value["wall"]), "nodes": int(conflicts) if conflicts != "-" else 0}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--sudoku", required=True)
    parser.add_argument("--cpsat", required=True, help="command of cpsat_sudoku.py")
    parser.add_argument("--sat", help="command of sat_sudoku.py (optional; its nodes are conflicts)")
    parser.add_argument("--format", choices=["text", "md"], default="text")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per puzzle for ours (the tool's --timeout)")
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="OPTIONS",
        help="also run ours with these solve options (e.g. \"--learn --restarts glucose\"), after --learn; repeatable",
    )
    args = parser.parse_args()
    solvers = {
        "ours, default": lambda t: ours(args.sudoku, t, [], args.timeout),
        "ours, --learn": lambda t: ours(args.sudoku, t, ["--learn"], args.timeout),
    }
    for options in args.also:
        solvers[f"ours, {options}"] = lambda t, extra=shlex.split(options): ours(args.sudoku, t, extra, args.timeout)
    solvers["CP-SAT, 1 worker"] = lambda t: cpsat(args.cpsat, t)
    if args.sat:
        solvers["SAT, exact cover"] = lambda t: sat(args.sat, t)
    results = {name: [] for name in solvers}
    for number, text in puzzles(args.file):
        row = [f"line {number}", f"{sum(c != '.' for c in text)} givens"]
        for name, run in solvers.items():
            r = run(text)
            results[name].append((number, r))
            if r["nodes"] is None:
                row.append(f"{name}: time limit ({args.timeout:g} s) after {r['cpu'] * 1000:.0f} ms CPU")
            else:
                row.append(f"{name}: {r['cpu'] * 1000:.0f} ms CPU, {r['nodes']} nodes")
        print("\t".join(row), flush=True)
    print(f"# load average before the summary: {os.getloadavg()[0]:.1f}")
    for name, rows in results.items():
        # A puzzle stopped by the time limit ranks above every solved one.
        cpu = [r["cpu"] if r["nodes"] is not None else math.inf for _, r in rows]
        nodes = [r["nodes"] if r["nodes"] is not None else math.inf for _, r in rows]
        stopped = sum(r["nodes"] is None for _, r in rows)
        worst_line, worst = max(rows, key=lambda x: (x[1]["nodes"] is None, x[1]["cpu"]))
        over100 = sum(c > 0.1 for c in cpu)
        over1 = sum(c > 1 for c in cpu)
        median = statistics.median(cpu)
        median = f"{median * 1000:.0f} ms" if median < math.inf else f"over {args.timeout:g} s"
        worst_text = f"{worst['cpu']:.2f} s" if worst["nodes"] is not None else f"time limit ({args.timeout:g} s)"
        total = sum(r["cpu"] for _, r in rows)
        total = f"{total:.2f} s" + (f" ({stopped} stopped at the limit)" if stopped else "")
        solved = [n for n in nodes if n < math.inf]
        max_nodes = f"{max(solved):,}" if solved else "-"
        median_nodes = statistics.median(nodes)
        median_nodes = f"{median_nodes:,.0f}" if median_nodes < math.inf else "-"
        if args.format == "md":
            print(f"| {name} | {len(rows)} | {median} | {worst_text} (line {worst_line}) | {total} | {over100} | "
                  f"{over1} | {median_nodes} | {max_nodes} |")
        else:
            print(f"# {name}: median CPU {median}, worst {worst_text} (line {worst_line}), all {total}; "
                  f"over 100 ms: {over100}, over 1 s: {over1}; nodes median {median_nodes}, max of the solved "
                  f"{max_nodes}")


if __name__ == "__main__":
    sys.exit(main())
