"""Symbolic variables: house colours and pets as symbols, in tables, (in)equalities and sets."""
from pycsp3 import *

colour = VarArray(size=4, dom={"red", "green", "blue", "white"})
pet = VarArray(size=4, dom={"dog", "cat", "fish"})
satisfy(
    AllDifferent(colour),
    colour[0] != "red",
    [(colour[i], pet[i]) in {("red", "dog"), ("green", "cat"), ("blue", "fish"), ("white", "dog"), ("white", "cat")}
     for i in range(4)],
    pet[0] != pet[1],
    pet[2] == pet[3],
    colour[3] in {"blue", "white"},
    (colour[1] == "white") | (pet[1] == "fish"),
)
