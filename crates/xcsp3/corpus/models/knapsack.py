"""0/1 knapsack: the most valuable set of items within a weight capacity."""
from pycsp3 import *

weights = [12, 7, 11, 8, 9, 6, 14, 5, 10, 13]
values = [24, 13, 23, 15, 16, 11, 28, 9, 19, 25]
capacity = 40
x = VarArray(size=len(weights), dom={0, 1})
satisfy(
    Sum(w * x[i] for i, w in enumerate(weights)) <= capacity
)
maximize(
    Sum(v * x[i] for i, v in enumerate(values))
)
