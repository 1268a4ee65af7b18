"""Fuzzing mjsim (issue 43): hypothesis strategies for hands in notation, valid and
near-valid, rule sets and option overrides; calls of the public API; command lines over
every verb and option of the Typer app, found at run time; and what each input must give.

Shared by ``tests/test_fuzz.py`` (the quick profile) and ``benchmarks/fuzz.py`` (the long
one). The strategies draw a seeded ``random.Random`` and build the input from it, so that
hypothesis keeps the runs reproducible and one generator serves both profiles.

>>> import random
>>> from mjsim.rules import load_rules
>>> text = valid_hand(random.Random(1), load_rules("changsha"))
>>> mjsim.parse_hand(text, "changsha").effective_size in (13, 14)
True
>>> problems(Outcome(["shanten", "1m"], 2, "", "error: too few tiles\\n"))
[]
>>> problems(Outcome(["shanten", "1m"], 1, "", "Traceback (most recent call last):\\n"))
['exit status 1', 'a traceback in the output', 'not one error: line: Traceback (most recent call last):']
"""

from __future__ import annotations

import contextlib
import math
import os
import random
import re
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import typer
from hypothesis import strategies as st
from typer.testing import CliRunner

import mjsim
import mjsim.cli
from mjsim.rules import RULE_SETS, load_rules
from mjsim.tiles import name, zh_name

#: the longest error message allowed: room for the allowed values (a rule set's option
#: names run to 900 characters), not for an input of thousands echoed whole
MAX_MESSAGE = 2000

# ---------------------------------------------------------------- hands

#: tokens that break a hand: unknown symbols, tiles that do not exist, stray brackets
GARBAGE = (
    "",
    " ",
    "x",
    "0m",
    "8z",
    "f0",
    "f9",
    "10m",
    "m",
    "5",
    "五",
    "万",
    "[",
    "]",
    "{",
    "}",
    "[]",
    "{111m}",
    "[124m]",
    "[1m]",
    "+",
    "++5s",
    "+f1",
    "+5s5s",
    "+5s (rn)",
    "(ron)",
    "，",
    "１２３ｍ",
    "\x00",
    "\n",
    "\t",
    "💩",
    "🀇",
    "\u200b",
    "-1m",
    "1m" * 5,
    "东" * 5,
)


def _tile(rng: random.Random, kind: int) -> str:
    """One tile written in notation or as its Chinese name."""
    return zh_name(kind) if rng.random() < 0.25 else name(kind)


def _meld(rng: random.Random, rules, left: dict[int, int]) -> tuple[str, list[int]] | None:
    """A meld of tiles still in ``left`` (chow, pung, exposed or concealed kong) as text."""
    kind = rng.choice([k for k in rules.kinds if left[k]])
    shape = rng.choice(("chow", "pung", "kong", "ckong"))
    if shape == "chow":
        kinds = [kind, kind + 1, kind + 2]
        if kind >= 27 or kind % 9 > 6 or any(left.get(k, 0) < 1 for k in kinds):
            return None
    else:
        kinds = [kind] * (3 if shape == "pung" else 4)
        if left[kind] < len(kinds):
            return None
    for k in kinds:
        left[k] -= 1
    inner = "".join(_tile(rng, k) for k in kinds)
    return ("{%s}" if shape == "ckong" else "[%s]") % inner, kinds


def valid_hand(rng: random.Random, rules, size: int | None = None, complete: bool = False) -> str:
    """A hand of ``rules``' tiles (13/14, or the rule set's size and one more): random
    tiles, or with ``complete`` melds and a pair; sometimes with melds, flowers and a
    ``+tile`` winning tile."""
    left = {k: 4 for k in rules.kinds}
    size = size if size is not None else rules.hand_size + rng.randint(0, 1)
    parts, concealed = [], []
    for _ in range(rng.choice((0, 0, 1, 2)) if size >= 9 else 0):
        meld = _meld(rng, rules, left)
        if meld is not None:
            parts.append(meld[0])
            size -= 3
    if complete:
        while len(concealed) + 2 < size:
            meld = _meld(rng, rules, left)
            if meld is not None and meld[0][0] == "[" and len(meld[1]) == 3:
                concealed += meld[1]
            elif meld is not None:  # a kong or a concealed kong: put its tiles back
                for k in meld[1]:
                    left[k] += 1
        pair = rng.choice([k for k in rules.kinds if left[k] >= 2])
        concealed += [pair, pair]
    else:
        pool = [k for k, n in left.items() for _ in range(n)]
        concealed = rng.sample(pool, size)
    rng.shuffle(concealed)
    win = (
        f" +{_tile(rng, concealed.pop())}{rng.choice(('', ' (ron)', ' (tsumo)', ' (自摸)'))}"
        if concealed and rng.random() < 0.3
        else ""
    )
    parts.insert(0, "".join(_tile(rng, k) for k in sorted(concealed)))
    if rules.has_flowers and rng.random() < 0.3:
        parts += [_tile(rng, 34 + f) for f in rng.sample(range(8), rng.randint(1, 3))]
    rng.shuffle(parts)
    return " ".join(parts) + win


