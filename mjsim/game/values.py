"""The turn engine's values: how a hand runs, as numbers the compiled engine reads.

Rule sets differ in how a hand runs by these values, never by which rule set is playing
(RULES.md §0.6 and each variant's deviations). A preset's ``[game]`` table sets them by
name, literally or from an option (``"$cs_multi_ron"``); :data:`ENGINE` lists each with
its allowed values and default, and its slot in ``GameRules.cfg`` is the upper-case name
(``cfg[MULTI_RON]``). Choice values are stored as their index in the choices.

>>> ENGINE["wall_end"]
(('empty', 'haidi', 'fenzhang'), 'empty')
>>> WALL_END, END_HAIDI, cfg_index("multi_win") == MULTI_WIN
(2, 1, True)
"""

from __future__ import annotations

#: name -> (allowed: a tuple of choices, or the type bool / int, default)
ENGINE: dict[str, tuple] = {
    # sizes, filled from the rule set's tiles and core (not from [game])
    "hand_size": (int, 13),
    "melds": (int, 4),
    # the end of the wall: a draw when it is empty, or Changsha's 海底 (§2.3.3)
    # or 分张 (§4.8): the reserve's last tiles dealt one a seat, each declared seat testing
    # its tile as a self-draw
    "wall_end": (("empty", "haidi", "fenzhang"), "empty"),
    "haidi_may_decline": (bool, False),
    # declaring ready (报听): none, optional, or required to win; with at least
    # declare_min_concealed concealed tiles; locked after it (declare_lock); a declared
    # hand that must take any win (declare_must_win)
    "declare": (("none", "optional", "required"), "none"),
    "declare_lock": (bool, False),
    "declare_min_concealed": (int, 0),
    "declare_must_win": (bool, False),
    # the dealer's dealt 14 tiles win without 报听 where it is required (天胡, §4.4)
    "declare_first_free": (bool, False),
    # 推出 (§4.4): a declared seat whose waits include a 对倒 may set one pair aside, and
    # then wins only on that pair's kind
    "push_pair": (bool, False),
    # a chow after which the claimer declares (吃听, §4.3) may be made on anyone's discard
    # and comes before pungs and kongs
    "ready_chow_any": (bool, False),
    # what passing a win bars: nothing; 过手 (no win on another's tile until one's own
    # discard), with the follow exception (§2.3.4); or the same kind until one's own draw
    "pass_bar": (("none", "guoshou", "same_kind"), "none"),
    "pass_follow_exception": (bool, False),
    # with the same-kind bar: declining a pung bars the kind too, and a barred kind may not
    # be punged either (§3.4)
    "pass_bar_pungs": (bool, False),
    # the discard order: free, or honours first (§3.4: follow the 上家's honour when it is a
    # single one held, else shed a single honour; wild kinds exempt)
    "discard_order": (("free", "honours_first"), "free"),
    # several win claims on one tile: the first in turn order (head bump), all, or the
    # largest hand (the first in turn order among equals)
    "multi_win": (("first", "all", "largest"), "first"),
    # wildcards: none, or the kind the deal pipeline's indicator makes wild, for every seat
    # and the whole hand (the rule set's wall turns the indicator); whether a wild kind may
    # be melded (chow, pung, kong) at all
    # or the reserve's indicator turned at the first 报听 (宝, §4.6), its kind and the next
    # wild only for a declared seat's self-draw (hidden from the other seats where
    # wild_hidden); a declared seat's draw of the fourth of a concealed triplet is wild
    # too where wild_fourth (大风); the indicator changes (换宝) when all usable wild tiles
    # are visible, or three (wild_change); a seat that declares with a wild kind among its
    # winning kinds wins at once where wild_on_ready (对宝, §4.11)
    "wild": (("none", "indicator", "declared_draw"), "none"),
    "wild_hidden": (bool, False),
    "wild_fourth": (("none", "concealed", "any"), "none"),
    "wild_change": (("never", "all_visible", "three_visible"), "never"),
    "wild_on_ready": (bool, False),
    # whether the kind after a 9 is the 1 of its suit (else a 9 indicator's kind alone)
    "wild_wraps": (bool, True),
    "wild_melds": (bool, True),
    # this many wild tiles held win by self-draw whatever the shape (三财神; 0: never)
    "wild_win": (int, 0),
    # filled from the rule set's core: a lone wild tile beside complete melds wins with any
    # self-drawn tile, even as a fifth copy (财神牛 / 财神单吊)
    "lone_wild": (bool, False),
    # a wild kind's tile won on from another player (a discard, a robbed kong): wild for
    # the winner too, or only its natural kind (§3.2: a discarded 财神 is the tile K), or
    # no win on it at all (§4.6: 别人打出的宝牌，不可以胡)
    "wild_discard": (("wild", "natural", "barred"), "wild"),
    # bonus tiles (flowers): this many set aside win at once (八花齐; 0: never), and whether
    # a win on a bonus tile's replacement is 杠上开花 as a kong's is
    "bonus_win": (int, 0),
    "bonus_gangkai": (bool, False),
    # who may be chowed: nobody, or the 上家
    "chow": (("none", "left"), "left"),
    # the next dealer: the first winner (the dealer again after a draw), or the dealer keeps
    # the deal after his win or a draw and it passes to his 下家 otherwise
    "rotation": (("winner", "dealer_keeps"), "winner"),
    # after several winners on one tile (rotation "winner"): the winner nearest the
    # discarder deals next, or his 下家
    "multi_next": (("nearest_winner", "nearest_winner_xiajia"), "nearest_winner"),
    # 定缺 (§1.8): no void suit, or each seat declares one before the dealer's first discard
    "void": (("none", "declared"), "none"),
    "void_first": (bool, False),
    "void_melds": (bool, True),
    # kongs: the replacement kong (补张), whether its replacement win is 杠上开花, the
    # opening kong (开杠, Changsha §2.3.2) and how many tiles it reveals
    "replacement_kong": (bool, True),
    "replacement_gangkai": (bool, False),
    "open_kong": (bool, False),
    "open_kong_tiles": (int, 2),
    # a concealed kong does not break 全求人
    "ckong_exposed": (bool, False),
    # 假将 (§2.3.3): the auxiliary families make a hand ready and win the situational wins
    "fake_pair": (bool, False),
    # Changsha's starting-hand and mid-game wins (§2.8, §2.9)
    "qishou": (bool, False),
    "qishou_eval": (("dealt", "before_first_discard"), "dealt"),
    "qishou_ends_hand": (bool, False),
    "mid_game": (bool, False),
    "mid_sixi_locked": (bool, False),
    # hands per game (the dealer rotates inside a game)
    "game_length": (int, 8),
    # filled from the wall (mjsim.walls.WallSpec): tiles kept back at the end of the
    # wall, the indicator mode of the deal pipeline and the wild kind's step from it; a
    # reserve that stays in place (reserve_replace > 0: the first replacement tiles come
    # from its slots 1 .. reserve_replace + 1 counted from the end, the indicator's slot
    # skipped, then from the live wall's end) or moves with the tail (0)
    "reserve": (int, 0),
    "reserve_replace": (int, 0),
    "indicator": (int, 0),
    "indicator_slot": (int, 0),
    "wild_step": (int, 0),
    # filled by the scoring model: families that score, payment source slots and where its
    # own record columns start
    "n_scoring": (int, 0),
    "src_win": (int, -1),
    "src_kong": (int, -1),
    "src_declare": (int, -1),
    "src_qishou": (int, -1),
    "src_mid": (int, -1),
    "src_baopai": (int, -1),
    "col_model": (int, 0),
    # the value below which a win is small (the value bot may pass it for a big one), and
    # the claims on one player's discards that make a liability (承包; 0: none; the engine
    # then tests each discarder's exact readiness, which the liability payments read)
    "decline_below": (int, 1),
    # the value bot's view of a ready hand's waits: each winning kind weighed by the units
    # its win is worth (weigh_waits; else the count of live winning tiles alone); the cost
    # (shanten + 1) from which the cautious bot folds under a threat (0: never)
    "weigh_waits": (bool, False),
    "fold_from": (int, 3),
    # what a win on a discard costs its discarder beyond what each other loser pays, in
    # 256ths of all the win pays (256: the discarder pays alone; 0: every loser pays alike):
    # the tuned player weighs its discards' danger by it
    "deal_in": (int, 256),
    # what a big win pays over a small one, in 256ths of what the rule text pays (256: as
    # written; changsha's cs_big_unit = 3 pays half): the tuned player weighs its big-win
    # features by it
    "big_worth": (int, 256),
    "feed_limit": (int, 0),
    "col_pay": (int, 0),
    "n_sources": (int, 0),
    "far_waits": (int, 0),
    # set by the run, not the rule set: whether the records get the readiness columns
    # (ready_*: the waits study reads them; a run that does not pays nothing for them)
    "readiness": (bool, False),
}

