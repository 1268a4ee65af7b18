"""Rule presets: every rule set loads, matches the option tables of RULES.md, and rejects
unknown, ill-typed and contradictory options with a message that names them."""

from __future__ import annotations

import hashlib
import json
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mjsim.rules import (
    RULE_SETS,
    RulesError,
    RuleSet,
    list_rules,
    load_rules,
    loader,
    parse_override,
)

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs" / "RULES.md"

# The option table of each rule set: where it starts in RULES.md, and which presets carry it.
SPEC_TABLES = {
    "### 1.7": ("generic",),
    "**Options (dingque).**": ("dingque",),
    "### 2.12": ("changsha", "changsha_classic_1980s", "changsha_transition_1990"),
    "### 3.7": ("caishen16",),
    "### 4.10": ("hongzhong112", "ne_alt"),
    "### 4.11": ("ne_alt",),
    "### 5.11": ("shanghai_qhp", "shanghai_baida", "shanghai_qiaoma"),
}


def spec_rows(marker: str) -> list[dict[str, str]]:
    """Rows of the first Markdown table after ``marker``, as {header: cell}."""
    lines = RULES_MD.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(marker))
    table = []
    for line in lines[start + 1 :]:
        if line.startswith("|"):
            table.append([cell.strip() for cell in line.strip("|").split("|")])
        elif table:
            break
    header, _, *rows = table
    return [dict(zip(header, row, strict=True)) for row in rows]


def spec_value(token: str):
    words = {"true": True, "false": False, "on": True, "off": False, "null": None}
    if token in words:
        return words[token]
    return int(token) if token.isdigit() else token


def spec_options(marker: str) -> dict[str, tuple[object, set[str] | None]]:
    """{option: (default, source tokens or None)} from one table of RULES.md."""
    found = {}
    for row in spec_rows(marker):
        option_column = next(key for key in row if key.startswith("Option"))
        names = re.findall(r"`([a-z]+_[a-z0-9_]+)`", row[option_column])
        if "Default" in row:
            defaults = re.findall(r"[\w.]+", re.sub(r"\([^)]*\)", "", row["Default"]))
        else:  # §4.11 writes "`option` (default)"
            defaults = re.findall(r"\((\w+)\)", row[option_column])
        values = [spec_value(token) for token in defaults]
        if len(names) == 1 and len(values) > 1:
            values = [tuple(values)] if all(type(v) is int for v in values) else values[:1]
        if len(values) == 1:
            values = values * len(names)
        assert len(values) == len(names), row
        sources = None
        if "Source" in row:
            sources = set(re.findall(r"\w+", re.sub(r"\([^)]*\)", "", row["Source"])))
        for name, value in zip(names, values, strict=True):
            found[name] = (value, sources)
    return found


needs_spec = pytest.mark.skipif(not RULES_MD.exists(), reason="RULES.md is not beside the repo")


# ---------------------------------------------------------------- presets load and agree


def test_preset_files_are_the_rule_sets():
    files = {path.stem for path in loader.PRESET_DIR.glob("*.toml")}
    assert files == set(RULE_SETS)
    assert [rules.id for rules in list_rules()] == list(RULE_SETS)


@pytest.mark.parametrize("rule_set_id", RULE_SETS)
def test_preset_loads_and_is_consistent(rule_set_id):
    rules = load_rules(rule_set_id)
    assert rules.id == rule_set_id
    assert rules.hand_size == 3 * rules.melds + 1
    assert rules.families
    assert set(rules.options) == {option.name for option in rules.schema}
    assert all(rules[option.name] == option.default for option in rules.schema)
    assert rules.overrides == {}
    assert json.loads(json.dumps(rules.to_dict()))["id"] == rule_set_id
    for option in rules.schema:
        assert re.search(r"[\u4e00-\u9fff]", option.name_zh), option.name
        assert option.meaning and option.source
        if option.source == "mjsim":
            assert option.note, f"{option.name}: an option mjsim adds must say why"


