"""The version of mjsim, in a module of its own so that any layer may read it.

>>> from mjsim.version import __version__
>>> __version__.count(".")
2
"""

__version__ = "0.1.0"
