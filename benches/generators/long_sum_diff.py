#!/usr/bin/env python3
"""Differential testing of fzn-csp's long sums (32 terms and more, the
incremental propagator in release) against fzn-gecode.

Each model has 40 to 200 variables over small domains (ranges or sets with
holes), one to three long linear constraints (int_lin_eq, _le, _ne, and
their _reif forms with a free or constrained Boolean; terms repeated at
times, coefficients of both signs, right-hand sides near the value of a
random assignment), and an objective: a long sum minimised or maximised,
or satisfaction counted up to 50 solutions (each solver's solutions checked
here). Where both solvers finish, the status and the optimum (or the count)
must agree; every solution fzn-csp prints is checked against the model.

    python3 benches/generators/long_sum_diff.py [--count 200] [--seed 1] \
        [--fzn-csp target/release/fzn-csp] [--timeout 10] [--keep DIR]

Standard library only; needs fzn-gecode on the PATH.
"""

import argparse
import os
import random
import subprocess
import sys


def model(seed):
    """The model of `seed`: its FlatZinc text, and what to check solutions with."""
    rng = random.Random(seed)
    n = rng.randint(40, 200)
    domains = []
    lines = []
    for i in range(n):
        if rng.random() < 0.5:
            lo = rng.randint(-2, 1)
            dom = list(range(lo, lo + rng.randint(1, 3) + 1))
            lines.append(f"var {lo}..{dom[-1]}: x{i} :: output_var;")
        else:
            dom = sorted(rng.sample(range(-3, 5), rng.randint(2, 3)))
            lines.append(f"var {{{','.join(map(str, dom))}}}: x{i} :: output_var;")
        domains.append(dom)
    constraints = []
    bools = 0
    for _ in range(rng.randint(1, 3)):
        m = rng.randint(32, n)
        scope = rng.sample(range(n), m)
        if rng.random() < 0.2:
            scope += rng.sample(scope, rng.randint(1, 3))  # repeated terms
        coefs = [rng.choice([-1, 1]) * rng.randint(1, 5) for _ in scope]
        point = [rng.choice(d) for d in domains]
        value = sum(a * point[x] for a, x in zip(coefs, scope))
        rhs = value + rng.randint(-2, 2)
        kind = rng.choice(["eq", "le", "le", "ne", "eq_reif", "le_reif", "ne_reif"])
        cs = f"[{','.join(map(str, coefs))}]"
        xs = f"[{','.join(f'x{x}' for x in scope)}]"
        if kind.endswith("_reif"):
            b = f"b{bools}"
            bools += 1
            lines.append(f"var bool: {b} :: output_var;")
            fixed = rng.choice([None, None, True, False])
            if fixed is not None:
                constraints.append(f"constraint bool_eq({b},{'true' if fixed else 'false'});")
            constraints.append(f"constraint int_lin_{kind}({cs},{xs},{rhs},{b});")
        else:
            constraints.append(f"constraint int_lin_{kind}({cs},{xs},{rhs});")
    goal = rng.choice(["min", "max", "count"])
    if goal == "count":
        lines += constraints
        lines.append("solve satisfy;")
    else:
        m = rng.randint(32, n)
        scope = rng.sample(range(n), m)
        coefs = [rng.choice([-1, 1]) * rng.randint(1, 4) for _ in scope]
        lo = sum(min(a * v for v in domains[x]) for a, x in zip(coefs, scope))
        hi = sum(max(a * v for v in domains[x]) for a, x in zip(coefs, scope))
        lines.append(f"var {lo}..{hi}: obj :: output_var;")
        lines += constraints
        cs = ",".join(map(str, coefs + [-1]))
        xs = ",".join([f"x{x}" for x in scope] + ["obj"])
        lines.append(f"constraint int_lin_eq([{cs}],[{xs}],0);")
        lines.append(f"solve {'minimize' if goal == 'min' else 'maximize'} obj;")
    return "\n".join(lines) + "\n", goal