def near_hand(rng: random.Random, rules) -> str:
    """A valid hand broken one way: a fifth copy, a tile too many or too few, a garbage
    token, a tile or flower the rule set lacks, a huge input."""
    text = valid_hand(rng, rules)
    way = rng.randrange(7)
    if way == 0:  # a fifth copy
        kind = rng.choice(rules.kinds)
        return text + " " + name(kind) * 5
    if way == 1:  # a wrong count
        extra = "".join(name(rng.choice(rules.kinds)) for _ in range(rng.randint(1, 4)))
        return rng.choice((text[: max(0, len(text) - 2 * rng.randint(1, 4))], extra + text))
    if way == 2:  # a garbage token anywhere
        at = rng.randint(0, len(text))
        return text[:at] + rng.choice(GARBAGE) + text[at:]
    if way == 3:  # another rule set's tiles: honours, flowers
        return text + rng.choice(("1z", "7z", "中", "f1", "春", " f8"))
    if way == 4:  # huge
        return rng.choice(("1m", "五万", "[", "x", " ", "123m")) * rng.randint(1_000, 60_000)
    if way == 5:  # any text
        return "".join(rng.choice("123456789mpszf[]{}+() 万筒条东中发白春") for _ in range(30))
    return rng.choice(GARBAGE)


def hand_text(rng: random.Random, rules) -> str:
    """A valid hand or a near-valid one, about as often."""
    return valid_hand(rng, rules) if rng.random() < 0.5 else near_hand(rng, rules)


def tiles_text(rng: random.Random, rules) -> str:
    """A loose tile list (``--visible``, ``--seen``, ``--wild``): valid or broken."""
    if rng.random() < 0.7:
        kinds = [rng.choice(rules.kinds) for _ in range(rng.randint(1, 6))]
        return "".join(name(k) for k in kinds)
    return rng.choice((*GARBAGE, "f1", "5555m5m", "1m" * 20))


# ---------------------------------------------------------------- rule sets and options


def rule_id(rng: random.Random) -> str:
    """A rule-set id, mostly real."""
    if rng.random() < 0.85:
        return rng.choice(RULE_SETS)
    return rng.choice(("", "changsh", "GENERIC", "generic ", "x" * 5000, "../generic", "none"))


def _option_value(rng: random.Random, option) -> Any:
    """A Python value for ``option``: allowed, or of the wrong kind or range."""
    if rng.random() < 0.6:
        if option.choices:
            return rng.choice(option.choices)
        return {
            "bool": lambda: rng.random() < 0.5,
            "int": lambda: int(option.min or 0) + rng.randint(0, 5),
            "int_or_null": lambda: rng.choice((None, int(option.min or 0) + rng.randint(0, 5))),
            "float": lambda: float(option.min or 0) + rng.random(),
            "list": lambda: [float(option.min or 0) + rng.randint(0, 9) for _ in option.default],
            "str": lambda: "x",
        }[option.type]()
    return rng.choice(
        (
            None,
            -1,
            10**30,
            2.5,
            math.nan,
            math.inf,
            -math.inf,
            "x",
            "",
            "1e999",
            [1],
            [math.nan] * 3,
            (),
            {},
            True,
            b"1",
            object(),
        )
    )


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return "null" if value is None else str(value)


def overrides(rng: random.Random, rules) -> dict[str, Any]:
    """Up to three options of ``rules`` (or made-up names) set to allowed or wrong values."""
    out = {}
    for _ in range(rng.randint(0, 3)):
        option = rng.choice(rules.schema)
        key = option.name if rng.random() < 0.85 else rng.choice(("", "x" * 3000, "cs_bird", "id"))
        out[key] = _option_value(rng, option)
    return out


