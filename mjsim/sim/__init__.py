"""Drivers: walls, dealing, chunked parallel runs, Parquet datasets with resume."""