def run(cmd, path, goal, timeout):
    """The solver's status, its last objective (or count), and its solutions."""
    extra = ["-a"] if goal != "count" else ["-n", "50"]
    try:
        p = subprocess.run(cmd + extra + [path], capture_output=True, text=True, timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return "timeout", None, []
    if p.returncode != 0:
        return f"crash {p.returncode}: {p.stderr.strip()[:300]}", None, []
    out = p.stdout
    solutions = []
    current = {}
    for line in out.splitlines():
        line = line.strip()
        if line == "----------":
            solutions.append(current)
            current = {}
        elif " = " in line and line.endswith(";"):
            name, value = line[:-1].split(" = ")
            current[name] = value
    if "=====UNSATISFIABLE=====" in out:
        return "unsat", None, solutions
    complete = "==========" in out
    if goal == "count":
        status = "complete" if complete or len(solutions) == 50 else "unknown"
        return status, min(len(solutions), 50), solutions
    best = int(solutions[-1]["obj"]) if solutions else None
    return ("optimal" if complete else "unknown"), best, solutions


def holds(text, solution):
    """Whether `solution` (FlatZinc output values) satisfies the model's constraints."""
    env = {k: (1 if v == "true" else 0 if v == "false" else int(v)) for k, v in solution.items()}
    for line in text.splitlines():
        if not line.startswith("constraint "):
            continue
        name = line[len("constraint "):line.index("(")]
        args = line[line.index("(") + 1:line.rindex(")")]
        if name == "bool_eq":
            b, v = args.split(",")
            if env[b] != (1 if v == "true" else 0):
                return False
            continue
        cs, rest = args[1:].split("],[", 1)
        xs, tail = rest.split("],", 1)
        total = sum(int(a) * env[x] for a, x in zip(cs.split(","), xs.split(",")))
        parts = tail.split(",")
        rhs = int(parts[0])
        relation = name[len("int_lin_"):].replace("_reif", "")
        truth = {"eq": total == rhs, "le": total <= rhs, "ne": total != rhs}[relation]
        if name.endswith("_reif"):
            if truth != (env[parts[1]] == 1):
                return False
        elif not truth:
            return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fzn-csp", default="target/release/fzn-csp")
    ap.add_argument("--timeout", type=int, default=10, help="seconds per solver and model")
    ap.add_argument("--keep", default="target/long-sum-diff")
    args = ap.parse_args()
    os.makedirs(args.keep, exist_ok=True)
    tally = {"agree": 0, "unknown": 0, "disagree": 0}
    for seed in range(args.seed, args.seed + args.count):
        text, goal = model(seed)
        path = os.path.join(args.keep, f"m{seed}.fzn")
        with open(path, "w") as f:
            f.write(text)
        ours = run([args.fzn_csp, "-t", str(args.timeout * 1000)], path, goal, args.timeout)
        theirs = run(["fzn-gecode", "-time", str(args.timeout * 1000)], path, goal, args.timeout)
        bad = [s for s in ours[2] if not holds(text, s)]
        if ours[0].startswith("crash") or bad:
            verdict = "disagree"
            print(f"seed {seed}: fzn-csp {ours[0]}, {len(bad)} wrong solutions", flush=True)
        elif "unknown" in (ours[0], theirs[0]) or "timeout" in (ours[0], theirs[0]) or theirs[0].startswith("crash"):
            verdict = "unknown"
        elif (ours[0], ours[1]) == (theirs[0], theirs[1]) or (goal == "count" and ours[1] == theirs[1]):
            verdict = "agree"
        else:
            verdict = "disagree"
            print(f"seed {seed} ({goal}): fzn-csp {ours[:2]}, gecode {theirs[:2]}", flush=True)
        tally[verdict] += 1
        if verdict != "disagree":
            os.remove(path)
    print(f"models {args.count}: {tally['agree']} agree, {tally['unknown']} unknown (a time limit), "
          f"{tally['disagree']} disagree")
    sys.exit(1 if tally["disagree"] else 0)


if __name__ == "__main__":
    main()