def test_same_option_name_means_same_option_everywhere():
    seen = {}
    for rules in list_rules():
        for option in rules.schema:
            shape = (option.type, option.choices, option.meaning, option.name_zh)
            assert seen.setdefault(option.name, shape) == shape, option.name


@needs_spec
@pytest.mark.parametrize("marker", SPEC_TABLES)
def test_every_spec_option_is_in_its_presets(marker):
    names = set(spec_options(marker))
    assert names
    for rule_set_id in SPEC_TABLES[marker]:
        assert names <= set(load_rules(rule_set_id).options), rule_set_id


@needs_spec
def test_options_beyond_the_spec_are_marked_mjsim():
    spec_names = {rule_set_id: set() for rule_set_id in RULE_SETS}
    for marker, rule_set_ids in SPEC_TABLES.items():
        for rule_set_id in rule_set_ids:
            spec_names[rule_set_id] |= set(spec_options(marker))
    for rules in list_rules():
        extra = {option.name for option in rules.schema} - spec_names[rules.id]
        assert all(rules.option(name).source == "mjsim" for name in extra), rules.id


@needs_spec
@pytest.mark.parametrize("marker", SPEC_TABLES)
def test_spec_defaults_and_sources(marker):
    rules = load_rules(SPEC_TABLES[marker][0])
    for name, (default, sources) in spec_options(marker).items():
        option = rules.option(name)
        assert option.default == default, name
        if sources is not None:
            assert set(option.source.split("/")) == sources, name


def test_added_options_are_marked():
    changsha = load_rules("changsha")
    added = {option.name for option in changsha.schema if option.source == "mjsim"}
    assert {"cs_tiles", "cs_small_win_pair", "cs_ron_payers", "cs_big_unit"} <= added


# ---------------------------------------------------------------- tiles and families


@pytest.mark.parametrize(
    "rule_set_id, tile_set, n_kinds, has_flowers, bonus",
    [
        ("generic", 136, 34, False, ()),
        ("dingque", 108, 27, False, ()),
        ("changsha", 108, 27, False, ()),
        ("changsha_classic_1980s", 136, 34, False, ()),
        ("changsha_transition_1990", 136, 34, False, ()),
        ("caishen16", 136, 34, False, ()),
        ("hongzhong112", 112, 28, False, ()),
        ("ne_alt", 136, 34, False, ()),
        ("shanghai_qhp", 144, 34, True, ()),
        ("shanghai_baida", 144, 34, True, (31, 32, 33)),
        ("shanghai_qiaoma", 144, 34, True, (31, 32, 33)),
    ],
)
def test_tile_sets(rule_set_id, tile_set, n_kinds, has_flowers, bonus):
    rules = load_rules(rule_set_id)
    assert (rules.tile_set, len(rules.kinds), rules.has_flowers) == (tile_set, n_kinds, has_flowers)
    assert rules.bonus_kinds == bonus
    assert rules.kinds == tuple(sorted(rules.kinds))


def test_tile_sets_follow_options():
    assert load_rules("hongzhong112").kinds == (*range(27), 33)
    assert len(load_rules("dingque", dq_tiles=136).kinds) == 34
    flowers = load_rules("generic", gen_flowers=True)
    assert (flowers.tile_set, flowers.has_flowers) == (144, True)
    assert load_rules("changsha", cs_tiles=136).tile_set == 136
    assert load_rules("shanghai_qhp", sh_dragons_are_flowers=True).bonus_kinds == (31, 32, 33)


def forms(rules: RuleSet) -> list[str]:
    return [family.form for family in rules.families]


@pytest.mark.parametrize(
    "rule_set_id, expected",
    [
        ("generic", ["standard", "seven_pairs"]),
        ("dingque", ["standard", "seven_pairs"]),
        ("changsha", ["standard", "one_suit", "all_pungs", "seven_pairs", "all_258", "quanqiuren"]),
        ("changsha_classic_1980s", ["standard", "one_suit", "all_pungs", "seven_pairs"]),
        ("caishen16", ["standard", "eight_pairs"]),
        ("hongzhong112", ["standard"]),
        ("ne_alt", ["standard"]),
        ("shanghai_qhp", ["all_pungs", "one_suit", "mixed_one_suit", "all_honours"]),
        ("shanghai_baida", ["standard"]),
        ("shanghai_qiaoma", ["standard"]),
    ],
)
def test_families(rule_set_id, expected):
    assert forms(load_rules(rule_set_id)) == expected


