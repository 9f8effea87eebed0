#!/usr/bin/env python3
"""FlatZinc models with many constraints on each variable, or one huge constraint.

    python3 benches/generators/huge_fzn.py lin --vars 1000 --constraints 100000 > /tmp/lin.fzn
    python3 benches/generators/huge_fzn.py clause --vars 100000 > /tmp/clause.fzn
    target/release/fzn-csp -s /tmp/lin.fzn

`lin`: VARS variables 0..50 and CONSTRAINTS `int_lin_le` of two distinct variables
drawn with Python's `random.Random(seed)`, each `x - y <= 40` (about
2 * CONSTRAINTS / VARS constraints on each variable; satisfiable: every variable 0). `clause`: VARS Booleans and one
`bool_clause` over all of them; satisfiable. Neither names a search annotation,
so each solver uses its own default ordering (fzn-csp's is dom/wdeg). The models
of the audit's "Huge and empty input" paragraph (BENCHMARKS.md), made reproducible.
"""

import argparse
import random
import sys


def lin(args, out):
    rng = random.Random(args.seed)
    for i in range(args.vars):
        out.write(f"var 0..50: x{i} :: output_var;\n")
    for _ in range(args.constraints):
        i = rng.randrange(args.vars)
        j = rng.randrange(args.vars - 1)
        j += j >= i
        out.write(f"constraint int_lin_le([1,-1],[x{i},x{j}],40);\n")
    out.write("solve satisfy;\n")


def clause(args, out):
    for i in range(args.vars):
        out.write(f"var bool: b{i} :: output_var;\n")
    literals = ",".join(f"b{i}" for i in range(args.vars))
    out.write(f"constraint bool_clause([{literals}],[]);\n")
    out.write("solve satisfy;\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["lin", "clause"])
    parser.add_argument("--vars", type=int, default=1000, help="the number of variables (default 1000)")
    parser.add_argument(
        "--constraints", type=int, default=100000, help="lin: the number of constraints (default 100000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="lin: the seed (default 1)")
    args = parser.parse_args()
    out = sys.stdout
    out.write(f"% huge_fzn.py {' '.join(sys.argv[1:])}\n")
    (lin if args.kind == "lin" else clause)(args, out)


if __name__ == "__main__":
    main()
