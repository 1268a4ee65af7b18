"""Estimators with standard errors and intervals, and exact deal-time probabilities."""