def override_text(rng: random.Random, rules) -> str:
    """One ``--set key=value``, mostly of an option of ``rules``."""
    if rng.random() < 0.1:
        return rng.choice(("", "=", "cs_birds", "=4", "x" * 3000 + "=1", "cs_birds==4"))
    option = rng.choice(rules.schema)
    key = option.name if rng.random() < 0.9 else rng.choice(("cs_bird", "id", "x" * 3000))
    return f"{key}={_value_text(_option_value(rng, option))}"


# ---------------------------------------------------------------- the public API


def _hands_array(rng: random.Random, rules) -> Any:
    """Count rows for the batch functions: ``uint8[N, 34]`` of real hands, or the wrong
    shape, dtype, values or type."""
    rows = []
    for _ in range(rng.randint(0, 4)):
        with contextlib.suppress(ValueError):
            rows.append(mjsim.parse_hand(valid_hand(rng, rules, complete=False), rules).counts)
    good = np.array(rows, dtype=np.uint8).reshape(-1, 34)
    return rng.choice(
        (
            good,
            good,
            good.astype(np.float64),
            good.astype(np.int64) - 1,
            good[:, :33],
            good[0] if len(good) else good,
            good.tolist(),
            np.full((2, 34), 4, dtype=np.uint8),
            "123m",
            None,
        )
    )


def _wild(rng: random.Random, rules) -> Any:
    return rng.choice(
        (
            None,
            None,
            name(rng.choice(rules.kinds)),
            tiles_text(rng, rules),
            [name(rng.choice(rules.kinds))],
            [rng.randint(-2, 40)],
            np.zeros(34, dtype=bool),
            np.zeros(5, dtype=bool),
            1.5,
            True,
            "f1",
        )
    )


def _form(rng: random.Random, rules) -> Any:
    return rng.choice((None, None, rng.choice(rules.families).form, "nope", "", 3))


@dataclass
class Call:
    """One call of the public API: ``mjsim.<func>(*args, **kwargs)``."""

    func: str
    args: tuple
    kwargs: dict

    def __repr__(self) -> str:
        shown = ", ".join(
            [*map(_short, self.args), *(f"{k}={_short(v)}" for k, v in self.kwargs.items())]
        )
        return f"mjsim.{self.func}({shown})"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else f"{text[:100]}… ({len(text):,} characters)"


def _rules_arg(rng: random.Random, rules) -> Any:
    """The ``rules`` argument: an id, a rule set with overrides, or something else."""
    return rng.choice((rules.id, rules.id, rules, rule_id(rng), None, 5, b"changsha"))


def api_call(rng: random.Random) -> Call:
    """A call of a public function with valid and broken arguments."""
    rules = load_rules(rng.choice(RULE_SETS))
    hand = hand_text(rng, rules)
    func = rng.choice(
        ("shanten", "is_win", "waits", "ukeire", "decompose", "parse_hand", "parse_tiles",
         "load_rules", "shanten_batch", "waits_batch", "ukeire_batch", "shanten_by_family")
    )  # fmt: skip
    if func == "parse_hand":
        return Call(func, (rng.choice((hand, hand, 123, None)), _rules_arg(rng, rules)), {})
    if func == "parse_tiles":
        return Call(func, (rng.choice((tiles_text(rng, rules), hand)),), {})
    if func == "load_rules":
        return Call(func, (_rules_arg(rng, rules),), overrides(rng, rules))
    kwargs: dict[str, Any] = {}
    if func.endswith(("_batch", "_by_family")):
        hand = _hands_array(rng, rules)
        if rng.random() < 0.5:
            kwargs["n_melds"] = rng.choice((0, 1, 4, -1, 9, [0, 1], "1"))
    if rng.random() < 0.3:
        kwargs["wild"] = _wild(rng, rules)
    if func != "shanten_by_family" and func != "decompose" and rng.random() < 0.3:
        kwargs["form"] = _form(rng, rules)
    if func in ("waits", "ukeire", "waits_batch") and rng.random() < 0.3:
        kwargs["visible"] = rng.choice(
            (tiles_text(rng, rules), [rng.randint(-1, 5) for _ in range(34)], [1, 2], "f1")
        )
    if func != "decompose" and rng.random() < 0.2:
        kwargs["void"] = rng.choice(("m", "p", "s", 0, 2, 3, -1, "x", "mp", 1.5, None))
    return Call(func, (hand, _rules_arg(rng, rules)), kwargs)


