"""Golomb ruler: marks with pairwise distinct differences, the last as small as possible."""
from pycsp3 import *

n = data or 6
ub = n * n
x = VarArray(size=n, dom=range(ub))
satisfy(
    x[0] == 0,
    Increasing(x, strict=True),
    AllDifferent(x[j] - x[i] for i in range(n) for j in range(i + 1, n)),
    x[1] - x[0] < x[n - 1] - x[n - 2],
)
minimize(x[-1])
