"""Drivers: dealt-hand and played-hand datasets, chunked parallel runs, Parquet with resume.

The walls themselves are dealt by :mod:`mjsim.walls`, below the game engine."""
