"""N-queens: one queen per row, q[i] its column (allDifferent over expressions)."""
from pycsp3 import *

n = data or 8
q = VarArray(size=n, dom=range(n))
satisfy(
    AllDifferent(q),
    AllDifferent(q[i] + i for i in range(n)),
    AllDifferent(q[i] - i for i in range(n)),
)
