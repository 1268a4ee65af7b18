"""Tuned players' files: the parameters of :mod:`mjsim.game.tuned` for one rule set.

A player file is JSON: ``format``, the ``rules`` id and its ``options`` (every option's
value, with their ``options_hash``), ``parameters`` by name (:data:`mjsim.game.tuned.PARAMS`),
and how it was made (``training``: the command, hands played, gains). ``tuned`` in a
line-up is the player shipped for the rule set (``mjsim/game/players/<id>.json``, trained
by ``mjsim train``); ``tuned:FILE`` is a file's. A file made for other rules or options,
or not a player file, is refused with one line naming it and what is wrong.

>>> rows = theta_rows("changsha", ("efficiency", "tuned:efficiency", "efficiency", "efficiency"))
>>> rows.shape, float(rows[1, 0])
((4, 17), 1.0)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ..rules import RuleSet, load_rules

#: a player file's ``format``
FORMAT = "mjsim-player/1"
#: where the shipped players are
SHIPPED = Path(__file__).resolve().parent / "players"
#: ``tuned:efficiency``: the efficiency bot's point (no file)
EFFICIENCY_NAME = "efficiency"


class PlayerError(ValueError):
    """A player file that cannot be used (its message: one line naming it and why)."""


def shipped_path(rules: RuleSet) -> Path:
    """The shipped player file of ``rules``'s preset."""
    return SHIPPED / f"{rules.id}.json"


def player_document(rules: RuleSet, theta: np.ndarray, training: dict[str, Any]) -> dict:
    """The JSON document of a player for ``rules`` with parameters ``theta``."""
    from .tuned import PARAMS

    return {
        "format": FORMAT,
        "rules": rules.id,
        "options": dict(rules.options),
        "options_hash": rules.options_hash,
        "parameters": {p.name: float(x) for p, x in zip(PARAMS, np.asarray(theta).tolist())},
        "training": training,
    }


def read_player(path: Path, rules: RuleSet, any_options: bool = False) -> np.ndarray:
    """The parameters of the player file ``path``, checked against ``rules`` (its rule set
    only, with ``any_options``: a player to continue under changed options)."""
    from .tuned import PARAMS

    where = f"player file {path}"
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PlayerError(f"{where} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PlayerError(f"{where} is not readable JSON ({error})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PlayerError(f"{where} is not a player file (format {FORMAT!r} expected)")
    if doc.get("rules") != rules.id:
        raise PlayerError(
            f"{where} is a player of {doc.get('rules')!r}, not of {rules.id!r}; "
            f"train one: mjsim train --rules {rules.id}"
        )
    if doc.get("options_hash") != rules.options_hash and not any_options:
        theirs = doc.get("options") if isinstance(doc.get("options"), dict) else {}
        differ = sorted(k for k in rules.options if theirs.get(k) != rules.options[k])
        raise PlayerError(
            f"{where} was trained with other options ({', '.join(differ) or 'unknown'}); "
            f"train one for these: mjsim train --rules {rules.id} --set …"
        )
    params = doc.get("parameters")
    names = [p.name for p in PARAMS]
    if not isinstance(params, dict) or sorted(params) != sorted(names):
        raise PlayerError(f"{where} must give the parameters {', '.join(names)}")
    values = [params[n] for n in names]
    if not all(isinstance(x, int | float) and np.isfinite(x) for x in values):
        raise PlayerError(f"{where} has a parameter that is not a finite number")
    return np.array(values, dtype=np.float64)


def player_theta(rules: RuleSet, name: str, any_options: bool = False) -> np.ndarray:
    """The parameters of the line-up name ``tuned`` (the shipped player), ``tuned:FILE`` or
    ``tuned:efficiency`` (a file of other options of the rule set too, with
    ``any_options``)."""
    from .tuned import EFFICIENCY

    _, _, source = name.partition(":")
    if source == EFFICIENCY_NAME:
        return np.array(EFFICIENCY, dtype=np.float64)
    path = Path(source) if source else shipped_path(rules)
    if not source and not path.exists():
        raise PlayerError(
            f"no tuned player is shipped for {rules.id}; train one: mjsim train --rules "
            f"{rules.id} --out FILE, then play tuned:FILE"
        )
    return read_player(path, rules, any_options)


def theta_rows(rules: str | RuleSet, names: tuple[str, ...]) -> np.ndarray:
    """The 4 parameter rows of a line-up (zeros where a seat is not ``tuned``)."""
    from .tuned import PARAMS

    rules = load_rules(rules)
    rows = np.zeros((4, len(PARAMS)), dtype=np.float64)
    loaded: dict[str, np.ndarray] = {}
    for seat, name in enumerate(names):
        if name.partition(":")[0] == "tuned":
            if name not in loaded:
                loaded[name] = player_theta(rules, name)
            rows[seat] = loaded[name]
    return rows
