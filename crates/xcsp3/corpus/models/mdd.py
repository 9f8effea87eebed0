"""A small MDD over three variables, and an ordering on them."""
from pycsp3 import *

x = VarArray(size=3, dom=range(3))
m = MDD([
    ("r", 0, "n1"), ("r", 1, "n2"), ("r", 2, "n1"),
    ("n1", 2, "n3"), ("n1", 0, "n4"), ("n2", 1, "n3"),
    ("n3", 0, "t"), ("n3", 2, "t"), ("n4", 1, "t"),
])
satisfy(
    x in m,
    x[0] <= x[2],
)
