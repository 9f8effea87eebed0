#!/usr/bin/env python3
"""Differential testing of fzn-csp (or csp-xcsp) near ±2^62, against brute force.

    cargo build --release -p csp-flatzinc
    nice -n 10 python3 benches/generators/huge_diff.py --count 1000 --seed 1 \
        [--fzn-csp target/release/fzn-csp] [--keep target/huge-diff] [--timeout 10] \
        [--config default] [--config=-f] [--config='--no-learn -a'] ...

Standard library only, no other solver: Gecode's integers stop near ±2^31 and
MiniZinc's own arithmetic cannot be trusted near ±2^62, so the reference is
Python's arbitrary-precision integers enumerating every assignment.

Each model (seed `SEED + i`, so any one can be rerun with `--seed S --count 1`)
is FlatZinc written directly: two to five integer variables whose few values
sit near +2^62, near -2^62, near 0, or straddle 0 with a few huge values (as a
set or a short range), a few booleans, and one to four constraints drawn from
the vocabulary the front ends lower: int_lin_eq / le / ne with coefficients up
to ±(2^62) (plain, reified, half-reified), the comparisons (plain, reified),
int_plus, int_times, int_div, int_mod, int_abs, int_min, int_max, int_pow
(small exponents, negative ones included), array_int_element and
array_var_int_element (indices out of range included), all_different,
count_eq, among, nvalue, global_cardinality, table, set_in (plain,
reified), maximum / minimum, increasing, lex_lesseq and bool_clause. A
functional constraint's result is a new variable whose values are planted
from random argument tuples (so models are often satisfiable), and
intermediate values (a linear sum, a product, a power) may go far beyond
±2^62 and ±2^63. Sometimes a constant is itself out of range (up to ±2^64),
which the solver must refuse. A third of the models minimise or maximise one
of their variables.

The reference knows every solution. Under each configuration (`--config`,
repeatable, default `default`, `-f`, `--no-learn`, `-a`, `-a -f`; a
configuration is the flags given to fzn-csp, `default` none) fzn-csp must:
print only solutions; with `-a` on a satisfaction model print exactly the
solution set; on an optimisation model end with the optimum (the last
solution printed, then `==========`); say `=====UNSATISFIABLE=====` exactly
when there is no solution. Or it may refuse the model with exit code 2 and
an error that names its place (`line N`): counted as a refusal, correct. A
panic, another exit code, a refusal without a place, or a wrong answer is a
disagreement: its seed and configuration are printed and the model is kept
in `--keep` (default `target/huge-diff`) as `SEED.fzn` with the output
beside it (`SEED.CONFIG.out`). A run past `--timeout` seconds is a skip.
The last line sums up: models, runs, agreements, refusals, skips, and
disagreements.

`--xcsp` writes XCSP3 instances for csp-xcsp (`--csp-xcsp`) instead:
intension trees of every arithmetic operator (`neg`, `abs`, `add`, `sub`,
`mul`, `div`, `mod`, `sqr`, `pow`, `min`, `max`, `dist`, `if`) under
comparisons, set membership and logic, sums with coefficients and a
condition, allDifferent, extension (supports and conflicts), element and
minimum / maximum with a condition, and objectives of a variable or an
expression. An expression with an undefined part (a division by zero) is
false, as the XCSP3 specification has it. Each `--config` is a
configuration's spelling for csp-xcsp's `--config` (by default the
default, `mac+learn`, `fc+mrv`, `mac+domwdeg+binary+luby+nld`); the `s`,
`v` and `o` lines must give a solution, the optimum, or unsatisfiable
exactly when brute force does.
"""

import argparse
import itertools
import os
import random
import re
import subprocess
import sys

LIMIT = 2**62


