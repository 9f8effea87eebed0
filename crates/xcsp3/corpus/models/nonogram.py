"""A small nonogram: each row and column an automaton of its clue (regular)."""
from pycsp3 import *

rows = [[3], [1, 1], [5], [1, 1], [3]]
cols = [[3], [1, 1, 1], [1, 1, 1], [1, 1, 1], [3]]


def automaton(clue):
    q = Automaton.q
    transitions = []
    if len(clue) == 0:
        return Automaton(start=q(0), final=q(0), transitions=[(q(0), 0, q(0))])
    k = 0
    for i, size in enumerate(clue):
        transitions.append((q(k), 0, q(k)))
        for j in range(size):
            transitions.append((q(k), 1, q(k + 1)))
            k += 1
        if i < len(clue) - 1:
            transitions.append((q(k), 0, q(k + 1)))
            k += 1
    transitions.append((q(k), 0, q(k)))
    return Automaton(start=q(0), final=q(k), transitions=transitions)


x = VarArray(size=[len(rows), len(cols)], dom={0, 1})
satisfy(
    [x[i] in automaton(rows[i]) for i in range(len(rows))],
    [x[:, j] in automaton(cols[j]) for j in range(len(cols))],
)
