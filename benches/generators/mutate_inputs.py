#!/usr/bin/env python3
"""Seeded mutations of every tool's input: find panics, signals and hangs.

    cargo build --release -p csp-cli -p csp-flatzinc
    nice -n 10 python3 benches/generators/mutate_inputs.py --count 2000 --seed 1 \
        [--bins target/release] [--keep target/mutate] [--timeout 10] [--tools sudoku,fzn,...]

Standard library only. Each case (seed `SEED + i`, so any one can be rerun with
`--seed S --count 1`; `--print` writes its input to stdout and its command to
stderr) takes one valid input of one tool, applies one to three mutations and
runs the tool on it:

- inputs: sudoku puzzles of every side the data sets hold (4x4 to 64x64) in
  each layout the reader takes (lines, grids, Project Euler, JSON records,
  `# box` comments, batches, a board with placed digits and a pencil-mark grid
  for `hint`); FlatZinc models (crates/flatzinc's fixtures and the spec
  suite's small `.fzn` files under `../shared/data/minizinc/spec` if present);
  XCSP3 instances (crates/xcsp3/corpus); the gallery's model files
  (examples/data, for `csp-lab compare` the `.xml` and `.fzn` ones); the
  arguments of csp-queens and of csp-lab's generators; the gallery's puzzle
  files (examples/data: killer sudoku, futoshiki, kakuro, kenken, nonogram,
  DIMACS graphs for map_coloring), with `--tools gallery` and the examples
  built (`cargo build --release -p csp-examples --example killer_sudoku ...`);
- mutations: byte flips, truncations, duplicated or deleted slices, numbers
  replaced by boundary values (+-2^31, +-2^62, +-2^63, 2^64, -0, 20 digits),
  empty and whitespace-only files, deep nesting, CRLF and lone CR line ends,
  NUL, bytes that are not UTF-8, a byte order mark, the file repeated, a token
  of the format inserted;
- tools: csp-sudoku solve / rate / explain / hint / count; fzn-csp plain, with
  -a, -f, -p 2; csp-xcsp; csp-lab compare; csp-queens; csp-lab one; the
  gallery's examples (in `--bins`/examples).

A case is flagged when the tool panics (exit 101 or `panicked` on stderr),
dies of a signal, or runs past `--timeout` (a hang: every input is small, but
a batch of repeated puzzles, csp-lab's six configurations each to its limit
or a mutated number can ask for real work, so each hang is to be read by hand).
A flagged case writes its input and output to `--keep` as `SEED.*`. The last
lines sum up: cases by tool and exit status, then the flagged ones.
"""

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SHARED = os.path.join(os.path.dirname(os.path.dirname(ROOT)), "shared", "data", "minizinc", "spec")

BOUNDARY = [
    "4611686018427387904", "4611686018427387903", "-4611686018427387904", "-4611686018427387905",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "18446744073709551615", "18446744073709551616", "2147483647", "2147483648", "-2147483648",
    "-2147483649", "4294967296", "-0", "0", "-1", "99999999999999999999999", "1e9", "0x10", "+5",
]
NINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SYM = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def box_of(side):
    r = int(side ** 0.5)
    while r > 1 and side % r:
        r -= 1
    return r, side // r


def first_puzzle(path):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                return line
    return None


def values(line):
    """A line puzzle's cells as numbers (0 empty), sides up to 35 one symbol
    each, beyond that as the data sets write them."""
    side = int(round(len(line) ** 0.5))
    if side * side == len(line):
        return side, [0 if c in ".0-_*" else SYM.index(c) + 1 for c in line]
    return None, None