N_CFG = len(ENGINE)
#: values the configuration fills in from the rule set's tiles, wall and scoring model; a
#: preset's [game] table may not set them
DERIVED = frozenset(
    {
        "hand_size",
        "melds",
        "lone_wild",
        "reserve",
        "indicator",
        "indicator_slot",
        "wild_step",
        "n_scoring",
        "src_win",
        "src_kong",
        "src_declare",
        "src_qishou",
        "src_mid",
        "src_baopai",
        "col_model",
        "decline_below",
        "weigh_waits",
        "fold_from",
        "deal_in",
        "big_worth",
        "feed_limit",
        "col_pay",
        "n_sources",
        "qishou",
        "mid_game",
        "far_waits",
        "readiness",
    }
)


def deal_in(discarder: int, other: int) -> int:
    """The engine value ``deal_in`` of a win on a discard that its discarder pays
    ``discarder`` shares of and each of the two other losers ``other``.

    >>> deal_in(1, 0), deal_in(1, 1), deal_in(2, 1)
    (256, 0, 64)
    """
    return 256 * (discarder - other) // (discarder + 2 * other)


def cfg_index(name: str) -> int:
    """The slot of engine value ``name`` in ``GameRules.cfg``."""
    return list(ENGINE).index(name)


(
    HAND_SIZE,
    MELDS,
    WALL_END,
    HAIDI_MAY_DECLINE,
    DECLARE,
    DECLARE_LOCK,
    DECLARE_MIN_CONCEALED,
    DECLARE_MUST_WIN,
    DECLARE_FIRST_FREE,
    PUSH_PAIR,
    READY_CHOW_ANY,
    PASS_BAR,
    PASS_FOLLOW_EXCEPTION,
    PASS_BAR_PUNGS,
    DISCARD_ORDER,
    MULTI_WIN,
    WILD,
    WILD_HIDDEN,
    WILD_FOURTH,
    WILD_CHANGE,
    WILD_ON_READY,
    WILD_WRAPS,
    WILD_MELDS,
    WILD_WIN,
    LONE_WILD,
    WILD_DISCARD,
    BONUS_WIN,
    BONUS_GANGKAI,
    CHOW,
    ROTATION,
    MULTI_NEXT,
    VOID,
    VOID_FIRST,
    VOID_MELDS,
    REPLACEMENT_KONG,
    REPLACEMENT_GANGKAI,
    OPEN_KONG,
    OPEN_KONG_TILES,
    CKONG_EXPOSED,
    FAKE_PAIR,
    QISHOU,
    QISHOU_EVAL,
    QISHOU_ENDS_HAND,
    MID_GAME,
    MID_SIXI_LOCKED,
    GAME_LENGTH,
    RESERVE,
    RESERVE_REPLACE,
    INDICATOR,
    INDICATOR_SLOT,
    WILD_STEP,
    N_SCORING,
    SRC_WIN,
    SRC_KONG,
    SRC_DECLARE,
    SRC_QISHOU,
    SRC_MID,
    SRC_BAOPAI,
    COL_MODEL,
    DECLINE_BELOW,
    WEIGH_WAITS,
    FOLD_FROM,
    DEAL_IN,
    BIG_WORTH,
    FEED_LIMIT,
    COL_PAY,
    N_SOURCES,
    FAR_WAITS,
    READINESS,
) = range(N_CFG)

# choice codes (their index in ENGINE)
END_EMPTY, END_HAIDI, END_FENZHANG = range(3)
DECLARE_NONE, DECLARE_OPTIONAL, DECLARE_REQUIRED = range(3)
PASS_NONE, PASS_GUOSHOU, PASS_SAME_KIND = range(3)
MULTI_FIRST, MULTI_ALL, MULTI_LARGEST = range(3)
WILD_NONE, WILD_INDICATOR, WILD_DECLARED_DRAW = range(3)
CHANGE_NEVER, CHANGE_ALL, CHANGE_THREE = range(3)
FOURTH_NONE, FOURTH_CONCEALED, FOURTH_ANY = range(3)
ORDER_FREE, ORDER_HONOURS_FIRST = range(2)
DISCARD_WILD, DISCARD_NATURAL, DISCARD_BARRED = range(3)
CHOW_NONE, CHOW_LEFT = range(2)
ROT_WINNER, ROT_DEALER_KEEPS = range(2)
NEXT_WINNER, NEXT_XIAJIA = range(2)
VOID_NONE, VOID_DECLARED = range(2)
QS_DEALT, QS_BEFORE_DISCARD = range(2)
