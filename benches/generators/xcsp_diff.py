#!/usr/bin/env python3
"""Differential testing of csp-xcsp against ACE on small random XCSP3 instances.

    cargo build --release -p csp-cli --bin csp-xcsp
    nice -n 10 python3 benches/generators/xcsp_diff.py --count 1000 --seed 1 \
        [--csp-xcsp target/release/csp-xcsp] [--keep target/xcsp-diff] [--timeout 10] [--jobs 2] \
        [--config mac+lrb+learn+luby]

Standard library only; needs Java and ACE's jar, the one pycsp3 2.6.1 bundles
(`ACE_JAR` names it elsewhere); the jar also holds the official XCSP3
`SolutionChecker`.

The instances are written as XCSP3 text directly, not through pycsp3: the
writer reaches forms pycsp3 never emits or rewrites on its way (starred and
negative tables as written, `except`, conditions with `in` sets and ranges,
variable coefficients, `slide` and `group` templates, `mdd`, per-element
`startIndex`), it needs no Python package, and it costs nothing per instance
(compiling through pycsp3 takes about a second each).

Each instance (seed `SEED + i`, so any one can be rerun with `--seed S
--count 1`; `--print` shows it) has a few integer variables with small
domains (ranges and listed values, negative values; in one instance of
eight some values near +-2*10^9, within ACE's 32-bit range), sometimes an
array used whole (`y[]`, `y[0..1]`), and random constraints: `intension`
trees (arithmetic `neg abs add sub mul div mod sqr pow min max dist if`,
comparisons, `in`/`notin` sets, logic `not and or xor iff imp`), `extension`
(supports or conflicts, `*`, unary), `allDifferent` (with `except`, over
expressions), `allEqual`, `sum` (constant or variable coefficients, every
operator, `in` a range or set), `count`, `nValues`, `element` (value or
condition, `startIndex`), `minimum`/`maximum`, `ordered`, `lex`,
`channel`, `cardinality` (`closed`, occurrences as constants, variables or
ranges), `noOverlap`, `cumulative`, `circuit`, `instantiation`, `regular`,
`mdd`, `slide` and `group`. One instance in three minimises or maximises
(a variable, an expression, `sum`, `minimum`, `maximum`, `nValues`).

For each instance: csp-xcsp solves it; the official checker must accept the
solution it prints (and compute the same cost); a satisfaction instance is
then counted by both (ACE `-s=all`, csp-xcsp `compare --goal count`) and the
statuses and counts must be equal; an optimisation instance must reach the
same status and optimum as ACE. A disagreement prints the seed and writes
the instance to `--keep` (default `target/xcsp-diff`) as `SEED.xml`, with
the outputs beside it. An instance that one side refuses, or that reaches
the time limit, is counted and skipped (its seed printed).
The last line sums up: instances, agreements, disagreements, skips by reason.
`--symbolic` writes instances over symbolic variables instead
(`generate_symbolic`); `--symbolic-globals` adds count, nValues,
cardinality and element over symbols to them.
"""

import argparse
import concurrent.futures
import importlib.util
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile

WIDE = [2 * 10**9, -(2 * 10**9), 10**9, -(10**9), 2**30, -(2**30)]


