"""A rule set's options as the flat ``int64`` array the engine reads: rules are data.

Changsha (RULES.md §2) and generic (§1) play under one engine. Their differences are values
here, not branches in the engine: generic scoring is Changsha's formula with a unit of
``gen_win_pay``, no dealer bonus, no birds, no big wins and no cap; Changsha has no kong
payments and no 报听. Each ``CFG_*`` constant is an index into :attr:`GameConfig.cfg`.

>>> c = game_config(load_rules("changsha"))
>>> int(c.cfg[CFG_BIRDS]), int(c.cfg[CFG_CAP]), int(c.cfg[CFG_DEALER_BONUS])
(2, 6, 1)
>>> [ROLE_NAMES[r] for r in c.roles]
['small', 'qingyise', 'pengpeng', 'qidui', 'jiangyise', 'quanqiuren']
>>> int(game_config(load_rules("generic")).cfg[CFG_KONG_PAY])
1
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..evaluate import compile_rules
from ..kernels import qishou as Q
from ..kernels import shanten as K
from ..rules import RuleSet, RulesError, load_rules
from ..sim.walls import WallSpec

# --------------------------------------------------------------------------- family roles

#: what a winning family means for scoring; ``std_any`` is the engine's extra family
#: (any-pair standard shape), read only by the 假将 option
ROLE_NAMES = ("plain", "small", "qingyise", "pengpeng", "qidui", "jiangyise", "quanqiuren",
              "std_any")
R_PLAIN, R_SMALL, R_QINGYISE, R_PENGPENG, R_QIDUI, R_JIANGYISE, R_QQR, R_STD_ANY = range(8)
_CS_ROLES = {"standard": R_SMALL, "one_suit": R_QINGYISE, "all_pungs": R_PENGPENG,
             "seven_pairs": R_QIDUI, "all_258": R_JIANGYISE, "quanqiuren": R_QQR}

# --------------------------------------------------------------------------- cfg layout

_NAMES = (
    "MULTI_RON", "ALLOW_CHOW", "BUZHANG", "BUZHANG_GANGKAI", "OPEN_KONG", "KONG_OPEN_TILES",
    "KONG_STAY_READY", "LOCKED_SIXI", "HAIDI", "HAIDI_DECLINE", "GUOSHOU", "GUOSHOU_FOLLOW",
    "FAKE_PAIR", "QQR_SELFDRAW", "QQR_CKONG", "COMPOUND_SINGLE", "MULTI_GANGKAI_MUL", "BIRDS",
    "BIRD_MUL", "BIRD_ORIGIN_DEALER", "HAIDI_BIRD_TILE", "PIAO", "QS_ON", "QS_BEFORE_DISCARD",
    "QS_BINARY", "QS_REUSE_QUAD", "QS_YZH_MODE", "QS_ENABLED", "QS_DICE_BIRDS", "QS_ENDS_HAND",
    "MID_SIXI", "MID_LLS", "DEALER_BONUS", "DEALER_WINNER_ONLY", "DEALER_PER_UNIT", "CAP",
    "RON_ALL_PAY", "SMALL_UNIT", "BIG_UNIT", "PAO_BIG", "BIG_WINS", "ROTATION_KEEP", "BAOTING",
    "BAOTING_PAY", "BAOTING_LOCK", "KONG_PAY", "HAND_SIZE", "MELDS", "HAS_FLOWERS",
)
N_CFG = len(_NAMES)
CFG_MULTI_RON, CFG_ALLOW_CHOW, CFG_BUZHANG, CFG_BUZHANG_GANGKAI, CFG_OPEN_KONG, \
    CFG_KONG_OPEN_TILES, CFG_KONG_STAY_READY, CFG_LOCKED_SIXI, CFG_HAIDI, CFG_HAIDI_DECLINE, \
    CFG_GUOSHOU, CFG_GUOSHOU_FOLLOW, CFG_FAKE_PAIR, CFG_QQR_SELFDRAW, CFG_QQR_CKONG, \
    CFG_COMPOUND_SINGLE, CFG_MULTI_GANGKAI_MUL, CFG_BIRDS, CFG_BIRD_MUL, CFG_BIRD_ORIGIN_DEALER, \
    CFG_HAIDI_BIRD_TILE, CFG_PIAO, CFG_QS_ON, CFG_QS_BEFORE_DISCARD, CFG_QS_BINARY, \
    CFG_QS_REUSE_QUAD, CFG_QS_YZH_MODE, CFG_QS_ENABLED, CFG_QS_DICE_BIRDS, CFG_QS_ENDS_HAND, \
    CFG_MID_SIXI, CFG_MID_LLS, CFG_DEALER_BONUS, CFG_DEALER_WINNER_ONLY, CFG_DEALER_PER_UNIT, \
    CFG_CAP, CFG_RON_ALL_PAY, CFG_SMALL_UNIT, CFG_BIG_UNIT, CFG_PAO_BIG, CFG_BIG_WINS, \
    CFG_ROTATION_KEEP, CFG_BAOTING, CFG_BAOTING_PAY, CFG_BAOTING_LOCK, CFG_KONG_PAY, \
    CFG_HAND_SIZE, CFG_MELDS, CFG_HAS_FLOWERS = range(N_CFG)


@dataclass(frozen=True)
class GameConfig:
    """Everything the engine reads for one rule set.

    ``families`` are the rule set's winning families (plus the ``std_any`` row when
    ``cs_fake_pair`` is on), ``roles`` their :data:`ROLE_NAMES` codes; ``tables`` the shanten tables; ``spec`` the wall.
    """

    rules: RuleSet
    cfg: np.ndarray
    families: np.ndarray
    roles: np.ndarray
    kind_mask: np.ndarray
    honour_mask: np.ndarray
    tables: tuple
    spec: WallSpec


def _changsha(rules: RuleSet, cfg: np.ndarray) -> None:
    o = rules.options
    qs = Q.qishou_config(rules)
    cap = o["cs_cap"]
    values = {
        CFG_MULTI_RON: o["cs_multi_ron"], CFG_ALLOW_CHOW: True,
        CFG_BUZHANG: o["cs_allow_buzhang"], CFG_BUZHANG_GANGKAI: o["cs_buzhang_is_gangkai"],
        CFG_OPEN_KONG: o["cs_open_kong"], CFG_KONG_OPEN_TILES: o["cs_kong_open_tiles"],
        CFG_KONG_STAY_READY: o["cs_kong_must_stay_ready"], CFG_LOCKED_SIXI: o["cs_locked_sixi"],
        CFG_HAIDI: True, CFG_HAIDI_DECLINE: o["cs_haidi_may_decline"],
        CFG_GUOSHOU: o["cs_guoshou"], CFG_GUOSHOU_FOLLOW: o["cs_guoshou_follow_exception"],
        CFG_FAKE_PAIR: o["cs_fake_pair"], CFG_QQR_SELFDRAW: o["cs_qqr_allow_selfdraw"],
        CFG_QQR_CKONG: o["cs_qqr_allow_concealed_kong"],
        CFG_COMPOUND_SINGLE: o["cs_compound"] == "single",
        CFG_MULTI_GANGKAI_MUL: o["cs_multi_gangkai"] == "mul", CFG_BIRDS: o["cs_birds"],
        CFG_BIRD_MUL: o["cs_bird_mode"] == "mul",
        CFG_BIRD_ORIGIN_DEALER: o["cs_bird_origin"] == "dealer",
        CFG_HAIDI_BIRD_TILE: o["cs_haidi_bird"] == "winning_tile", CFG_PIAO: o["cs_piao"],
        CFG_QS_ON: any(qs.enabled), CFG_QS_BEFORE_DISCARD: qs.eval == "before_first_discard",
        CFG_QS_BINARY: qs.binary, CFG_QS_REUSE_QUAD: qs.reuse_quad,
        CFG_QS_YZH_MODE: qs.yizhihua_mode,
        CFG_QS_ENABLED: sum(1 << i for i, on in enumerate(qs.enabled) if on),
        CFG_QS_DICE_BIRDS: o["cs_qs_birds"] == "dice", CFG_QS_ENDS_HAND: o["cs_qs_ends_hand"],
        CFG_MID_SIXI: o["cs_mid_sixi"], CFG_MID_LLS: o["cs_mid_liuliushun"],
        CFG_DEALER_BONUS: 1, CFG_DEALER_WINNER_ONLY: o["cs_dealer_bonus_scope"] == "winner_only",
        CFG_DEALER_PER_UNIT: o["cs_dealer_bonus_per_unit"], CFG_CAP: 0 if cap is None else cap,
        CFG_RON_ALL_PAY: o["cs_ron_payers"] == "all", CFG_SMALL_UNIT: o["cs_small_unit"],
        CFG_BIG_UNIT: o["cs_big_unit"], CFG_PAO_BIG: o["cs_pao_big_wins"], CFG_BIG_WINS: True,
        CFG_ROTATION_KEEP: False,
    }
    if o["cs_outside_birds"]:
        raise RulesError("cs_outside_birds (外围马, birds for spectators) is not modelled by the "
                         "game engine; set it to false")
    if o["cs_penalty_mode"] != "lenient":
        raise RulesError("cs_penalty_mode only matters with an error model, and the bots make no "
                         "errors; keep it 'lenient' for play")
    for k, v in values.items():
        cfg[k] = int(v)


def _generic(rules: RuleSet, cfg: np.ndarray) -> None:
    o = rules.options
    values = {
        CFG_MULTI_RON: o["gen_multi_ron"], CFG_ALLOW_CHOW: True, CFG_BUZHANG: True,
        CFG_SMALL_UNIT: o["gen_win_pay"], CFG_BIG_UNIT: o["gen_win_pay"],
        CFG_DEALER_PER_UNIT: True, CFG_ROTATION_KEEP: True, CFG_BAOTING: o["gen_baoting"],
        CFG_BAOTING_PAY: o["gen_baoting_pay"], CFG_BAOTING_LOCK: o["gen_baoting_lock"],
        CFG_KONG_PAY: o["gen_kong_pay"],
    }
    for k, v in values.items():
        cfg[k] = int(v)


_SCORING = (("cs_birds", _changsha, _CS_ROLES), ("gen_win_pay", _generic, {}))


@lru_cache(maxsize=32)
def game_config(rules: RuleSet | str) -> GameConfig:
    """The engine's view of ``rules`` (Changsha, its presets, or generic).

    >>> game_config(load_rules("caishen16"))
    Traceback (most recent call last):
    ...
    mjsim.rules.model.RulesError: the game engine plays changsha (and its presets) and generic; \
