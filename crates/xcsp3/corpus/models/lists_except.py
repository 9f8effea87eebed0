"""allDifferent over several lists with an excepted tuple (pycsp3's AllDifferentList with
excepting): the rows of p pairwise distinct unless they are (0,0). The least sum, 1, needs two
rows (0,0); without the exception it would be 2."""
from pycsp3 import *

p = VarArray(size=[3, 2], dom=range(3))

satisfy(
    AllDifferentList(p, excepting=(0, 0)),
    p[2][0] + p[2][1] >= 1,
)
minimize(Sum(p))
