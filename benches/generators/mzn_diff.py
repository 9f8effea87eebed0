#!/usr/bin/env python3
"""Differential testing of fzn-csp against Gecode on small random MiniZinc models.

    cargo build --release -p csp-flatzinc
    nice -n 10 python3 benches/generators/mzn_diff.py --count 1000 --seed 1 \
        [--fzn-csp target/release/fzn-csp] [--keep target/mzn-diff] [--timeout 20]

Standard library only; needs `minizinc` (2.6) and `fzn-gecode` (Debian's
`flatzinc` package). The script sets up both solvers in a scratch folder:
fzn-csp through `fzn-csp --install-msc` (the solver library of the binary
given), Gecode the way `../shared/tools/gecode-reference` does (its library
without `inverse.mzn` and `nvalue.mzn`, which clash with MiniZinc 2.6.4).

Each model (seed `SEED + i`, so any one can be rerun with `--seed S --count 1`)
has a few integer variables with small domains (ranges, sets, negative values),
a few booleans, sometimes a permutation group (for circuit, inverse), task
starts (cumulative, disjunctive), and random constraints: linear relations
with coefficients, nested arithmetic (`*`, `div`, `mod`, `abs`, `min`, `max`,
`pow`), reification and boolean logic, `element`, and the globals the solver
library declares (all_different, _except_0, count, among, global_cardinality,
table, regular, circuit, subcircuit, inverse, lex, increasing, nvalue,
cumulative, disjunctive, bin_packing_load, diffn, set membership). A model
either satisfies (both solvers enumerate every solution with `-a`; the sets of
printed solutions must be equal) or minimises / maximises (the proved optima
must be equal, or both must say unsatisfiable).

A disagreement prints the seed and writes the model to `--keep` (default
`target/mzn-diff`) as `SEED.mzn`, with both outputs beside it. A model that
one side cannot compile, or that reaches the time limit, is counted and skipped
(its seed printed).

`--packing` makes the models mostly of element over constant arrays of 12-40
entries (an index of one more value each side) and diffn with variable
widths, the paths of the explanations that skip the scans.

`--csp-flag=FLAG` (repeatable) gives fzn-csp one more flag through `minizinc
--solver`: a standard flag or one of the configuration's `extraFlags`, e.g.
`--csp-flag=-f`, `--csp-flag=--no-learn`, `--csp-flag=-p --csp-flag=2
--csp-flag=--share`, `--csp-flag=-f --csp-flag=--vivify` (docs/minizinc.md
lists the runs at scale). A flag with its value in one word is split into
the words MiniZinc takes (it refuses `--rephase=1`): `--csp-flag=--rephase=1`
is `--csp-flag=--rephase --csp-flag=1`, and so is `--csp-flag='--rephase 1'`.
The last line sums up: models, agreements (unsatisfiable, the same
solutions, the same optimum), disagreements, skips by reason.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

BIG = [2**31 - 1, -(2**31 - 1), 10**9, -(10**9), 2**20, 999_983]


class Model:
    """One random model: declarations, constraints and the output item."""

    def __init__(self, rng, wide):
        self.rng = rng
        self.wide = wide
        self.lines = ['include "globals.mzn";']
        self.ints = []  # (name, lo, hi) of each integer variable
        self.bools = []
        self.output = []

    def int_var(self, name, lo, hi, values=None):
        if values is not None:
            self.lines.append("var {%s}: %s;" % (", ".join(map(str, sorted(values))), name))
            lo, hi = min(values), max(values)
        else:
            self.lines.append("var %d..%d: %s;" % (lo, hi, name))
        self.ints.append((name, lo, hi))
        self.output.append(name)
        return name

    def int_array(self, name, n, lo, hi, first=1):
        last = first + n - 1
        self.lines.append("array[%d..%d] of var %d..%d: %s;" % (first, last, lo, hi, name))
        for i in range(first, last + 1):
            self.ints.append(("%s[%d]" % (name, i), lo, hi))
        self.output.append(name)
        return ["%s[%d]" % (name, i) for i in range(first, last + 1)]

    def bool_var(self, name):
        self.lines.append("var bool: %s;" % name)
        self.bools.append(name)
        self.output.append(name)
        return name

    def post(self, text):
        self.lines.append("constraint %s;" % text)

    # Random pieces.

    def coef(self):
        r = self.rng.random()
        if r < 0.6:
            return self.rng.choice([1, -1, 2, -2, 3])
        if r < 0.9:
            return self.rng.randint(-9, 9)
        return self.rng.choice([1000, -1000, 65536, 10**6]) if not self.wide else self.rng.choice(BIG)

    def const(self):
        r = self.rng.random()
        if r < 0.85:
            return self.rng.randint(-6, 6)
        return self.rng.choice(BIG) if self.wide else self.rng.randint(-100, 100)

    def some_ints(self, k):
        k = min(k, len(self.ints))
        return [v[0] for v in self.rng.sample(self.ints, k)]

    def int_expr(self, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.35:
            if rng.random() < 0.15:
                return str(self.const())
            if self.bools and rng.random() < 0.1:
                return "bool2int(%s)" % rng.choice(self.bools)
            return rng.choice(self.ints)[0]
        a = self.int_expr(depth - 1)
        b = self.int_expr(depth - 1)
        op = rng.choice(["+", "-", "*", "div", "mod", "abs", "min", "max", "pow", "lin", "elem", "sum", "ite"])
        if op in ("+", "-", "*", "div", "mod"):
            return "(%s %s %s)" % (a, op, b)
        if op == "abs":
            return "abs(%s)" % a
        if op in ("min", "max"):
            return "%s(%s, %s)" % (op, a, b)
        if op == "pow":
            # A negative exponent (`pow(2, -1) = 0`, MiniZinc's `1 div x^-y`) is
            # left out: Gecode fails on it.
            return "pow(%s, %d)" % (a, rng.randint(0, 3)) if rng.random() < 0.6 else "pow(%s, max(0, %s))" % (a, b)
        if op == "lin":
            return "(%d * %s + %d * %s)" % (self.coef(), a, self.coef(), b)
        if op == "elem":
            n = rng.randint(2, 5)
            lo = rng.randint(-2, 2)
            table = [self.const() for _ in range(n)]
            return "array1d(%d..%d, [%s])[%s]" % (lo, lo + n - 1, ", ".join(map(str, table)), a)
        if op == "sum":
            vs = self.some_ints(rng.randint(2, 4))
            return "(" + " + ".join("%d * %s" % (self.coef(), v) for v in vs) + ")"
        return "(if %s then %s else %s endif)" % (self.bool_expr(depth - 1), a, b)

    def bool_expr(self, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.3:
            if self.bools and rng.random() < 0.5:
                b = rng.choice(self.bools)
                return b if rng.random() < 0.7 else "not %s" % b
            return self.relation(0)
        a = self.bool_expr(depth - 1)
        b = self.bool_expr(depth - 1)
        op = rng.choice(["/\\", "\\/", "->", "<->", "xor", "rel", "in", "not"])
        if op == "rel":
            return self.relation(depth - 1)
        if op == "in":
            values = sorted(set(rng.randint(-4, 6) for _ in range(rng.randint(1, 4))))
            return "(%s in {%s})" % (self.int_expr(depth - 1), ", ".join(map(str, values)))
        if op == "not":
            return "not (%s)" % a
        return "(%s %s %s)" % (a, op, b)

    def relation(self, depth):
        op = self.rng.choice(["=", "!=", "<", "<=", ">", ">="])
        return "(%s %s %s)" % (self.int_expr(depth), op, self.int_expr(depth))

    def linear(self):
        vs = self.some_ints(self.rng.randint(1, 4))
        terms = " + ".join("%d * %s" % (self.coef(), v) for v in vs)
        op = self.rng.choice(["=", "!=", "<=", ">=", "<"])
        return "%s %s %d" % (terms, op, self.const())


def generate(seed, wide, focus=False):
    """The text of model `seed` and whether it optimises (`focus`: element
    over long constant arrays and diffn with variable sizes, mostly)."""
    rng = random.Random(seed)
    m = Model(rng, wide)
    n = rng.randint(2, 5)
    for i in range(n):
        r = rng.random()
        if r < 0.2:
            m.int_var("x%d" % i, 0, 0, values=rng.sample(range(-5, 8), rng.randint(1, 4)))
        elif r < 0.3 and wide:
            lo = rng.choice([-(10**6), -(2**30), 0])
            m.int_var("x%d" % i, lo, lo + rng.randint(0, 4) * rng.choice([1, 10**5, 2**29]))
        else:
            lo = rng.randint(-4, 3)
            m.int_var("x%d" % i, lo, lo + rng.randint(1, 5))
    for i in range(rng.randint(0, 3)):
        m.bool_var("b%d" % i)
    kinds = ["linear", "linear", "expr", "expr", "reif", "logic", "alldiff", "alldiff0", "count", "among",
             "gcc", "table", "regular", "lex", "increasing", "nvalue", "element", "setin",
             "perm", "sched", "binpack", "diffn", "minmax"]
    if focus:
        kinds = ["element_const", "element_const", "diffn_var", "diffn_var", "linear", "element", "diffn"]
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(kinds)
        if kind == "linear":
            m.post(m.linear())
        elif kind == "expr":
            m.post(m.relation(rng.randint(1, 2)))
        elif kind == "reif" and m.bools:
            m.post("%s %s (%s)" % (rng.choice(m.bools), rng.choice(["<->", "->", "<-"]), m.linear()))
        elif kind == "logic":
            m.post(m.bool_expr(rng.randint(1, 3)))
        elif kind == "alldiff":
            m.post("all_different([%s])" % ", ".join(m.some_ints(rng.randint(2, 4))))
        elif kind == "alldiff0":
            m.post("alldifferent_except_0([%s])" % ", ".join(m.some_ints(rng.randint(2, 4))))
        elif kind == "count":
            op = rng.choice(["=", "<=", ">=", "!="])
            m.post("count([%s], %s) %s %s" % (", ".join(m.some_ints(rng.randint(2, 4))),
                                              m.int_expr(0), op, m.int_expr(0)))
        elif kind == "among":
            values = sorted(set(rng.randint(-3, 5) for _ in range(rng.randint(1, 3))))
            m.post("among(%s, [%s], {%s})" % (m.int_expr(0), ", ".join(m.some_ints(rng.randint(2, 4))),
                                            ", ".join(map(str, values))))
        elif kind == "gcc":
            cover = sorted(set(rng.randint(-2, 4) for _ in range(rng.randint(1, 3))))
            xs = m.some_ints(rng.randint(2, 4))
            form = rng.choice(["plain", "closed", "low_up", "low_up_closed"])
            if form in ("plain", "closed"):
                counts = m.some_ints(len(cover)) if len(m.ints) >= len(cover) and rng.random() < 0.5 else None
                if counts is None:
                    counts = [str(rng.randint(0, 2)) for _ in cover]
                name = "global_cardinality" + ("_closed" if form == "closed" else "")
                m.post("%s([%s], [%s], [%s])" % (name, ", ".join(xs), ", ".join(map(str, cover)), ", ".join(counts)))
            else:
                low = [rng.randint(0, 1) for _ in cover]
                up = [lo + rng.randint(0, 2) for lo in low]
                name = "global_cardinality_" + form
                m.post("%s([%s], [%s], [%s], [%s])" % (name, ", ".join(xs), ", ".join(map(str, cover)),
                                                     ", ".join(map(str, low)), ", ".join(map(str, up))))
        elif kind == "table":
            xs = m.some_ints(rng.randint(1, 3))
            rows = []
            for _ in range(rng.randint(0, 6)):
                rows.append([rng.randint(-3, 5) for _ in xs])
            flat = " | ".join(", ".join(map(str, r)) for r in rows)
            m.post("table([%s], [| %s |])" % (", ".join(xs), flat) if rows else
                   "table([%s], array2d(1..0, 1..%d, []))" % (", ".join(xs), len(xs)))
        elif kind == "regular":
            k = rng.randint(2, 3)
            xs = m.int_array("r%d" % len(m.lines), rng.randint(2, 4), 1, k)
            q = rng.randint(1, 4)
            rows = [[rng.randint(0, q) for _ in range(k)] for _ in range(q)]
            final = sorted(set(rng.randint(1, q) for _ in range(rng.randint(1, q))))
            m.post("regular([%s], %d, %d, [| %s |], 1, {%s})" % (
                ", ".join(xs), q, k, " | ".join(", ".join(map(str, r)) for r in rows), ", ".join(map(str, final))))
        elif kind == "lex":
            k = rng.randint(1, 3)
            if len(m.ints) >= 2 * k:
                xs = m.some_ints(2 * k)
                name = rng.choice(["lex_less", "lex_lesseq", "lex_greater", "lex_greatereq"])
                m.post("%s([%s], [%s])" % (name, ", ".join(xs[:k]), ", ".join(xs[k:])))
        elif kind == "increasing":
            name = rng.choice(["increasing", "decreasing", "strictly_increasing", "strictly_decreasing"])
            m.post("%s([%s])" % (name, ", ".join(m.some_ints(rng.randint(2, 4)))))
        elif kind == "nvalue":
            m.post("nvalue(%s, [%s])" % (m.int_expr(0), ", ".join(m.some_ints(rng.randint(2, 4)))))
        elif kind == "element":
            xs = m.some_ints(rng.randint(2, 4))
            m.post("[%s][%s] = %s" % (", ".join(xs), m.int_expr(0), m.int_expr(1)))
        elif kind == "element_const":
            # Longer than a dozen entries per index left: the by-value paths.
            k, first = rng.randint(12, 40), rng.randint(-2, 2)
            array = [rng.randint(-4, 6) for _ in range(k)]
            index = m.int_array("ei%d" % len(m.lines), 1, first - 1, first + k, first=1)[0]
            m.post("array1d(%d..%d, [%s])[%s] = %s" % (first, first + k - 1, ", ".join(map(str, array)), index,
                                                      rng.choice(m.ints)[0]))
        elif kind == "diffn_var":
            k = rng.randint(2, 4)
            x = m.int_array("vx%d" % len(m.lines), k, 0, 3)
            y = m.int_array("vy%d" % len(m.lines), k, 0, 2)
            dx = m.int_array("vw%d" % len(m.lines), k, 0, 2)
            dy = [rng.randint(0, 2) for _ in range(k)]
            m.post("%s([%s], [%s], [%s], [%s])" % (rng.choice(["diffn", "diffn_nonstrict"]), ", ".join(x),
                                                 ", ".join(y), ", ".join(dx), ", ".join(map(str, dy))))
        elif kind == "setin":
            values = sorted(set(rng.randint(-4, 6) for _ in range(rng.randint(1, 4))))
            m.post("%s in {%s}" % (m.int_expr(1), ", ".join(map(str, values))))
        elif kind == "minmax":
            xs = m.some_ints(rng.randint(1, 4))
            m.post("%s(%s) %s %s" % (rng.choice(["min", "max"]), "[%s]" % ", ".join(xs),
                                     rng.choice(["=", "<=", ">="]), m.int_expr(0)))
        elif kind == "perm":
            form = rng.choice(["circuit", "subcircuit", "inverse", "alldiff"])
            # One node: MiniZinc's decomposition (`x[i] != i`) has no circuit,
            # Gecode's propagator has the loop; the two disagree.
            k = rng.randint(2 if form == "circuit" else 1, 4)
            base = rng.choice([1, 1, 0, 2]) if form != "inverse" else 1
            name = "p%d" % len(m.lines)
            p = m.int_array(name, k, base, base + k - 1, first=base)
            if form in ("circuit", "subcircuit"):
                m.post("%s(%s)" % (form, name))
            elif form == "inverse":
                q = m.int_array("q%d" % len(m.lines), k, 1, k)
                m.post("inverse(%s, [%s])" % (name, ", ".join(q)))
            else:
                m.post("all_different(%s)" % name)
            del p
        elif kind == "sched":
            k = rng.randint(1, 3)
            s = m.int_array("s%d" % len(m.lines), k, 0, rng.randint(2, 5))
            d = [rng.randint(0, 3) for _ in range(k)]
            if rng.random() < 0.5:
                # A task of duration 0 that needs the resource: MiniZinc's
                # decomposition leaves it out, Gecode's propagator counts it
                # at its start (and fails beyond the capacity).
                capacity = rng.randint(1, 4)
                r = [rng.randint(0, 3) if di > 0 else 0 for di in d]
                m.post("cumulative([%s], [%s], [%s], %d)" % (", ".join(s), ", ".join(map(str, d)),
                                                             ", ".join(map(str, r)), capacity))
            else:
                m.post("%s([%s], [%s])" % (rng.choice(["disjunctive", "disjunctive_strict"]),
                                           ", ".join(s), ", ".join(map(str, d))))
        elif kind == "binpack":
            k = rng.randint(1, 3)
            bins = rng.randint(1, 3)
            bin_of = m.int_array("bin%d" % len(m.lines), k, 1, bins)
            load = m.int_array("load%d" % len(m.lines), bins, 0, 6)
            w = [rng.randint(0, 3) for _ in range(k)]
            m.post("bin_packing_load([%s], [%s], [%s])" % (", ".join(load), ", ".join(bin_of), ", ".join(map(str, w))))
        elif kind == "diffn":
            k = rng.randint(1, 3)
            x = m.int_array("dx%d" % len(m.lines), k, 0, 3)
            y = m.int_array("dy%d" % len(m.lines), k, 0, 2)
            dx = [rng.randint(0, 2) for _ in range(k)]
            dy = [rng.randint(0, 2) for _ in range(k)]
            m.post("%s([%s], [%s], [%s], [%s])" % (rng.choice(["diffn", "diffn_nonstrict"]), ", ".join(x),
                                                 ", ".join(y), ", ".join(map(str, dx)), ", ".join(map(str, dy))))
    # Enumerating every solution of a model with a large search space takes
    # both solvers past the time limit: such a model optimises instead.
    space = 1
    for _, lo, hi in m.ints:
        space *= hi - lo + 1
    space *= 2 ** len(m.bools)
    optimise = rng.random() < 0.35 or space > 20_000
    if optimise:
        sense = rng.choice(["minimize", "maximize"])
        m.lines.append("var int: obj = %s;" % m.int_expr(rng.randint(0, 2)))
        m.lines.append("solve %s obj;" % sense)
        m.lines.append('output ["obj=\\(obj)\\n"];')
    else:
        m.lines.append("solve satisfy;")
        shown = " ++ \" \" ++ ".join('"%s=" ++ show(%s)' % (v, v) for v in m.output)
        m.lines.append("output [%s ++ \"\\n\"];" % shown)
    return "\n".join(m.lines) + "\n", optimise


def flag_words(flags):
    """The words of the `--csp-flag` values as MiniZinc takes them: a flag
    and its value are two words (MiniZinc refuses `--rephase=1` and passes
    `--rephase 1`), so a value written in one word, after `=` or a blank, is
    split from its flag."""
    words = []
    for flag in flags:
        for word in flag.split():
            if word.startswith("--") and "=" in word:
                name, value = word.split("=", 1)
                words += [name, value] if value else [name]
            else:
                words.append(word)
    return words


def run(solver, env, model, timeout, extra):
    """(status, solutions, text) of one solver on a model: status is one of
    complete, unsat, unknown, error, timeout."""
    args = ["minizinc", "--solver", solver, "-a", "--time-limit", str(timeout * 1000)] + extra + [model]
    try:
        p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=timeout * 3 + 30)
    except subprocess.TimeoutExpired:
        return "timeout", [], ""
    text = p.stdout + p.stderr
    if p.returncode != 0 or "=====ERROR=====" in p.stdout:
        return "error", [], text
    sols, current = [], []
    status = "unknown"
    for line in p.stdout.splitlines():
        if line == "----------":
            sols.append("\n".join(current))
            current = []
        elif line == "==========":
            status = "complete"
        elif line == "=====UNSATISFIABLE=====":
            status = "unsat"
        elif line == "=====UNKNOWN=====":
            status = "unknown"
        elif line.startswith("%") or not line.strip():
            continue
        else:
            current.append(line)
    if status == "unknown" and sols:
        status = "timeout"
    return status, sols, text


def setup(scratch, fzn_csp):
    csp_dir = os.path.join(scratch, "csp")
    env = dict(os.environ, XDG_DATA_HOME=os.path.join(scratch, "data"))
    subprocess.run([fzn_csp, "--install-msc", csp_dir], check=True, env=env, capture_output=True)
    # An id of its own: with the installed configuration's, MiniZinc would
    # run an installed fzn-csp instead of the one given.
    csp_msc = os.path.join(csp_dir, "csp.msc")
    with open(csp_msc) as f:
        config = json.load(f)
    config["id"] = "org.csp.mzn-diff"
    config["executable"] = fzn_csp  # the path given, a wrapper script too
    with open(csp_msc, "w") as f:
        json.dump(config, f)
    src = "/usr/share/minizinc/gecode"
    lib = os.path.join(scratch, "gecode-lib")
    shutil.copytree(src, lib)
    for f in ("inverse.mzn", "nvalue.mzn"):
        os.remove(os.path.join(lib, f))
    msc = os.path.join(scratch, "gecode-ref.msc")
    with open(msc, "w") as f:
        json.dump({"id": "org.reference.gecode", "name": "gecode-ref", "version": "6.2.0",
                   "executable": shutil.which("fzn-gecode"), "mznlib": lib, "tags": ["cp", "int"],
                   "stdFlags": ["-a", "-n", "-s", "-t", "-p", "-r", "-f"], "supportsFzn": True,
                   "needsSolns2Out": True}, f)
    return csp_msc, msc


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fzn-csp", default="target/release/fzn-csp")
    ap.add_argument("--keep", default="target/mzn-diff")
    ap.add_argument("--timeout", type=int, default=20, help="seconds per solver and model")
    ap.add_argument("--wide", action="store_true", help="constants and domains up to 2^31 (Gecode's range)")
    ap.add_argument("--csp-flag", action="append", default=[], help="one more flag for fzn-csp (e.g. --no-learn)")
    ap.add_argument("--print", action="store_true", help="print the model of --seed and stop")
    ap.add_argument("--packing", action="store_true",
                    help="models mostly of element over long constant arrays and diffn with variable sizes")
    a = ap.parse_args()
    a.csp_flag = flag_words(a.csp_flag)
    if a.print:
        sys.stdout.write(generate(a.seed, a.wide, a.packing)[0])
        return 0
    for tool in ("minizinc", "fzn-gecode"):
        if shutil.which(tool) is None:
            print("skipped: %s is not installed" % tool)
            return 0
    scratch = tempfile.mkdtemp(prefix="mzn-diff-")
    csp_msc, gecode_msc = setup(scratch, os.path.abspath(a.fzn_csp))
    env = dict(os.environ)
    os.makedirs(a.keep, exist_ok=True)
    tally = {"disagree": 0}
    done = 0
    try:
        done = check_models(a, csp_msc, gecode_msc, env, scratch, tally)
    except KeyboardInterrupt:
        done = sum(tally.values())
        print("interrupted", flush=True)
    shutil.rmtree(scratch, ignore_errors=True)
    print("models %d: %s" % (done, ", ".join("%s %d" % kv for kv in sorted(tally.items()))), flush=True)
    return 1 if tally["disagree"] else 0


def check_models(a, csp_msc, gecode_msc, env, scratch, tally):
    """Runs both solvers on each model, counting the verdicts in `tally`."""
    for i in range(a.count):
        if i and i % 100 == 0:
            print("after %d models: %s" % (i, ", ".join("%s %d" % kv for kv in sorted(tally.items()))), flush=True)
        seed = a.seed + i
        text, optimise = generate(seed, a.wide, a.packing)
        path = os.path.join(scratch, "m%d.mzn" % seed)
        with open(path, "w") as f:
            f.write(text)
        ours = run(csp_msc, env, path, a.timeout, a.csp_flag)
        theirs = run(gecode_msc, env, path, a.timeout, [])
        verdict = compare(ours, theirs, optimise)
        tally[verdict] = tally.get(verdict, 0) + 1
        if verdict == "disagree":
            keep = os.path.join(a.keep, "%d.mzn" % seed)
            shutil.copy(path, keep)
            with open(keep + ".out", "w") as f:
                f.write("== fzn-csp: %s\n%s\n== gecode: %s\n%s\n" % (ours[0], ours[2], theirs[0], theirs[2]))
            print("seed %d: fzn-csp %s (%d solutions), gecode %s (%d solutions): %s" % (
                seed, ours[0], len(ours[1]), theirs[0], len(theirs[1]), keep), flush=True)
        elif verdict.startswith("skip: fzn-csp") or verdict == "skip: time limit (fzn-csp)":
            keep = os.path.join(a.keep, "%d.mzn" % seed)
            shutil.copy(path, keep)
            with open(keep + ".out", "w") as f:
                f.write(ours[2])
            print("seed %d: %s: %s" % (seed, verdict, keep), flush=True)
        elif verdict.startswith("skip"):
            # Gecode's side: the seed, to check that the skip is Gecode's.
            print("seed %d: %s" % (seed, verdict), flush=True)
    return a.count


def compare(ours, theirs, optimise):
    (s1, sols1, _), (s2, sols2, _) = ours, theirs
    if s2 == "error":
        return "skip: gecode error" if s1 == "error" else "skip: gecode error only"
    if s1 == "error":
        return "skip: fzn-csp error"
    late1, late2 = s1 in ("timeout", "unknown"), s2 in ("timeout", "unknown")
    if late1 or late2:
        return "skip: time limit (%s)" % ("both" if late1 and late2 else "fzn-csp" if late1 else "gecode")
    if s1 != s2:
        return "disagree"
    if s1 == "unsat":
        return "agree: unsatisfiable"
    if optimise:
        return "agree: optimum" if sols1[-1:] == sols2[-1:] else "disagree"
    return "agree: solutions" if sorted(sols1) == sorted(sols2) else "disagree"


if __name__ == "__main__":
    sys.exit(main())
