#!/usr/bin/env python3
"""FlatZinc models with many constraints on each variable, or one huge constraint.

    python3 benches/generators/huge_fzn.py lin --vars 1000 --constraints 100000 > /tmp/lin.fzn
    python3 benches/generators/huge_fzn.py clause --vars 100000 > /tmp/clause.fzn
    target/release/fzn-csp -s /tmp/lin.fzn

`lin`: VARS variables 0..50 and CONSTRAINTS `int_lin_le` of two distinct variables
drawn with Python's `random.Random(seed)`, each `x - y <= 40` (about
2 * CONSTRAINTS / VARS constraints on each variable; satisfiable: every variable 0). `clause`: VARS Booleans and one
`bool_clause` over all of them; satisfiable. `alldiff`: VARS variables 0..VARS-1
and one `all_different` over them (a permutation). `sum`: VARS variables 0..9 and one
`int_lin_eq` of VARS terms (coefficients 1..7 by position) equal to 3 times their sum.
`sumle`: the same with `int_lin_le` and the coefficients negated (the weighted sum at
least 3 times their sum, the equation's lower half).
`table`: three variables 0..99 and one `table` of VARS rows (drawn by the seed), the
first with x0 + x1 = x2. `chain`: VARS variables 0..VARS+1, `x[i] + 1 <= x[i+1]`
(CONSTRAINTS ignored). None names a search annotation,
so each solver uses its own default ordering (fzn-csp's is dom/wdeg). `--gecode`
writes the global constraints under Gecode's names (`all_different_int`,
`gecode_table_int`) instead of the FlatZinc standard's (`fzn_...`). The models
of the audit's "Huge and empty input" paragraph (BENCHMARKS.md), made reproducible.
"""

import argparse
import random
import sys


def declare(out, n, domain, prefix="x"):
    """Declares `n` output variables `{prefix}0..` over `domain`."""
    for i in range(n):
        out.write(f"var {domain}: {prefix}{i} :: output_var;\n")


def lin(args, out):
    rng = random.Random(args.seed)
    declare(out, args.vars, "0..50")
    for _ in range(args.constraints):
        i = rng.randrange(args.vars)
        j = rng.randrange(args.vars - 1)
        j += j >= i
        out.write(f"constraint int_lin_le([1,-1],[x{i},x{j}],40);\n")


def clause(args, out):
    declare(out, args.vars, "bool", prefix="b")
    literals = ",".join(f"b{i}" for i in range(args.vars))
    out.write(f"constraint bool_clause([{literals}],[]);\n")


def alldiff(args, out):
    n = args.vars
    declare(out, n, f"0..{n - 1}")
    name = "all_different_int" if args.gecode else "fzn_all_different_int"
    out.write(f"constraint {name}([{','.join(f'x{i}' for i in range(n))}]);\n")


def sum_(args, out, le=False):
    """`sum`, or with `le` `sumle`: the equation's lower half as an `int_lin_le`."""
    n = args.vars
    declare(out, n, "0..9")
    coefficients = [1 + i % 7 for i in range(n)]
    sign, name = (-1, "int_lin_le") if le else (1, "int_lin_eq")
    out.write(
        f"constraint {name}([{','.join(str(sign * a) for a in coefficients)}],[{','.join(f'x{i}' for i in range(n))}],"
        f"{sign * 3 * sum(coefficients)});\n"
    )


def table(args, out):
    rng = random.Random(args.seed)
    declare(out, 3, "0..99")
    rows = [(a, b, a + b) for a, b in [(rng.randrange(50), rng.randrange(50))]]
    rows += [(rng.randrange(100), rng.randrange(100), rng.randrange(100)) for _ in range(args.vars - 1)]
    name = "gecode_table_int" if args.gecode else "fzn_table_int"
    out.write(f"constraint {name}([x0,x1,x2],[{','.join(str(v) for row in rows for v in row)}]);\n")


def chain(args, out):
    n = args.vars
    declare(out, n, f"0..{n + 1}")
    for i in range(n - 1):
        out.write(f"constraint int_lin_le([1,-1],[x{i},x{i + 1}],-1);\n")


KINDS = {"lin": lin, "clause": clause, "alldiff": alldiff, "sum": sum_, "sumle": lambda args, out: sum_(args, out, le=True), "table": table, "chain": chain}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("--vars", type=int, default=1000, help="the number of variables (default 1000)")
    parser.add_argument(
        "--constraints", type=int, default=100000, help="lin: the number of constraints (default 100000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="lin, table: the seed (default 1)")
    parser.add_argument("--gecode", action="store_true", help="the global constraints under Gecode's names")
    args = parser.parse_args()
    out = sys.stdout
    out.write(f"% huge_fzn.py {' '.join(sys.argv[1:])}\n")
    KINDS[args.kind](args, out)
    out.write("solve satisfy;\n")


if __name__ == "__main__":
    main()