def test_family_details():
    changsha = load_rules("changsha")
    assert changsha.families[0].pair == "258"
    assert all(family.pair == "any" for family in changsha.families[1:])
    assert changsha.families[3].quads and changsha.families[4].irregular
    assert load_rules("changsha_classic_1980s").families[0].pair == "any"
    assert load_rules("changsha_transition_1990").families[0].pair == "258"
    assert load_rules("hongzhong112").families[0].constraint == "hz"
    assert load_rules("ne_alt").families[0].constraint == "ne"
    assert all(family.void_suit for family in load_rules("dingque").families)
    caishen = load_rules("caishen16")
    assert (caishen.melds, caishen.hand_size, caishen.wild) == (5, 16, "caishen")
    assert [load_rules(i).wild for i in ("hongzhong112", "shanghai_baida", "generic")] == [
        "bao",
        "baida",
        "none",
    ]


def test_family_conditions_and_references():
    assert forms(load_rules("generic", gen_seven_pairs=False)) == ["standard"]
    assert not load_rules("generic", gen_7p_quad_as_two_pairs=False).families[1].quads
    assert load_rules("changsha", cs_small_win_pair="any").families[0].pair == "any"
    assert "all_258" not in forms(load_rules("changsha", cs_jiangyise=False))
    qhp = load_rules("shanghai_qiaoma", sh_qm_hand_types="qhp")
    assert forms(qhp) == forms(load_rules("shanghai_qhp"))
    assert not load_rules("shanghai_qhp", sh_fengyise_any_shape=False).families[3].irregular


def test_historical_presets():
    classic = load_rules("changsha_classic_1980s")
    assert classic["cs_preset"] == "classic_1980s"
    assert (classic["cs_compound"], classic["cs_birds"], classic["cs_ron_payers"]) == (
        "single",
        0,
        "all",
    )
    assert (classic["cs_small_unit"], classic["cs_big_unit"]) == (1, 3)
    assert not any(classic[f"cs_qs_{name}"] for name in ("banban", "sixi", "liuliushun", "queyise"))
    transition = load_rules("changsha_transition_1990")
    assert transition["cs_preset"] == "transition_1990"
    assert (transition["cs_ron_payers"], transition["cs_big_unit"]) == ("discarder", 6)
    assert set(classic.options) == set(transition.options) == set(load_rules("changsha").options)
    for value, rule_set_id in classic.option("cs_preset").presets:
        assert load_rules(rule_set_id)["cs_preset"] == value


def test_shanghai_defaults_per_game():
    # §5.11: dragons are flowers in 百搭 and 敲麻; §6.6 S14: no cap, 开宝, 荒番 or 承包 there.
    qhp = load_rules("shanghai_qhp")
    assert not qhp["sh_dragons_are_flowers"] and qhp["sh_lezi"] == 20 and qhp["sh_baopai"]
    for rule_set_id in ("shanghai_baida", "shanghai_qiaoma"):
        rules = load_rules(rule_set_id)
        assert rules["sh_dragons_are_flowers"] and rules["sh_lezi"] is None
        assert not any(rules[name] for name in ("sh_kaibao", "sh_huangfan", "sh_baopai"))


# ---------------------------------------------------------------- overrides and identity