def check_api(call: Call) -> str:
    """Make ``call``: ``"ok"``, or ``"error"`` for a ``ValueError`` with a one-line message
    of at most :data:`MAX_MESSAGE` characters; anything else fails with the call and the traceback."""
    func = getattr(mjsim, call.func)
    try:
        func(*call.args, **call.kwargs)
    except ValueError as error:
        message = str(error)
        assert message and "\n" not in message, f"{call!r}: message not one line: {message!r}"
        assert len(message) <= MAX_MESSAGE, f"{call!r}: message of {len(message):,} characters"
        return "error"
    except Exception:
        raise AssertionError(f"{call!r} raised\n{traceback.format_exc()}") from None
    return "ok"


def check_win_property(rules, text: str) -> None:
    """``is_win(hand) ⇔ shanten(hand) == -1`` on a complete-sized hand, no wildcards."""
    win = mjsim.is_win(text, rules)
    assert win == (mjsim.shanten(text, rules) == -1), (rules.id, text, win)


# ---------------------------------------------------------------- the command line

#: verbs whose valid runs are quick on a warm cache (the test session's warm-up compiles
#: their kernels): the quick profile runs them with valid values; every other verb, one
#: added later included, gets at least one bad value there (:func:`command_line`)
CHEAP = ("shanten", "waits", "ukeire", "decompose", "rules list", "rules show", "deal", "qishou")

#: the share of the long profile's command lines of a verb outside :data:`CHEAP` that are
#: valid, so run to the end (a report or a play of each takes seconds to minutes)
LONG_VALID = 0.01

#: values by option name (the primary long name, or the argument's name)
_WORDS = {
    "--bots": ("efficiency", "value", "cautious", "efficiency,value,cautious,efficiency",
               "search:2,efficiency", "tuned", "tuned:nofile.json", "search:0", "search:x",
               "efficiency,value", "nope", "", ",,,", "search:99999999999"),
    "--metric": ("mean_score.dealer", "win_rate", "nope.metric", "", "mean_score"),
    "--scheduler": ("", "nope", "tcp://", "local:x", "tcp://[::1"),
    "--claim": ("4m", "1z", "f1", "", "4m4m", "x"),
}  # fmt: skip
#: tile-list options and the hand argument
_TILES = ("--wild", "--visible", "--seen")
#: a folder every output path points into; nothing may be written elsewhere
OUT = "out"


def commands(app: typer.Typer) -> dict[str, Any]:
    """Every verb of ``app`` (``"rules show"`` for a group's) to its click command."""
    found: dict[str, Any] = {}

    def walk(command, path: tuple[str, ...]) -> None:
        subs = getattr(command, "commands", None)
        if subs:
            for verb, sub in subs.items():
                walk(sub, (*path, verb))
        else:
            found[" ".join(path)] = command

    walk(typer.main.get_command(app), ())
    return found


def _annotation(param) -> str:
    """``int``, ``float``, ``Path``, ``bool`` or ``str``: what a parameter takes."""
    if getattr(param, "is_flag", False):
        return "bool"
    described = getattr(param, "type_descriptor", None)
    kind = getattr(described, "annotation", None) or getattr(param, "type", None)
    text = getattr(kind, "__name__", str(kind))
    return next((t for t in ("int", "float", "Path", "bool") if t in text), "str")


def _key(param) -> str:
    return next((o for o in param.opts if o.startswith("--")), param.opts[0])


def _number(rng: random.Random, param, kind: str, valid: bool) -> str:
    """A number for an ``int`` or ``float`` option: small and in range, or not."""
    lo, hi = param.min, param.max
    if valid:
        low = lo if lo is not None else 0
        value = low + (rng.randint(0, 20) if kind == "int" else rng.random())
        return str(value if hi is None else min(value, hi))
    bad = ["", "x", "1e3" if kind == "int" else "1e999", "nan", "inf", "-1", "0x10", "5.5", "一"]
    bad += [str(v) for v in (lo - 1 if lo is not None else None, hi + 1 if hi is not None else None,
                             10**20, 2**64, -(2**63)) if v is not None]  # fmt: skip
    return rng.choice(bad)


