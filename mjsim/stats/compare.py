"""Rule-change studies: a baseline and variants played on the same hands, compared in pairs.

Every variant plays the same hand indices with the same seed and bots, so the same walls and
dice (common random numbers): the differences are paired hand by hand and games are the
independent units (:mod:`mjsim.stats.paired`). Hands are played in chunks keyed by hand
index; each chunk's statistics are summed in chunk order, so a run gives the same numbers
whatever runs the chunks (this process or Dask workers, :mod:`mjsim.sim.executor`) and
after an interruption. With ``precision`` the run stops after the first round of chunks at
which the target difference's 95% half-width (the largest over the variants) is at most
``precision``, or at ``max_hands``.

>>> from mjsim.rules import load_rules
>>> base = load_rules("changsha")
>>> v = parse_variant("mul: cs_bird_mode=mul", base)
>>> v.name, v.rules.overrides
('mul', {'cs_bird_mode': 'mul'})
>>> [x.name for x in sweep_variants("cs_birds=0,4", base)]
['cs_birds=0', 'cs_birds=4']
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from functools import partial, reduce
from math import lcm
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..game.config import game_config
from ..game.play import play_rows, to_frame
from ..progress import progress_bar
from ..rules import RulesError, RuleSet, parse_override
from ..rules.model import quote
from ..sim import executor
from ..sim.games import run_params as game_params
from ..sim.parts import (
    RunMismatch,
    clear_stale,
    part_name,
    part_ok,
    read_manifest,
    write_json,
    write_part,
)
from ..version import __version__
from . import hand_metrics as HM
from . import paired as P

#: hands per chunk (rounded up to whole games of every variant)
DEFAULT_CHUNK = 5_000
#: chunks played between two checks of the precision target
ROUND = 4


class Variant(NamedTuple):
    """A named rule variant; ``player``: the parameters its tuned seats play
    (:data:`mjsim.game.tuned.PARAMS`; ``None``: the line-up's own players)."""

    name: str
    rules: RuleSet
    player: tuple[float, ...] | None = None

    def theta(self) -> np.ndarray | None:
        """The four seats' parameter rows, where a player is given."""
        return None if self.player is None else np.tile(np.array(self.player), (4, 1))


def slug(name: str) -> str:
    """A file name for ``name`` (letters of any script, digits, ``_.=+-``)."""
    return re.sub(r"[^\w.=+-]+", "_", name).strip("_") or "variant"


def parse_variant(text: str, base: RuleSet) -> Variant:
    """``"name: key=value key2=value2"`` (or ``;``-separated; without a name, the overrides
    name it) as a variant of ``base``."""
    name, colon, body = text.partition(":")
    if not colon:
        name, body = text, text
    name, items = name.strip(), [t.rstrip(",") for t in re.split(r"[;\s]+", body.strip()) if t]
    if not items:
        raise RulesError(f"variant {quote(text)} changes nothing; give it as 'name: option=value'")
    try:
        overrides = dict(parse_override(item, base) for item in items)
        return Variant(name or body.strip(), base.with_options(**overrides))
    except RulesError as error:
        raise RulesError(f"variant {quote(name)}: {error}") from None


def sweep_variants(text: str, base: RuleSet) -> list[Variant]:
    """``"option=v1,v2,…"``: one variant per value."""
    key, equals, values = text.partition("=")
    items = [v.strip() for v in values.split(",") if v.strip()]
    if not equals or len(items) < 1:
        raise RulesError(f"sweep {quote(text)} is not of the form option=value1,value2,...")
    return [parse_variant(f"{key.strip()}={v}: {key.strip()}={v}", base) for v in items]


def check_variants(
    baseline: Variant, variants: list[Variant], unpaired: bool
) -> tuple[list[str], list[bool]]:
    """Refuse what cannot be compared; return notes (identical variants, unpaired walls) and,
    per variant, whether it plays the baseline's walls (paired)."""
    if not variants:
        raise RulesError("compare needs at least one --variant or a --sweep")
    names = [baseline.name] + [v.name for v in variants]
    if len(set(names)) != len(names):
        raise RulesError(f"variant names must differ: {', '.join(names)}")
    notes, paired = [], []
    seen = {baseline.rules.options_hash: baseline.name}
    spec = game_config(baseline.rules).spec
    for v in variants:
        if v.rules.id != baseline.rules.id:
            raise RulesError(
                f"variant {v.name!r} is of rule set {v.rules.id}, the baseline of "
                f"{baseline.rules.id}"
            )
        other = seen.setdefault(v.rules.options_hash, v.name)
        if other != v.name:
            notes.append(
                f"{v.name!r} has the same effective options as {other!r}: "
                + ("its differences are 0" if other == baseline.name else "the same results")
            )
        vs = game_config(v.rules).spec
        if vs.stream != spec.stream or not np.array_equal(vs.multiset, spec.multiset):
            if not unpaired:
                raise RulesError(
                    f"variant {v.name!r} changes the tile set, so its walls differ "
                    "and pairing is lost; give --unpaired to compare anyway"
                )
            notes.append(f"{v.name!r} plays other walls: its differences are unpaired")
        paired.append(vs.stream == spec.stream and np.array_equal(vs.multiset, spec.multiset))
    return notes, paired


def _game_span(variants: list[Variant]) -> int:
    return reduce(lcm, (game_config(v.rules).game_length for v in variants), 1)


def chunk_frames(
    variants: list[Variant], seed: int, bots: tuple[str, ...], task: tuple[int, int]
) -> list[pa.Table]:
    """Play hands ``start .. start+n-1`` of every variant (a Dask task)."""
    start, n = task
    return [
        pa.Table.from_pandas(
            to_frame(v.rules, play_rows(v.rules, seed, start, n, bots, theta=v.theta()), seed),
            preserve_index=False,
        )
        for v in variants
    ]


class Study:
    """The running sums of a comparison: moments of every ratio metric and histograms."""

    def __init__(self, variants: list[Variant], bots: tuple[str, ...], seed: int, span: int):
        self.variants, self.bots, self.seed, self.span = variants, bots, seed, span
        self.metrics = HM.metrics(variants[0].rules, bots)
        for v in variants[1:]:
            if HM.metrics(v.rules, bots) != self.metrics:
                raise RulesError(f"variant {v.name!r} measures other patterns than the baseline")
        self.moments = P.RatioMoments.empty(len(self.metrics), len(variants))
        self.hist = P.Histograms.empty(len(variants))

    def add(self, tables: list[pa.Table]) -> None:
        frames = [t.to_pandas() for t in tables]
        index = frames[0]["index"].to_numpy()
        games = index // self.span
        ys, xs = zip(
            *(
                HM.per_hand(f, self.metrics, self.bots, v.rules)
                for f, v in zip(frames, self.variants)
            )
        )
        self.moments.add(np.stack(ys, axis=-1), np.stack(xs, axis=-1), games)
        self.hist.add(
            [f[[f"pay_{s}" for s in range(4)]].to_numpy() for f in frames], games, self.seed
        )

    def half_width(self, key: str, paired: list[bool]) -> float:
        """The largest 95% half-width of the differences of ``key`` over the variants."""
        widths = [(d["ci"][1] - d["ci"][0]) / 2 for d in self._diffs(key, paired) if d]
        return max(widths) if widths else math.inf

    def _diffs(self, key: str, paired: list[bool]) -> list[dict[str, Any] | None]:
        """The differences of ``key``, per variant (``paired[v - 1]``: on the same walls)."""
        quantiles = {m.key for m in HM.quantile_metrics()}
        if key in quantiles:
            return [
                P.quantile_difference(self.hist, v, 0, key, self.moments.n_hands, paired[v - 1])
                for v in range(1, len(self.variants))
            ]
        j, m = next((j, m) for j, m in enumerate(self.metrics) if m.key == key)
        return [
            P.ratio_difference(self.moments, j, v, 0, m.transform, paired[v - 1])
            for v in range(1, len(self.variants))
        ]

    def results(self, paired: list[bool]) -> list[dict[str, Any]]:
        """One entry per metric: the baseline's value and each variant's value and difference."""
        out = []
        for j, m in enumerate(self.metrics + HM.quantile_metrics()):
            if j < len(self.metrics):
                values = [
                    P.ratio_value(self.moments, j, v, m.transform)
                    for v in range(len(self.variants))
                ]
            else:
                values = [P.quantile_value(self.hist, v, m.key) for v in range(len(self.variants))]
            diffs = self._diffs(m.key, paired)
            out.append(
                {
                    "metric": m.key,
                    "group": m.group,
                    "label": m.label,
                    "label_zh": m.label_zh,
                    "unit": m.unit,
                    "baseline": values[0],
                    "variants": [
                        {"variant": v.name, **values[i + 1], "difference": diffs[i]}
                        for i, v in enumerate(self.variants[1:])
                    ],
                }
            )
        return out

    def payment_histograms(self) -> dict[str, dict[str, int]]:
        """Per variant: a seat's net score per hand, value → seat-hands."""
        return {
            v.name: {
                str(int(x)): int(c)
                for x, c in zip(self.hist.values, self.hist.counts[i, :, 0])
                if c
            }
            for i, v in enumerate(self.variants)
        }


def _exact(variants: list[Variant]) -> dict[str, Any]:
    """Exact deal-time values of every variant and their differences from the baseline."""
    from .exact import exact_summary

    flat = []
    for v in variants:
        s = exact_summary(v.rules)
        values = {k: s[k]["p"] for k in ("complete_at_deal", "ready_at_deal") if k in s}
        for pattern, seats in (s.get("qishou") or {}).items():
            for seat in ("dealer", "non_dealer"):  # a pattern that is off never happens
                values[f"qishou.{pattern}.{seat}"] = 0.0 if seats.get("off") else seats[seat]["p"]
        flat.append(values)
    keys = [k for k in flat[0] if all(k in f for f in flat)]
    return {
        "baseline": {k: flat[0][k] for k in keys},
        "variants": [
            {
                "variant": v.name,
                "values": {k: f[k] for k in keys},
                "difference": {k: f[k] - flat[0][k] for k in keys},
            }
            for v, f in zip(variants[1:], flat[1:])
        ],
    }


def _params(
    variants: list[Variant], seed: int, bots: tuple[str, ...], chunk: int, target: dict[str, Any]
) -> dict[str, Any]:
    return {
        "kind": "compare",
        "rules": variants[0].rules.id,
        "seed": seed,
        "bots": list(bots),
        "chunk": chunk,
        "target": target,
        "mjsim": __version__,
        "variants": [
            {"name": v.name, "options_hash": v.rules.options_hash, "overrides": v.rules.overrides}
            | ({"player": list(v.player)} if v.player is not None else {})
            for v in variants
        ],
    }


class _Folder:
    """A compare run's folder: ``compare.json`` and one folder of parts per variant."""

    def __init__(
        self,
        out: Path,
        variants: list[Variant],
        params: dict[str, Any],
        seed: int,
        bots: tuple[str, ...],
    ):
        self.out = Path(out)
        self.dirs = [self.out / f"{i}-{slug(v.name)}" for i, v in enumerate(variants)]
        self.metas = [
            json.dumps(
                game_params(v.rules, seed, bots)
                | {"chunk": params["chunk"]}
                | ({"player": list(v.player)} if v.player is not None else {}),
                ensure_ascii=False,
            ).encode()
            for v in variants
        ]
        self.out.mkdir(parents=True, exist_ok=True)
        clear_stale(self.out)
        manifest = self.out / "compare.json"
        if manifest.exists():
            if read_manifest(manifest) != json.loads(json.dumps(params)):
                raise RunMismatch(
                    f"{out} holds a different comparison; choose another --out or delete it"
                )
        else:
            write_json(manifest, params)
        for d, meta, v in zip(self.dirs, self.metas, variants):
            d.mkdir(exist_ok=True)
            clear_stale(d)
            write_json(d / "run.json", json.loads(meta) | {"variant": v.name})

    def has(self, task: tuple[int, int]) -> bool:
        """Whether every variant's part of ``task`` is on disk and whole."""
        return all(part_ok(d / part_name(*task), meta) for d, meta in zip(self.dirs, self.metas))

    def read(self, task: tuple[int, int]) -> list[pa.Table]:
        return [pq.read_table(d / part_name(*task)) for d in self.dirs]

    def write(self, task: tuple[int, int], tables: list[pa.Table]) -> None:
        for d, meta, t in zip(self.dirs, self.metas, tables):
            write_part(d / part_name(*task), t, meta)


def run_compare(
    baseline: Variant,
    variants: list[Variant],
    n: int = 20_000,
    seed: int = 0,
    bots: tuple[str, ...] = ("efficiency",) * 4,
    chunk: int = DEFAULT_CHUNK,
    precision: float | None = None,
    metric: str = "mean_score.dealer",
    max_hands: int = 1_000_000,
    out: str | Path | None = None,
    scheduler: Any = None,
    unpaired: bool = False,
    progress: bool = True,
    exact: bool = True,
    sweep: str | None = None,
) -> dict[str, Any]:
    """Play ``baseline`` and ``variants`` on the same hands and compare them in pairs.

    Without ``precision``: ``n`` hands. With it: rounds of :data:`ROUND` chunks until the
    95% half-width of ``metric``'s differences is at most ``precision`` or ``max_hands``.
    ``out``: keep every variant's records as Parquet parts (and resume from them).
    ``scheduler``: a Dask handle from :func:`mjsim.sim.executor.cluster` (None: here).
    ``sweep``: the option the variants sweep, recorded for the report's sweep chart.
    """
    notes, paired = check_variants(baseline, variants, unpaired)
    everyone = [baseline, *variants]
    span = _game_span(everyone)
    chunk = -(-chunk // span) * span
    study = Study(everyone, tuple(bots), seed, span)
    # the metrics --precision may aim at (the largest loss, an extreme value, has no
    # half-width to aim at); checked whether or not it is given
    keys = [m.key for m in study.metrics + HM.quantile_metrics() if m.key != "payment.largest_loss"]
    if metric not in keys:
        raise ValueError(
            f"unknown metric {metric!r} for --metric (what --precision aims at); metrics: "
            f"{', '.join(keys)}"
        )
    if precision is not None:
        if not 0 < precision < math.inf:
            raise ValueError(f"--precision must be a positive, finite half-width, got {precision}")
        total = max_hands
    else:
        total = n
    if total < 2 * span:
        raise ValueError(f"need at least two games ({2 * span} hands), got {total}")
    target = {
        "precision": precision,
        "metric": metric if precision else None,
        "hands": None if precision else n,
        "max_hands": max_hands if precision else None,
    }
    folder = (
        _Folder(
            Path(out), everyone, _params(everyone, seed, bots, chunk, target), seed, tuple(bots)
        )
        if out is not None
        else None
    )
    play = partial(chunk_frames, everyone, seed, tuple(bots))
    tasks = [(s, min(chunk, total - s)) for s in range(0, total, chunk)]
    rounds = (
        [tasks]
        if precision is None
        else [tasks[i : i + ROUND] for i in range(0, len(tasks), ROUND)]
    )
    reached = None
    label = "hands of each variant" + (f", target ±{precision:g}" if precision else "")
    with progress_bar(label, total, enabled=progress) as advance:
        for batch in rounds:
            _play_round(batch, play, study, folder, scheduler, advance)
            if precision is not None:
                width = study.half_width(metric, paired)
                advance(0, note=f"±{width:.4g}")
                if width <= precision:
                    reached = width
                    break
    result = {
        "rules": baseline.rules.id,
        "seed": seed,
        "bots": list(bots),
        "mjsim": __version__,
        "n_hands": study.moments.n_hands,
        "n_games": study.moments.n_games,
        "paired": all(paired),
        "baseline": {
            "name": baseline.name,
            "overrides": baseline.rules.overrides,
            "options_hash": baseline.rules.options_hash,
        },
        "variants": [
            {
                "name": v.name,
                "overrides": v.rules.overrides,
                "changes": {
                    k: val for k, val in v.rules.options.items() if baseline.rules.options[k] != val
                },
                "options_hash": v.rules.options_hash,
                "paired": p,
            }
            for v, p in zip(variants, paired)
        ],
        "notes": notes,
        "metrics": study.results(paired),
        "payments": study.payment_histograms(),
    }
    if precision is not None:
        result["precision"] = {
            "metric": metric,
            "target": precision,
            "half_width": study.half_width(metric, paired),
            "reached": reached is not None,
            "max_hands": max_hands,
        }
    if sweep is not None:
        result["sweep"], result["sweep_baseline"] = sweep, baseline.rules.options[sweep]
    if exact:
        result["exact"] = _exact(everyone)
    if out is not None:
        result["out"] = str(out)
        write_json(Path(out) / "summary.json", result)
    return result


def _play_round(
    tasks: list[tuple[int, int]],
    play: Callable,
    study: Study,
    folder: _Folder | None,
    scheduler: Any,
    advance: Callable,
) -> None:
    """Play (or read back from ``folder``) ``tasks`` and add their statistics in task order."""
    on_disk = {t for t in tasks if folder is not None and folder.has(t)}
    waiting = iter(t for t in tasks if t in on_disk)
    behind = [next(waiting, None)]

    def add(task: tuple[int, int], tables: list[pa.Table]) -> None:
        study.add(tables)
        advance(task[1])

    def catch_up(before: tuple[int, int] | None) -> None:  # chunks on disk that come first
        while behind[0] is not None and (before is None or behind[0] < before):
            add(behind[0], folder.read(behind[0]))
            behind[0] = next(waiting, None)

    def played(task: tuple[int, int], tables: list[pa.Table]) -> None:
        if folder is not None:
            folder.write(task, tables)
        catch_up(task)
        add(task, tables)

    executor.map_chunks(play, [t for t in tasks if t not in on_disk], played, scheduler=scheduler)
    catch_up(None)
