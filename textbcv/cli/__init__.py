"""The ``textbcv`` command: one module per subcommand, each with ``register(subparsers)``, listed in :data:`COMMANDS`.

User errors end with one line ``textbcv: error: ...`` on stderr and exit status 2, options named as the
command spells them (:func:`option_name`).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import shlex
import signal
import sys
import threading
from collections.abc import Iterator, Sequence

from textbcv import __version__
from textbcv.errors import InputError, Interrupted

__all__ = ["main", "COMMANDS", "ArgumentParser", "option_name", "OPTION_NAMES"]

#: Subcommand modules, in the order ``textbcv --help`` lists them.
COMMANDS: tuple[str, ...] = ("stats", "split", "score", "test", "compare", "evaluate", "report", "plan", "calibrate",
                             "components", "demo")

#: Python parameters whose option in a command is not ``--`` + the name with ``-`` for ``_`` (command → name → option).
OPTION_NAMES: dict[str, dict[str, str]] = {"evaluate": {"systems": "--system"}, "test": {"chunk_type": "--type"}}


def option_name(param: str, command: str | None = None) -> str:
    """The option of ``command`` that sets the Python parameter ``param``.

    Parameters
    ----------
    param : str
        A Python parameter of the API, as an error names it.
    command : str or None
        The subcommand, for its exceptions in :data:`OPTION_NAMES`; None for the general rule.

    Returns
    -------
    str

    Examples
    --------
    >>> option_name("max_iterations"), option_name("m"), option_name("systems", "evaluate")
    ('--max-iterations', '--m', '--system')
    """
    return OPTION_NAMES.get(command or "", {}).get(param, "--" + param.replace("_", "-"))


def _in_option_words(error: InputError, command: str | None) -> InputError:
    """``error`` with the Python parameters it names called by ``command``'s options."""
    return error.renamed({p: option_name(p, command) for p in error.params})


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line and exit status 2.

    Parameters
    ----------
    *args, **kwargs
        As :class:`argparse.ArgumentParser`.
    """

    def error(self, message: str):  # noqa: D401 - argparse API
        """Raise argparse's error as an :class:`~textbcv.errors.InputError` instead of printing the usage and exiting.

        Parameters
        ----------
        message : str
            argparse's message.

        Raises
        ------
        InputError
            Always, with ``message``.
        """
        raise InputError(message)


def build_parser(commands: Sequence[str] = COMMANDS) -> ArgumentParser:
    """The ``textbcv`` parser with the subcommands ``commands``.

    Parameters
    ----------
    commands : sequence of str
        Names of the subcommand modules to register (from :data:`COMMANDS`).

    Returns
    -------
    ArgumentParser
        Its parsed namespace's ``func`` runs the chosen subcommand.
    """
    parser = ArgumentParser(
        prog="textbcv",
        description="Block-regularized m×2 cross-validation for comparing sequence taggers.",
        epilog="Documentation in the textbcv source tree: docs/method.md (the method), docs/reading-the-report.md "
        "(the report, section by section), docs/formats.md (every file format).",
    )
    parser.add_argument("--version", action="version", version=f"textbcv {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    sub.required = True
    for name in commands:
        importlib.import_module(f"textbcv.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``textbcv`` with ``argv`` and return the exit status.

    Parameters
    ----------
    argv : sequence of str or None
        The command line after ``textbcv``; None reads ``sys.argv[1:]`` (the program).

    Returns
    -------
    int
        The subcommand's status (0 on success); 2 after a user error, 128 + the signal when stopped by SIGINT
        (Ctrl-C: 130), SIGTERM (143) or SIGHUP (129), 0 on a broken pipe. With ``argv`` None (the process's own
        command line, which ends when this returns) the objects left are frozen out of the garbage collector, so
        that the exit does not walk them all (a tenth of ``textbcv score``'s time).

    Raises
    ------
    KeyboardInterrupt
        When stopped and called with ``argv`` (from Python: a test suite, a script), after the message, so that
        Ctrl-C stops the caller too.
    """
    if argv is None:
        try:
            return _main(sys.argv[1:], program=True)
        finally:
            gc.freeze()
    return _main(list(argv), program=False)


def _main(argv: list[str], program: bool) -> int:
    """:func:`main` on ``argv``; ``program``: this is the process's own command line (an interrupt returns a status
    instead of re-raising)."""
    command = argv[0] if argv and argv[0] in COMMANDS else None
    try:
        with _signals_interrupt():
            # `textbcv score FILE` imports only what `score` needs (start-up time is part of every run)
            parser = build_parser([argv[0]] if argv and argv[0] in COMMANDS else COMMANDS)
            args = parser.parse_args(argv)
            status = args.func(args)
        for note in getattr(args, "notes", ()):  # e.g. the corpus format detected
            print(note, file=sys.stderr)
        return int(status or 0)
    except InputError as e:
        print(f"textbcv: error: {_in_option_words(e, command)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        with contextlib.suppress(OSError):  # a closed terminal (SIGHUP) may take stderr with it
            print(_interrupted(e, argv), file=sys.stderr)
        if not program:
            raise
        return 128 + (e.signum if isinstance(e, Interrupted) else signal.SIGINT)
    except BrokenPipeError:
        return 0


#: Signals that stop a run the way Ctrl-C does (where the platform has them).
STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))


@contextlib.contextmanager
def _signals_interrupt() -> Iterator[None]:
    """While the command runs, SIGTERM and SIGHUP raise :class:`Interrupted` as Ctrl-C does, so that every clean-up
    (workers, command systems, partial files) runs; a signal the caller ignores (``nohup``) stays ignored, and a
    second SIGTERM or SIGHUP does not cut the clean-up of the first short (a second Ctrl-C does)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stopping: list[int] = []

    def stop(signum, frame):
        if stopping and signum != signal.SIGINT:
            return
        stopping.append(signum)
        raise Interrupted(signum)

    before = {}
    for s in STOP_SIGNALS:
        if signal.getsignal(s) is not signal.SIG_IGN:
            before[s] = signal.signal(s, stop)
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def _interrupted(e: KeyboardInterrupt, argv: Sequence[str]) -> str:
    """The line printed when a run is stopped: the signal, what was kept, and the command that continues."""
    stopped = e if isinstance(e, Interrupted) else Interrupted()
    line = f"textbcv: interrupted ({stopped.name})"
    if stopped.kept:
        line += f": {stopped.kept}"
    if stopped.resumable:
        again = [*argv] if "--resume" in argv else [*argv, "--resume"]
        line += f"; to continue it: {shlex.join(['textbcv', *again])}"
    return line


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
