"""A 3x3 job shop: machines as noOverlap, operations of a job in order, the makespan minimal."""
from pycsp3 import *

jobs = [  # (machine, duration) per operation
    [(0, 3), (1, 2), (2, 2)],
    [(0, 2), (2, 1), (1, 4)],
    [(1, 4), (2, 3), (0, 1)],
]
horizon = sum(d for job in jobs for (_, d) in job)
s = VarArray(size=[3, 3], dom=range(horizon + 1))
satisfy(
    [s[j][k] + jobs[j][k][1] <= s[j][k + 1] for j in range(3) for k in range(2)],
    [NoOverlap(origins=[s[j][k] for j in range(3) for k in range(3) if jobs[j][k][0] == m],
               lengths=[jobs[j][k][1] for j in range(3) for k in range(3) if jobs[j][k][0] == m]) for m in range(3)],
)
minimize(Maximum(s[j][2] + jobs[j][2][1] for j in range(3)))