def _path(rng: random.Random, param) -> str:
    """An output path: a new folder or file under :data:`OUT`, or one that cannot be used."""
    if rng.random() < 0.7:
        leaf = rng.choice(("run", "a b", "数据", "deep/er", "c.png", "c.txt"))
        return f"{OUT}/{leaf}"
    return rng.choice(("", " ", "afile", OUT, f"{OUT}/{'x' * 300}", "/proc/mjsim-fuzz/x"))


@dataclass
class Draw:
    """What one command line is built from: the verb, the rule set it names and whether
    it must carry a bad value."""

    rng: random.Random
    rules: Any
    poison: bool


def _value(d: Draw, param, kind: str, valid: bool) -> list[str]:
    """The tokens of one option or argument."""
    rng, key = d.rng, _key(param)
    if kind == "bool":
        return [key]
    if key in ("--rules", "name"):
        text = d.rules.id if valid else rule_id(rng)
    elif key == "--set":
        text = override_text(rng, d.rules)
    elif key == "--form":
        text = rng.choice(d.rules.families).form if valid else rng.choice(("nope", "", "standard "))
    elif key in _TILES:
        text = tiles_text(rng, d.rules)
    elif key == "hand":
        text = valid_hand(rng, d.rules) if valid else hand_text(rng, d.rules)
    elif key == "--variant":
        text = (
            rng.choice(("v", "v2", "", "x" * 200))
            + rng.choice((": ", ":", " "))
            + override_text(rng, d.rules)
        )
    elif key == "--sweep":
        option = rng.choice(d.rules.schema)
        values = ",".join(_value_text(_option_value(rng, option)) for _ in range(rng.randint(0, 3)))
        text = rng.choice((f"{option.name}={values}", values, "=", ""))
    elif key in _WORDS:
        text = rng.choice(_WORDS[key][:1] if valid else _WORDS[key])
    elif kind in ("int", "float"):
        text = _number(rng, param, kind, valid)
    elif kind == "Path":
        text = _path(rng, param)
    else:
        text = rng.choice((*GARBAGE, "x" * 3000)) if not valid else "x"
    return [text] if param.param_type_name == "argument" else [key, text]


def _poison(d: Draw, params: list) -> list[str]:
    """Tokens that make the command line fail before any work: a number out of range or
    unreadable, an unknown option, an unknown ``--set`` option."""
    numbers = [p for p in params if _annotation(p) in ("int", "float")]
    ways = (
        ["unknown"] + ["set"] * any(_key(p) == "--set" for p in params) + ["number"] * bool(numbers)
    )
    way = d.rng.choice(ways)
    if way == "unknown":
        return [d.rng.choice(("--no-such-option", "--nope=1", "-Z"))]
    if way == "set":
        return ["--set", d.rng.choice(("no_such_option=1", "=", "cs_bird=4"))]
    param = d.rng.choice(numbers)
    return [_key(param), _number(d.rng, param, _annotation(param), valid=False)]


def command_line(rng: random.Random, verbs: dict[str, Any], quick: bool) -> list[str]:
    """A command line of a random verb: each option given or not, with a valid or a bad
    value; output paths under :data:`OUT`. A verb outside :data:`CHEAP` gets a bad value
    in the ``quick`` profile always (so nothing long runs), else all but one time in
    ``1 / LONG_VALID``."""
    verb = rng.choice(sorted(verbs))
    command = verbs[verb]
    params = [p for p in command.params if p.expose_value and p.opts != ["--help"]]
    poison = verb not in CHEAP and (quick or rng.random() >= LONG_VALID)
    d = Draw(rng, load_rules(rng.choice(RULE_SETS)), poison)
    # a cheap verb is valid about half the time: every value valid
    all_valid = not poison and rng.random() < 0.5
    tokens: list[str] = verb.split()
    for param in params:
        kind = _annotation(param)
        wanted = param.required or _key(param) == "--out" or rng.random() < 0.4
        if not wanted or (param.required and not all_valid and rng.random() < 0.03):
            continue
        valid = all_valid or rng.random() < 0.7
        for _ in range(rng.randint(1, 2) if param.multiple else 1):
            tokens += _value(d, param, kind, valid)
    if poison:
        tokens += _poison(d, params)
    if not all_valid and rng.random() < 0.1:
        tokens.insert(
            rng.randint(len(verb.split()), len(tokens)), rng.choice(("--", "-", "extra", "--help"))
        )
    return tokens


