"""The ``mjsim`` console script and ``python -m mjsim``: the command line
(:func:`mjsim.cli.main`) imported behind a Ctrl-C guard.

Loading the verbs imports numba, pandas and the kernels, about a second; Ctrl-C then is
one line and status 130, not a ``KeyboardInterrupt`` traceback. Only the interpreter's
start and ``import mjsim`` (kept light: about as long as the interpreter's start) come
before the guard.
"""

import os
import sys

#: the line of Ctrl-C before a verb has started
NOT_STARTED = "interrupted before the command started: nothing written; run it again to go on"


def main() -> None:
    """Import the command line and run it; Ctrl-C before a verb starts: one line, 130."""
    try:
        from .cli import main as run

        run()
    except KeyboardInterrupt:  # before a verb started
        sys.stderr.write(f"error: {NOT_STARTED}\n")
        _exit_interrupted()
    except SystemExit as done:
        if done.code == 130:  # a verb's Ctrl-C, its line said
            _exit_interrupted()
        raise


def _exit_interrupted() -> None:
    """Exit with status 130 at once. A KeyboardInterrupt that passed through code the
    interpreter ran by ``PyRun_*`` (some compiled modules' imports) makes it end itself by
    SIGINT at exit, whatever the status (seen: -2 after the one line)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(130)


if __name__ == "__main__":
    main()
