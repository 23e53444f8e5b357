"""The ``textbcv`` command: one module per subcommand, each with ``register(subparsers)``, listed in :data:`COMMANDS`.

User errors end with one line ``textbcv: error: ...`` on stderr and exit status 2, options named as the
command spells them (:func:`option_name`).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from collections.abc import Sequence

from textbcv import __version__
from textbcv.errors import InputError

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
        The command line after ``textbcv``; None reads ``sys.argv[1:]``.

    Returns
    -------
    int
        The subcommand's status (0 on success); 2 after a user error, 130 when interrupted, 0 on a broken pipe.
        With ``argv`` None (the process's own command line, which ends when this returns) the objects left are
        frozen out of the garbage collector, so that the exit does not walk them all (a tenth of ``textbcv
        score``'s time).
    """
    if argv is None:
        try:
            return main(sys.argv[1:])
        finally:
            gc.freeze()
    argv = list(argv)
    command = argv[0] if argv and argv[0] in COMMANDS else None
    try:
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
    except KeyboardInterrupt:
        print("textbcv: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