def sudoku_inputs():
    data = os.path.join(ROOT, "crates", "sudoku", "tests", "data")
    lines = [NINE]
    for name in ["generated.txt", "bench-16x16.txt", "bench-20x20.txt", "bench-25x25-hard.txt",
                 "bench-36x36-minimal.txt", "bench-49x49-random40.txt", "bench-64x64-random40.txt"]:
        p = first_puzzle(os.path.join(data, name))
        if p:
            lines.append(p)
    six = "1..4..4...3..5.....6..2...6..1..5..."
    out = []
    for line in lines + [six]:
        side, cells = values(line)
        if side is None:
            # the big grids' own layout: keep the line as it is
            out.append(("line", line + "\n"))
            continue
        r, c = box_of(side)
        out.append(("line", line + "\n"))
        out.append(("line+box", "# box %dx%d\n%s\n" % (r, c, line)))
        rows = [cells[i * side:(i + 1) * side] for i in range(side)]
        out.append(("grid", "\n".join(" ".join(str(v) for v in row) for row in rows) + "\n"))
        out.append(("json", json.dumps({"box": "%dx%d" % (r, c), "puzzle": rows}) + "\n"))
        if side <= 35:
            out.append(("rows", "\n".join("".join("." if v == 0 else SYM[v - 1] for v in row) for row in rows) + "\n"))
        if side == 9:
            out.append(("euler", "Grid 01\n" + "\n".join("".join(str(v) for v in row) for row in rows) + "\n"))
            out.append(("batch", (line + "\n") * 3 + "# a comment\n\n" + line.replace("4", ".", 1) + "\n"))
    # a board with progress (placed digits) and a pencil-mark grid, for hint and explain
    out.append(("progress", "1.+42421321.43421\n"))
    side, cells = values(NINE)
    marks = []
    for i in range(81):
        if cells[i]:
            marks.append(str(cells[i]))
            continue
        r, c = divmod(i, 9)
        seen = {cells[j] for j in range(81)
                if j // 9 == r or j % 9 == c or (j // 27 == r // 3 and j % 9 // 3 == c // 3)}
        marks.append("".join(str(v) for v in range(1, 10) if v not in seen))
    out.append(("pencil", "\n".join(" ".join(marks[r * 9:(r + 1) * 9]) for r in range(9)) + "\n"))
    return out


def files_under(path, exts, limit=4000):
    found = []
    if not os.path.isdir(path):
        return found
    for d, _, names in os.walk(path):
        for n in sorted(names):
            p = os.path.join(d, n)
            if n.endswith(exts) and 0 < os.path.getsize(p) <= limit:
                found.append(p)
    return sorted(found)


def read(p):
    with open(p, "rb") as f:
        return f.read()


TOKENS = {
    "sudoku": [b"# box 3x3", b"# box 0x0", b"# box 99999999999x2", b"Grid 01", b"{", b"}", b"[", b"]",
               b'"puzzle":', b'"box":"2x2"', b"+", b"|", b"-----", b"123456789", b"\t", b"#"],
    "fzn": [b"var ", b"array [1..2] of ", b"constraint ", b"solve satisfy;", b"solve minimize x;", b"..", b"::",
            b"int_lin_eq", b"output_var", b"output_array([1..0])", b"{}", b"set of int", b"bool", b"float",
            b"int_times", b"int_div", b"int_pow", b"array_int_element", b"true", b"1.5", b";", b"=", b"("],
    "xcsp": [b"<var id=\"z\"> 0..9 </var>", b"<intension>", b"</intension>", b"<extension>", b"<list>", b"%0",
             b"<![CDATA[", b"]]>", b"<!--", b"-->", b"&lt;", b"&#0;", b"<?xml", b"..", b"*", b"(", b")", b",",
             b"add(", b"eq(", b"<args>", b"<group>", b"<objectives>", b"<minimize>", b"x[", b"]"],
}


def mutate(rng, data, kind):
    op = rng.choice(["flip", "flip", "bit", "truncate", "duplicate", "delete", "number", "number", "number",
                     "empty", "nest", "crlf", "cr", "nul", "utf8", "bom", "repeat", "token", "token"])
    n = len(data)
    pos = rng.randrange(n + 1) if n else 0
    if op == "flip" and n:
        return data[:pos] + bytes([rng.randrange(256)]) + data[pos + 1:], op
    if op == "bit" and n:
        p = rng.randrange(n)
        return data[:p] + bytes([data[p] ^ (1 << rng.randrange(8))]) + data[p + 1:], op
    if op == "truncate":
        return data[:pos], op
    if op == "duplicate" and n:
        a = rng.randrange(n)
        b = min(n, a + rng.randrange(1, 200))
        return data[:pos] + data[a:b] + data[pos:], op
    if op == "delete" and n:
        a = rng.randrange(n)
        b = min(n, a + rng.randrange(1, 50))
        return data[:a] + data[b:], op
    if op == "number":
        spans = [m.span() for m in re.finditer(rb"-?\d+", data)]
        if spans:
            a, b = rng.choice(spans)
            return data[:a] + rng.choice(BOUNDARY).encode() + data[b:], op
        return data[:pos] + rng.choice(BOUNDARY).encode() + data[pos:], op
    if op == "empty":
        return rng.choice([b"", b" ", b"\n", b"\n\n\n", b"   \t \n", b"\r\n", b"\x00"]), op
    if op == "nest":
        k = rng.choice([100, 1000, 10000, 100000])
        o, c = rng.choice([(b"[", b"]"), (b"(", b")"), (b"{", b"}"), (b"<a>", b"</a>"), (b"add(", b")"),
                           (b"not(", b")")])
        return data[:pos] + o * k + c * rng.choice([0, k]) + data[pos:], op
    if op == "crlf":
        return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"), op
    if op == "cr":
        return data.replace(b"\n", b"\r"), op
    if op == "nul":
        return data[:pos] + b"\x00" + data[pos:], op
    if op == "utf8":
        return data[:pos] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82", b"\xc0\xaf",
                                        "é".encode(), "\u2028".encode()]) + data[pos:], op
    if op == "bom":
        return b"\xef\xbb\xbf" + data, op
    if op == "repeat" and n:
        return data * rng.choice([2, 3, 50] if n < 2000 else [2, 3]), op
    tok = rng.choice(TOKENS.get(kind, TOKENS["sudoku"]))
    return data[:pos] + tok + data[pos:], "token"


