"""Dealt-hand datasets: one row per seat per deal, built chunk by chunk from the kernels.

Columns: ``deal``, ``seat``, ``dealer``, ``n_tiles``, ``shanten`` and ``shanten_<form>``
for each winning family, ``complete`` (a win as dealt, 天胡 for the dealer), ``ready``
(13-tile hands at shanten 0), ``n_waits`` and ``live_waits`` (ready hands: winning kinds
and their copies not in the hand), ``suits_held``, ``n_258``, ``n_honours``, ``bonus``
(flowers set aside), ``wild_held`` (wildcards held, where the rule set has them) and,
where the rule set has 起手胡, ``qs_<pattern>`` counts as the options pay them and
``qs_any_basic``.

>>> df = deal_frame("changsha", 2, seed=1)
>>> df[["deal", "seat", "dealer", "n_tiles"]].values.tolist()
[[0, 0, True, 14], [0, 1, False, 13], [0, 2, False, 13], [0, 3, False, 13], [1, 0, True, 14], [1, 1, False, 13], [1, 2, False, 13], [1, 3, False, 13]]
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ..efficiency import waits_batch
from ..evaluate import shanten_by_family
from ..kernels import qishou as Q
from ..kernels.features import FEATURES, hand_features
from ..rules import RuleSet, load_rules
from ..tiles import N_KINDS
from ..version import __version__
from ..walls import WallSpec, deal_batch
from .executor import Cluster
from .parts import run_parts

#: deals per chunk: about 1 M seat rows, a few hundred MB at most in memory
DEFAULT_CHUNK = 250_000


def has_qishou(rules: RuleSet) -> bool:
    """Whether the rule set has 起手胡 options (Changsha and its presets)."""
    return all(p.option in rules.options for p in Q.TABLE)


def _shanten_columns(hands: np.ndarray, wild: np.ndarray, rules: RuleSet) -> dict[str, np.ndarray]:
    """Per-family shanten, one kernel call per wildcard kind in play."""
    kinds = np.unique(wild)
    if len(kinds) == 1:
        return shanten_by_family(
            hands, rules, wild=None if kinds[0] < 0 else [int(kinds[0])], validate=False
        )
    out: dict[str, np.ndarray] = {}
    for w in kinds:
        rows = np.flatnonzero(wild == w)
        part = shanten_by_family(
            hands[rows], rules, wild=None if w < 0 else [int(w)], validate=False
        )
        for name, values in part.items():
            out.setdefault(name, np.empty(len(hands), dtype=np.int8))[rows] = values
    return out


def _wait_columns(hands, wild, shanten, dealer, rules) -> tuple[np.ndarray, np.ndarray]:
    n_waits = np.zeros(len(hands), dtype=np.int8)
    live = np.zeros(len(hands), dtype=np.int8)
    ready = (shanten == 0) & ~dealer
    for w in np.unique(wild[ready]):
        rows = np.flatnonzero(ready & (wild == w))
        mask, left = waits_batch(hands[rows], rules, wild=None if w < 0 else [int(w)])
        n_waits[rows] = mask.sum(axis=1)
        live[rows] = np.where(mask, left, 0).sum(axis=1)
    return n_waits, live


def deal_columns(rules: str | RuleSet, seed: int, start: int, n: int) -> dict[str, np.ndarray]:
    """The dataset columns of deals ``start .. start+n-1`` (see the module docstring)."""
    rules = load_rules(rules)
    batch = deal_batch(WallSpec.from_rules(rules), seed, start, n)
    hands = np.ascontiguousarray(batch.hands.reshape(n * 4, N_KINDS))
    seat = np.tile(np.arange(4, dtype=np.int8), n)
    dealer = seat == 0
    wild = np.repeat(batch.wild.astype(np.int64), 4)
    cols: dict[str, Any] = {
        "deal": np.repeat(np.arange(start, start + n, dtype=np.int64), 4),
        "seat": seat,
        "dealer": dealer,
    }
    features = hand_features(hands)
    cols["n_tiles"] = features[:, 0]
    for name, values in _shanten_columns(hands, wild, rules).items():
        if name != "quanqiuren":  # 全求人 needs four exposed melds: never at the deal
            cols[name if name == "shanten" else f"shanten_{name}"] = values
    cols["complete"] = cols["shanten"] == -1
    cols["ready"] = (cols["shanten"] == 0) & ~dealer
    cols["n_waits"], cols["live_waits"] = _wait_columns(hands, wild, cols["shanten"], dealer, rules)
    for j, name in enumerate(FEATURES[1:], start=1):
        cols[name] = features[:, j]
    cols["bonus"] = batch.bonus.reshape(-1).astype(np.int8)
    if rules.wild in ("caishen", "baida"):
        cols["wild_kind"] = wild.astype(np.int8)
        held = hands[np.arange(len(hands)), np.maximum(wild, 0)]
        cols["wild_held"] = np.where(wild >= 0, held, 0).astype(np.int8)
    if has_qishou(rules):
        cols.update(_qishou_columns(rules, hands, batch.first_draw.reshape(-1)))
    return cols


def _qishou_columns(
    rules: RuleSet, hands: np.ndarray, first_draw: np.ndarray
) -> dict[str, np.ndarray]:
    config = Q.qishou_config(rules)
    evaluated = hands
    if config.eval == "before_first_discard":
        # a non-dealer's first drawn tile joins the evaluated tiles (claims are not modelled)
        evaluated = hands.copy()
        rows = np.flatnonzero(first_draw >= 0)
        evaluated[rows, first_draw[rows]] += 1
    scored = Q.score(Q.qishou_many(evaluated, config.reuse_quad, config.yizhihua_mode), config)
    out = {f"qs_{p}": scored[:, i] for i, p in enumerate(Q.PATTERNS)}
    out["qs_any_basic"] = (scored[:, Q.BASIC] > 0).any(axis=1)
    return out


def deal_frame(rules: str | RuleSet, n: int, seed: int = 0, start: int = 0) -> pd.DataFrame:
    """The dataset of ``n`` deals as a DataFrame (for moderate ``n``; use
    :func:`write_deals` for large runs)."""
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    return pd.DataFrame(deal_columns(rules, seed, start, n))


def run_params(rules: RuleSet, seed: int) -> dict[str, Any]:
    """Provenance of a dataset: rule set, options, their hash, seed, version."""
    return {
        "kind": "deals",
        "rules": rules.id,
        "options": {k: list(v) if isinstance(v, tuple) else v for k, v in rules.options.items()},
        "options_hash": rules.options_hash,
        "seed": seed,
        "mjsim": __version__,
    }


def deal_table(rules: RuleSet, seed: int, start: int, n: int) -> pa.Table:
    """The dataset of deals ``start .. start+n-1`` as an Arrow table (one part's)."""
    return pa.table(deal_columns(rules, seed, start, n))


def write_deals(
    rules: str | RuleSet,
    n: int,
    seed: int,
    out: str | Path,
    chunk: int = DEFAULT_CHUNK,
    progress: bool = True,
    scheduler: Cluster | str | None = None,
) -> Path:
    """Write ``n`` deals as Parquet parts under ``out`` (resumable; see :mod:`mjsim.sim.parts`).

    ``scheduler``: where the chunks are dealt — here (``None``), or a dask.distributed
    cluster (a handle or address, :func:`mjsim.sim.executor.cluster`); the same files either way.
    """
    rules = load_rules(rules)
    run_parts(
        out,
        n,
        chunk,
        partial(deal_table, rules, seed),
        run_params(rules, seed),
        progress=progress,
        label="deals",
        scheduler=scheduler,
    )
    return Path(out)
