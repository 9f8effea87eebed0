"""The core globals side by side, with compact value lists (1x7) and a sum objective: allDifferent
with exceptions, count, cardinality with ranges, minimum, maximum, element with a variable index,
nested intension (mod, dist, max, if), ordered, lex, nValues and a table with '*'."""
from pycsp3 import *

x = VarArray(size=6, dom=range(0, 6))
y = VarArray(size=6, dom=range(0, 6))
z = VarArray(size=4, dom={-3, -1, 0, 2, 5})
b = VarArray(size=3, dom={0, 1})
i = Var(dom=range(0, 6))
k = Var(dom=range(-10, 11))

satisfy(
    AllDifferent(x, excepting=0),
    Count(x, value=0) == 2,
    Cardinality(z, occurrences={-1: 1, 2: range(0, 3)}),
    Minimum(z) >= -1,
    Maximum(x) == 5,
    x[i] == z[1] + 3,
    k == (z[0] * z[2]) % 4 + abs(z[3] - x[2]) - max(x[0], x[1]),
    b[0] == (x[3] > x[4]),
    either(b[1], x[5] % 2 == 1),
    imply(b[2], abs(x[0] - y[0]) >= 2),
    Sum(y[j] * (j + 1) for j in range(6)) == 40,
    Increasing(y[:3]),
    LexIncreasing(z[:2], z[2:]),
    NValues(y) == 4,
    Table(scope=(y[3], y[4]), supports={(1, ANY), (3, 4), (5, 0)}),
    ift(b[0], x[1] != y[1], y[2] == 5),
)
minimize(Sum(x) + k + NValues(z) * 0)