class Inputs:
    def __init__(self):
        self.sudoku = [(name, text.encode()) for name, text in sudoku_inputs()]
        fzn = files_under(os.path.join(ROOT, "crates", "flatzinc", "tests"), (".fzn",), 20000)
        fzn += files_under(SHARED, (".fzn",), 1500)
        self.fzn = [(os.path.relpath(p, ROOT), read(p)) for p in fzn]
        xml = files_under(os.path.join(ROOT, "crates", "xcsp3", "corpus"), (".xml",), 20000)
        self.xcsp = [(os.path.relpath(p, ROOT), read(p)) for p in xml]
        # The gallery's puzzle files, by the example that reads them.
        data = os.path.join(ROOT, "examples", "data")
        self.gallery = []
        for name, example in [("killer_sudoku.txt", "killer_sudoku"), ("futoshiki.txt", "futoshiki"),
                              ("kakuro.txt", "kakuro"), ("kenken.txt", "kenken"), ("nonogram.txt", "nonogram")]:
            if os.path.exists(os.path.join(data, name)):
                self.gallery.append((example, "examples/data/" + name, read(os.path.join(data, name))))
        for p in files_under(os.path.join(data, "graphs"), (".col",), 20000):
            self.gallery.append(("map_coloring", os.path.relpath(p, ROOT), read(p)))


