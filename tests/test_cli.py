"""The ``mjsim`` command: help, version, ``rules list/show``, the hand verbs with and without
``--json`` on the README's examples, and user errors (exit 2, one ``error:`` line)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import mjsim
from mjsim.cli import app, hand_cmd, output, rules_cmd
from mjsim.rules import RULE_SETS, load_rules

runner = CliRunner()


def _use_width(monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    """Rich consoles of a fixed width and no colour, writing to the runner's streams."""
    out = Console(width=width, color_system=None)
    monkeypatch.setattr(output, "console", out)
    monkeypatch.setattr(hand_cmd, "console", out)
    monkeypatch.setattr(rules_cmd, "console", out)
    monkeypatch.setattr(output, "err_console", Console(stderr=True, width=width, color_system=None))


@pytest.fixture(autouse=True)
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    _use_width(monkeypatch, 250)


@pytest.fixture
def narrow(monkeypatch: pytest.MonkeyPatch) -> None:
    """An ordinary 80-column terminal (also what rich assumes for a pipe)."""
    _use_width(monkeypatch, 80)


def run(*args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    return result


def run_json(*args: str):
    return json.loads(run(*args, "--json").stdout)


def user_error(*args: str) -> str:
    """Run a command that must fail on its input; return the message, whitespace folded."""
    result = run(*args, code=2)
    assert result.stdout == ""
    assert result.stderr.startswith("error: "), result.stderr
    return " ".join(result.stderr.split())


# ---------------------------------------------------------------- help and version


def test_help() -> None:
    text = run("--help").stdout
    for verb in ("rules", "shanten", "waits", "ukeire", "decompose", "--version"):
        assert verb in text


def test_no_arguments_shows_help() -> None:
    result = runner.invoke(app, [])
    assert "shanten" in result.output and "Usage" in result.output


@pytest.mark.parametrize("verb", ["shanten", "waits", "ukeire", "decompose"])
def test_verb_help(verb: str) -> None:
    text = run(verb, "--help").stdout
    for option in ("--rules", "--set", "--json"):
        assert option in text


def test_rules_help() -> None:
    text = run("rules", "--help").stdout
    assert "list" in text and "show" in text


def test_version() -> None:
    assert run("--version").stdout == f"mjsim {mjsim.__version__}\n"


def test_console_script_version() -> None:
    script = Path(sys.executable).parent / "mjsim"
    if not script.exists():
        pytest.skip(f"no console script at {script}")
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"mjsim {mjsim.__version__}\n"


@pytest.mark.parametrize(
    "argv, first",
    [
        (["play", "-n", "0"], "error: Invalid value for '-n': Input should be greater than or"),
        (["play", "--nope"], "error: No such option: --nope"),
        (["shanten", "123m", "--rules", "generic", "--rules"], "error: Option '--rules' requires"),
        (["nope"], "error: No such command 'nope'"),
        # an empty --out would write into the current folder; a file is no folder
        *(
            ([*verb, "--out", ""], "error: Invalid value for '--out' / '-o': needs a folder name")
            for verb in (
                ["deal", "-n", "10"],
                ["play", "-n", "10"],
                ["compare", "--variant", "x: cs_birds=2"],
                ["waits-study"],
                ["report"],
            )
        ),
        (["compare", "--variant", "x: cs_birds=2", "--report", ""], "error: Invalid value for"),
        (["deal", "-n", "10", "--out", __file__], "error: Invalid value for '--out' / '-o': '"),
        # sizes past what a run can hold: one line with the largest allowed
        *(
            ([verb, "-n", "99999999999999999999"], "error: Invalid value for '-n': Input should be")
            for verb in ("qishou", "play", "compare", "waits-study", "report")
        ),
    ],
)
def test_console_script_usage_errors_are_one_line(monkeypatch, capsys, argv, first) -> None:
    """The console script (:func:`mjsim.cli.main`) gives a bad option or value the one
    ``error:`` line and status 2 of every input error, not click's usage box."""
    from mjsim.cli import main

    monkeypatch.setattr(sys, "argv", ["mjsim", *argv])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1 and lines[0].startswith(first), captured.err


def test_console_script_alone_prints_its_help(monkeypatch, capsys) -> None:
    from mjsim.cli import main

    monkeypatch.setattr(sys, "argv", ["mjsim"])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 2  # as click has it: no verb is a usage error
    assert "Usage:" in capsys.readouterr().out


# ---------------------------------------------------------------- rules


def test_rules_list() -> None:
    text = run("rules", "list").stdout
    assert len(RULE_SETS) == 11
    for rule_set_id in RULE_SETS:
        assert rule_set_id in text
    assert "长沙麻将" in text and "§2" in text


def test_rules_list_json() -> None:
    data = run_json("rules", "list")
    assert len(data) == 11
    assert [r["id"] for r in data] == list(RULE_SETS)
    by_id = {r["id"]: r for r in data}
    assert by_id["changsha"]["tiles"] == 108 and by_id["changsha"]["hand_size"] == 13
    assert by_id["caishen16"]["hand_size"] == 16
    assert by_id["hongzhong112"]["tiles"] == 112
    assert {r["tiles"] for r in data} <= {108, 112, 136, 144}
    for r in data:
        assert set(r) == {"id", "name", "name_zh", "tiles", "hand_size", "summary", "section"}


def test_rules_show_changsha() -> None:
    text = run("rules", "show", "changsha").stdout
    schema = load_rules("changsha").schema
    assert len(schema) > 10
    for option in schema:
        assert option.name in text, option.name
    assert "长沙麻将" in text and "options hash" in text


def test_rules_show_changsha_json() -> None:
    data = run_json("rules", "show", "changsha")
    rules = load_rules("changsha")
    assert data["id"] == "changsha" and data["tile_set"] == 108 and data["hand_size"] == 13
    assert data["options_hash"] == rules.options_hash
    assert [o["name"] for o in data["schema"]] == [o.name for o in rules.schema]
    for option in data["schema"]:
        assert "default" in option and "name_zh" in option
        assert data["options"][option["name"]] == _plain(option["default"])


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


def test_rules_show_with_override() -> None:
    default = run_json("rules", "show", "changsha")
    data = run_json("rules", "show", "changsha", "--set", "cs_birds=4")
    assert data["options"]["cs_birds"] == 4
    assert data["options_hash"] == load_rules("changsha", cs_birds=4).options_hash
    assert data["options_hash"] != default["options_hash"]
    birds = next(o for o in data["schema"] if o["name"] == "cs_birds")
    assert birds["default"] != 4  # the default is still shown as the default


@pytest.mark.parametrize("rule_set_id", RULE_SETS)
def test_rules_show_every_preset(rule_set_id: str) -> None:
    data = run_json("rules", "show", rule_set_id)
    assert data["id"] == rule_set_id
    assert set(data["options"]) == {o["name"] for o in data["schema"]}


def test_set_unknown_option() -> None:
    message = user_error("rules", "show", "changsha", "--set", "cs_bird=4")
    assert "unknown option 'cs_bird'" in message
    assert "did you mean" in message and "cs_birds" in message


def test_set_unknown_option_on_a_hand_verb() -> None:
    message = user_error(
        "shanten", "123456789m123p9s", "--rules", "changsha", "--set", "cs_brids=4"
    )
    assert "unknown option 'cs_brids'" in message and "did you mean" in message


def test_set_bad_value() -> None:
    message = user_error("rules", "show", "changsha", "--set", "cs_birds=3")
    assert message == "error: cs_birds must be one of 0, 2, 4 (got 3)"


def test_set_without_equals() -> None:
    message = user_error("rules", "show", "changsha", "--set", "cs_birds")
    assert "not of the form key=value" in message


def test_unknown_rule_set() -> None:
    message = user_error("rules", "show", "changsh")
    assert "unknown rule set 'changsh'" in message and "did you mean: changsha" in message
    assert "unknown rule set 'nope'" in user_error("shanten", "123m", "--rules", "nope")


# ---------------------------------------------------------------- hand verbs


def test_shanten_text() -> None:
    text = run("shanten", "123456789m123p9s", "--rules", "changsha").stdout
    assert "123456789m123p9s" in text and "一万二万三万" in text
    assert "changsha: 1-shanten (1向听)" in text
    for form in ("standard", "one_suit", "all_pungs", "seven_pairs", "all_258", "quanqiuren"):
        assert form in text


def test_shanten_json() -> None:
    data = run_json("shanten", "123456789m123p9s", "--rules", "changsha")
    assert data["hand"] == "123456789m123p9s"
    assert data["rules"] == "changsha"
    assert data["shanten"] == 1
    assert data["options_hash"] == load_rules("changsha").options_hash
    assert data["by_form"] == {
        "standard": 1,
        "one_suit": 4,
        "all_pungs": 8,
        "seven_pairs": 6,
        "all_258": 9,
        "quanqiuren": None,
    }
    # generic rules: any pair, so block counting is right and the hand is ready
    assert run_json("shanten", "123456789m123p9s")["shanten"] == 0


def test_shanten_fifth_copy_is_no_wait() -> None:
    assert run_json("shanten", "1111m456p789s111z")["shanten"] == 1


def test_shanten_form_and_set() -> None:
    data = run_json(
        "shanten", "11m33m55m22p44p66p8s", "--rules", "changsha", "--form", "seven_pairs"
    )
    assert data["form"] == "seven_pairs" and data["shanten"] == 0
    data = run_json("shanten", "123456789m123p9s", "--rules", "changsha", "--set", "cs_birds=4")
    assert data["shanten"] == 1
    assert data["options_hash"] == load_rules("changsha", cs_birds=4).options_hash
    assert "winning form 'eight_pairs'" in user_error(
        "shanten", "123456789m123p9s", "--rules", "changsha", "--form", "eight_pairs"
    )


def test_shanten_complete_and_ready_words() -> None:
    assert "complete (和了)" in run("shanten", "123m456p789s11122z").stdout
    assert "ready (听牌)" in run("shanten", "123m456p789s1122z").stdout


def test_waits_text() -> None:
    text = run("waits", "234m567p22p34s777m", "--rules", "changsha", "--visible", "5s5s").stdout
    assert "2s 二条" in text and "5s 五条" in text and "total" in text
    rows = {
        line.split("│")[1].strip(): line.split("│")[2].strip()
        for line in text.splitlines()
        if line.startswith("│")
    }
    assert rows == {"2s 二条": "4", "5s 五条": "2", "total": "6"}


def test_waits_json() -> None:
    data = run_json("waits", "234m567p22p34s777m", "--rules", "changsha", "--visible", "5s5s")
    assert data["ready"] is True
    assert data["waits"] == [{"tile": "2s", "live": 4}, {"tile": "5s", "live": 2}]
    assert data["live_total"] == 6
    # without --visible both waits have all their copies but the ones in hand
    data = run_json("waits", "234m567p22p34s777m", "--rules", "changsha")
    assert data["waits"] == [{"tile": "2s", "live": 4}, {"tile": "5s", "live": 4}]


def test_waits_not_ready() -> None:
    text = run("waits", "123456789m123p9s", "--rules", "changsha").stdout
    assert "is not ready" in text and "1-shanten" in text
    data = run_json("waits", "123456789m123p9s", "--rules", "changsha")
    assert data == {
        "hand": "123456789m123p9s",
        "rules": "changsha",
        "ready": False,
        "waits": [],
        "live_total": 0,
    }


def test_waits_visible_too_many() -> None:
    message = user_error("waits", "234m567p22p34s777m", "--rules", "changsha", "--visible", "7m7m")
    assert "more than four copies of 7m" in message


def test_ukeire_text() -> None:
    text = run("ukeire", "123m456p789s11223z").stdout
    rows = [
        [cell.strip() for cell in line.split("│")[1:-1]]
        for line in text.splitlines()
        if line.startswith("│")
    ]
    assert rows[0] == ["3z 西", "0", "4", "1z×2 2z×2"]
    assert ["1m 一万", "1", "12", "1m×4 4m×4 1z×2 2z×2"] in rows
    assert ["4p 四筒", "1", "12", "4p×4 7p×4 1z×2 2z×2"] in rows


def test_ukeire_json() -> None:
    data = run_json("ukeire", "123m456p789s11223z")
    best = data["discards"][0]
    assert best["discard"] == "3z" and best["shanten"] == 0 and best["live"] == 4
    assert best["tiles"] == [{"tile": "1z", "live": 2}, {"tile": "2z", "live": 2}]
    # best first: shanten ascending, then live descending
    keys = [(d["shanten"], -d["live"]) for d in data["discards"]]
    assert keys == sorted(keys)
    assert len({d["discard"] for d in data["discards"]}) == len(data["discards"]) == 12


def test_ukeire_readme_main_job() -> None:
    data = run_json("ukeire", "123456789m123p9s5p", "--rules", "changsha")
    assert data["rules"] == "changsha"
    best = data["discards"][0]
    assert best["shanten"] == 0 and best["discard"] == "9s"
    assert best["tiles"] == [{"tile": "5p", "live": 3}] and best["live"] == 3


def test_decompose_text_and_json() -> None:
    text = run("decompose", "123m456p789s345s2z +2z").stdout
    assert text.split() == ["standard", "123m", "456p", "345s", "789s", "22z", "(single)"]
    data = run_json("decompose", "123m456p789s345s2z +2z")
    (only,) = data["decompositions"]
    assert only["form"] == "standard" and only["wait"] == "single"
    assert only["pair"] == 28
    assert only["melds"] == [
        ["chow", 0, True],
        ["chow", 12, True],
        ["chow", 20, True],
        ["chow", 24, True],
    ]
    assert only["text"] == "123m 456p 345s 789s 22z (single)"


def test_decompose_several_waits() -> None:
    data = run_json("decompose", "11123m456p789s11z +1m")
    assert sorted({d["wait"] for d in data["decompositions"]}) == ["ryanmen", "shanpon"]


def test_decompose_none() -> None:
    assert "has no decomposition" in run("decompose", "123m456p789s12345z").stdout
    assert run_json("decompose", "123m456p789s12345z")["decompositions"] == []


def test_chinese_input() -> None:
    data = run_json(
        "shanten", "一万二万三万四万五万六万七万八万九万一筒二筒三筒九条", "--rules", "changsha"
    )
    assert data["hand"] == "123456789m123p9s" and data["shanten"] == 1


# ---------------------------------------------------------------- user errors


def test_error_red_five() -> None:
    message = user_error("shanten", "0m")
    assert message == "error: no tile 0 (these games have no red fives): '0m' at position 0 in '0m'"


def test_error_tile_not_in_rule_set() -> None:
    message = user_error("shanten", "1z", "--rules", "changsha")
    assert message == "error: the rule set 'changsha' has no tile 1z: '1z' at position 0 in '1z'"
    assert "has no tile 1z: '1z' at position 0 in '1z2z'" in user_error(
        "shanten", "1z2z", "--rules", "changsha"
    )


def test_error_hand_too_small() -> None:
    message = user_error("shanten", "123456789m123p")
    assert message == (
        "error: a generic hand here has 13 or 14 tiles (kongs count as 3); this one has 12"
    )
    assert "has 14 tiles" in user_error("ukeire", "123m456p789s1122z")
    assert "has 13 tiles" in user_error("waits", "123m456p789s11223z")
    assert "has 14 tiles" in user_error("decompose", "123m456p789s1122z")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("waits", "11111m"), "a fifth copy of a tile: '1m' at position 4"),
        (("ukeire", "123x"), "unknown suit letter"),
        (("decompose", "[124m] 123p"), "not a meld"),
        (("shanten", "[123m"), "missing closing ']'"),
        (("shanten", "f9"), "flowers are f1–f8"),
        (("shanten", "8z"), "honours are 1z–7z"),
        (("shanten", ""), "empty hand"),
        (("shanten", "123456789m123456p"), "too many tiles"),
        (("waits", "234m567p22p34s777m", "--visible", "0s"), "no tile 0"),
    ],
)
def test_errors_name_the_problem(args: tuple[str, ...], words: str) -> None:
    assert words in user_error(*args)


