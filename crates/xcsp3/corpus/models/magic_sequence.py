"""Magic sequence: x[i] is the number of occurrences of i in x (count, sum)."""
from pycsp3 import *

n = data or 10
x = VarArray(size=n, dom=range(n))
satisfy(
    [Count(x, value=i) == x[i] for i in range(n)],
    Sum(x) == n,
    Sum((i - 1) * x[i] for i in range(n)) == 0,
)