def case(rng, inputs, tools, bins, tmp, batches=False):
    """Return (tool, argv, input bytes or None, what was done). With
    `batches`, csp-sudoku reads the mutant between two files of one good 9x9
    puzzle each (`good1.txt`, `good3.txt` in `tmp`)."""
    tool = rng.choice(tools)
    ext = ".txt"
    if tool == "sudoku":
        name, data = rng.choice(inputs.sudoku)
        kind = "sudoku"
    elif tool in ("fzn", "lab"):
        src = inputs.fzn + inputs.xcsp if tool == "lab" else inputs.fzn
        name, data = rng.choice(src)
        kind = "xcsp" if name.endswith(".xml") else "fzn"
        ext = ".xml" if kind == "xcsp" else ".fzn"
    elif tool == "xcsp":
        name, data = rng.choice(inputs.xcsp)
        kind, ext = "xcsp", ".xml"
    elif tool == "gallery" and inputs.gallery:
        example, name, data = rng.choice(inputs.gallery)
        kind = "sudoku"
    else:
        return args_case(rng, tool, bins)
    ops = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        data, op = mutate(rng, data, kind)
        ops.append(op)
    path = os.path.join(tmp, "input" + ext)
    if tool == "sudoku":
        side_big = name.startswith("line") and len(data) > 1000
        cmd = rng.choice(["solve", "solve", "rate", "explain", "hint", "count"])
        argv = [os.path.join(bins, "csp-sudoku"), cmd]
        if cmd in ("solve", "count"):
            argv += ["--timeout", "5"]
        elif not side_big:
            argv += ["--timeout", "5"]
        if cmd == "count":
            argv += ["--limit", "3"]
        if cmd == "solve" and rng.random() < 0.3:
            argv += rng.choice([["--portfolio", "2"], ["--output", "json"], ["--output", "grid"], ["--learn"],
                                ["--box", "3x3"], ["--box", "2x3"]])
        if batches and "--box" not in argv:
            # The mutant between two good files: the batch must go on to the last.
            argv += [os.path.join(tmp, "good1.txt"), path, os.path.join(tmp, "good3.txt")]
        else:
            argv.append(path)
    elif tool == "fzn":
        argv = [os.path.join(bins, "fzn-csp"), "-t", "5000"]
        argv += rng.choice([[], [], ["-a"], ["-f"], ["-p", "2"], ["-a", "-f"], ["-s"], ["--no-learn"],
                            ["-f", "--target"], ["-f", "--vivify"]])
        argv.append(path)
    elif tool == "gallery":
        argv = [os.path.join(bins, "examples", example)]
        if example == "map_coloring":
            argv += ["--colors", rng.choice(["3", "4", "8"]), "--graph"]
        argv.append(path)
    elif tool == "xcsp":
        argv = [os.path.join(bins, "csp-xcsp"), "--timeout", "5"]
        argv += rng.choice([[], [], ["--stats"], ["--config", "mac+learn"], ["--config", "fc+dom"]])
        argv.append(path)
    else:
        argv = [os.path.join(bins, "csp-lab"), "compare", "--timeout", "1", "--repeats", "1"]
        argv += rng.choice([[], ["--goal", "count"], ["--goal", "optimize"], ["--format", "json"]])
        argv.append(path)
    label = example if tool == "gallery" else tool
    return label, argv, (path, data), "%s %s" % (name, "+".join(ops))


def args_case(rng, tool, bins):
    def num():
        return rng.choice(BOUNDARY + ["1", "2", "3", "4", "8", "12", "", " 8", "8 ", "1_000", "abc", "0.5",
                                      "-5", "\u0668", "1e3"])
    if tool == "queens":
        argv = [os.path.join(bins, "csp-queens")]
        flags = rng.choice([[], ["--count"], ["--all"], ["--limit", num()], ["--count", "--limit", num()],
                            ["--output", "json"], ["--stats"], ["--all", "--limit", num()]])
        argv += flags + ["--", num()] if rng.random() < 0.5 else flags + [num()]
        return tool, argv, None, "queens"
    # csp-lab one: a generator's parameters
    fam = rng.choice(["b", "b-flawless", "rb", "qwh", "qwh-balanced", "qcp", "colouring"])
    params = {
        "b": ["n", "d", "p1", "p2"], "b-flawless": ["n", "d", "p1", "p2"], "rb": ["k", "n", "alpha", "r", "p"],
        "qwh": ["n", "holes"], "qwh-balanced": ["n", "holes"], "qcp": ["n", "holes"],
        "colouring": ["n", "p", "k"],
    }[fam]
    picked = rng.sample(params, rng.randrange(1, len(params) + 1))
    spec = fam + ":" + ",".join("%s=%s" % (p, num()) for p in picked)
    argv = [os.path.join(bins, "csp-lab"), "one", "--model", spec, "--timeout", "1"]
    return "lab-one", argv, None, "lab one"