def test_overrides():
    rules = load_rules("changsha", cs_birds=4, cs_bird_mode="mul", cs_cap=None, cs_piao=2)
    assert (rules["cs_birds"], rules["cs_bird_mode"], rules["cs_cap"], rules["cs_piao"]) == (
        4,
        "mul",
        None,
        2,
    )
    assert rules.overrides == {"cs_birds": 4, "cs_bird_mode": "mul", "cs_cap": None, "cs_piao": 2}
    assert repr(load_rules("changsha", cs_birds=4)) == "RuleSet('changsha', cs_birds=4)"
    assert load_rules("changsha")["cs_birds"] == 2  # the cached preset is untouched
    again = load_rules(rules, cs_birds=0)
    assert (again["cs_birds"], again["cs_bird_mode"]) == (0, "mul")
    assert rules.with_options(cs_birds=0) == again
    assert load_rules("caishen16", cai_tier_mult=[1, 3, 9])["cai_tier_mult"] == (1, 3, 9)
    assert load_rules("shanghai_qhp", sh_money_per_flower=2)["sh_money_per_flower"] == 2.0


def test_options_are_read_only():
    rules = load_rules("changsha")
    with pytest.raises(TypeError):
        rules.options["cs_birds"] = 4
    with pytest.raises(AttributeError):
        rules.id = "generic"


@pytest.mark.parametrize(
    "text, rule_set, expected",
    [
        ("cs_birds=4", None, ("cs_birds", 4)),
        ("cs_guoshou=off", "changsha", ("cs_guoshou", False)),
        ("cs_guoshou=Yes", None, ("cs_guoshou", True)),
        ("gen_flowers=1", "generic", ("gen_flowers", True)),
        ("cs_cap=null", None, ("cs_cap", None)),
        ("cs_cap=None", None, ("cs_cap", None)),
        ("cs_cap = 8", None, ("cs_cap", 8)),
        ("cs_bird_mode=mul", None, ("cs_bird_mode", "mul")),
        ("cai_tier_mult=1,2,8", None, ("cai_tier_mult", (1, 2, 8))),
        ("cai_tier_mult=[1, 2.5, 4]", "caishen16", ("cai_tier_mult", (1, 2.5, 4))),
        ("sh_money_per_flower=0.5", None, ("sh_money_per_flower", 0.5)),
    ],
)
def test_parse_override(text, rule_set, expected):
    assert parse_override(text, rule_set) == expected


def test_options_hash():
    rules = load_rules("changsha")
    assert re.fullmatch(r"[0-9a-f]{16}", rules.options_hash)
    canonical = json.dumps(
        {"id": "changsha", "options": dict(rules.options)}, sort_keys=True, separators=(",", ":")
    )
    assert rules.options_hash == hashlib.sha256(canonical.encode()).hexdigest()[:16]
    assert load_rules("changsha").options_hash == rules.options_hash
    assert load_rules("changsha", cs_birds=4).options_hash != rules.options_hash
    assert (
        load_rules("changsha", cs_birds=4).with_options(cs_birds=2).options_hash
        == rules.options_hash
    )
    hashes = {r.options_hash for r in list_rules()}
    assert len(hashes) == len(RULE_SETS)


def test_options_hash_is_the_same_in_another_process():
    code = (
        "from mjsim.rules import load_rules; print(load_rules('changsha', cs_birds=4).options_hash)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "123", "PATH": ""},
    )
    assert out.stdout.strip() == load_rules("changsha", cs_birds=4).options_hash


def test_equality_hash_and_pickle():
    rules = load_rules("changsha", cs_birds=4)
    assert rules == load_rules("changsha").with_options(cs_birds=4)
    assert rules != load_rules("changsha")
    assert len({rules, load_rules("changsha", cs_birds=4), load_rules("changsha")}) == 2
    copy = pickle.loads(pickle.dumps(rules))
    assert copy == rules and copy.families == rules.families and copy.tile_set == 108


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "name, match",
    [
        ("changsah", r"unknown rule set 'changsah'; did you mean: changsha\? \(valid: generic, "),
        ("nothing_like_it", r"unknown rule set 'nothing_like_it' \(valid: .*shanghai_qiaoma\)"),
    ],
)
def test_unknown_rule_set(name, match):
    with pytest.raises(RulesError, match=match):
        load_rules(name)