class Instance:
    """One random instance: variables, constraints and maybe an objective."""

    def __init__(self, rng, wide):
        self.rng = rng
        self.wide = wide
        self.variables = []  # XML lines
        self.constraints = []
        self.objective = None
        self.ints = []  # (name, sorted values)
        self.arrays = []  # (name, cells)

    def domain(self):
        rng = self.rng
        r = rng.random()
        if r < 0.25:
            values = sorted(set(rng.randint(-5, 7) for _ in range(rng.randint(1, 5))))
            if self.wide and rng.random() < 0.5:
                values = sorted(set(values[: rng.randint(1, len(values))] + [rng.choice(WIDE)]))
            return values
        lo = rng.randint(-4, 3)
        return list(range(lo, lo + rng.randint(1, 4) + 1))

    @staticmethod
    def domain_text(values):
        if len(values) > 1 and values[-1] - values[0] + 1 == len(values):
            return "%d..%d" % (values[0], values[-1])
        return " ".join(map(str, values))

    def int_var(self, name, values=None):
        values = values if values is not None else self.domain()
        self.variables.append('<var id="%s"> %s </var>' % (name, self.domain_text(values)))
        self.ints.append((name, values))
        return name

    def array(self, name, size, values):
        self.variables.append('<array id="%s" size="[%d]"> %s </array>' % (name, size, self.domain_text(values)))
        cells = ["%s[%d]" % (name, i) for i in range(size)]
        for c in cells:
            self.ints.append((c, values))
        self.arrays.append((name, cells))
        return cells

    def post(self, text):
        self.constraints.append(text)

    # Random pieces.

    def const(self):
        if self.wide and self.rng.random() < 0.1:
            return self.rng.choice(WIDE)
        return self.rng.randint(-5, 6)

    def some(self, k):
        k = max(1, min(k, len(self.ints)))
        return [v[0] for v in self.rng.sample(self.ints, k)]

    def list_text(self, names):
        """The names, sometimes with a whole array written `y[]` or a range `y[a..b]`."""
        rng = self.rng
        if self.arrays and rng.random() < 0.3:
            name, cells = rng.choice(self.arrays)
            if rng.random() < 0.5 or len(cells) < 3:
                return "%s[]" % name, cells
            a = rng.randint(0, len(cells) - 2)
            b = rng.randint(a + 1, len(cells) - 1)
            return "%s[%d..%d]" % (name, a, b), cells[a:b + 1]
        return " ".join(names), names

    def values_of(self, name):
        return next(v for n, v in self.ints if n == name)

    def nonzero(self):
        """A divisor: a variable without 0 in its domain, or a constant other than 0."""
        rng = self.rng
        free = [n for n, v in self.ints if 0 not in v]
        if free and rng.random() < 0.5:
            return rng.choice(free)
        return str(rng.choice([-3, -2, -1, 1, 2, 3, 4]))

    def int_expr(self, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.3:
            if rng.random() < 0.15:
                return str(self.const())
            return rng.choice(self.ints)[0]
        a = self.int_expr(depth - 1)
        b = self.int_expr(depth - 1)
        op = rng.choice(["neg", "abs", "add", "sub", "mul", "div", "mod", "sqr", "pow", "min", "max", "dist",
                         "if", "addn"])
        if op in ("neg", "abs", "sqr"):
            return "%s(%s)" % (op, a)
        if op in ("div", "mod"):
            return "%s(%s,%s)" % (op, a, self.nonzero())
        if op == "pow":
            return "pow(%s,%d)" % (a, rng.randint(0, 3))
        if op == "if":
            return "if(%s,%s,%s)" % (self.bool_expr(depth - 1), a, b)
        if op == "addn":
            return "add(%s,%s,%s)" % (a, b, self.int_expr(depth - 1))
        if op in ("min", "max") and rng.random() < 0.3:
            return "%s(%s,%s,%s)" % (op, a, b, self.int_expr(0))
        return "%s(%s,%s)" % (op, a, b)

    def relation(self, depth):
        op = self.rng.choice(["lt", "le", "ge", "gt", "ne", "eq"])
        return "%s(%s,%s)" % (op, self.int_expr(depth), self.int_expr(depth))

    def bool_expr(self, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.3:
            if rng.random() < 0.15:
                values = sorted(set(rng.randint(-4, 6) for _ in range(rng.randint(1, 4))))
                return "%s(%s,set(%s))" % (rng.choice(["in", "notin"]), self.int_expr(depth),
                                           ",".join(map(str, values)))
            return self.relation(max(depth, 0))
        op = rng.choice(["not", "and", "or", "xor", "iff", "imp", "rel", "andn", "orn"])
        if op == "rel":
            return self.relation(depth - 1)
        a = self.bool_expr(depth - 1)
        if op == "not":
            return "not(%s)" % a
        b = self.bool_expr(depth - 1)
        if op in ("andn", "orn"):
            return "%s(%s,%s,%s)" % (op[:-1], a, b, self.bool_expr(0))
        return "%s(%s,%s)" % (op, a, b)

    def condition(self, variable_ok=True, notin=True):
        rng = self.rng
        r = rng.random()
        sets = ["in", "notin"] if notin else ["in"]
        if r < 0.15:
            lo = rng.randint(-6, 6)
            return "(%s,%d..%d)" % (rng.choice(sets), lo, lo + rng.randint(0, 5))
        if r < 0.25:
            values = sorted(set(rng.randint(-6, 8) for _ in range(rng.randint(1, 4))))
            return "(%s,{%s})" % (rng.choice(sets), ",".join(map(str, values)))
        op = rng.choice(["lt", "le", "ge", "gt", "ne", "eq"])
        if variable_ok and rng.random() < 0.3:
            return "(%s,%s)" % (op, rng.choice(self.ints)[0])
        return "(%s,%d)" % (op, rng.randint(-6, 8))

    def table(self, xs):
        rng = self.rng
        rows = set()
        for _ in range(rng.randint(0, 6)):
            row = []
            for x in xs:
                r = rng.random()
                if r < 0.15 and len(xs) > 1:
                    row.append("*")
                elif r < 0.8:
                    row.append(str(rng.choice(self.values_of(x))))
                else:
                    row.append(str(rng.randint(-4, 6)))
            rows.add(tuple(row))
        rows = sorted(rows)
        if len(xs) == 1:
            return " ".join(sorted(set(r[0] for r in rows if r[0] != "*"), key=int))
        return "".join("(%s)" % ",".join(r) for r in rows)


def automaton(rng, k, values):
    """Transitions over `values` between `k` states a0..: a list, the start and the finals."""
    transitions = []
    for q in range(k):
        for v in values:
            if rng.random() < 0.7:
                transitions.append("(a%d,%d,a%d)" % (q, v, rng.randrange(k)))
    finals = sorted(set("a%d" % rng.randrange(k) for _ in range(rng.randint(1, k))))
    return transitions, "a0", finals


def mdd(rng, n, values):
    """An MDD over `n` levels: layered nodes, one root, one terminal `t`."""
    layers = [["r"]] + [["n%d_%d" % (i, j) for j in range(rng.randint(1, 3))] for i in range(1, n)] + [["t"]]
    transitions = []
    reached = layers[0]
    for i in range(n):
        targets = set()
        for node in reached:
            for v in rng.sample(values, rng.randint(1, len(values))):
                target = rng.choice(layers[i + 1])
                targets.add(target)
                transitions.append("(%s,%d,%s)" % (node, v, target))
        reached = sorted(targets)  # a node no arc reaches is left out
    return transitions


# The forms added after the first runs (`--newer`): left out by default so
# that a seed gives the instance it gave in the recorded runs.
NEWER = ["channel_one", "channel_short", "member", "element_rank", "count_vars", "cardinality_vars",
         "alldiff_lists", "circuit_size", "boxes", "cumulative_ends", "ordered_lengths"]


# The forms lowered last (`--latest`), three times as likely as another kind
# so that most instances hold one: allDifferent over lists with excepted
# tuples, element without an index with a condition or over a matrix,
# element with a rank and an (eq,v) condition, slide over two lists.
LATEST = ["alldiff_lists_except", "member_condition", "element_rank_condition", "slide_lists"]


# `minimumArg` and `maximumArg` (`--arg`), twelve times as likely as another
# kind: a rank or none, over two to four items (ACE refuses one), mostly
# `(eq,i)` with `i` a new variable over the positions exactly (ACE refuses
# another condition, and an index that can fall outside the list), else any
# condition. No `startIndex`: the official parser ignores it there, and
# csp-xcsp refuses it.
ARG = ["extremum_arg"]


def generate(seed, newer=False, latest=False, arg=False):
    """The XML text of instance `seed` and whether it optimises; with
    `newer` (`latest`, `arg`), the newer (latest, extremum-position) forms
    among the kinds."""
    rng = random.Random(seed)
    m = Instance(rng, rng.random() < 0.125)
    for i in range(rng.randint(2, 5)):
        m.int_var("x%d" % i)
    if rng.random() < 0.4:
        m.array("y", rng.randint(2, 4), m.domain())
    kinds = ["intension", "intension", "logic", "extension", "alldiff", "alldiff_except", "alldiff_expr",
             "allequal", "sum", "sum", "sum_vars", "count", "nvalues", "element", "minmax", "ordered", "lex",
             "channel", "cardinality", "nooverlap", "cumulative", "circuit", "instantiation", "regular", "mdd",
             "slide", "group"] + (NEWER if newer else []) + (LATEST * 3 if latest else []) + (ARG * 12 if arg else [])
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(kinds)
        if kind == "intension":
            m.post("<intension> %s </intension>" % m.relation(rng.randint(0, 2)))
        elif kind == "logic":
            m.post("<intension> %s </intension>" % m.bool_expr(rng.randint(1, 3)))
        elif kind == "extension":
            xs = m.some(rng.randint(1, 3))
            tag = rng.choice(["supports", "conflicts"])
            m.post("<extension> <list> %s </list> <%s> %s </%s> </extension>" % (" ".join(xs), tag, m.table(xs), tag))
        elif kind == "alldiff":
            text, _ = m.list_text(m.some(rng.randint(2, 4)))
            m.post("<allDifferent> %s </allDifferent>" % text)
        elif kind == "alldiff_except":
            text, _ = m.list_text(m.some(rng.randint(2, 4)))
            ex = sorted(set(rng.randint(-1, 2) for _ in range(rng.randint(1, 2))))
            m.post("<allDifferent> <list> %s </list> <except> %s </except> </allDifferent>"
                   % (text, " ".join(map(str, ex))))
        elif kind == "alldiff_expr":
            es = [m.int_expr(1) for _ in range(rng.randint(2, 3))]
            m.post("<allDifferent> %s </allDifferent>" % " ".join(es))
        elif kind == "allequal":
            text, _ = m.list_text(m.some(rng.randint(2, 3)))
            m.post("<allEqual> %s </allEqual>" % text)
        elif kind in ("sum", "sum_vars"):
            text, xs = m.list_text(m.some(rng.randint(1, 4)))
            if kind == "sum_vars":
                coeffs = " <coeffs> %s </coeffs>" % " ".join(
                    rng.choice(m.ints)[0] if rng.random() < 0.7 else str(rng.randint(-2, 3)) for _ in xs)
            elif rng.random() < 0.7:
                coeffs = " <coeffs> %s </coeffs>" % " ".join(str(rng.choice([1, -1, 2, -2, 3, rng.randint(-9, 9)]))
                                                             for _ in xs)
            else:
                coeffs = ""
            # ACE 2.6 reads `sum` with `notin` as `in` (BENCHMARKS, "XCSP3 against ACE on random instances").
            m.post("<sum> <list> %s </list>%s <condition> %s </condition> </sum>"
                   % (text, coeffs, m.condition(notin=False)))
        elif kind == "count":
            text, listed = m.list_text(m.some(rng.randint(2, 4)))
            outside = [n for n, _ in m.ints if n not in listed]
            if outside and rng.random() < 0.3:
                # ACE refuses a variable value that is also in the list.
                values = rng.choice(outside)
            else:
                values = " ".join(map(str, sorted(set(rng.randint(-3, 5) for _ in range(rng.randint(1, 3))))))
            m.post("<count> <list> %s </list> <values> %s </values> <condition> %s </condition> </count>"
                   % (text, values, m.condition()))
        elif kind == "nvalues":
            text, _ = m.list_text(m.some(rng.randint(2, 4)))
            ex = " <except> %d </except>" % rng.randint(-1, 1) if rng.random() < 0.2 else ""
            m.post("<nValues> <list> %s </list>%s <condition> %s </condition> </nValues>" % (text, ex, m.condition()))
        elif kind == "element":
            xs = m.some(rng.randint(2, 4)) if rng.random() < 0.6 else [str(m.const()) for _ in range(rng.randint(2, 4))]
            start = rng.choice([0, 0, 1, -1])
            attr = ' startIndex="%d"' % start if start else ""
            # ACE refuses an index that is also in the list, or that has
            # values outside the list's indices: mostly a fresh index.
            if rng.random() < 0.8:
                lo = rng.randint(start, start + len(xs) - 1)
                index = m.int_var("i%d" % len(m.constraints), list(range(lo, rng.randint(lo, start + len(xs) - 1) + 1)))
            else:
                index = rng.choice([n for n, _ in m.ints if n not in xs] or [m.ints[0][0]])
            if rng.random() < 0.7:
                tail = "<value> %s </value>" % (rng.choice(m.ints)[0] if rng.random() < 0.8 else m.const())
            else:
                tail = "<condition> %s </condition>" % m.condition()
            m.post("<element> <list%s> %s </list> <index> %s </index> %s </element>" % (attr, " ".join(xs), index, tail))
        elif kind == "minmax":
            text, _ = m.list_text(m.some(rng.randint(1, 4)))
            tag = rng.choice(["minimum", "maximum"])
            m.post("<%s> <list> %s </list> <condition> %s </condition> </%s>" % (tag, text, m.condition(), tag))
        elif kind == "ordered":
            text, _ = m.list_text(m.some(rng.randint(2, 4)))
            m.post("<ordered> <list> %s </list> <operator> %s </operator> </ordered>"
                   % (text, rng.choice(["lt", "le", "ge", "gt"])))
        elif kind == "lex":
            k = rng.randint(1, 3)
            if len(m.ints) >= 2 * k:
                xs = m.some(2 * k)
                m.post("<lex> <list> %s </list> <list> %s </list> <operator> %s </operator> </lex>"
                       % (" ".join(xs[:k]), " ".join(xs[k:]), rng.choice(["lt", "le", "ge", "gt"])))
        elif kind == "channel":
            k = rng.randint(1, 4)
            base = rng.choice([0, 0, 1])
            name = "c%d" % len(m.constraints)
            p = m.array(name + "p", k, list(range(base, base + k)))
            attr = ' startIndex="%d"' % base if base else ""
            if rng.random() < 0.7:
                q = m.array(name + "q", k, list(range(base, base + k)))
                m.post("<channel> <list%s> %s </list> <list%s> %s </list> </channel>"
                       % (attr, " ".join(p), attr, " ".join(q)))
            else:
                v = m.int_var(name + "v", list(range(base - 1, base + k + 1)))
                m.post("<channel> <list%s> %s </list> <value> %s </value> </channel>" % (attr, " ".join(p), v))
        elif kind == "cardinality":
            text, listed = m.list_text(m.some(rng.randint(2, 4)))
            values = sorted(set(rng.randint(-2, 4) for _ in range(rng.randint(1, 3))))
            closed = ' closed="true"' if rng.random() < 0.3 else ""
            form = rng.random()
            if form < 0.4:
                occurs = " ".join(str(rng.randint(0, 2)) for _ in values)
            elif form < 0.7 and len([n for n, _ in m.ints if n not in listed]) >= len(values):
                # ACE refuses occurrence variables that are also in the list.
                occurs = " ".join(rng.sample([n for n, _ in m.ints if n not in listed], len(values)))
            else:
                # Ranges (`1..2`) would be as valid, but ACE 2.6 miscounts
                # them (BENCHMARKS, "XCSP3 against ACE on random instances").
                occurs = " ".join(str(rng.randint(0, 1)) for _ in values)
            m.post("<cardinality> <list> %s </list> <values%s> %s </values> <occurs> %s </occurs> </cardinality>"
                   % (text, closed, " ".join(map(str, values)), occurs))
        elif kind in ("nooverlap", "cumulative"):
            k = rng.randint(1, 3)
            s = m.array("s%d" % len(m.constraints), k, list(range(0, rng.randint(2, 5) + 1)))
            lengths = " ".join(str(rng.randint(0, 3)) if rng.random() < 0.8 else rng.choice(m.ints)[0] for _ in s)
            if kind == "nooverlap":
                zero = ' zeroIgnored="false"' if rng.random() < 0.3 else ""
                m.post("<noOverlap%s> <origins> %s </origins> <lengths> %s </lengths> </noOverlap>"
                       % (zero, " ".join(s), lengths))
            else:
                heights = " ".join(str(rng.randint(0, 3)) for _ in s)
                m.post("<cumulative> <origins> %s </origins> <lengths> %s </lengths> <heights> %s </heights>"
                       " <condition> (le,%d) </condition> </cumulative>" % (" ".join(s), lengths, heights,
                                                                          rng.randint(1, 4)))
        elif kind == "circuit":
            k = rng.randint(2, 4)
            base = rng.choice([0, 0, 1])
            p = m.array("p%d" % len(m.constraints), k, list(range(base, base + k)))
            attr = ' startIndex="%d"' % base if base else ""
            m.post("<circuit> <list%s> %s </list> </circuit>" % (attr, " ".join(p)) if attr or rng.random() < 0.5
                   else "<circuit> %s </circuit>" % " ".join(p))
        elif kind in ("channel_one", "channel_short"):
            k = rng.randint(1, 4)
            base = rng.choice([0, 0, 1])
            name = "c%d" % len(m.constraints)
            attr = ' startIndex="%d"' % base if base else ""
            if kind == "channel_one":
                # Values one beyond the positions on either side: the lowering must rule them out.
                p = m.array(name + "p", k, list(range(base - 1, base + k + 1)))
                m.post("<channel> <list%s> %s </list> </channel>" % (attr, " ".join(p)))
            else:
                q = m.array(name + "q", k + rng.randint(1, 2), list(range(base - 1, base + k + 1)))
                p = m.array(name + "p", k, list(range(base - 1, base + len(q) + 1)))
                m.post("<channel> <list%s> %s </list> <list%s> %s </list> </channel>"
                       % (attr, " ".join(p), attr, " ".join(q)))
        elif kind in ("member", "element_rank"):
            xs = m.some(rng.randint(2, 4)) if rng.random() < 0.7 else [str(m.const()) for _ in range(rng.randint(2, 4))]
            value = rng.choice(m.ints)[0] if rng.random() < 0.8 else str(m.const())
            if kind == "member":
                m.post("<element> <list> %s </list> <value> %s </value> </element>" % (" ".join(xs), value))
            else:
                index = m.int_var("i%d" % len(m.constraints), list(range(-1, len(xs) + 1)))
                m.post('<element> <list> %s </list> <index rank="%s"> %s </index> <value> %s </value> </element>'
                       % (" ".join(xs), rng.choice(["first", "last"]), index, value))
        elif kind in ("count_vars", "cardinality_vars"):
            text, listed = m.list_text(m.some(rng.randint(2, 4)))
            # Variables only: the checker fails on values that mix variables
            # and constants (a ClassCastException), which the brute-force tests cover.
            outside = [n for n, _ in m.ints if n not in listed]
            values = rng.sample(outside, min(len(outside), rng.randint(2, 3)))
            if len(values) < 2:
                pass
            elif kind == "count_vars":
                m.post("<count> <list> %s </list> <values> %s </values> <condition> %s </condition> </count>"
                       % (text, " ".join(values), m.condition()))
            else:
                closed = ' closed="true"' if rng.random() < 0.3 else ""
                occurs = " ".join(rng.choice(["0", "1", "2", "0..1", "1..2"]) for _ in values)
                m.post("<cardinality> <list> %s </list> <values%s> %s </values> <occurs> %s </occurs> </cardinality>"
                       % (text, closed, " ".join(values), occurs))
        elif kind == "ordered_lengths":
            xs = m.some(rng.randint(2, 4))
            lengths = " ".join(str(rng.randint(-1, 2)) if rng.random() < 0.7 else rng.choice(m.ints)[0]
                               for _ in xs[1:])
            m.post("<ordered> <list> %s </list> <lengths> %s </lengths> <operator> %s </operator> </ordered>"
                   % (" ".join(xs), lengths, rng.choice(["lt", "le", "ge", "gt"])))
        elif kind == "alldiff_lists":
            k = rng.randint(1, 3)
            lists = "".join("<list> %s </list>" % " ".join(m.some(k)) for _ in range(rng.randint(2, 3)))
            m.post("<allDifferent> %s </allDifferent>" % lists)
        elif kind == "alldiff_lists_except":
            k = rng.randint(1, 3)
            chosen = [m.some(k) for _ in range(rng.randint(2, 3))]
            k = len(chosen[0])  # m.some takes at most every variable
            lists = "".join("<list> %s </list>" % " ".join(xs) for xs in chosen)
            tuples = "".join("(%s)" % ",".join(str(rng.randint(-1, 2)) for _ in range(k))
                             for _ in range(rng.randint(1, 2)))
            m.post("<allDifferent> %s <except> %s </except> </allDifferent>" % (lists, tuples))
        elif kind == "member_condition":
            xs = m.some(rng.randint(2, 4))
            if rng.random() < 0.3 and len(xs) >= 2:
                half = len(xs) // 2
                cells = "(%s)(%s)" % (",".join(xs[:half]), ",".join(xs[half:2 * half]))
                m.post("<element> <matrix> %s </matrix> <condition> %s </condition> </element>"
                       % (cells, m.condition()))
            else:
                m.post("<element> <list> %s </list> <condition> %s </condition> </element>"
                       % (" ".join(xs), m.condition()))
        elif kind == "element_rank_condition":
            xs = m.some(rng.randint(2, 4)) if rng.random() < 0.7 else [str(m.const()) for _ in range(rng.randint(2, 4))]
            index = m.int_var("i%d" % len(m.constraints), list(range(-1, len(xs) + 1)))
            value = rng.choice(m.ints)[0] if rng.random() < 0.8 else str(m.const())
            m.post('<element> <list> %s </list> <index rank="%s"> %s </index> <condition> (eq,%s) </condition> </element>'
                   % (" ".join(xs), rng.choice(["first", "last"]), index, value))
        elif kind == "extremum_arg":
            xs = m.some(rng.randint(2, 4)) if rng.random() < 0.8 else [str(m.const()) for _ in range(rng.randint(2, 4))]
            rank = rng.choice(["", ' rank="any"', ' rank="first"', ' rank="last"'])
            if rng.random() < 0.85:
                index = m.int_var("i%d" % len(m.constraints), list(range(len(xs))))
                condition = "(eq,%s)" % index
            else:
                condition = m.condition()
            tag = rng.choice(["minimumArg", "maximumArg"])
            m.post("<%s%s> <list> %s </list> <condition> %s </condition> </%s>" % (tag, rank, " ".join(xs), condition, tag))
        elif kind == "slide_lists":
            xs, ys = m.some(rng.randint(2, 4)), m.some(rng.randint(1, 3))
            op = rng.choice(["lt", "le", "ne", "eq"])
            if rng.random() < 0.5:
                m.post("<slide> <list> %s </list> <list> %s </list> <intension> %s(%%0,%%1) </intension> </slide>"
                       % (" ".join(xs), " ".join(ys), op))
            else:
                m.post('<slide> <list collect="2"> %s </list> <list> %s </list> '
                       '<intension> %s(add(%%0,%%1),%%2) </intension> </slide>' % (" ".join(xs), " ".join(ys), op))
        elif kind == "circuit_size":
            k = rng.randint(2, 4)
            p = m.array("p%d" % len(m.constraints), k, list(range(k)))
            size = rng.choice(m.ints)[0] if rng.random() < 0.5 else str(rng.randint(0, k))
            m.post("<circuit> <list> %s </list> <size> %s </size> </circuit>" % (" ".join(p), size))
        elif kind == "boxes":
            k, d = rng.randint(2, 3), rng.choice([2, 2, 3])
            name = "b%d" % len(m.constraints)
            o = m.array(name, k * d, list(range(0, rng.randint(1, 3) + 1)))
            origins = "".join("(%s)" % ",".join(o[i * d:(i + 1) * d]) for i in range(k))
            lengths = "".join("(%s)" % ",".join(str(rng.randint(0, 2)) for _ in range(d)) for _ in range(k))
            zero = ' zeroIgnored="false"' if rng.random() < 0.3 else ""
            m.post("<noOverlap%s> <origins> %s </origins> <lengths> %s </lengths> </noOverlap>" % (zero, origins, lengths))
        elif kind == "cumulative_ends":
            k = rng.randint(1, 3)
            s_ = m.array("s%d" % len(m.constraints), k, list(range(0, rng.randint(2, 4) + 1)))
            e = m.array("e%d" % len(m.constraints), k, list(range(0, 7)))
            lengths = " ".join(str(rng.randint(0, 3)) for _ in s_)
            heights = " ".join(str(rng.randint(0, 3)) for _ in s_)
            m.post("<cumulative> <origins> %s </origins> <lengths> %s </lengths> <ends> %s </ends>"
                   " <heights> %s </heights> <condition> (le,%d) </condition> </cumulative>"
                   % (" ".join(s_), lengths, " ".join(e), heights, rng.randint(1, 4)))
        elif kind == "instantiation":
            xs = m.some(rng.randint(1, 2))
            vals = [str(rng.choice(m.values_of(x))) for x in xs]
            m.post("<instantiation> <list> %s </list> <values> %s </values> </instantiation>"
                   % (" ".join(xs), " ".join(vals)))
        elif kind in ("regular", "mdd"):
            n = rng.randint(2, 4)
            values = sorted(set(rng.randint(0, 2) for _ in range(3)))
            r = m.array("r%d" % len(m.constraints), n, list(range(0, 3)))
            if kind == "regular":
                transitions, start, finals = automaton(rng, rng.randint(1, 3), values)
                m.post("<regular> <list> %s </list> <transitions> %s </transitions> <start> %s </start>"
                       " <final> %s </final> </regular>" % (" ".join(r), "".join(transitions), start, " ".join(finals)))
            else:
                m.post("<mdd> <list> %s </list> <transitions> %s </transitions> </mdd>"
                       % (" ".join(r), "".join(mdd(rng, n, values))))
        elif kind == "slide":
            xs = m.some(rng.randint(2, 4))
            if len(xs) >= 2:
                op = rng.choice(["lt", "le", "ne", "eq"])
                circular = ' circular="true"' if rng.random() < 0.3 and len(xs) > 2 else ""
                m.post("<slide%s> <list> %s </list> <intension> %s(%%0,%%1) </intension> </slide>"
                       % (circular, " ".join(xs), op))
        elif kind == "group":
            op = rng.choice(["lt", "ne", "le"])
            args = "".join("<args> %s </args>" % " ".join(m.some(2)) for _ in range(rng.randint(1, 3)))
            m.post("<group> <intension> %s(add(%%0,%d),%%1) </intension> %s </group>" % (op, rng.randint(-1, 1), args))
    # ACE leaves out a variable no constraint mentions: it would not count
    # its values (and fails on an objective over it). Most such variables get
    # a unary constraint; the count of the others is multiplied in.
    for name, values in m.ints:
        if not mentioned(name, m.constraints) and rng.random() < 0.7:
            op = rng.choice(["ne", "le", "ge"])
            m.post("<intension> %s(%s,%d) </intension>" % (op, name, rng.choice(values)))
    optimise = rng.random() < 0.35
    if optimise:
        goal = rng.choice(["minimize", "maximize"])
        form = rng.choice(["var", "expr", "sum", "minimum", "maximum", "nValues"])
        if form == "var":
            m.objective = "<%s> %s </%s>" % (goal, rng.choice(m.ints)[0], goal)
        elif form == "expr":
            expr = m.int_expr(2)
            if re.fullmatch(r"-?[0-9]+", expr):
                expr = rng.choice(m.ints)[0]  # ACE refuses a constant objective
            m.objective = "<%s> %s </%s>" % (goal, expr, goal)
        else:
            xs = m.some(rng.randint(1, 4))
            coeffs = (" <coeffs> %s </coeffs>" % " ".join(str(rng.randint(-3, 3)) for _ in xs)
                      if form == "sum" and rng.random() < 0.6 else "")
            m.objective = '<%s type="%s"> <list> %s </list>%s </%s>' % (goal, form, " ".join(xs), coeffs, goal)
    lines = ['<instance format="XCSP3" type="%s">' % ("COP" if optimise else "CSP"), "  <variables>"]
    lines += ["    " + v for v in m.variables]
    lines += ["  </variables>", "  <constraints>"]
    lines += ["    " + c for c in m.constraints]
    lines.append("  </constraints>")
    if optimise:
        lines += ["  <objectives>", "    " + m.objective, "  </objectives>"]
    lines.append("</instance>")
    free = [v for n, v in m.ints if not mentioned(n, m.constraints)]
    return "\n".join(lines) + "\n", optimise, free


# Symbolic variables (`--symbolic`): a separate instance kind, two to four
# symbolic variables (sometimes an array) over a handful of symbols, at most
# one integer variable, and symbol-only constraints: `intension` comparing
# symbols by eq, ne, in and notin under logic, `extension` with symbols and
# `*`, `allDifferent`, `allEqual`, `instantiation`. Satisfaction only: a
# symbol is no objective. ACE 2.6 fails (an exception) on a symbol that the
# first symbolic domain does not hold, so the first variable takes every
# symbol of the instance and the others some of them, in the same order
# (the brute-force tests of crates/xcsp3 cover the other cases).
SYMBOLS = ["a", "b", "c", "d", "e", "red", "green"]


def generate_symbolic(seed, globals_too=False):
    """The XML text of symbolic instance `seed`, False (it does not optimise), and its free variables' domains;
    with `globals_too`, count, nValues, cardinality and element over symbols among the constraints."""
    rng = random.Random(seed)
    syms = []  # (name, symbols)
    variables = []

    every = sorted(rng.sample(SYMBOLS, rng.randint(2, 5)))

    def domain():
        return sorted(rng.sample(every, rng.randint(1, len(every))))

    for i in range(rng.randint(2, 4)):
        values = every if i == 0 else domain()
        variables.append('<var id="s%d" type="symbolic"> %s </var>' % (i, " ".join(values)))
        syms.append(("s%d" % i, values))
    if rng.random() < 0.4:
        values, size = domain(), rng.randint(2, 3)
        variables.append('<array id="t" size="[%d]" type="symbolic"> %s </array>' % (size, " ".join(values)))
        syms += [("t[%d]" % k, values) for k in range(size)]
    ints = []
    if rng.random() < 0.4:
        variables.append('<var id="u"> 0..2 </var>')
        ints.append(("u", [0, 1, 2]))

    def leaf():
        return rng.choice(syms)[0] if rng.random() < 0.6 else rng.choice(every)

    def cond(depth):
        if depth == 0 or rng.random() < 0.35:
            r = rng.random()
            if r < 0.35:
                return "eq(%s,%s)" % (leaf(), leaf())
            if r < 0.6:
                return "ne(%s,%s)" % (leaf(), leaf())
            if r < 0.9 or not ints:
                members = ",".join(leaf() for _ in range(rng.randint(1, 3)))
                return "%s(%s,set(%s))" % (rng.choice(["in", "notin"]), leaf(), members)
            return "le(u,%d)" % rng.randint(0, 2)
        op = rng.choice(["not", "and", "or", "iff", "imp", "xor"])
        if op == "not":
            return "not(%s)" % cond(depth - 1)
        return "%s(%s,%s)" % (op, cond(depth - 1), cond(depth - 1))

    constraints = []
    for _ in range(rng.randint(1, 4)):
        kinds = ["intension", "intension", "extension", "extension", "alldiff", "allequal", "instantiation"]
        if globals_too:
            kinds += ["count", "nvalues", "cardinality", "element"] * 2
        kind = rng.choice(kinds)
        if kind in ("count", "nvalues", "cardinality", "element"):
            constraints.append(symbolic_global(rng, kind, syms, every, ints))
        elif kind == "intension":
            constraints.append("<intension> %s </intension>" % cond(rng.randint(0, 3)))
        elif kind == "extension":
            xs = rng.sample(syms, rng.randint(1, min(3, len(syms))))
            tag = rng.choice(["supports", "conflicts"])
            if len(xs) == 1 and rng.random() < 0.5:
                body = " ".join(sorted(set(rng.choice(xs[0][1]) for _ in range(rng.randint(1, 3)))))
            else:
                rows = set()
                for _ in range(rng.randint(1, 6)):
                    rows.add("(%s)" % ",".join("*" if rng.random() < 0.15 else rng.choice(v)
                                               for _, v in xs))
                body = "".join(sorted(rows))
            constraints.append("<extension> <list> %s </list> <%s> %s </%s> </extension>"
                               % (" ".join(n for n, _ in xs), tag, body, tag))
        elif kind == "alldiff":
            xs = rng.sample(syms, rng.randint(2, min(4, len(syms))))
            constraints.append("<allDifferent> %s </allDifferent>" % " ".join(n for n, _ in xs))
        elif kind == "allequal":
            xs = rng.sample(syms, rng.randint(2, min(3, len(syms))))
            constraints.append("<allEqual> %s </allEqual>" % " ".join(n for n, _ in xs))
        else:
            xs = rng.sample(syms, rng.randint(1, min(2, len(syms))))
            constraints.append("<instantiation> <list> %s </list> <values> %s </values> </instantiation>"
                               % (" ".join(n for n, _ in xs), " ".join(rng.choice(v) for _, v in xs)))
    for name, values in syms + ints:
        if not mentioned(name, constraints) and rng.random() < 0.7:
            if name == "u":
                constraints.append("<intension> ne(u,%d) </intension>" % rng.randint(0, 2))
            else:
                constraints.append("<intension> ne(%s,%s) </intension>" % (name, rng.choice(values)))
    lines = ['<instance format="XCSP3" type="CSP">', "  <variables>"]
    lines += ["    " + v for v in variables]
    lines += ["  </variables>", "  <constraints>"]
    lines += ["    " + c for c in constraints]
    lines += ["  </constraints>", "</instance>"]
    free = [v for n, v in syms + ints if not mentioned(n, constraints)]
    return "\n".join(lines) + "\n", False, free


def symbolic_global(rng, kind, syms, every, ints):
    """A count, nValues, cardinality or element over symbolic variables and symbols (`--symbolic-globals`),
    with integer conditions, occurrences and indices."""
    xs = [n for n, _ in rng.sample(syms, rng.randint(1, min(3, len(syms))))]
    some = sorted(rng.sample(every, rng.randint(1, min(2, len(every)))))

    def condition(most):
        if ints and rng.random() < 0.3:
            return "(%s,u)" % rng.choice(["eq", "le", "ge", "ne"])
        return "(%s,%d)" % (rng.choice(["lt", "le", "ge", "gt", "eq", "ne"]), rng.randint(0, most))

    if kind == "count":
        values = " ".join(some) if rng.random() < 0.7 else rng.choice(syms)[0]
        return ("<count> <list> %s </list> <values> %s </values> <condition> %s </condition> </count>"
                % (" ".join(xs), values, condition(len(xs))))
    if kind == "nvalues":
        except_ = " <except> %s </except>" % rng.choice(every) if rng.random() < 0.3 else ""
        return ("<nValues> <list> %s </list>%s <condition> %s </condition> </nValues>"
                % (" ".join(xs), except_, condition(len(xs))))
    if kind == "cardinality":
        occurs = " ".join("u" if ints and rng.random() < 0.3 else str(rng.randint(0, len(xs))) for _ in some)
        closed = ' closed="true"' if rng.random() < 0.3 else ""
        return ("<cardinality> <list> %s </list> <values%s> %s </values> <occurs> %s </occurs> </cardinality>"
                % (" ".join(xs), closed, " ".join(some), occurs))
    value = rng.choice(syms)[0] if rng.random() < 0.5 else rng.choice(every)
    if ints:
        # An index over 0..2, the list's positions exactly.
        items = [rng.choice(syms)[0] if rng.random() < 0.7 else rng.choice(every) for _ in range(3)]
        return ("<element> <list> %s </list> <index> u </index> <value> %s </value> </element>"
                % (" ".join(items), value))
    return "<element> <list> %s </list> <value> %s </value> </element>" % (" ".join(xs), value)


def mentioned(name, constraints):
    """Whether a constraint mentions variable `name` (`x1`, or `y[2]` also through `y[]` or `y[a..b]`)."""
    text = " ".join(constraints)
    if re.search(r"(?<![\w\[])%s(?![\w\[])" % re.escape(name), text):
        return True
    cell = re.fullmatch(r"(\w+)\[(\d+)\]", name)
    if not cell:
        return False
    array, i = cell.group(1), int(cell.group(2))
    if "%s[]" % array in text:
        return True
    return any(int(a) <= i <= int(b) for a, b in re.findall(r"(?<!\w)%s\[(\d+)\.\.(\d+)\]" % array, text))


# Running the solvers.

def plain(text):
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def limit_memory():
    """At most 2 GB of address space for csp-xcsp (Java gets -Xmx)."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def run(args, timeout):
    """(stdout, stderr, exit code), or None at the time limit."""
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                           preexec_fn=None if args[0] == "java" else limit_memory)
    except subprocess.TimeoutExpired:
        return None
    return p.stdout, p.stderr, p.returncode


def answer(text):
    """The s line's status and the last o value of a solver's output."""
    status, objective = None, None
    for line in plain(text).splitlines():
        if line.startswith("s ") and status is None:
            status = line[2:].strip()
        elif line.startswith("o "):
            objective = int(line.split()[1])
    return status, objective


def ours(a, path, optimise):
    """csp-xcsp's verdict: (status, objective, solution) or a skip reason."""
    config = ["--config", a.config] if a.config else []
    out = run([a.csp_xcsp, "--cpu-timeout", str(a.timeout)] + config + [path], a.timeout * 3 + 5)
    if out is None:
        return "skip: ours limit", out
    status, objective = answer(out[0])
    if status == "UNSUPPORTED":
        return "skip: ours unsupported", out
    if status is None or out[2] == 2:
        return "skip: ours error", out
    if status == "UNKNOWN" or (optimise and status == "SATISFIABLE"):
        return "skip: ours limit", out
    solution = next((line[2:] for line in out[0].splitlines() if line.startswith("v ")), None)
    return (status, objective, solution), out


def count_command(binary, timeout, path):
    """The csp-xcsp command that counts the solutions of `path`."""
    return [binary, "compare", "--goal", "count", "--repeats", "1", "--configs", "mac+domwdeg+binary",
            "--timeout", str(timeout), "--format", "json", path]


def counted(stdout):
    """The count in the JSON output of `count_command`, or None at a limit."""
    data = json.loads(stdout)
    if not data["measurements"]:
        return 0  # unsatisfiable before search: left out of the comparison
    m = data["measurements"][0]
    return None if m["limited"] else m["solutions"]


def our_count(a, path):
    """The number of solutions csp-xcsp enumerates, or None at a limit."""
    out = run(count_command(a.csp_xcsp, a.timeout, path), a.timeout * 3 + 5)
    if out is None or out[2] != 0:
        return None
    return counted(out[0])


def ace(a, path, optimise, free):
    """ACE's (status, objective or count), or a skip reason."""
    args = ["java"] + a.java_flags + ["-jar", a.jar, path] + ([] if optimise else ["-s=all"])
    out = run(args, a.timeout + 10)
    if out is None:
        return "skip: ace limit", out
    text = plain(out[0] + out[1])
    status, objective = answer(text)
    if status is None or "ERROR" in text or "Fatal" in text:
        said = [line.strip() for line in text.splitlines() if re.search(r"ERROR|Fatal|Exception|^\s*Line ", line)]
        return "skip: ace error", (out[0], out[1] + "\n" + " / ".join(said[:3]), out[2])
    if status == "UNKNOWN" or (optimise and status == "SATISFIABLE"):
        return "skip: ace limit", out
    if not optimise:
        found = re.search(r"^d FOUND SOLUTIONS\s+([\d,]+)", text, re.M)  # ACE writes 1,920
        objective = int(found.group(1).replace(",", "")) if found else 0
        for values in free:
            objective *= len(values)
        if status == "SATISFIABLE" and "d COMPLETE EXPLORATION" not in text:
            objective = None
        elif status == "SATISFIABLE" and re.search(r"^\s*count:.*auxiliary:", text, re.M):
            # ACE counts the assignments of the auxiliary variables it
            # introduced too (noOverlap's: 17 for 16 solutions).
            return "agree: satisfiable (ace auxiliary variables)", out
    return (status, objective), out


def checker(a, path, solution):
    """The official checker's verdict on `solution`: (True, cost) or (False, complaint)."""
    with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
        f.write(solution)
    try:
        out = run(["java"] + a.java_flags + ["-cp", a.jar, "org.xcsp.parser.callbacks.SolutionChecker",
                   path, f.name], 60)
    finally:
        os.unlink(f.name)
    if out is None:
        return False, "the checker reached its time limit"
    for line in (out[0] + out[1]).splitlines():
        words = line.split()
        if words and words[0] == "OK":
            return True, int(words[1]) if len(words) > 1 else None
    return False, out[0] + out[1]


def check(a, seed, scratch):
    """The verdict on instance `seed` and the outputs to keep if it is a disagreement."""
    text, optimise, free = (generate_symbolic(seed, a.symbolic_globals) if a.symbolic
                            else generate(seed, a.newer, a.latest, a.arg))
    path = os.path.join(scratch, "%d.xml" % seed)
    with open(path, "w") as f:
        f.write(text)
    mine, my_out = ours(a, path, optimise)
    theirs, ace_out = ace(a, path, optimise, free)
    outputs = {"csp-xcsp": my_out, "ace": ace_out}
    try:
        if theirs == "skip: ace error":
            why = ace_out[1].splitlines()[-1][:160]
        else:
            why = ""
        our_why = (my_out[1].strip().splitlines() or [""])[-1][:200] if my_out else ""
        if theirs == "agree: satisfiable (ace auxiliary variables)":
            theirs_status = ("SATISFIABLE", None)  # an answer, without a count
        else:
            theirs_status = theirs
        if isinstance(mine, str) and isinstance(theirs_status, str):
            return "skip: both (%s; %s)" % (mine[6:], theirs[6:]), outputs, our_why + " / " + why
        if isinstance(mine, str):
            if mine == "skip: ours error" and isinstance(theirs_status, tuple):
                return "disagree: ours error", outputs, "csp-xcsp fails, ACE says %s" % (theirs_status,)
            return mine, outputs, our_why
        status, objective, solution = mine
        if solution is not None:
            ok, said = checker(a, path, solution)
            if not ok and "Exception in thread" in said:
                # The checker itself fails (e.g. noOverlap with variable lengths).
                return "skip: checker error", outputs, ""
            if not ok:
                return "disagree: checker", outputs, "the checker refuses csp-xcsp's solution: %s" % said.strip()
            if said != objective:
                return "disagree: cost", outputs, "csp-xcsp's cost %s, the checker's %s" % (objective, said)
        if theirs == "agree: satisfiable (ace auxiliary variables)":
            if status == "SATISFIABLE":
                return theirs, outputs, ""
            return "disagree: status", outputs, "csp-xcsp %s, ACE SATISFIABLE" % status
        if isinstance(theirs, str):
            return theirs, outputs, why
        if status != theirs[0]:
            return "disagree: status", outputs, "csp-xcsp %s, ACE %s" % (status, theirs[0])
        if optimise:
            if status == "OPTIMUM FOUND" and objective != theirs[1]:
                return "disagree: optimum", outputs, "csp-xcsp %s, ACE %s" % (objective, theirs[1])
            return ("agree: optimum" if status == "OPTIMUM FOUND" else "agree: unsatisfiable"), outputs, ""
        if status == "UNSATISFIABLE":
            return "agree: unsatisfiable", outputs, ""
        if theirs[1] is None:
            return "agree: satisfiable (ace count limit)", outputs, ""
        count = our_count(a, path)
        if count is None:
            return "agree: satisfiable (our count limit)", outputs, ""
        if count != theirs[1]:
            return "disagree: count", outputs, "csp-xcsp %d solutions, ACE %d" % (count, theirs[1])
        return "agree: solutions", outputs, ""
    finally:
        os.unlink(path)


def keep(a, seed, outputs):
    os.makedirs(a.keep, exist_ok=True)
    target = os.path.join(a.keep, "%d.xml" % seed)
    with open(target, "w") as f:
        f.write(generate(seed, a.newer, a.latest, a.arg)[0])
    for who, out in outputs.items():
        with open(os.path.join(a.keep, "%d.%s.txt" % (seed, who)), "w") as f:
            f.write("time limit\n" if out is None else "%s\n--- stderr\n%s\n--- exit %d\n" % (plain(out[0]),
                                                                                             plain(out[1]), out[2]))
    return target


def ace_jar():
    if os.environ.get("ACE_JAR"):
        return os.environ["ACE_JAR"]
    spec = importlib.util.find_spec("pycsp3")
    if spec is None:
        return None
    return os.path.join(os.path.dirname(spec.origin), "solvers", "ace", "ACE-2.6.jar")


def java_flags(jar, scratch):
    """Java's flags: a 1 GB heap, the quick compiler, and a class-data archive
    of ACE's classes made by a first run (about half of the JVM's start)."""
    flags = ["-Xmx1g", "-XX:TieredStopAtLevel=1"]
    archive = os.path.join(scratch, "ace.jsa")
    tiny = os.path.join(scratch, "tiny.xml")
    with open(tiny, "w") as f:
        f.write('<instance format="XCSP3" type="CSP"> <variables> <var id="x"> 0..1 </var> </variables>'
                ' <constraints> <intension> le(x,0) </intension> </constraints> </instance>\n')
    run(["java", "-XX:ArchiveClassesAtExit=" + archive] + flags + ["-jar", jar, tiny], 60)
    return flags + ["-XX:SharedArchiveFile=" + archive] if os.path.exists(archive) else flags


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--csp-xcsp", default="target/release/csp-xcsp")
    ap.add_argument("--keep", default="target/xcsp-diff")
    ap.add_argument("--timeout", type=float, default=10, help="seconds for each solver run")
    ap.add_argument("--jobs", type=int, default=1, help="instances checked at once (at most 2 on a shared machine)")
    ap.add_argument("--print", action="store_true", help="print the instance of --seed and stop")
    ap.add_argument("--config", default=None,
                    help="csp-xcsp's configuration for the solve (e.g. mac+lrb+learn+luby; the count keeps "
                         "mac+domwdeg+binary), default its own")
    ap.add_argument("--newer", action="store_true",
                    help="generate the newer forms too (channel over one list or a shorter one, element without "
                         "an index or with a rank, count and cardinality with variable values, allDifferent over "
                         "lists, circuit with a size, noOverlap over boxes, cumulative with ends, ordered with lengths)")
    ap.add_argument("--latest", action="store_true",
                    help="generate the forms lowered last too, three times as often as another kind (allDifferent "
                         "over lists with except, element without an index with a condition or over a matrix, "
                         "element with a rank and a condition, slide over two lists)")
    ap.add_argument("--arg", action="store_true",
                    help="generate minimumArg and maximumArg too, twelve times as often as another kind (a rank or "
                         "none, mostly (eq,i), else any condition)")
    ap.add_argument("--symbolic", action="store_true",
                    help="generate instances over symbolic variables instead (intension by eq, ne, in, notin; "
                         "extension; allDifferent; allEqual; instantiation)")
    ap.add_argument("--symbolic-globals", action="store_true",
                    help="with --symbolic, count, nValues, cardinality and element over symbols too, each twice as "
                         "often as another kind")
    a = ap.parse_args()
    if a.print:
        sys.stdout.write((generate_symbolic(a.seed, a.symbolic_globals) if a.symbolic
                          else generate(a.seed, a.newer, a.latest, a.arg))[0])
        return 0
    a.jar = ace_jar()
    if a.jar is None or not os.path.exists(a.jar):
        print("skipped: ACE's jar is not installed (pip install pycsp3==2.6.1, or set ACE_JAR)")
        return 0
    if run(["java", "-version"], 30) is None or run(["java", "-version"], 30)[2] != 0:
        print("skipped: java is not installed")
        return 0
    if not os.access(a.csp_xcsp, os.X_OK):
        print("csp-xcsp not found at %s (cargo build --release -p csp-cli --bin csp-xcsp)" % a.csp_xcsp)
        return 2
    tally = {}
    done = 0
    with tempfile.TemporaryDirectory(prefix="xcsp-diff-") as scratch, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        a.java_flags = java_flags(a.jar, scratch)
        seeds = range(a.seed, a.seed + a.count)
        try:
            for seed, (verdict, outputs, why) in zip(seeds, pool.map(lambda s: check(a, s, scratch), seeds)):
                done += 1
                tally[verdict] = tally.get(verdict, 0) + 1
                if verdict.startswith("disagree"):
                    print("seed %d: %s: %s: %s" % (seed, verdict, why, keep(a, seed, outputs)), flush=True)
                elif verdict.startswith("skip"):
                    print("seed %d: %s%s" % (seed, verdict, ": " + why if why else ""), flush=True)
                if done % 100 == 0:
                    print("after %d instances: %s" % (done, ", ".join("%s %d" % kv for kv in sorted(tally.items()))),
                          flush=True)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            pool.shutdown(wait=False, cancel_futures=True)
    disagree = sum(n for v, n in tally.items() if v.startswith("disagree"))
    print("instances %d: %s; disagree %d" % (done, ", ".join("%s %d" % kv for kv in sorted(tally.items())), disagree),
          flush=True)
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
