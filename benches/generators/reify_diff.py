#!/usr/bin/env python3
"""Metamorphic testing of csp-xcsp's reified constraints, without another solver.

ACE and the XCSP3 checker ignore reifiedBy, hreifiedFrom and hreifiedTo, so
xcsp_diff.py cannot check them. Here each of xcsp_diff.py's random instances
(its objective dropped: satisfaction) gives, for one top-level constraint C of
it at a time, five instances counted by csp-xcsp (`compare --goal count`):

  without  the instance without C                         count W
  plain    the instance as generated                      count P
  by1      C reifiedBy b, b in {1}                        must be P
  by0      C reifiedBy b, b in {0}                        must be W - P
  from     C hreifiedFrom b (b -> C), b in {0,1}          must be W + P
  to       C hreifiedTo b (C -> b), b in {0,1}            must be 2W - P

No semantics of C is needed: only that the plain count P is right (which
xcsp_diff.py checks against ACE) and that W counts the rest. A form
csp-xcsp refuses reified is counted as refused (with the first line of its
message), never a disagreement; a message without a place is reported.
"""

import argparse
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xcsp_diff  # noqa: E402

UNREIFIABLE = {"group", "block", "slide"}


def count(binary, text, timeout, scratch, name):
    """csp-xcsp's count of `text`: an int, 'refused: ...' or 'limit'."""
    path = os.path.join(scratch, name + ".xml")
    with open(path, "w") as f:
        f.write(text)
    try:
        out = xcsp_diff.run(xcsp_diff.count_command(binary, timeout, path), timeout * 3 + 5)
    finally:
        os.unlink(path)
    if out is None:
        return "limit"
    stdout, stderr, code = out
    if code != 0:
        if "panicked" in stderr:
            return "panic: " + stderr.strip()[:300]
        return "refused: " + (stderr.strip().splitlines() or [""])[-1][:200]
    n = xcsp_diff.counted(stdout)
    return "limit" if n is None else n


def variants(text):
    """(index, tag, {name: instance text}) for each top-level constraint."""
    root = ET.fromstring(text)
    objectives = root.find("objectives")
    if objectives is not None:
        root.remove(objectives)
    root.set("type", "CSP")
    variables = root.find("variables")
    constraints = root.find("constraints")
    children = list(constraints)
    for k, c in enumerate(children):
        if c.tag in UNREIFIABLE or any(a in c.attrib for a in ("reifiedBy", "hreifiedFrom", "hreifiedTo")):
            continue
        out = {}
        constraints.remove(c)
        out["without"] = ET.tostring(root, encoding="unicode")
        constraints.insert(k, c)
        out["plain"] = ET.tostring(root, encoding="unicode")
        b = ET.SubElement(variables, "var", {"id": "zreif"})
        for name, attribute, domain in (("by1", "reifiedBy", "1"), ("by0", "reifiedBy", "0"),
                                        ("from", "hreifiedFrom", "0 1"), ("to", "hreifiedTo", "0 1")):
            b.text = " %s " % domain
            c.set(attribute, "zreif")
            out[name] = ET.tostring(root, encoding="unicode")
            del c.attrib[attribute]
        variables.remove(b)
        yield k, c.tag, out


def check(a, seed, scratch):
    """The verdicts of one generated instance's constraints."""
    text, _, _ = (xcsp_diff.generate_symbolic(seed, True) if a.symbolic
                  else xcsp_diff.generate(seed, a.newer, a.latest, a.arg))
    verdicts = []
    for k, tag, texts in variants(text):
        n = {name: count(a.csp_xcsp, t, a.timeout, scratch, "%d-%d-%s" % (seed, k, name))
             for name, t in texts.items()}
        panics = [name for name, v in n.items() if isinstance(v, str) and v.startswith("panic")]
        if panics:
            verdicts.append(("panic", tag, "%s: %s" % (panics, n[panics[0]])))
            continue
        w, p = n["without"], n["plain"]
        if not isinstance(w, int) or not isinstance(p, int):
            verdicts.append(("skip: base %s" % ("limit" if "limit" in (w, p) else "refused"), tag, ""))
            continue
        expected = {"by1": p, "by0": w - p, "from": w + p, "to": 2 * w - p}
        for name, want in expected.items():
            got = n[name]
            if got == "limit":
                verdicts.append(("skip: limit", tag, name))
            elif isinstance(got, str):
                verdicts.append(("refused", tag, got))
            elif got != want:
                verdicts.append(("disagree", tag, "%s: %d, expected %d (W %d, P %d)" % (name, got, want, w, p)))
            else:
                verdicts.append(("agree", tag, name))
    return verdicts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--csp-xcsp", default="target/release/csp-xcsp")
    ap.add_argument("--timeout", type=float, default=5, help="seconds for each count")
    ap.add_argument("--newer", action="store_true", help="xcsp_diff.py's --newer forms too")
    ap.add_argument("--latest", action="store_true", help="xcsp_diff.py's --latest forms too")
    ap.add_argument("--arg", action="store_true", help="xcsp_diff.py's --arg forms too")
    ap.add_argument("--symbolic", action="store_true",
                    help="xcsp_diff.py's --symbolic --symbolic-globals instances instead")
    a = ap.parse_args()
    totals = {}
    with tempfile.TemporaryDirectory() as scratch:
        for seed in range(a.seed, a.seed + a.count):
            for verdict, tag, detail in check(a, seed, scratch):
                totals[verdict] = totals.get(verdict, 0) + 1
                totals["%s %s" % (verdict, tag)] = totals.get("%s %s" % (verdict, tag), 0) + 1
                if verdict in ("disagree", "panic") or (verdict == "refused" and ":" not in detail):
                    print("seed %d %s %s: %s" % (seed, verdict, tag, detail), flush=True)
    for key in sorted(totals):
        print("%6d  %s" % (totals[key], key))


if __name__ == "__main__":
    main()