POSITION = re.compile(r"\b(line|column|puzzle|record|byte|row|clue|cage|block) \d+|:\d+:\d+\b")
ARGUMENT = re.compile(r"--[a-z][a-z-]*|'<[A-Z_]+>'|\bargument\b|\bparameter\b|^error: N\b|\b(n|d|p1|p2|k|alpha|r|p|holes) of "
                      r"[a-z-]+\b|\bmodel [A-Z]| in '\w+=", re.I | re.M)


def place(tool, argv, inp, err):
    """How a failed run's messages name their place: `position` (the input's
    name with a line, column, puzzle, record or byte, or `NAME:LINE`), `file`
    (the input's name alone: right for a whole-file error such as an empty
    file, to be read for the rest), `argument` (an argument by its flag, its
    value or its name: csp-queens' `N`, a generator's parameter), or `none`.
    Every line of stderr counts (a note may name the place an error sums up);
    the message returned is the last line that starts `error:`."""
    text = err.strip()
    lines = [l for l in text.splitlines() if l.startswith("error:")] or text.splitlines()[-1:] or [""]
    msg = lines[-1]
    if inp is None:
        values = [w for w in argv[1:] if w and not w.startswith("-") and w not in ("one", "compare")]
        named = ARGUMENT.search(text) or any("'%s'" % v in text or "%s " % v in text for v in values)
        return ("argument" if named else "none"), msg
    if inp[0] not in argv:
        # read from standard input (`--stdin`): the tools call it `-`, `<stdin>` or `standard input`
        for name in ("-:", "- left out", "<stdin>", "standard input"):
            if name in text:
                after = text.split(name, 1)[1]
                return ("position" if POSITION.search(after) or re.match(r":\d+", after) else "file"), msg
        return "none", msg
    name = os.path.basename(inp[0])
    stem = os.path.splitext(name)[0]
    if name not in text and not re.search(r"\b%s left out\b" % stem, text):
        return "none", msg
    after = text.split(name, 1)[1] if name in text else text.split(stem, 1)[1]
    return ("position" if POSITION.search(after) or re.match(r":\d+", after) else "file"), msg