@dataclass
class Outcome:
    """A command line run as the console script: exit status, output, what it left."""

    argv: list[str]
    status: int | None
    stdout: str
    stderr: str
    crash: str | None = None
    strays: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _tree(root: Path) -> dict[str, tuple[int, int]]:
    """Every file (size, time written) and folder (-1, 0) under ``root``."""
    out = {}
    for folder, subs, files in os.walk(root):
        out.update((str(Path(folder, s).relative_to(root)), (-1, 0)) for s in subs)
        for leaf in files:
            path = Path(folder, leaf)
            with contextlib.suppress(OSError):
                info = path.stat()
                out[str(path.relative_to(root))] = (info.st_size, info.st_mtime_ns)
    return out


_RUNNER = CliRunner()


def run_cli(argv: list[str], cwd: Path) -> Outcome:
    """Run ``mjsim ARGV`` in this process as the console script does
    (:func:`mjsim.cli.main`, standalone mode off), in ``cwd``, which holds a file
    ``afile``; report the files made, changed or removed outside :data:`OUT`."""
    (cwd / "afile").write_text("not a folder\n")
    before = _tree(cwd)
    status, crash = None, None
    start = time.perf_counter()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with _RUNNER.isolation() as (out, err, _), _patched_argv(["mjsim", *argv]):
            try:
                mjsim.cli.main()
            except SystemExit as done:
                status = done.code if isinstance(done.code, int) else 0 if done.code is None else 1
            except BaseException:
                crash = traceback.format_exc()
            stdout, stderr = out.getvalue().decode(), err.getvalue().decode()
    finally:
        os.chdir(here)
    after = _tree(cwd)
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    strays = sorted(p for p in changed if p != OUT and not p.startswith(OUT + os.sep))
    return Outcome(argv, status, stdout, stderr, crash, strays, time.perf_counter() - start)


@contextlib.contextmanager
def _patched_argv(argv: list[str]):
    saved = sys.argv
    sys.argv = argv
    try:
        yield
    finally:
        sys.argv = saved


#: what may come before an error line on stderr: a first compile's notices (wrapped at
#: the console's width), and a thread's wait for another's compile
_NOTICE = re.compile(r"^compiling .*?…\n|^compiled .*? in \d+ s\n|^waiting for .*?…\n", re.M | re.S)


def problems(outcome: Outcome) -> list[str]:
    """What is wrong with a run: an escaped exception, an exit status other than 0 or 2,
    a traceback, on failure anything but one ``error:`` line of at most :data:`MAX_MESSAGE` characters on
    stderr (a group's help aside), a file written outside :data:`OUT`."""
    found = []
    if outcome.crash is not None:
        found.append(f"exception escaped: {outcome.crash.strip().splitlines()[-1]}")
    if outcome.status not in (0, 2):
        found.append(f"exit status {outcome.status}")
    if "Traceback" in outcome.stdout + outcome.stderr:
        found.append("a traceback in the output")
    lines = _NOTICE.sub("", outcome.stderr).splitlines()
    is_help = outcome.status == 2 and not lines and "Usage:" in outcome.stdout
    if outcome.status != 0 and not is_help:
        if len(lines) != 1 or not lines[0].startswith("error: "):
            found.append(f"not one error: line: {outcome.stderr.strip()[:300]}")
        elif len(lines[0]) > MAX_MESSAGE:
            found.append(f"an error line of {len(lines[0]):,} characters")
    if outcome.strays:
        found.append(f"wrote outside {OUT}/: {', '.join(outcome.strays)}")
    return found


# ---------------------------------------------------------------- as hypothesis strategies

VERBS = commands(mjsim.cli.app)
RULES = st.sampled_from(RULE_SETS).map(load_rules)
API_CALLS = st.builds(api_call, st.randoms(use_true_random=True))


def command_lines(quick: bool) -> st.SearchStrategy[list[str]]:
    """Command lines of :func:`command_line` over :data:`VERBS`."""
    return st.builds(command_line, st.randoms(use_true_random=True), st.just(VERBS), st.just(quick))


def sized_hands(complete: bool) -> st.SearchStrategy[tuple[Any, str]]:
    """``(rules, text)``: a valid hand of the rule set's size plus one, complete or not."""
    return RULES.flatmap(
        lambda rules: st.builds(
            lambda rng: (rules, valid_hand(rng, rules, rules.hand_size + 1, complete)),
            st.randoms(use_true_random=True),
        )
    )