def test_unknown_option():
    with pytest.raises(
        RulesError,
        match=r"^unknown option 'cs_brids' for rule set 'changsha'; did you mean: cs_birds\?$",
    ):
        load_rules("changsha", cs_brids=4)
    with pytest.raises(
        RulesError, match=r"unknown option 'zzz' .*; valid options: cs_allow_buzhang"
    ):
        load_rules("changsha", zzz=1)
    with pytest.raises(RulesError, match=r"unknown option 'cs_birds' for rule set 'generic'"):
        load_rules("generic", cs_birds=2)
    with pytest.raises(RulesError, match=r"did you mean: cs_birds"):
        load_rules("changsha")["cs_brids"]
    with pytest.raises(RulesError, match=r"unknown option 'cs_brids' for any rule set"):
        parse_override("cs_brids=4")
    assert isinstance(RulesError("x"), ValueError)


@pytest.mark.parametrize(
    "rule_set_id, overrides, match",
    [
        ("changsha", {"cs_birds": 3}, r"^cs_birds must be one of 0, 2, 4 \(got 3\)$"),
        ("changsha", {"cs_birds": True}, r"cs_birds must be one of 0, 2, 4 \(got true\)"),
        (
            "changsha",
            {"cs_bird_mode": "mull"},
            r"cs_bird_mode must be one of add, mul \(got 'mull'\)",
        ),
        ("changsha", {"cs_guoshou": "yes"}, r"cs_guoshou must be true or false \(got 'yes'\)"),
        ("changsha", {"cs_piao": -1}, r"cs_piao must be an integer >= 0 \(got -1\)"),
        ("changsha", {"cs_cap": 0}, r"cs_cap must be an integer >= 1 or null \(got 0\)"),
        ("changsha", {"cs_cap": 2.5}, r"cs_cap must be an integer >= 1 or null \(got 2.5\)"),
        ("caishen16", {"cai_tier_mult": [1, 2]}, r"cai_tier_mult must be a list of 3 numbers"),
        (
            "generic",
            {"gen_baoting_pay": "1"},
            r"gen_baoting_pay must be an integer >= 0 \(got '1'\)",
        ),
    ],
)
def test_bad_values(rule_set_id, overrides, match):
    with pytest.raises(RulesError, match=match):
        load_rules(rule_set_id, **overrides)


@pytest.mark.parametrize(
    "text, match",
    [
        ("cs_birds=3", r"cs_birds must be one of 0, 2, 4 \(got 3\)"),
        ("cs_guoshou=maybe", r"cs_guoshou must be true or false \(got 'maybe'\)"),
        ("cs_cap=lots", r"cs_cap must be an integer >= 1 or null \(got 'lots'\)"),
        ("cai_tier_mult=[1,2", r"cai_tier_mult must be a list of 3 numbers"),
        ("cs_birds", r"not of the form key=value"),
    ],
)
def test_bad_override_text(text, match):
    with pytest.raises(RulesError, match=match):
        parse_override(text)


@pytest.mark.parametrize(
    "rule_set_id, overrides, match",
    [
        (
            "changsha",
            {"cs_buzhang_is_gangkai": True, "cs_allow_buzhang": False},
            r"^cs_buzhang_is_gangkai = true needs cs_allow_buzhang = true \(it is false\)$",
        ),
        (
            "changsha",
            {"cs_guoshou_follow_exception": True, "cs_guoshou": False},
            r"cs_guoshou_follow_exception = true needs cs_guoshou = true \(it is false\)",
        ),
        (
            "changsha",
            {"cs_haidi_bird": "winning_tile", "cs_birds": 0},
            r"cs_haidi_bird = winning_tile needs cs_birds to be nonzero \(it is 0\)",
        ),
        (
            "changsha_classic_1980s",
            {"cs_qqr_allow_selfdraw": True},
            r"cs_qqr_allow_selfdraw = true needs cs_quanqiuren = true \(it is false\)",
        ),
        ("caishen16", {"cai_dingdi": 1}, r"cai_dingdi = 1 needs cai_maidi to be nonzero"),
        ("ne_alt", {"neb_need_cha": False, "neb_special_kongs": True}, r"needs neb_need_cha"),
    ],
)
def test_contradictions(rule_set_id, overrides, match):
    with pytest.raises(RulesError, match=match):
        load_rules(rule_set_id, **overrides)


