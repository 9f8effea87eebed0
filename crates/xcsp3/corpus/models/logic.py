"""Intension over the whole functional syntax: logic, if-then-else, div, mod, min, max, membership."""
from pycsp3 import *

x = VarArray(size=4, dom=range(-3, 6))
b = VarArray(size=3, dom={0, 1})
satisfy(
    (b[0] == (x[0] > x[1])),
    (b[1] | b[2]),
    imply(b[2], x[2] % 3 == 1),
    ift(b[0], x[3] == x[0] // 2, x[3] == max(x[1], x[2])),
    x[0] + x[1] * x[2] != 4,
    (x[1] != 0) | (x[2] == abs(x[3]) - 1),
    x[2] not in {0, 2},
    xor(b[0], b[1], b[2] == 0),
    min(x[0], x[3]) >= -2,
)
