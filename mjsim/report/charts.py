"""Matplotlib charts for reports, with Chinese labels.

Labels are drawn in an installed CJK font when there is one, else in the Noto Sans CJK SC
that the ``mplfonts`` package (a dependency) ships, registered with matplotlib for this
process — so a pip install alone draws Chinese. Without either (or with ``MJSIM_NO_CJK``
set), labels fall back to pinyin (``label(zh, pinyin)``), never to boxes.

>>> label("板板胡", "banban hu") in ("板板胡", "banban hu")
True
"""

from __future__ import annotations

import importlib.resources
import os
from functools import lru_cache
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager

_CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "Noto Sans CJK JP",
    "Noto Sans SC",
    "Source Han Sans SC",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "SimHei",
    "Microsoft YaHei",
    "PingFang SC",
    "AR PL UMing CN",
    "Droid Sans Fallback",
)


#: the CJK font file of the mplfonts package: (package, folder, file)
_PACKAGED_FONT = ("mplfonts", "fonts", "NotoSansCJKsc-Regular.otf")


def packaged_font() -> str | None:
    """Register the CJK font shipped with ``mplfonts`` with matplotlib (this process only;
    nothing is copied) and return its family name; None when the package or file is absent."""
    package, folder, name = _PACKAGED_FONT
    try:
        path = importlib.resources.files(package) / folder / name
    except ModuleNotFoundError:
        return None
    if not isinstance(path, os.PathLike) or not path.is_file():
        return None  # not an installed file (e.g. inside a zip): nothing to register
    fname = os.fspath(path)
    font_manager.fontManager.addfont(fname)
    return font_manager.FontProperties(fname=fname).get_name()


@lru_cache(maxsize=1)
def cjk_font() -> str | None:
    """The font family for Chinese labels: the first installed one from a list of CJK
    families, else the packaged Noto Sans CJK SC (:func:`packaged_font`), else None (and
    labels in pinyin); None too when ``MJSIM_NO_CJK`` is set."""
    if os.environ.get("MJSIM_NO_CJK"):
        return None
    installed = {f.name for f in font_manager.fontManager.ttflist}
    for family in _CJK_FAMILIES:
        if family in installed:
            return family
    return packaged_font()


def label(zh: str, pinyin: str) -> str:
    """The Chinese label when it can be drawn, else its pinyin."""
    return zh if cjk_font() else pinyin


def setup() -> None:
    """Matplotlib defaults for every report chart."""
    family = cjk_font()
    plt.rcParams.update(
        {
            "figure.dpi": 110,
            "savefig.bbox": "tight",
            "axes.spines.top": False,
            "axes.spines.right": False,
            "font.family": "sans-serif",
            "font.sans-serif": ([family] if family else []) + ["DejaVu Sans"],
            "axes.unicode_minus": False,
        }
    )


def save(fig, path: Path) -> Path:
    """Write a PNG atomically and close the figure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp.png")
    fig.savefig(tmp)
    plt.close(fig)
    os.replace(tmp, path)
    return path


def error_bars(value, lo, hi) -> np.ndarray:
    """Error bars from an interval, ``[below, above]``; never negative (a Wilson bound may
    pass ``p`` by rounding where ``p`` is 0 or 1).

    >>> error_bars(np.array([1.0]), np.array([0.9]), np.array([0.9999999]))
    array([[0.1],
           [0. ]])
    """
    return np.clip(np.array([value - lo, hi - value], dtype=float), 0, None)
