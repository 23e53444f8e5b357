"""The one exception a user can cause, and how it is shown.

Every error that bad input can cause (a malformed file, an impossible
option) is an :class:`InputError`. The command line prints it as one line
``textbcv: error: FILE:LINE: message`` on stderr and exits with status 2.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["InputError", "warn"]


class InputError(ValueError):
    """Bad input: a malformed file or an impossible option.

    Parameters
    ----------
    message : str
        What is wrong, and where possible what would be right.
    file : str, optional
        The file the error is in.
    line : int, optional
        1-based line number in ``file``.
    param : str, optional
        The parameter whose value is wrong, when the message begins with its
        Python name (``m must be at least 1``): the command line renames it
        to its option (:meth:`renamed`), so that there is one validation.

    Examples
    --------
    >>> str(InputError("expected 4 columns, found 3", file="eng.train", line=12))
    'eng.train:12: expected 4 columns, found 3'
    >>> str(InputError("m must be at least 1, got 0", param="m"))
    'm must be at least 1, got 0'
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None, *, param: str | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.param = param

    def renamed(self, names: Mapping[str, str]) -> InputError:
        """This error with its parameter called as ``names`` calls it (the command line's option names).

        Examples
        --------
        >>> str(InputError("m must be at least 1, got 0", param="m").renamed({"m": "--m"}))
        '--m must be at least 1, got 0'
        """
        if self.param not in names or not self.message.startswith(self.param):
            return self
        return InputError(names[self.param] + self.message[len(self.param):], self.file, self.line)

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}:{self.line}: " if self.line is not None else f"{self.file}: "
        return where + self.message


def warn(message: str, file: str | None = None) -> None:
    """Print ``textbcv: warning: FILE: message`` on stderr: something the user must know, that is not an error.

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
