"""Chinese chart labels after a pip install alone (mjsim.report.charts).

Each check runs in a fresh Python with an empty matplotlib cache (``MPLCONFIGDIR``) and with
every font but matplotlib's own hidden, as on a machine without CJK fonts: the CJK font
shipped with ``mplfonts`` is registered and a chart with a Chinese title is drawn without
matplotlib's "Glyph ... missing from font" warning; without ``mplfonts`` (or with
``MJSIM_NO_CJK``), labels are in pinyin — and Chinese drawn anyway does warn, so the
warning check can fail.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SCRIPT = textwrap.dedent("""
    import json, sys, warnings
    import matplotlib
    from matplotlib import font_manager
    if sys.argv[2] in ("no-mplfonts", "force-zh"):
        sys.modules["mplfonts"] = None  # as if it were not installed
    # hide the system's fonts: keep only those matplotlib ships
    ours = matplotlib.get_data_path()
    manager = font_manager.fontManager
    manager.ttflist[:] = [f for f in manager.ttflist if f.fname.startswith(ours)]
    manager.afmlist[:] = [f for f in manager.afmlist if f.fname.startswith(ours)]
    getattr(manager._findfont_cached, "cache_clear", lambda: None)()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from mjsim.report import charts
        import matplotlib.pyplot as plt
        family = charts.cjk_font()
        charts.setup()
        fig, ax = plt.subplots(figsize=(4, 2.5))
        ax.bar([0, 1, 2], [3, 1, 2])
        ax.set_xticks([0, 1, 2], [charts.label(z, p) for z, p in
                                  [("板板胡", "banban"), ("四喜", "sixi"), ("六六顺", "liuliushun")]])
        title = charts.label("起手胡频率（一百万局）", "qishou hu odds")
        ax.set_title("起手胡频率（一百万局）" if sys.argv[2] == "force-zh" else title)
        charts.save(fig, __import__("pathlib").Path(sys.argv[1]))
    print(json.dumps({"family": family, "title": ax.get_title(),
                      "families": sorted({f.name for f in manager.ttflist}),
                      "warnings": [str(w.message) for w in caught]}))
""")


def draw(tmp_path: Path, mode: str = "", **env: str) -> dict:
    """Run :data:`SCRIPT` in a fresh process; its findings, and the PNG it wrote."""
    config = tmp_path / "mplconfig"
    config.mkdir()
    environ = {k: v for k, v in os.environ.items() if k != "MJSIM_NO_CJK"}
    environ |= {"MPLCONFIGDIR": str(config), **env}
    png = tmp_path / "chart.png"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(png), mode or "-"],
        check=False,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).parents[1],
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert png.stat().st_size > 0
    return found


def test_packaged_font_draws_chinese(tmp_path):
    pytest.importorskip("mplfonts")
    found = draw(tmp_path)
    assert found["family"].startswith("Noto Sans CJK"), found
    assert found["title"] == "起手胡频率（一百万局）"
    missing = [w for w in found["warnings"] if "missing from font" in w]
    assert not missing, missing
    # the system's fonts were hidden: only matplotlib's own and the registered one are known
    assert not {"Noto Sans CJK JP", "WenQuanYi Zen Hei", "SimHei"} & set(found["families"])


def test_pinyin_without_a_cjk_font(tmp_path):
    found = draw(tmp_path, "no-mplfonts")
    assert found["family"] is None and found["title"] == "qishou hu odds"
    assert not [w for w in found["warnings"] if "missing from font" in w]


def test_no_cjk_switch(tmp_path):
    found = draw(tmp_path, MJSIM_NO_CJK="1")
    assert found["family"] is None and found["title"] == "qishou hu odds"


def test_the_check_sees_missing_glyphs(tmp_path):
    found = draw(tmp_path, "force-zh")  # Chinese drawn with no CJK font at all
    assert found["family"] is None
    assert any("missing from font" in w for w in found["warnings"])