def shape(msg, inp):
    """A message with its particulars blanked, to group messages by class."""
    if inp is not None:
        msg = msg.replace(inp[0], "FILE").replace(os.path.basename(inp[0]), "FILE")
    msg = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "Q", msg)
    return re.sub(r"-?\d+", "N", msg)[:110]


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bins", default=os.path.join(ROOT, "target", "release"))
    ap.add_argument("--keep", default=os.path.join(ROOT, "target", "mutate"))
    ap.add_argument("--timeout", type=float, default=30,
                    help="seconds per run (the tools get 5 s per puzzle or model of their own, csp-lab 1 s per run)")
    ap.add_argument("--tools", default="sudoku,fzn,xcsp,lab,queens,lab-one")
    ap.add_argument("--print", action="store_true", help="print the input of --seed (stdout) and its command (stderr)")
    ap.add_argument("--batches", action="store_true",
                    help="csp-sudoku reads the mutant between two good files: flag a batch that stops before the "
                         "last file (its name missing from stdout) or exits 0 after an error")
    ap.add_argument("--stdin", action="store_true",
                    help="give csp-sudoku, fzn-csp, csp-xcsp and csp-lab compare their input on standard input ('-')")
    ap.add_argument("--places", action="store_true",
                    help="also classify each bad-input exit's message by the place it names (position, file alone, "
                         "argument, none) and list the classes, with a seed for each")
    a = ap.parse_args()
    tools = a.tools.split(",")
    inputs = Inputs()
    counts = Counter()
    flagged = []
    places = Counter()
    classes = {}
    with tempfile.TemporaryDirectory() as tmp:
        for good in ("good1.txt", "good3.txt"):
            with open(os.path.join(tmp, good), "w") as f:
                f.write(NINE + "\n")
        for i in range(a.count):
            s = a.seed + i
            rng = random.Random(s)
            tool, argv, inp, what = case(rng, inputs, tools, a.bins, tmp, a.batches)
            if inp:
                with open(inp[0], "wb") as f:
                    f.write(inp[1])
            if a.print:
                if inp:
                    sys.stdout.buffer.write(inp[1])
                sys.stderr.write(" ".join(argv) + "\n")
                continue
            try:
                given = {"stdin": subprocess.DEVNULL}
                if a.stdin and inp and tool in ("sudoku", "fzn", "xcsp", "lab") and argv[-1] == inp[0]:
                    argv[-1] = "-"
                    given = {"input": inp[1]}
                p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=a.timeout,
                                   preexec_fn=limit_memory, **given)
                code, err = p.returncode, p.stderr.decode("utf-8", "replace")
            except subprocess.TimeoutExpired as e:
                code, err = "hang", (e.stderr or b"").decode("utf-8", "replace")
            counts[(tool, code)] += 1
            if a.places and code == 2:
                where, msg = place(tool, argv, inp, err)
                places[(tool, where)] += 1
                if where in ("none", "file"):
                    key = (tool, where, shape(msg, inp))
                    n, first = classes.get(key, (0, s))
                    classes[key] = (n + 1, first)
            bad = None
            if code == "hang":
                bad = "hang"
            elif code == 101 or "panicked" in err:
                bad = "panic"
            elif isinstance(code, int) and code < 0:
                bad = "signal %d" % -code
            elif "good3.txt" in argv and code in (0, 1, 2):
                out = p.stdout.decode("utf-8", "replace")
                if "good3.txt" not in out:
                    bad = "batch stopped"
                elif code == 0 and "error:" in err:
                    bad = "batch exit 0 after an error"
            if bad:
                flagged.append((s, tool, bad, what, err.strip().splitlines()[-1:] if err.strip() else ""))
                print("seed %d: %s: %s (%s): %s" % (s, tool, bad, what, err.strip()[-300:]), flush=True)
                os.makedirs(a.keep, exist_ok=True)
                stem = os.path.join(a.keep, str(s))
                if inp:
                    with open(stem + os.path.splitext(inp[0])[1], "wb") as f:
                        f.write(inp[1])
                with open(stem + ".out", "w") as f:
                    f.write(" ".join(argv) + "\n" + err)
    if a.print:
        return 0
    for (tool, code), k in sorted(counts.items(), key=lambda x: (x[0][0], str(x[0][1]))):
        print("%s exit %s: %d" % (tool, code, k))
    if a.places:
        for (tool, where), k in sorted(places.items()):
            print("places %s %s: %d" % (tool, where, k))
        for (tool, where, text), (k, first) in sorted(classes.items(), key=lambda x: (x[0][1], -x[1][0])):
            print("class %s %s x%d (seed %d): %s" % (where, tool, k, first, text))
    print("cases %d, flagged %d (%s)" % (a.count, len(flagged), ", ".join(
        "%s %d" % kv for kv in sorted(Counter(f[2] for f in flagged).items())) or "none"))
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