@pytest.mark.usefixtures("narrow")
@pytest.mark.parametrize(
    "args",
    [("shanten", "0m"), ("shanten", "1z", "--rules", "changsha"), ("shanten", "11111m")],
)
def test_short_errors_are_one_line_at_80_columns(args: tuple[str, ...]) -> None:
    result = run(*args, code=2)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr


@pytest.mark.usefixtures("narrow")
def test_long_errors_are_one_line_at_80_columns() -> None:
    result = run("shanten", "123456789m123p", code=2)
    assert result.stderr.count("\n") == 1, result.stderr


def test_error_keeps_brackets_of_user_input() -> None:
    message = user_error("rules", "show", "changsha", "--set", "cs_birds=[bold]x")
    assert "[bold]x" in message


def test_error_with_closing_tag_in_hand() -> None:
    result = runner.invoke(app, ["shanten", "1m [/x]"])
    assert result.exit_code == 2 and result.stderr.startswith("error: ")


@pytest.mark.usefixtures("narrow")
def test_rules_list_ids_at_80_columns() -> None:
    text = run("rules", "list").stdout
    for rule_set_id in RULE_SETS:
        assert rule_set_id in text


def test_options_are_checked_whether_or_not_another_uses_them() -> None:
    """--metric names a metric even without --precision; --turn fits a wall."""
    message = user_error("compare", "--variant", "x: cs_birds=2", "--metric", "nope.metric")
    assert "unknown metric 'nope.metric'" in message and "mean_score.dealer" in message
    message = user_error("advise", "2258m2588p22558s9m", "--turn", "9999")
    assert "turn must be 0 to 56" in message and "got 9999" in message
