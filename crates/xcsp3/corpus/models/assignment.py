"""Assignment with channeling: workers to tasks and back (channel), element costs, a cost bound, fewest distinct shifts."""
from pycsp3 import *

costs = cp_array([
    [9, 2, 7, 8],
    [6, 4, 3, 7],
    [5, 8, 1, 8],
    [7, 6, 9, 4],
])
n = len(costs)
w = VarArray(size=n, dom=range(n))  # w[i]: the task of worker i
t = VarArray(size=n, dom=range(n))  # t[j]: the worker of task j
c = VarArray(size=n, dom=range(10))
shift = VarArray(size=n, dom=range(3))
satisfy(
    Channel(w, t),
    [c[i] == costs[i][w[i]] for i in range(n)],
    Sum(c) <= 16,
    [shift[i] != shift[j] for i in range(n) for j in range(i + 1, n) if abs(i - j) == 1],
    LexIncreasing(shift[:2], shift[2:]),
    Minimum(c) >= 1,
)
minimize(NValues(shift))
