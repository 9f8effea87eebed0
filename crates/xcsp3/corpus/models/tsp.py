"""A small travelling salesman: a circuit of successors, the sum of the chosen distances minimal."""
from pycsp3 import *

distances = cp_array([
    [0, 3, 4, 2, 7, 3],
    [3, 0, 4, 6, 3, 5],
    [4, 4, 0, 5, 8, 4],
    [2, 6, 5, 0, 6, 7],
    [7, 3, 8, 6, 0, 4],
    [3, 5, 4, 7, 4, 0],
])
n = len(distances)
s = VarArray(size=n, dom=range(n))
d = VarArray(size=n, dom=range(max(max(row) for row in distances) + 1))
satisfy(
    Circuit(s),
    [d[i] == distances[i][s[i]] for i in range(n)],
)
minimize(Sum(d))
