"""Pigeon hole: n + 1 pigeons in n holes, one pigeon per hole (unsatisfiable)."""
from pycsp3 import *

n = data or 6
p = VarArray(size=n + 1, dom=range(n))
satisfy(
    p[i] != p[j] for i in range(n + 1) for j in range(i + 1, n + 1)
)
