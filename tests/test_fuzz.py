"""The quick fuzz profile (issue 43): random hands, rule sets and overrides into the public
API, random command lines over every verb and option of the app (found at run time, so a
verb added later is fuzzed too), and the gaps the fuzzing found, one regression test each.

The generators and checks are ``tests/fuzzing.py``'s; ``benchmarks/fuzz.py`` runs them at
length. Here a verb outside ``fuzzing.CHEAP`` always gets a bad value, so nothing long runs
(no engine is played, which a fresh clone would compile).
"""

from __future__ import annotations

import random
import shlex
import tempfile
from pathlib import Path

import fuzzing
import pytest
from hypothesis import HealthCheck, given, settings

import mjsim
from mjsim.decomposition import MAX_WILDS, decompose
from mjsim.evaluate import HandError
from mjsim.rules import RulesError, load_rules


def quick(examples: int) -> settings:
    """The quick profile's settings: ``examples`` inputs, the same on every run (the long
    profile varies them by seed), no deadline (a first call loads numba's cache)."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@quick(1500)
@given(fuzzing.API_CALLS)
def test_api_gives_a_result_or_a_one_line_value_error(call: fuzzing.Call) -> None:
    fuzzing.check_api(call)


@quick(300)
@given(fuzzing.sized_hands(complete=True))
def test_is_win_iff_shanten_minus_one_on_complete_hands(hand) -> None:
    fuzzing.check_win_property(*hand)


@quick(300)
@given(fuzzing.sized_hands(complete=False))
def test_is_win_iff_shanten_minus_one_on_random_hands(hand) -> None:
    fuzzing.check_win_property(*hand)


@quick(250)
@given(fuzzing.command_lines(quick=True))
def test_command_lines_exit_0_or_2_with_one_error_line(argv: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="mjsim-fuzz-") as cwd:
        outcome = fuzzing.run_cli(argv, Path(cwd))
    assert not fuzzing.problems(outcome), (shlex.join(argv), fuzzing.problems(outcome), outcome)


def test_every_verb_is_found_and_fuzzed() -> None:
    """The app's verbs as the fuzzer finds them, and every one drawn in 2,000 lines."""
    assert {"shanten", "play", "compare", "advise", "rules show", "waits-study"} <= set(
        fuzzing.VERBS
    )
    drawn = {
        " ".join(line[:2]) if line[0] == "rules" else line[0]
        for line in (
            fuzzing.command_line(random.Random(i), fuzzing.VERBS, quick=True) for i in range(2000)
        )
    }
    assert drawn == set(fuzzing.VERBS)


def test_the_checks_catch_what_they_look_for() -> None:
    """A traceback, a status of 1, two error lines and a stray file are each caught."""
    ok = fuzzing.Outcome(["x"], 2, "", "error: bad\n")
    assert fuzzing.problems(ok) == []
    for bad in (
        fuzzing.Outcome(["x"], 1, "", "error: bad\n"),
        fuzzing.Outcome(["x"], 2, "", "error: bad\nerror: worse\n"),
        fuzzing.Outcome(["x"], 0, "Traceback (most recent call last):\n", ""),
        fuzzing.Outcome(["x"], 0, "", "", strays=["stray.json"]),
        fuzzing.Outcome(["x"], None, "", "", crash="KeyError: 1\n"),
    ):
        assert fuzzing.problems(bad), bad


def test_run_cli_sees_a_file_written_outside_out(tmp_path: Path) -> None:
    """``rules show`` writes nothing; a ``deal`` into the current folder's ``data`` does,
    outside ``out/``, and is caught."""
    assert fuzzing.run_cli(["rules", "show", "changsha"], tmp_path).strays == []
    outcome = fuzzing.run_cli(["deal", "-n", "2", "-q", "--out", "data"], tmp_path)
    assert outcome.status == 0 and outcome.strays and outcome.strays[0].startswith("data")


# ---------------------------------------------------------------- what the fuzzing found


@pytest.mark.parametrize("rules", [5, None, b"changsha", 1.5])
def test_a_rule_set_that_is_no_string_is_a_rules_error(rules) -> None:
    with pytest.raises(RulesError, match=r"a rule set is an id \(a string\) or a RuleSet, got"):
        mjsim.shanten("123456789m123p9s", rules=rules)


def test_parse_hand_checks_its_rules_argument() -> None:
    with pytest.raises(RulesError, match="got int"):
        mjsim.parse_hand("123m", 5)


@pytest.mark.parametrize("value", ["1,3,nan", "1,3,inf", "[1, 3, 1e999]"])
def test_an_option_takes_finite_numbers_only(value: str) -> None:
    from mjsim.rules import parse_override

    with pytest.raises(RulesError, match="cai_tier_mult must be a list of 3 numbers >= 1"):
        parse_override(f"cai_tier_mult={value}", "caishen16")
    with pytest.raises(RulesError, match="cai_tier_mult must be"):
        load_rules("caishen16", cai_tier_mult=(1, 3, float("nan")))


def test_long_rule_set_and_option_names_are_shortened_in_messages() -> None:
    for call in (
        lambda: load_rules("x" * 5000),
        lambda: load_rules("changsha", **{"y" * 5000: 1}),
    ):
        with pytest.raises(RulesError) as info:
            call()
        assert len(str(info.value)) < fuzzing.MAX_MESSAGE and "(5,000 characters)" in str(
            info.value
        )


def test_decompose_refuses_more_wildcards_than_it_can_try() -> None:
    """Six wildcard tiles took 70 s and eleven hours; four are the most a rule set deals."""
    hand = "1m2m3m4m5m6m7m8m9m1p1p1p2p2p"
    assert decompose(hand, wild="1m2m3m4m")  # four: tried
    with pytest.raises(HandError, match=f"at most {MAX_WILDS} wildcard"):
        decompose(hand, wild="1m2m3m4m5m6m7m8m9m1p2p")


def test_extra_arguments_are_shortened_in_the_error_line(tmp_path: Path) -> None:
    outcome = fuzzing.run_cli(["shanten", "123m", "x" * 5000], tmp_path)
    lines = outcome.stderr.splitlines()
    assert outcome.status == 2 and len(lines) == 1 and len(lines[0]) < fuzzing.MAX_MESSAGE


def test_a_long_override_without_equals_is_shortened() -> None:
    from mjsim.rules import parse_override

    with pytest.raises(RulesError, match=r"\(3,000 characters\) is not of the form key=value"):
        parse_override("x" * 3000, "changsha")


def test_public_decompose_stays_a_function_after_the_cli_is_loaded() -> None:
    """``mjsim.decompose`` is the function, even once the command line imported its module
    (a module of the same name would have replaced it on the package)."""
    import mjsim
    import mjsim.cli

    assert callable(mjsim.decompose) and mjsim.decompose("123m456p789s1122z +2z")