def tdiv(a, b):
    """Division truncated toward zero (FlatZinc's int_div)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def tmod(a, b):
    """The remainder with the sign of the dividend (FlatZinc's int_mod)."""
    return a - b * tdiv(a, b)


def power(a, b):
    """MiniZinc's pow: `1 div a^-b` for b < 0 (undefined for a = 0)."""
    if b >= 0:
        if abs(a) >= 2 and b > 130:
            # Far beyond any value of the range: the exact power is not
            # needed, only that it equals no value of a domain.
            return (-1 if a < 0 and b % 2 else 1) * 2**200
        return a**b
    if a == 0:
        return None
    return tdiv(1, a ** (-b))


def fzn_set(values):
    return "{%s}" % ", ".join(str(v) for v in sorted(set(values)))


class Model:
    """A random FlatZinc model and its meaning as Python predicates."""

    def __init__(self, rng):
        self.rng = rng
        self.domains = {}  # name -> sorted list of values
        self.bools = []
        self.decls = []
        self.constraints = []  # (text, predicate over an assignment dict)
        self.solve = "solve satisfy;"
        self.objective = None  # (name, +1 minimise / -1 maximise)

    # Values.

    def near(self, kind):
        rng = self.rng
        if kind == "top":
            return LIMIT - rng.randint(0, 5)
        if kind == "bottom":
            return -LIMIT + rng.randint(0, 5)
        if kind == "zero":
            return rng.randint(-3, 3)
        if kind == "half":
            return rng.choice([1, -1]) * (2**61 + rng.randint(-2, 2))
        return rng.choice([2**31, -(2**31), 2**32 + 1, -(2**40), 3 * 2**60, -(3 * 2**60)]) + rng.randint(-1, 1)

    def values(self, kind=None):
        rng = self.rng
        kind = kind or rng.choice(["top", "bottom", "zero", "straddle", "straddle", "half"])
        n = rng.randint(1, 4)
        if kind == "straddle":
            out = {self.near(rng.choice(["top", "bottom", "zero", "zero", "half", "other"])) for _ in range(n + 1)}
        else:
            out = {self.near(kind) for _ in range(n)}
        return sorted(out)

    def int_var(self, values=None):
        values = sorted(set(values if values is not None else self.values()))
        name = "x%d" % len(self.domains)
        self.domains[name] = values
        lo, hi = values[0], values[-1]
        if self.rng.random() < 0.25:
            # Declared wide (an interval in the engine, past 2^16 values),
            # then cut down to its few values by a constraint at the root.
            below, above = (self.rng.choice([0, 2**17, 2**40, 2**63]) for _ in range(2))
            wide = (max(-LIMIT, lo - below), min(LIMIT, hi + above))
            self.decls.append("var %d..%d: %s :: output_var;" % (wide + (name,)))
            if hi - lo + 1 == len(values):
                self.post("int_le(%s, %d)" % (name, hi), lambda a: True)
                self.post("int_lin_le([-1], [%s], %d)" % (name, -lo), lambda a: True)
            else:
                self.post("set_in(%s, %s)" % (name, fzn_set(values)), lambda a: True)
        elif hi - lo + 1 == len(values) and self.rng.random() < 0.7:
            self.decls.append("var %d..%d: %s :: output_var;" % (lo, hi, name))
        else:
            self.decls.append("var %s: %s :: output_var;" % (fzn_set(values), name))
        return name

    def bool_var(self):
        name = "b%d" % len(self.bools)
        self.bools.append(name)
        self.domains[name] = [0, 1]
        self.decls.append("var bool: %s :: output_var;" % name)
        return name

    def some_ints(self, k):
        ints = [n for n in self.domains if n.startswith("x")]
        return [self.rng.choice(ints) for _ in range(k)] if self.rng.random() < 0.15 else self.rng.sample(ints, min(k, len(ints)))

    def a_bool(self):
        if not self.bools or self.rng.random() < 0.5:
            return self.bool_var()
        return self.rng.choice(self.bools)

    def sample(self, names):
        return [self.rng.choice(self.domains[n]) for n in names]

    def planted(self, f, names, extra=0):
        """A new variable whose values are f of random tuples of `names`."""
        out = set()
        for _ in range(self.rng.randint(1, 4)):
            v = f(*self.sample(names))
            if v is not None and -LIMIT <= v <= LIMIT:
                out.add(v)
        for _ in range(extra):
            out.add(self.near(self.rng.choice(["top", "bottom", "zero"])))
        if not out:
            out = set(self.values())
        return self.int_var(out)

    def coef(self):
        rng = self.rng
        r = rng.random()
        if r < 0.55:
            return rng.choice([1, -1, 2, -2, 3])
        if r < 0.995:
            return rng.choice([1, -1]) * rng.choice([LIMIT, LIMIT - 1, 2**61, 2**31, 3])
        return rng.choice([1, -1]) * rng.choice([2**63 - 1, 2**63, 2**64])

    def post(self, text, predicate):
        self.constraints.append((text, predicate))

    # Constraints.

    def linear(self):
        rng = self.rng
        xs = self.some_ints(rng.randint(1, 4))
        # A right-hand side beyond 64 bits is refused by the parser: keep
        # such models rare (one in seven) so that most reach the solver.
        for attempt in range(8):
            cs = [self.coef() if attempt < 7 else rng.choice([1, -1]) for _ in xs]
            total = sum(c * v for c, v in zip(cs, self.sample(xs)))
            if abs(total) < 2**63 - 8 or rng.random() < 0.03:
                break
        rhs = total + rng.choice([0, 0, 0, 1, -1, rng.randint(-5, 5)])
        if rng.random() < 0.03:
            rhs = rng.choice([1, -1]) * rng.choice([2**63, 2**64, 2**63 - 1])
        op = rng.choice(["eq", "le", "ne"])
        test = {"eq": lambda s: s == rhs, "le": lambda s: s <= rhs, "ne": lambda s: s != rhs}[op]
        args = "[%s], [%s], %d" % (", ".join(map(str, cs)), ", ".join(xs), rhs)

        def holds(a, xs=xs, cs=cs, test=test):
            return test(sum(c * a[x] for c, x in zip(cs, xs)))

        form = rng.choice(["", "", "_reif", "_imp"])
        if form == "":
            self.post("int_lin_%s(%s)" % (op, args), holds)
        else:
            b = self.a_bool()
            self.post("int_lin_%s%s(%s, %s)" % (op, form, args, b), self.reified(form, b, holds))

    def reified(self, form, b, holds):
        if form == "_reif":
            return lambda a: bool(a[b]) == holds(a)
        return lambda a: not a[b] or holds(a)

    def comparison(self):
        rng = self.rng
        x, y = self.some_ints(2) if len([n for n in self.domains if n.startswith("x")]) > 1 else self.some_ints(1) * 2
        op = rng.choice(["eq", "ne", "le", "lt"])
        test = {"eq": lambda p, q: p == q, "ne": lambda p, q: p != q, "le": lambda p, q: p <= q, "lt": lambda p, q: p < q}[op]
        form = rng.choice(["", "_reif", "_imp"])

        def holds(a, x=x, y=y, test=test):
            return test(a[x], a[y])

        if form == "":
            self.post("int_%s(%s, %s)" % (op, x, y), holds)
        else:
            b = self.a_bool()
            self.post("int_%s%s(%s, %s, %s)" % (op, form, x, y, b), self.reified(form, b, holds))

    def operand(self):
        """A variable's name, or now and then a constant near an end or 0."""
        if self.rng.random() < 0.2:
            return self.rng.choice(self.values())
        return self.some_ints(1)[0]

    def binary_function(self):
        rng = self.rng
        name, f = rng.choice(
            [
                ("int_plus", lambda p, q: p + q),
                ("int_times", lambda p, q: p * q),
                ("int_times", lambda p, q: p * q),
                ("int_div", lambda p, q: None if q == 0 else tdiv(p, q)),
                ("int_mod", lambda p, q: None if q == 0 else tmod(p, q)),
                ("int_min", min),
                ("int_max", max),
                ("int_pow", power),
            ]
        )
        x = self.operand()
        if name == "int_pow":
            exponents = [rng.randint(-2, 4), rng.choice([31, 61, 62, 63, 64, 2**62])]
            y = self.int_var(sorted({rng.choice(exponents) for _ in range(rng.randint(1, 3))}))
            if rng.random() < 0.5:
                x = self.int_var(self.values("zero") + [rng.choice([2, -2, 3, 2**31, -(2**31)])])
        else:
            y = self.operand()
        vx = (lambda a: a[x]) if isinstance(x, str) else (lambda a, x=x: x)
        vy = (lambda a: a[y]) if isinstance(y, str) else (lambda a, y=y: y)
        names = [n for n in (x, y) if isinstance(n, str)]

        def g(*vals, x=x, y=y):
            it = iter(vals)
            p = next(it) if isinstance(x, str) else x
            q = next(it) if isinstance(y, str) else y
            return f(p, q)

        z = self.planted(g, names, extra=rng.randint(0, 1))

        def holds(a, vx=vx, vy=vy, z=z, f=f):
            r = f(vx(a), vy(a))
            return r is not None and r == a[z]

        self.post("%s(%s, %s, %s)" % (name, x, y, z), holds)

    def abs_(self):
        x = self.some_ints(1)[0]
        z = self.planted(abs, [x], extra=self.rng.randint(0, 1))
        self.post("int_abs(%s, %s)" % (x, z), lambda a, x=x, z=z: abs(a[x]) == a[z])

    def element(self):
        rng = self.rng
        n = rng.randint(1, 4)
        lo, hi = (0, n + 1) if rng.random() < 0.3 else (1, n)
        indices = {rng.randint(lo, hi) for _ in range(3)}
        if rng.random() < 0.2:
            indices.add(self.near(rng.choice(["top", "bottom"])))
        idx = self.int_var(sorted(indices))
        if rng.random() < 0.5:
            table = [self.near(rng.choice(["top", "bottom", "zero", "half"])) for _ in range(n)]
            z = self.planted(lambda i: table[i - 1] if 1 <= i <= n else None, [idx], extra=rng.randint(0, 1))
            self.post(
                "array_int_element(%s, [%s], %s)" % (idx, ", ".join(map(str, table)), z),
                lambda a, idx=idx, table=table, z=z: 1 <= a[idx] <= len(table) and table[a[idx] - 1] == a[z],
            )
        else:
            xs = self.some_ints(n)
            z = self.some_ints(1)[0]
            self.post(
                "array_var_int_element(%s, [%s], %s)" % (idx, ", ".join(xs), z),
                lambda a, idx=idx, xs=xs, z=z: 1 <= a[idx] <= len(xs) and a[xs[a[idx] - 1]] == a[z],
            )

    def global_(self):
        rng = self.rng
        xs = self.some_ints(rng.randint(2, 4))
        arr = "[%s]" % ", ".join(xs)
        kind = rng.choice(["alldiff", "count", "among", "nvalue", "gcc", "table", "set_in", "extremum", "increasing", "lex"])
        if kind == "alldiff":
            self.post("fzn_all_different_int(%s)" % arr, lambda a, xs=xs: len({a[x] for x in xs}) == len(xs))
        elif kind == "count":
            y = self.operand()
            vy = (lambda a: a[y]) if isinstance(y, str) else (lambda a, y=y: y)
            c = self.int_var(sorted({rng.randint(0, len(xs)) for _ in range(2)}))
            self.post(
                "fzn_count_eq(%s, %s, %s)" % (arr, y, c),
                lambda a, xs=xs, vy=vy, c=c: sum(a[x] == vy(a) for x in xs) == a[c],
            )
        elif kind == "among":
            s = sorted({v for x in xs for v in self.domains[x] if rng.random() < 0.4} | {self.near("zero")})
            n = self.int_var(sorted({rng.randint(0, len(xs)) for _ in range(2)}))
            self.post(
                "fzn_among(%s, %s, %s)" % (n, arr, fzn_set(s)),
                lambda a, xs=xs, n=n, s=set(s): sum(a[x] in s for x in xs) == a[n],
            )
        elif kind == "nvalue":
            n = self.int_var(sorted({rng.randint(0, len(xs) + 1) for _ in range(2)}))
            self.post("fzn_nvalue(%s, %s)" % (n, arr), lambda a, xs=xs, n=n: len({a[x] for x in xs}) == a[n])
        elif kind == "gcc":
            cover = sorted({rng.choice(self.domains[x]) for x in xs})
            counts = [self.int_var(sorted({rng.randint(0, 2) for _ in range(2)})) for _ in cover]
            self.post(
                "fzn_global_cardinality(%s, [%s], [%s])" % (arr, ", ".join(map(str, cover)), ", ".join(counts)),
                lambda a, xs=xs, cover=cover, counts=counts: all(
                    sum(a[x] == v for x in xs) == a[c] for v, c in zip(cover, counts)
                ),
            )
        elif kind == "table":
            rows = {tuple(self.sample(xs)) for _ in range(rng.randint(1, 5))}
            if rng.random() < 0.3:
                rows.add(tuple(self.near(rng.choice(["top", "bottom", "zero"])) for _ in xs))
            rows = sorted(rows)
            flat = ", ".join(str(v) for row in rows for v in row)
            self.post(
                "fzn_table_int(%s, [%s])" % (arr, flat),
                lambda a, xs=xs, rows=set(rows): tuple(a[x] for x in xs) in rows,
            )
        elif kind == "set_in":
            x = xs[0]
            s = sorted({v for v in self.domains[x] if rng.random() < 0.5} | {self.near(rng.choice(["top", "bottom", "zero"]))})
            if rng.random() < 0.3:
                # A range, as wide as the values allow: a set constant `lo..hi`.
                lo = self.near(rng.choice(["bottom", "zero", "half"])) if rng.random() < 0.7 else min(self.domains[x])
                hi = max(lo, rng.choice(self.domains[x]) + rng.choice([0, 1, -1, 2**40]))
                hi = min(hi, LIMIT)
                self.post("set_in(%s, %d..%d)" % (x, lo, hi), lambda a, x=x, lo=lo, hi=hi: lo <= a[x] <= hi)
            elif rng.random() < 0.5:
                self.post("set_in(%s, %s)" % (x, fzn_set(s)), lambda a, x=x, s=set(s): a[x] in s)
            else:
                b = self.a_bool()
                self.post(
                    "set_in_reif(%s, %s, %s)" % (x, fzn_set(s), b),
                    lambda a, x=x, s=set(s), b=b: bool(a[b]) == (a[x] in s),
                )
        elif kind == "extremum":
            f, name = rng.choice([(max, "array_int_maximum"), (min, "array_int_minimum")])
            m = self.planted(lambda *vs, f=f: f(vs), xs, extra=rng.randint(0, 1))
            self.post("%s(%s, %s)" % (name, m, arr), lambda a, xs=xs, m=m, f=f: f(a[x] for x in xs) == a[m])
        elif kind == "increasing":
            self.post(
                "fzn_increasing_int(%s)" % arr,
                lambda a, xs=xs: all(a[p] <= a[q] for p, q in zip(xs, xs[1:])),
            )
        else:
            ys = self.some_ints(len(xs))
            if len(ys) != len(xs):
                return
            self.post(
                "fzn_lex_lesseq_int(%s, [%s])" % (arr, ", ".join(ys)),
                lambda a, xs=xs, ys=ys: [a[x] for x in xs] <= [a[y] for y in ys],
            )

    def clause(self):
        if not self.bools:
            self.bool_var()
        pos = self.rng.sample(self.bools, self.rng.randint(0, len(self.bools)))
        neg = [b for b in self.bools if b not in pos and self.rng.random() < 0.5]
        self.post(
            "bool_clause([%s], [%s])" % (", ".join(pos), ", ".join(neg)),
            lambda a, pos=pos, neg=neg: any(a[b] for b in pos) or any(not a[b] for b in neg),
        )

    def shifted(self):
        """A variable over the whole range, `x + offset` for a variable x:
        an interval in the engine, its values known to brute force."""
        rng = self.rng
        x = self.some_ints(1)[0]
        offset = rng.choice([0, 1, -1, 2**61, -(2**61), LIMIT, -LIMIT, 2**62 + 2**61])
        values = [v + offset for v in self.domains[x] if -LIMIT <= v + offset <= LIMIT]
        if not values:
            return x
        name = "x%d" % len(self.domains)
        self.domains[name] = values
        self.decls.append("var %d..%d: %s :: output_var;" % (-LIMIT, LIMIT, name))
        self.post(
            "int_lin_eq([1, -1], [%s, %s], %d)" % (name, x, offset),
            lambda a, name=name, x=x, offset=offset: a[name] == a[x] + offset,
        )
        return name

    def build(self):
        rng = self.rng
        for _ in range(rng.randint(2, 4)):
            self.int_var()
        for _ in range(rng.randint(1, 4)):
            r = rng.random()
            if r < 0.3:
                self.linear()
            elif r < 0.4:
                self.comparison()
            elif r < 0.65:
                self.binary_function()
            elif r < 0.7:
                self.abs_()
            elif r < 0.8:
                self.element()
            elif r < 0.97:
                self.global_()
            else:
                self.clause()
        if rng.random() < 0.3:
            self.shifted()
        if rng.random() < 0.35:
            name = rng.choice([n for n in self.domains if n.startswith("x")])
            if rng.random() < 0.3:
                name = self.shifted()
            sense = rng.choice([1, -1])
            self.objective = (name, sense)
            self.solve = "solve %s %s;" % ("minimize" if sense == 1 else "maximize", name)

    def text(self):
        return "\n".join(self.decls + ["constraint %s;" % c for c, _ in self.constraints] + [self.solve]) + "\n"

    def size(self):
        n = 1
        for d in self.domains.values():
            n *= len(d)
        return n

    def solutions(self):
        names = list(self.domains)
        out = []
        for values in itertools.product(*(self.domains[n] for n in names)):
            a = dict(zip(names, values))
            if all(p(a) for _, p in self.constraints):
                out.append(a)
        return out


class Instance:
    """A random XCSP3 instance and its meaning, for csp-xcsp (`--xcsp`)."""

    def __init__(self, rng):
        self.rng = rng
        self.helper = Model(rng)  # for values near the ends
        self.domains = {}
        self.constraints = []  # (XML, predicate)
        self.objective = None  # (XML, function of an assignment, +1 minimise / -1 maximise)

    def int_var(self):
        values = self.helper.values()
        name = "x%d" % len(self.domains)
        self.domains[name] = values
        return name

    def names(self, k):
        return self.rng.sample(list(self.domains), min(k, len(self.domains)))

    def leaf(self):
        rng = self.rng
        if rng.random() < 0.2:
            v = self.helper.near(rng.choice(["top", "bottom", "zero", "zero", "half", "other"]))
            return str(v), lambda a, v=v: v
        x = rng.choice(list(self.domains))
        return x, lambda a, x=x: a[x]

    def int_expr(self, depth):
        """(text, function of an assignment: the value, or None where undefined)."""
        rng = self.rng
        if depth <= 0 or rng.random() < 0.3:
            return self.leaf()
        op = rng.choice(["neg", "abs", "add", "sub", "mul", "div", "mod", "sqr", "pow", "min", "max", "dist", "if", "add3", "mul3"])
        (ta, fa), (tb, fb) = self.int_expr(depth - 1), self.int_expr(depth - 1)

        def lift(f, *parts):
            def g(a):
                vals = [p(a) for p in parts]
                return None if any(v is None for v in vals) else f(*vals)

            return g

        if op in ("neg", "abs", "sqr"):
            f = {"neg": lambda p: -p, "abs": abs, "sqr": lambda p: p * p}[op]
            return "%s(%s)" % (op, ta), lift(f, fa)
        if op == "pow":
            k = rng.randint(0, 3)
            return "pow(%s,%d)" % (ta, k), lift(lambda p: p**k, fa)
        if op == "if":
            tc, fc = self.bool_expr(depth - 1)
            return "if(%s,%s,%s)" % (tc, ta, tb), lift(lambda c, p, q: p if c else q, fc, fa, fb)
        if op in ("add3", "mul3"):
            tc, fc = self.int_expr(0)
            f = (lambda p, q, r: p + q + r) if op == "add3" else (lambda p, q, r: p * q * r)
            return "%s(%s,%s,%s)" % (op[:3], ta, tb, tc), lift(f, fa, fb, fc)
        f = {
            "add": lambda p, q: p + q,
            "sub": lambda p, q: p - q,
            "mul": lambda p, q: p * q,
            "div": lambda p, q: None if q == 0 else tdiv(p, q),
            "mod": lambda p, q: None if q == 0 else tmod(p, q),
            "min": min,
            "max": max,
            "dist": lambda p, q: abs(p - q),
        }[op]
        return "%s(%s,%s)" % (op, ta, tb), lift(f, fa, fb)

    def relation(self, depth):
        op = self.rng.choice(["lt", "le", "ge", "gt", "ne", "eq"])
        test = {"lt": lambda p, q: p < q, "le": lambda p, q: p <= q, "ge": lambda p, q: p >= q,
                "gt": lambda p, q: p > q, "ne": lambda p, q: p != q, "eq": lambda p, q: p == q}[op]
        (ta, fa), (tb, fb) = self.int_expr(depth), self.int_expr(depth)

        def f(a):
            p, q = fa(a), fb(a)
            return None if p is None or q is None else int(test(p, q))

        return "%s(%s,%s)" % (op, ta, tb), f

    def bool_expr(self, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.4:
            if rng.random() < 0.15:
                te, fe = self.int_expr(max(depth, 0))
                values = sorted({self.helper.near(rng.choice(["top", "bottom", "zero"])) for _ in range(3)})
                op = rng.choice(["in", "notin"])

                def f(a, fe=fe, values=set(values), op=op):
                    v = fe(a)
                    return None if v is None else int((v in values) == (op == "in"))

                return "%s(%s,set(%s))" % (op, te, ",".join(map(str, values))), f
            return self.relation(max(depth, 0))
        op = rng.choice(["not", "and", "or", "xor", "iff", "imp"])
        ta, fa = self.bool_expr(depth - 1)
        if op == "not":
            return "not(%s)" % ta, lambda a: None if fa(a) is None else 1 - fa(a)
        tb, fb = self.bool_expr(depth - 1)
        f = {"and": lambda p, q: p and q, "or": lambda p, q: p or q, "xor": lambda p, q: p != q,
             "iff": lambda p, q: p == q, "imp": lambda p, q: (not p) or q}[op]

        def g(a):
            p, q = fa(a), fb(a)
            return None if p is None or q is None else int(bool(f(p, q)))

        return "%s(%s,%s)" % (op, ta, tb), g

    def post(self, xml, predicate):
        self.constraints.append((xml, predicate))

    def condition(self, planted):
        rng = self.rng
        op = rng.choice(["lt", "le", "ge", "gt", "ne", "eq"])
        k = planted + rng.choice([0, 0, 1, -1])
        test = {"lt": lambda p: p < k, "le": lambda p: p <= k, "ge": lambda p: p >= k,
                "gt": lambda p: p > k, "ne": lambda p: p != k, "eq": lambda p: p == k}[op]
        return "(%s,%d)" % (op, k), test

    def build(self):
        rng = self.rng
        for _ in range(rng.randint(2, 4)):
            self.int_var()
        for _ in range(rng.randint(1, 3)):
            kind = rng.choice(["intension", "intension", "logic", "sum", "alldiff", "extension", "element", "extremum"])
            if kind == "intension":
                t, f = self.relation(rng.randint(0, 2))
                self.post("<intension> %s </intension>" % t, lambda a, f=f: f(a) == 1)
            elif kind == "logic":
                t, f = self.bool_expr(rng.randint(1, 3))
                self.post("<intension> %s </intension>" % t, lambda a, f=f: f(a) == 1)
            elif kind == "sum":
                xs = self.names(rng.randint(1, 4))
                for attempt in range(8):
                    cs = [self.helper.coef() if attempt < 7 else rng.choice([1, -1]) for _ in xs]
                    cs = [c if abs(c) < 2**63 else 1 for c in cs]
                    planted = sum(c * rng.choice(self.domains[x]) for c, x in zip(cs, xs))
                    if abs(planted) < 2**63 - 8 or rng.random() < 0.03:
                        break
                text, test = self.condition(planted)
                self.post(
                    "<sum> <list> %s </list> <coeffs> %s </coeffs> <condition> %s </condition> </sum>"
                    % (" ".join(xs), " ".join(map(str, cs)), text),
                    lambda a, xs=xs, cs=cs, test=test: test(sum(c * a[x] for c, x in zip(cs, xs))),
                )
            elif kind == "alldiff":
                xs = self.names(rng.randint(2, 4))
                self.post("<allDifferent> %s </allDifferent>" % " ".join(xs), lambda a, xs=xs: len({a[x] for x in xs}) == len(xs))
            elif kind == "extension":
                xs = self.names(rng.randint(1, 3))
                rows = sorted({tuple(rng.choice(self.domains[x]) for x in xs) for _ in range(rng.randint(1, 4))})
                support = rng.random() < 0.7
                tuples = "".join("(%s)" % ",".join(map(str, r)) for r in rows) if len(xs) > 1 else " ".join(str(r[0]) for r in rows)
                tag = "supports" if support else "conflicts"
                self.post(
                    "<extension> <list> %s </list> <%s> %s </%s> </extension>" % (" ".join(xs), tag, tuples, tag),
                    lambda a, xs=xs, rows=set(rows), support=support: (tuple(a[x] for x in xs) in rows) == support,
                )
            elif kind == "element":
                n = rng.randint(1, 3)
                table = [self.helper.near(rng.choice(["top", "bottom", "zero"])) for _ in range(n)]
                idx = "x%d" % len(self.domains)
                self.domains[idx] = sorted({rng.randint(-1, n) for _ in range(3)})
                value = rng.choice([x for x in self.domains if x != idx])
                self.post(
                    "<element> <list> %s </list> <index> %s </index> <value> %s </value> </element>"
                    % (" ".join(map(str, table)), idx, value),
                    lambda a, idx=idx, table=table, value=value: 0 <= a[idx] < len(table) and table[a[idx]] == a[value],
                )
            else:
                xs = self.names(rng.randint(1, 4))
                f, tag = rng.choice([(max, "maximum"), (min, "minimum")])
                planted = f(rng.choice(self.domains[x]) for x in xs)
                text, test = self.condition(planted)
                self.post(
                    "<%s> <list> %s </list> <condition> %s </condition> </%s>" % (tag, " ".join(xs), text, tag),
                    lambda a, xs=xs, f=f, test=test: test(f(a[x] for x in xs)),
                )
        if rng.random() < 0.35:
            sense = rng.choice([1, -1])
            goal = "minimize" if sense == 1 else "maximize"
            if rng.random() < 0.5:
                x = rng.choice(list(self.domains))
                self.objective = ("<%s> %s </%s>" % (goal, x, goal), lambda a, x=x: a[x], sense)
            else:
                t, f = self.int_expr(rng.randint(1, 2))
                if not re.fullmatch(r"-?[0-9]+", t):
                    self.objective = ("<%s> %s </%s>" % (goal, t, goal), f, sense)

    def text(self):
        lines = ['<instance format="XCSP3" type="%s">' % ("COP" if self.objective else "CSP"), "  <variables>"]
        for name, values in self.domains.items():
            if len(values) > 1 and values[-1] - values[0] + 1 == len(values):
                dom = "%d..%d" % (values[0], values[-1])
            else:
                dom = " ".join(map(str, values))
            lines.append('    <var id="%s"> %s </var>' % (name, dom))
        lines += ["  </variables>", "  <constraints>"]
        lines += ["    " + c for c, _ in self.constraints]
        lines.append("  </constraints>")
        if self.objective:
            lines += ["  <objectives>", "    " + self.objective[0], "  </objectives>"]
        lines.append("</instance>")
        return "\n".join(lines) + "\n"

    def size(self):
        return Model.size(self)

    def solutions(self):
        return Model.solutions(self)


def judge_xcsp(instance, solutions, run):
    """None when csp-xcsp's answer is right (or a proper refusal), else why not."""
    code, stdout, stderr = run
    if "panicked" in stderr:
        return "panic: %s" % stderr.strip()[:300]
    status = next((line[2:].strip() for line in stdout.splitlines() if line.startswith("s ")), None)
    if code == 2 and status in ("UNSUPPORTED", None):
        if re.search(r"line \d+", stderr):
            return "refused"
        return "refusal without a place: %s" % stderr.strip()[:200]
    v = " ".join(line[2:] for line in stdout.splitlines() if line.startswith("v "))
    objective = [int(line.split()[1]) for line in stdout.splitlines() if line.startswith("o ")]
    if not solutions:
        return None if status == "UNSATISFIABLE" else "says %s, no solution exists" % status
    if status not in ("SATISFIABLE", "OPTIMUM FOUND"):
        return "says %s (exit code %d); %d solutions exist, e.g. %s" % (status, code, len(solutions), solutions[0])
    m = re.search(r"<list>(.*?)</list>\s*<values>(.*?)</values>", v)
    if not m:
        return "no v line"
    printed = dict(zip(m.group(1).split(), map(int, m.group(2).split())))
    keys = list(instance.domains)
    if sorted(printed) != sorted(keys):
        return "the v line names %s" % sorted(printed)
    truth = {tuple(s[k] for k in keys) for s in solutions}
    if tuple(printed[k] for k in keys) not in truth:
        return "not a solution: %s" % printed
    if instance.objective:
        _, f, sense = instance.objective
        values = [f(s) for s in solutions if f(s) is not None]
        best = min(sense * x for x in values) * sense
        if status != "OPTIMUM FOUND" or f(printed) != best or (objective and objective[-1] != best):
            return "optimum %s (o %s, %s), %d is best" % (f(printed), objective[-1:], status, best)
    return None


def parse(stdout, names):
    """Solutions printed (dicts), and the status line after them."""
    solutions = []
    current = {}
    status = None
    for line in stdout.splitlines():
        line = line.strip()
        m = re.fullmatch(r"(\w+) = (-?\d+|true|false);", line)
        if m:
            v = m.group(2)
            current[m.group(1)] = 1 if v == "true" else 0 if v == "false" else int(v)
        elif line == "----------":
            solutions.append(current)
            current = {}
        elif line.startswith("====="):
            status = line
        elif line and not line.startswith("%"):
            return None, "unexpected line %r" % line
    return solutions, status


def judge(model, solutions, run, flags):
    """None when fzn-csp's answer is right (or a proper refusal), else why not."""
    code, stdout, stderr = run
    if code == 2:
        if re.search(r"line \d+", stderr) and "panicked" not in stderr:
            return "refused"
        return "refusal without a place: %s" % stderr.strip()[:200]
    if code != 0 or "panicked" in stderr:
        return "exit code %d: %s" % (code, stderr.strip()[:300])
    printed, status = parse(stdout, model.domains)
    if printed is None:
        return status
    keys = list(model.domains)
    truth = {tuple(s[k] for k in keys) for s in solutions}
    for s in printed:
        if set(s) != set(keys):
            return "a solution names %s, not %s" % (sorted(s), keys)
        if tuple(s[k] for k in keys) not in truth:
            return "not a solution: %s" % s
    if not solutions:
        return None if status == "=====UNSATISFIABLE=====" and not printed else "says %s with %d solutions printed, none exist" % (status, len(printed))
    if status == "=====UNSATISFIABLE=====":
        return "says unsatisfiable; %d solutions exist, e.g. %s" % (len(solutions), solutions[0])
    if model.objective:
        name, sense = model.objective
        best = min(sense * s[name] for s in solutions) * sense
        if status != "==========" or not printed:
            return "optimisation ends with %s" % status
        if printed[-1][name] != best:
            return "optimum %d claimed, %d is best" % (printed[-1][name], best)
        return None
    if not printed:
        return "no solution printed, status %s" % status
    if "-a" in flags:
        got = {tuple(s[k] for k in keys) for s in printed}
        if len(got) != len(printed):
            return "a solution printed twice"
        if got != truth or status != "==========":
            return "%d solutions printed (%s), %d exist" % (len(got), status, len(truth))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fzn-csp", default="target/release/fzn-csp")
    parser.add_argument("--xcsp", action="store_true", help="XCSP3 instances for csp-xcsp instead of FlatZinc")
    parser.add_argument("--csp-xcsp", default="target/release/csp-xcsp")
    parser.add_argument("--keep", default="target/huge-diff")
    parser.add_argument("--timeout", type=float, default=10)
    parser.add_argument("--config", action="append", help="fzn-csp's flags ('default': none), or csp-xcsp's --config")
    parser.add_argument("--refusals", action="store_true", help="print each refusal's message (to count their causes)")
    args = parser.parse_args()
    if args.xcsp:
        configs = args.config or ["default", "mac+learn", "fc+mrv", "mac+domwdeg+binary+luby+nld"]
    else:
        configs = args.config or ["default", "-f", "--no-learn", "-a", "-a -f"]
    os.makedirs(args.keep, exist_ok=True)
    tally = {"models": 0, "runs": 0, "agree": 0, "refused": 0, "skipped": 0, "disagree": 0, "unsat": 0, "optimise": 0}
    for seed in range(args.seed, args.seed + args.count):
        model = Instance(random.Random(seed)) if args.xcsp else Model(random.Random(seed))
        model.build()
        if model.size() > 50_000:
            continue
        solutions = model.solutions()
        if args.xcsp and model.objective and any(model.objective[1](a) is None for a in solutions):
            continue  # an objective undefined on a solution: no answer is right
        tally["models"] += 1
        tally["unsat"] += not solutions
        tally["optimise"] += model.objective is not None
        path = os.path.join(args.keep, "%d.%s" % (seed, "xml" if args.xcsp else "fzn"))
        with open(path, "w") as f:
            f.write(model.text())
        bad = False
        for config in configs:
            if args.xcsp:
                flags = [] if config == "default" else ["--config", config]
                command = [args.csp_xcsp, *flags, path]
            else:
                flags = [] if config == "default" else config.split()
                command = [args.fzn_csp, *flags, path]
            tally["runs"] += 1
            try:
                p = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
                run = (p.returncode, p.stdout, p.stderr)
            except subprocess.TimeoutExpired:
                tally["skipped"] += 1
                print("seed %d [%s]: time limit" % (seed, config), flush=True)
                continue
            verdict = judge_xcsp(model, solutions, run) if args.xcsp else judge(model, solutions, run, flags)
            if verdict is None:
                tally["agree"] += 1
            elif verdict == "refused":
                tally["refused"] += 1
                if args.refusals:
                    print("seed %d [%s]: refused: %s" % (seed, config, p.stderr.strip().splitlines()[-1]), flush=True)
            else:
                tally["disagree"] += 1
                bad = True
                print("seed %d [%s]: %s" % (seed, config, verdict), flush=True)
                with open(os.path.join(args.keep, "%d.%s.out" % (seed, config.replace(" ", ""))), "w") as f:
                    f.write("exit code %d\n%s\n%s" % run)
        if not bad:
            os.remove(path)
    print(
        "models %(models)d (%(unsat)d unsatisfiable, %(optimise)d optimising), runs %(runs)d: "
        "%(agree)d agree, %(refused)d refused with a place, %(skipped)d past the time limit, "
        "%(disagree)d disagree" % tally
    )
    return 1 if tally["disagree"] else 0


if __name__ == "__main__":
    sys.exit(main())
