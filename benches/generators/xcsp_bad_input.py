#!/usr/bin/env python3
"""Malformed forms of the newest XCSP3 input: reified constraints and symbols.

    nice -n 10 python3 benches/generators/xcsp_bad_input.py --count 2000 --seed 1 \
        [--csp-xcsp target/release/csp-xcsp] [--timeout 5]

Each case (seed SEED + i) takes one of xcsp_diff.py's instances (its newer,
latest and arg forms, or --symbolic --symbolic-globals every other case),
reifies one or more of its top-level constraints (reifiedBy, hreifiedFrom,
hreifiedTo onto a new 0/1 variable) and applies one to three targeted
mutations: the literal undeclared, non-Boolean, a symbol, an array or empty;
a number replaced by a value near or beyond +-2^62 (+-2^63, 2^64); a token
of a list deleted or a list emptied; a name replaced by an undeclared one;
a symbol replaced by one no domain holds; an attribute's value repeated.
csp-xcsp must answer or refuse with a message that names its line: a case
is flagged when it panics (exit 101 or `panicked`), dies of a signal, runs
past the timeout, or refuses (exit 2) without "line N" in its message.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xcsp_diff  # noqa: E402

BIG = [2**62, 2**62 - 1, 2**62 + 1, -(2**62), -(2**62) - 1, -(2**62) + 1, 2**63 - 1, -(2**63), 2**63, 2**64,
       -(2**64), 10**20]
ATTRIBUTES = ["reifiedBy", "hreifiedFrom", "hreifiedTo"]


def reify(rng, text):
    """The instance with one to all of its top-level constraints reified."""
    root = ET.fromstring(text)
    variables, constraints = root.find("variables"), root.find("constraints")
    children = [c for c in constraints if c.tag not in ("group", "block", "slide")]
    rng.shuffle(children)
    for k, c in enumerate(children[:rng.randint(1, max(1, len(children)))]):
        ET.SubElement(variables, "var", {"id": "lit%d" % k}).text = " 0 1 "
        c.set(rng.choice(ATTRIBUTES), "lit%d" % k)
    return ET.tostring(root, encoding="unicode")


def mutate(rng, text):
    """One targeted mutation of `text`."""
    kind = rng.randrange(9)
    if kind == 0:  # the literal: undeclared, non-Boolean, a constant, an array, empty
        return re.sub(r'(reifiedBy|hreifiedFrom|hreifiedTo)="lit(\d+)"',
                      lambda m: '%s="%s"' % (m.group(1), rng.choice(
                          ["nolit", "x0", "1", "x[]", "", "lit%s lit0" % m.group(2), "x", "s0"])), text, count=1)
    if kind == 1:  # the literal's domain
        return re.sub(r'(<var id="lit\d+">)[^<]*', lambda m: m.group(1) + rng.choice(
            [" 0..2 ", " 2 ", " -1 0 1 ", " ", " 1 ", " 0 ", " 4611686018427387904 "]), text, count=1)
    numbers = list(re.finditer(r"(?<![\w.%])-?\d+(?![\w\]])", text))
    if kind in (2, 3) and numbers:  # a number near or beyond +-2^62
        m = rng.choice(numbers)
        return text[:m.start()] + str(rng.choice(BIG)) + text[m.end():]
    lists = list(re.finditer(r"<(list|values|index|value|occurs|origins|lengths|heights|coeffs|matrix|except|"
                             r"supports|conflicts|condition)([^>]*)>([^<]*)</\1>", text))
    if kind == 4 and lists:  # a list emptied
        m = rng.choice(lists)
        return text[:m.start(3)] + " " + text[m.end(3):]
    if kind == 5 and lists:  # a token of a list deleted or doubled
        m = rng.choice(lists)
        tokens = m.group(3).split()
        if tokens:
            i = rng.randrange(len(tokens))
            if rng.random() < 0.5:
                del tokens[i]
            else:
                tokens.insert(i, tokens[i])
        return text[:m.start(3)] + " " + " ".join(tokens) + " " + text[m.end(3):]
    names = list(re.finditer(r"\b(x\d+|s\d+|lit\d+)\b(?!\")", text))
    if kind == 6 and names:  # a name undeclared
        m = rng.choice(names)
        return text[:m.start()] + rng.choice(["zz", m.group(0) + "9", "x[9]", "x[]"]) + text[m.end():]
    symbols = list(re.finditer(r"\b([a-z])\b", text))
    if kind == 7 and symbols:  # a symbol no domain holds, or a number for a symbol
        m = rng.choice(symbols)
        return text[:m.start()] + rng.choice(["zz", "1", "-4611686018427387904", "a1"]) + text[m.end():]
    # an attribute repeated on another constraint, or a second one on the same
    return re.sub(r'(<\w+) (reifiedBy|hreifiedFrom|hreifiedTo)="(\w*)"',
                  lambda m: '%s %s="%s" %s="%s"' % (m.group(1), m.group(2), m.group(3),
                                                    rng.choice([a for a in ATTRIBUTES if a != m.group(2)]),
                                                    m.group(3)), text, count=1)


def case(seed):
    """The text of case `seed`."""
    rng = random.Random(seed)
    if seed % 2:
        text, _, _ = xcsp_diff.generate_symbolic(seed, True)
    else:
        text, _, _ = xcsp_diff.generate(seed, True, True, True)
    text = reify(rng, text)
    for _ in range(rng.randint(1, 3)):
        text = mutate(rng, text)
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--csp-xcsp", default="target/release/csp-xcsp")
    ap.add_argument("--timeout", type=float, default=5)
    ap.add_argument("--print", action="store_true", help="print the input of --seed and stop")
    a = ap.parse_args()
    if a.print:
        print(case(a.seed))
        return
    totals = {}
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "case.xml")
        for seed in range(a.seed, a.seed + a.count):
            with open(path, "w") as f:
                f.write(case(seed))
            try:
                p = subprocess.run([a.csp_xcsp, "--cpu-timeout", str(a.timeout), path], capture_output=True,
                                   text=True, timeout=a.timeout * 3 + 5)
                rc, err = p.returncode, p.stderr
            except subprocess.TimeoutExpired:
                rc, err = "hang", ""
            status = {0: "answer", 2: "refused"}.get(rc, "exit %s" % rc)
            flagged = rc == 101 or "panicked" in err or (isinstance(rc, int) and rc < 0) or rc == "hang"
            if rc == 2 and not re.search(r"line \d+", err):
                flagged, status = True, "refused without a place"
            totals[status] = totals.get(status, 0) + 1
            if flagged:
                print("seed %d: %s: %s" % (seed, status, err.strip()[:300]), flush=True)
    for key in sorted(totals):
        print("%6d  %s" % (totals[key], key))


if __name__ == "__main__":
    main()
