"""pycsp3's MinimumArg and MaximumArg (<minimumArg> / <maximumArg>, with a rank and a
condition): i is the first position of the least of x, j the last position of the
greatest, k some position of the least, with k at least 3 and j before i."""
from pycsp3 import *

x = VarArray(size=5, dom=range(4))
i = Var(dom=range(5))
j = Var(dom=range(5))
k = Var(dom=range(5))

satisfy(
    MinimumArg(x, rank=TypeRank.FIRST) == i,
    MaximumArg(x, rank=TypeRank.LAST) == j,
    MinimumArg(x) == k,
    k >= 3,
    j < i,
)
maximize(Sum(x) - 2 * i - k)