caishen16 is not supported yet
    """
    rules = load_rules(rules) if isinstance(rules, str) else rules
    for marker, fill, role_map in _SCORING:
        if marker in rules.options:
            break
    else:
        raise RulesError(f"the game engine plays changsha (and its presets) and generic; "
                         f"{rules.id} is not supported yet")
    cfg = np.zeros(N_CFG, dtype=np.int64)
    fill(rules, cfg)
    cfg[CFG_HAND_SIZE] = rules.hand_size
    cfg[CFG_MELDS] = rules.melds
    cfg[CFG_HAS_FLOWERS] = rules.has_flowers
    comp = compile_rules(rules)
    families = comp.families
    roles = [role_map.get(f.form, R_PLAIN) for f in rules.families]
    if cfg[CFG_FAKE_PAIR]:
        std_any = np.array([[K.STANDARD, K.PAIR_ANY, 0, 0, 0, 0]], dtype=np.int64)
        families = np.concatenate([families, std_any])
        roles.append(R_STD_ANY)
    roles = np.array(roles, dtype=np.int64)
    return GameConfig(rules=rules, cfg=cfg, families=families, roles=roles,
                      kind_mask=comp.kind_mask, honour_mask=comp.honour_mask,
                      tables=comp.tables, spec=WallSpec.from_rules(rules))
