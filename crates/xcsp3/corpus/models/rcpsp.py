"""A small resource-constrained project: precedences, one cumulative resource, the makespan minimal."""
from pycsp3 import *

durations = [3, 2, 4, 2, 3, 1, 2]
demands = [2, 1, 2, 3, 1, 2, 1]
capacity = 4
successors = [(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 6)]
horizon = sum(durations)
n = len(durations)
s = VarArray(size=n, dom=range(horizon + 1))
satisfy(
    [s[i] + durations[i] <= s[j] for (i, j) in successors],
    Cumulative(origins=s, lengths=durations, heights=demands) <= capacity,
)
minimize(Maximum(s[i] + durations[i] for i in range(n)))
