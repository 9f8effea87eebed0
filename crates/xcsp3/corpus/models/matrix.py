"""An element over a matrix (m[r][c] with variable indices), channel, noOverlap and cumulative on the
same tasks, a sum of reified comparisons, count over several values, and a maximum to maximise."""
from pycsp3 import *

m = VarArray(size=[3, 3], dom=lambda i, j: range(0, 4) if i != j else {0, 1})
w = VarArray(size=5, dom=range(0, 5))
v = VarArray(size=5, dom=range(0, 5))
r = Var(dom=range(0, 3))
c = Var(dom=range(0, 3))
s = VarArray(size=3, dom=range(0, 8))
e = VarArray(size=4, dom=range(0, 3))

satisfy(
    Channel(w, v),
    m[r][c] == 3,
    AllEqual(m[0][1], m[1][2]),
    Sum(m[i][i] for i in range(3)) == 2,
    Sum((w[i] == i) for i in range(5)) >= 1,
    Sum(e[i] * w[i] for i in range(4)) <= 6,
    Count(m[2], value=2) == 1,
    NoOverlap(origins=s, lengths=[2, 3, 1]),
    Cumulative(origins=s, lengths=[2, 3, 1], heights=[1, 1, 1]) <= 1,
    [e[i] != e[i + 1] for i in range(3)],
    Count(e, values=[0, 2]) == 2,
    (m[0][0] == 1) | (m[1][1] == 1),
    (w[0] == 1) | (w[0] == 3),
    m[2][2] == 1,
)
maximize(Maximum(s))
