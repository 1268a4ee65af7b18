"""Estimators with standard errors and intervals, exact deal-time probabilities, and the
studies that draw their samples through :mod:`mjsim.sim` (起手胡 odds, deal odds, waits,
rule-change comparisons)."""
