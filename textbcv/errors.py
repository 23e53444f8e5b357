"""The one exception a user can cause (:class:`InputError`), and warnings.

The command line prints an InputError as ``textbcv: error: FILE:LINE: message`` on stderr and exits with status 2.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Mapping, Sequence

__all__ = ["InputError", "Interrupted", "warn", "did_you_mean"]


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest of ``choices`` to a mistyped ``word``, else ``""``.

    Parameters
    ----------
    word : str
    choices : sequence of str

    Returns
    -------
    str

    Examples
    --------
    >>> did_you_mean("iobse", ["iob2", "iobes", "bmes"]), did_you_mean("zzz", ["iob2"])
    ("; did you mean 'iobes'?", '')
    """
    import difflib

    close = difflib.get_close_matches(str(word).lower(), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


class Interrupted(KeyboardInterrupt):
    """A run stopped from outside: Ctrl-C, or SIGTERM / SIGHUP (which the command line turns into the same orderly
    path as Ctrl-C), with what the run kept.

    Parameters
    ----------
    signum : int
        The signal (``signal.SIGINT`` for Ctrl-C).
    kept : str
        What the run kept and where, as a clause (``"3 of 8 folds are kept in run"``); ``""`` when nothing.
    resumable : bool
        True when ``--resume`` continues the run.

    Examples
    --------
    >>> import signal
    >>> e = Interrupted(signal.SIGTERM, "3 of 8 folds are kept in run", resumable=True)
    >>> e.name, isinstance(e, KeyboardInterrupt), str(e)
    ('SIGTERM', True, 'interrupted (SIGTERM): 3 of 8 folds are kept in run')
    """

    def __init__(self, signum: int = signal.SIGINT, kept: str = "", resumable: bool = False):
        self.signum, self.kept, self.resumable = int(signum), kept, resumable
        super().__init__(f"interrupted ({self.name})" + (f": {kept}" if kept else ""))

    @property
    def name(self) -> str:
        """The signal's name (``"SIGINT"``, ``"SIGTERM"``, ...)."""
        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"


class InputError(ValueError):
    """Bad input: a malformed file or an impossible option.

    Parameters
    ----------
    message : str
    file : str, optional
    line : int, optional
        1-based line number in ``file``.
    param : str or sequence of str, optional
        The parameter(s) the message names, marked ``{name}`` where not at its start, so :meth:`renamed` can
        call them by their command-line names.

    Examples
    --------
    >>> str(InputError('{variant}="rho" needs {rho1} and {rho2}', param=("variant", "rho1", "rho2")))
    'variant="rho" needs rho1 and rho2'
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None, *,
                 param: str | Sequence[str] | None = None):
        self.param = param
        self.template = message
        self.message = self._words(lambda p: p, python=True)
        super().__init__(self.message)
        self.file = file
        self.line = line

    @property
    def params(self) -> tuple[str, ...]:
        """The parameters the message names (none when it names none)."""
        if self.param is None:
            return ()
        return (self.param,) if isinstance(self.param, str) else tuple(self.param)

    def _words(self, name_of, python: bool = False) -> str:
        """The message with each parameter called ``name_of(param)``."""
        text = self.template
        for p in self.params:
            mark = "{" + p + "}"
            if mark not in text:  # the message begins with the parameter's name
                if not python and re.match(rf"{re.escape(p)}(?![\w-])", text):
                    text = name_of(p) + text[len(p):]
                continue
            if python:
                text = text.replace(mark, p)
                continue

            def given(match: re.Match, option: str = name_of(p)) -> str:
                value = match.group(1)
                return option if value == "True" else f"{option} {value.strip(chr(34) + chr(39))}"

            text = re.sub(re.escape(mark) + r"""=(True\b|"[^"]*"|'[^']*'|[^\s,;)]+)""", given, text)
            text = text.replace(mark, name_of(p))
        return text

    def renamed(self, names: Mapping[str, str]) -> InputError:
        """This error with its parameters called as ``names`` calls them (``name=value`` becomes ``option value``).

        Parameters
        ----------
        names : mapping of str to str
            Python parameter → its name in the message (e.g. ``{"m": "--m"}``).

        Returns
        -------
        InputError
            ``self`` when the message does not change, else a new error without ``param``.

        Examples
        --------
        >>> e = InputError('{variant}="rho" needs {rho1} and {rho2}', param=("variant", "rho1", "rho2"))
        >>> str(e.renamed({"variant": "--variant", "rho1": "--rho1", "rho2": "--rho2"}))
        '--variant rho needs --rho1 and --rho2'
        """
        message = self._words(lambda p: names.get(p, p))
        if message == self.message:
            return self
        return type(self)(message, self.file, self.line)

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}:{self.line}: " if self.line is not None else f"{self.file}: "
        return where + self.message


def warn(message: str, file: str | None = None) -> None:
    """Print ``textbcv: warning: FILE: message`` on stderr.

    Parameters
    ----------
    message : str
    file : str or None

    Examples
    --------
    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     warn("193 of its 3250 sentences also occur in the corpus", file="eng.testa")
    >>> err.getvalue()
    'textbcv: warning: eng.testa: 193 of its 3250 sentences also occur in the corpus\\n'
    """
    import sys

    where = f"{file}: " if file else ""
    print(f"textbcv: warning: {where}{message}", file=sys.stderr, flush=True)
