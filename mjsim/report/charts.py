"""Matplotlib charts for reports, with Chinese labels when a CJK font is installed.

Without a CJK font, labels fall back to pinyin (``label(zh, pinyin)``), never to boxes.

>>> label("板板胡", "banban hu") in ("板板胡", "banban hu")
True
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import font_manager  # noqa: E402

_CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans SC", "Source Han Sans SC",
                 "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "SimHei", "Microsoft YaHei",
                 "PingFang SC", "AR PL UMing CN", "Droid Sans Fallback")


@lru_cache(maxsize=1)
def cjk_font() -> str | None:
    """The first installed font family that has CJK glyphs, or None."""
    if os.environ.get("MJSIM_NO_CJK"):
        return None
    installed = {f.name for f in font_manager.fontManager.ttflist}
    for family in _CJK_FAMILIES:
        if family in installed:
            return family
    return None


def label(zh: str, pinyin: str) -> str:
    """The Chinese label when it can be drawn, else its pinyin."""
    return zh if cjk_font() else pinyin


def setup() -> None:
    """Matplotlib defaults for every report chart."""
    family = cjk_font()
    plt.rcParams.update({
        "figure.dpi": 110,
        "savefig.bbox": "tight",
        "axes.spines.top": False,
        "axes.spines.right": False,
        "font.family": "sans-serif",
        "font.sans-serif": ([family] if family else []) + ["DejaVu Sans"],
        "axes.unicode_minus": False,
    })


def save(fig, path: Path) -> Path:
    """Write a PNG atomically and close the figure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp.png")
    fig.savefig(tmp)
    plt.close(fig)
    os.replace(tmp, path)
    return path
