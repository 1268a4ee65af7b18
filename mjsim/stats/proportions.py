"""Estimates of frequencies and means with their standard errors and 95% intervals.

Frequencies get the Wilson score interval (good at small p, where 起手胡 odds live);
means get the normal interval from the sample standard error.

>>> e = proportion(25, 1000)
>>> round(e.p, 3), round(e.se, 4), [round(x, 4) for x in e.ci]
(0.025, 0.0049, [0.017, 0.0366])
>>> e.odds
'1 in 40'
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Proportion:
    """``k`` successes in ``n`` trials: estimate ``p``, its standard error and Wilson 95% ``ci``."""

    k: int
    n: int
    p: float
    se: float
    ci: tuple[float, float]

    @property
    def odds(self) -> str:
        """The estimate as "1 in X" (X rounded to 3 significant figures)."""
        return odds_text(self.p)

    def to_dict(self) -> dict:
        out = asdict(self)
        out["ci"] = list(self.ci)
        return out


def odds_text(p: float) -> str:
    """``0.025`` → ``'1 in 40'``, 3 significant figures; 0 → ``'never seen'``.

    >>> odds_text(1 / 330530.4)
    '1 in 331,000'
    """
    if p <= 0:
        return "never seen"
    x = 1 / p
    if x < 100:
        return f"1 in {x:.3g}"
    return f"1 in {round(x, 2 - math.floor(math.log10(x))):,.0f}"


def percent(p: float | None, digits: int = 2, style: str = "f") -> str:
    """``p`` in percent: ``digits`` decimals (``style="g"``: significant figures); ``'—'``
    where there is no value. The one percent format of the reports and the CLI.

    >>> percent(0.012345), percent(0.012345, 4, "g"), percent(None)
    ('1.23%', '1.234%', '—')
    """
    return "—" if p is None else f"{100 * p:.{digits}{style}}%"


def rate_percent(r: dict | None, digits: int = 2) -> str:
    """An estimated rate (a dict with ``p``, as :func:`mjsim.stats.play_summary.rate` gives)
    in percent; ``'—'`` where there is none."""
    return percent(None if r is None else r["p"], digits)


def rate_ci_percent(r: dict | None, digits: int = 2) -> str:
    """The 95% interval of an estimated rate (``r["ci"]``) in percent; ``'—'`` where there is
    none (no hand in the group).

    >>> rate_ci_percent({"p": 0.5, "ci": [0.25, 0.75]}), rate_ci_percent(None)
    ('25.00 – 75.00%', '—')
    """
    if r is None or None in r["ci"]:
        return "—"
    return f"{100 * r['ci'][0]:.{digits}f} – {100 * r['ci'][1]:.{digits}f}%"


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` of ``n``."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def proportion(k: int, n: int) -> Proportion:
    """Frequency estimate with binomial standard error and the Wilson interval."""
    if n <= 0:
        raise ValueError(f"a proportion needs at least one trial, got n = {n}")
    k, n = int(k), int(n)
    p = k / n
    return Proportion(k, n, p, math.sqrt(p * (1 - p) / n), wilson(k, n))


@dataclass(frozen=True)
class Mean:
    """A sample mean with its standard error and normal 95% interval."""

    n: int
    mean: float
    se: float
    ci: tuple[float, float]


def mean(values: np.ndarray) -> Mean:
    """Sample mean, its standard error and normal 95% interval.

    >>> round(mean(np.array([1.0, 2.0, 3.0])).se, 4)
    0.5774
    """
    x = np.asarray(values, dtype=np.float64)
    if x.size == 0:
        raise ValueError("a mean needs at least one value")
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else float("nan")
    return Mean(int(x.size), m, se, (m - Z95 * se, m + Z95 * se))
