"""The waits study's chart: win probability once ready against live copies, one line per
wait shape, with 95% intervals (:func:`mjsim.stats.waits_study.win_by_live_and_shape`)."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from ..game.shape import SHAPES, SHAPES_ZH
from . import charts

#: fewest ready seats for a point of the chart
MIN_POINT = 30


def live_chart(table: pd.DataFrame, path: Path, title: str) -> Path:
    """Draw ``table`` (shape, live, n, mean, lo, hi) to the PNG ``path``; points over fewer
    than :data:`MIN_POINT` seats are left out."""
    charts.setup()
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    table = table[table.n >= MIN_POINT]
    for shape, rows in table.groupby("shape", sort=False):
        zh = SHAPES_ZH[SHAPES.index(shape)]
        err = charts.error_bars(rows["mean"].to_numpy(), rows.lo.to_numpy(), rows.hi.to_numpy())
        ax.errorbar(
            rows.live + 0.04 * SHAPES.index(shape),
            100 * rows["mean"],
            yerr=100 * err,
            marker="o",
            ms=4,
            capsize=3,
            label=charts.label(f"{zh} {shape}", shape),
        )
    ax.set_xlabel(
        charts.label(
            "未见的可胡张数 live copies of the winning kinds", "live copies of the winning kinds"
        )
    )
    ax.set_ylabel(
        charts.label(
            "听牌后胡牌概率 win probability once ready (%)", "win probability once ready (%)"
        )
    )
    ax.set_title(title)
    if table.empty:
        ax.text(
            0.5,
            0.5,
            f"fewer than {MIN_POINT} ready seats at every point",
            ha="center",
            va="center",
            transform=ax.transAxes,
        )
    else:
        ax.legend(fontsize=8, ncols=2)
    ax.set_ylim(bottom=0)
    return charts.save(fig, path)
