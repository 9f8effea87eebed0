"""Traffic lights (CSPLib 16): four pairs of lights, their compatible states as a table."""
from pycsp3 import *

R, RY, G, Y = 0, 1, 2, 3
n = 4
v = VarArray(size=n, dom={R, RY, G, Y})  # vehicle lights
p = VarArray(size=n, dom={R, G})  # pedestrian lights
T = {(R, R, G, G), (RY, R, R, R), (G, G, R, R), (Y, R, R, R)}
satisfy(
    (v[i], p[i], v[(i + 1) % n], p[(i + 1) % n]) in T for i in range(n)
)
