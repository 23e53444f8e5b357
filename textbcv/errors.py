"""The one exception a user can cause, and how it is shown.

Every error that bad input can cause (a malformed file, an impossible
option) is an :class:`InputError`. The command line prints it as one line
``textbcv: error: FILE:LINE: message`` on stderr and exits with status 2.
"""

from __future__ import annotations

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

    Examples
    --------
    >>> str(InputError("expected 4 columns, found 3", file="eng.train", line=12))
    'eng.train:12: expected 4 columns, found 3'
    >>> str(InputError("--m must be at least 1, got 0"))
    '--m must be at least 1, got 0'
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

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
