"""Wall shuffling and the opening deal, on arrays: the kernels behind ``mjsim.walls``.

Wall: a Fisher–Yates shuffle (Durstenfeld's in-place form, Knuth TAOCP vol. 2 Algorithm P)
of the tile multiset, going down from the last slot: step ``j = T-1 .. 1`` swaps slot ``j``
with slot ``below(key, index, j, j + 1)`` (:mod:`mjsim.kernels.rng`). The result is read
head first (normal draws from slot 0 up) and tail last (replacements from slot ``T-1`` down),
as RULES.md §0.4 models the wall; the break point set by the dice has no statistical effect.

Deal (RULES.md §1.2, §1.8): ``hand_size // 4`` rounds of four tiles each, seats 0–3 in turn
(seat 0 is the dealer); then ``hand_size % 4`` rounds of one tile each; then the dealer's
extra tile (the 跳牌: for 13 tiles the dealer holds slots 48 and 52, seats 1–3 slots 49–51;
for 16 tiles the dealer's 17th is slot 64). Then, in seat order from the dealer, each seat's
bonus tiles are set aside and replaced from the tail, again while a replacement is bonus
(§5.1). Then the wildcard indicator, where one is turned at the deal, is the next tail tile,
turned again while it is bonus (§3.2, §5.9); such turned bonus tiles are dead. The first
draws of seats 1–3 are a look-ahead that consumes nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .rng import below_seeded, index_seed

#: indicator modes: none; turned from the tail at the deal; kept face down in the reserve
IND_NONE, IND_TAIL, IND_RESERVED = 0, 1, 2
#: deals per unit of parallel work (results do not depend on it)
CHUNK = 512


def next_kinds() -> np.ndarray:
    """``int8[34]``: the kind after each kind; 9 → 1 in a suit, 1z→2z→3z→4z→1z, 5z→6z→7z→5z.

    >>> nxt = next_kinds()
    >>> int(nxt[8]), int(nxt[13]), int(nxt[30]), int(nxt[33])
    (0, 14, 27, 31)
    """
    nxt = np.empty(34, dtype=np.int8)
    for k in range(27):
        nxt[k] = k // 9 * 9 + (k % 9 + 1) % 9
    for k in range(27, 31):
        nxt[k] = 27 + (k - 27 + 1) % 4
    for k in range(31, 34):
        nxt[k] = 31 + (k - 31 + 1) % 3
    return nxt


@njit(cache=True, inline="always")
def shuffle_into(multiset, key, index, wall):
    """Write wall ``index`` of stream ``key`` into ``wall`` (a copy of ``multiset``, shuffled)."""
    seed = index_seed(key, index)
    for j in range(wall.size):
        wall[j] = multiset[j]
    for j in range(wall.size - 1, 0, -1):
        r = below_seeded(seed, j, j + 1)
        t = wall[j]
        wall[j] = wall[r]
        wall[r] = t


@njit(cache=True, parallel=True)
def walls_kernel(multiset, key, start, out):
    """Fill ``out[i]`` (``int8[n, T]``) with wall ``start + i``."""
    n, size = out.shape
    n_chunks = (n + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        wall = np.empty(size, dtype=np.int8)
        for i in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            shuffle_into(multiset, key, start + i, wall)
            for j in range(size):
                out[i, j] = wall[j]


def deal_seats(hand_size: int, dealer_extra: int = 1) -> np.ndarray:
    """``int8[4 * hand_size + dealer_extra]``: the seat that receives each head slot.

    >>> seats = deal_seats(13)
    >>> seats[:8].tolist(), seats[48:].tolist()
    ([0, 0, 0, 0, 1, 1, 1, 1], [0, 1, 2, 3, 0])
    """
    seats = [seat for _ in range(hand_size // 4) for seat in range(4) for _k in range(4)]
    seats += [seat for _ in range(hand_size % 4) for seat in range(4)]
    seats += [0] * dealer_extra
    return np.array(seats, dtype=np.int8)


@njit(cache=True, inline="always")
def deal_one(
    wall, is_bonus, seats, reserved, ind_mode, wild_step, nxt, pending, hands, bonus, first_draw, i
):
    """Deal one shuffled ``wall`` into row ``i`` of ``hands`` (``uint8[n, 4, 34]``), ``bonus``
    (``uint8[n, 4]``) and ``first_draw`` (``int8[n, 4]``); ``seats`` is :func:`deal_seats`,
    ``pending`` int64[4] scratch. Returns ``(indicator, wild, live_left, tail_used)``.

    Rows are written by index, not through views: a view per deal would touch the shared
    array's reference count from every thread.
    """
    size = wall.size
    for seat in range(4):
        for k in range(34):
            hands[i, seat, k] = 0
    for seat in range(4):
        pending[seat] = 0
    head = seats.size
    for p in range(head):
        t = wall[p]
        if is_bonus[t]:
            pending[seats[p]] += 1
        else:
            hands[i, seats[p], t] += 1
    tail = size - 1
    for seat in range(4):
        bonus[i, seat] = pending[seat]
        while pending[seat] > 0:
            t = wall[tail]
            tail -= 1
            if is_bonus[t]:
                bonus[i, seat] += 1
            else:
                hands[i, seat, t] += 1
                pending[seat] -= 1
    indicator = -1
    wild = -1
    if ind_mode == IND_TAIL:
        t = wall[tail]
        tail -= 1
        while is_bonus[t]:
            t = wall[tail]
            tail -= 1
        indicator = t
        wild = t
        for _ in range(wild_step):
            wild = nxt[wild]
    first_draw[i, 0] = -1
    look_head = head
    look_tail = tail
    for seat in range(1, 4):
        t = wall[look_head]
        look_head += 1
        while is_bonus[t]:
            t = wall[look_tail]
            look_tail -= 1
        first_draw[i, seat] = t
    return indicator, wild, tail + 1 - head - reserved, size - 1 - tail


@njit(cache=True, parallel=True)
def deal_kernel(
    multiset,
    is_bonus,
    seats,
    reserved,
    ind_mode,
    wild_step,
    nxt,
    kaibao_on,
    wall_key,
    dice_key,
    start,
    hands,
    bonus,
    first_draw,
    indicator,
    wild,
    dice,
    kaibao,
    live_left,
    tail_used,
):
    """Deals ``start .. start + n - 1`` into the ``n``-row output arrays, in parallel chunks.

    ``seats`` is :func:`deal_seats`, ``nxt`` :func:`next_kinds`; the dice are counters 0 and 1
    of ``dice_key``.
    """
    n = hands.shape[0]
    n_chunks = (n + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        wall = np.empty(multiset.size, dtype=np.int8)
        pending = np.zeros(4, dtype=np.int64)
        for i in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
            index = start + i
            shuffle_into(multiset, wall_key, index, wall)
            ind, wd, live, used = deal_one(
                wall,
                is_bonus,
                seats,
                reserved,
                ind_mode,
                wild_step,
                nxt,
                pending,
                hands,
                bonus,
                first_draw,
                i,
            )
            indicator[i] = ind
            wild[i] = wd
            live_left[i] = live
            tail_used[i] = used
            seed = index_seed(dice_key, index)
            d1 = below_seeded(seed, 0, 6) + 1
            d2 = below_seeded(seed, 1, 6) + 1
            dice[i, 0] = d1
            dice[i, 1] = d2
            kaibao[i] = kaibao_on and (d1 == d2 or (d1 == 1 and d2 == 4) or (d1 == 4 and d2 == 1))
