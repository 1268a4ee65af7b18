"""The ``mjsim`` command line: one Typer app, one module per group of verbs.

Conventions shared by every verb: ``--json`` prints one JSON document on stdout and
nothing else; errors in the user's input print one line naming what is wrong and exit
with status 2; long runs show one rich progress bar on stderr (:mod:`mjsim.cli.output`).
"""

from __future__ import annotations

import sys

import typer

from ..version import __version__
from . import (
    advise_cmd,
    compare_cmd,
    hand_cmd,
    play_cmd,
    rules_cmd,
    score_cmd,
    study_cmd,
    train_cmd,
    waits_cmd,
)

app = typer.Typer(
    name="mjsim",
    help="Numbers for Chinese regional mahjong: hand odds, readiness, rule-change studies.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(rules_cmd.app, name="rules")
hand_cmd.register(app)
study_cmd.register(app)
play_cmd.register(app)
compare_cmd.register(app)
waits_cmd.register(app)
advise_cmd.register(app)
score_cmd.register(app)
train_cmd.register(app)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mjsim {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """mjsim: shanten, waits, 起手胡 odds and rule studies for Chinese mahjong."""


#: the longest usage error passed on whole
LONGEST = 200


def main() -> None:
    """The console script (through :mod:`mjsim.__main__`). A bad option or value is one
    ``error:`` line and status 2, as every other input error; Ctrl-C in a verb is one line
    (saying how to resume where parts are on disk) and status 130, before it a
    ``KeyboardInterrupt`` for :mod:`mjsim.__main__` to say."""
    from .output import Interrupted, fail

    try:
        status = app(standalone_mode=False)
    except typer.TyperException as error:  # click's exceptions, as typer carries them
        if type(error).__name__ == "NoArgsIsHelpError":  # a verb group alone: its help
            error.show()
            sys.exit(error.exit_code)
        from ..rules.model import quote

        message = error.format_message()  # click's, which may hold a whole argument
        fail(message if len(message) <= LONGEST else f"{message[:LONGEST]}… ({quote(message)})")
        sys.exit(2)
    except Interrupted as error:  # in a verb: what is kept and how to go on
        fail(str(error))
        sys.exit(130)
    except typer.Abort:
        status = 130
    if status == 130:  # typer's for Ctrl-C before the verb: mjsim.__main__ says it
        raise KeyboardInterrupt
    sys.exit(status if isinstance(status, int) else 0)
