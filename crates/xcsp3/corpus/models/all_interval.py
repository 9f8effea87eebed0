"""All-interval series: a permutation of 0..n-1 whose successive distances are all different."""
from pycsp3 import *

n = data or 8
x = VarArray(size=n, dom=range(n))
y = VarArray(size=n - 1, dom=range(1, n))
satisfy(
    AllDifferent(x),
    AllDifferent(y),
    [y[i] == abs(x[i] - x[i + 1]) for i in range(n - 1)],
    x[0] < x[n - 1],
    y[0] < y[1],
)