def test_contradiction_resolved_by_setting_both():
    assert not load_rules("generic", gen_baoting=False)["gen_baoting"]
    assert load_rules("changsha", cs_haidi_bird="winning_tile")["cs_birds"] == 2


def test_era_option_names_its_rule_set():
    with pytest.raises(
        RulesError, match=r"cs_preset = classic_1980s is the rule set 'changsha_classic_1980s'"
    ):
        load_rules("changsha", cs_preset="classic_1980s")
    assert load_rules("changsha_classic_1980s", cs_preset="classic_1980s")["cs_tiles"] == 136


def bad_preset(top: str = "", core: str = 'families = [{ form = "standard" }]', **option) -> str:
    """A preset file ``bad.toml``; keyword arguments are the fields of one option ``x_y``."""
    fields = {"default": 1, "type": '"int"', "meaning": '"m"', "name_zh": '"中"', "source": '"ext"'}
    fields.update(option)
    options = "".join(f"{key} = {value}\n" for key, value in fields.items() if value is not None)
    return (
        'id = "bad"\nname = "Bad"\nname_zh = "坏"\nsection = "0"\nsource = "000"\nsummary = "s"\n'
        f"{top}\n[tiles]\nset = 136\n[core]\n{core}\n[options.x_y]\n{options}"
    )


BAD_PRESETS = {
    "unknown key": (bad_preset(top="zzz = 1"), r"unknown keys \['zzz'\]"),
    "not toml": (bad_preset(top="zzz ="), r"Invalid value"),
    "unknown parent": (bad_preset(top='extends = "changsah"'), r"unknown rule set 'changsah'"),
    "missing metadata": (bad_preset(top='summary = ""').replace('summary = "s"\n', ""), "summary"),
    "unknown form": (
        bad_preset(core='families = [{ form = "nine_gates" }]'),
        r"family form 'nine_gates' is not one of standard",
    ),
    "unknown family key": (
        bad_preset(core='families = [{ form = "standard", colour = "red" }]'),
        r"bad family",
    ),
    "bad reference": (
        bad_preset(core='melds = "$nope"\nfamilies = [{ form = "standard" }]'),
        r"unknown option 'nope'",
    ),
    "bad condition": (
        bad_preset(core='families = [{ form = "standard", when = "x_z" }]'),
        r"unknown option 'x_z' for rule set 'bad'; valid options: x_y$",
    ),
    "no family active": (
        bad_preset(core='families = [{ form = "standard", when = "x_y=2" }]'),
        r"no winning family is active",
    ),
    "melds do not fit": (
        bad_preset(core='melds = 5\nfamilies = [{ form = "standard" }]'),
        r"5 melds do not fit a 13-tile hand",
    ),
    "bad type": (bad_preset(type='"number"'), r"type 'number' is not one of"),
    "bad source": (bad_preset(source='"wiki"'), r"source 'wiki'"),
    "bad default": (bad_preset(default=3, choices="[1, 2]"), r"x_y must be one of 1, 2 \(got 3\)"),
    "missing name_zh": (bad_preset(name_zh=None), r"option x_y: name_zh is missing"),
    "unknown option key": (bad_preset(colour='"red"'), r"option x_y: unknown keys \['colour'\]"),
}


@pytest.mark.parametrize("case", BAD_PRESETS)
def test_bad_preset_files(case, tmp_path, monkeypatch):
    text, match = BAD_PRESETS[case]
    (tmp_path / "bad.toml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(loader, "PRESET_DIR", tmp_path)
    monkeypatch.setattr(loader, "RULE_SETS", ("bad",))
    loader.preset.cache_clear()
    try:
        with pytest.raises(RulesError, match=r"^bad\.toml: .*" + match):
            load_rules("bad")
    finally:
        loader.preset.cache_clear()
