"""The game engine, bots and scoring (RULES.md §0.6, §1, §2): full hands of play in Numba."""
