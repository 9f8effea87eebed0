"""Groups whose <args> hold compact lists (x[0][] i[0]): pycsp3 writes the
rows' MaximumArg and Sum constraints as groups, one <args> per row, and the
official parser expands x[r][] into its variables before %0 %1 ... and %...
refer to them."""
from pycsp3 import *

x = VarArray(size=[3, 3], dom=range(4))
i = VarArray(size=3, dom=range(3))
s = VarArray(size=3, dom=range(12))

satisfy(
    [MaximumArg(x[r], rank=TypeRank.FIRST) == i[r] for r in range(3)],
    [Sum(x[r]) == s[r] for r in range(3)],
    [AllDifferent(x[r]) for r in range(3)],
    AllDifferent(i),
    [x[r][c] != x[r + 1][c] for r in range(2) for c in range(3)],
)
maximize(Sum(s) - 3 * i[0])
