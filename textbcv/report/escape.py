"""LaTeX text for pdflatex: what ``report.tex`` and the sections' tables write their words with."""

from __future__ import annotations

__all__ = ["tex_escape"]

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
            "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
            ">": r"\textgreater{}", "`": r"\textasciigrave{}", "|": r"\textbar{}"}
_SYMBOLS = {"×": r"$\times$", "≥": r"$\geq$", "≤": r"$\leq$", "±": r"$\pm$", "—": "---", "–": "--", "−": r"$-$",
            "α": r"$\alpha$", "ρ": r"$\rho$", "ν": r"$\nu$", "χ": r"$\chi$", "²": r"\textsuperscript{2}",
            "·": r"$\cdot$", "†": r"$^\dagger$", "’": "'", "‘": "`", "“": "``", "”": "''", "…": r"\ldots{}",
            "→": r"$\rightarrow$", "←": r"$\leftarrow$", "\u00a0": "~"}
#: Greek letters written with a one-digit index in the report's words (ρ1, ρ2): typeset as a subscript.
_SUBSCRIPTED = {"ρ": r"$\rho_{}$"}


def tex_escape(text: str) -> str:
    """``text`` as LaTeX for pdflatex: specials escaped, known symbols as math, other non-Latin-1 characters as ``?``.

    Parameters
    ----------
    text : str

    Returns
    -------
    str

    Examples
    --------
    >>> print(tex_escape("ρ1 = 0.2, ρ2 ≥ ¼ & 5%"))
    $\\rho_1$ = 0.2, $\\rho_2$ $\\geq$ ¼ \\& 5\\%
    """
    out = []
    text = str(text)
    for i, ch in enumerate(text):
        if ch in _SUBSCRIPTED and text[i + 1:i + 2].isdigit() and (i + 2 == len(text) or not text[i + 2].isdigit()):
            out.append(_SUBSCRIPTED[ch].format(text[i + 1]))  # ρ1 -> $\rho_1$ (the digit is skipped below)
            continue
        if ch.isdigit() and i > 0 and text[i - 1] in _SUBSCRIPTED and out and out[-1].endswith(f"_{ch}$"):
            continue
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif ch in _SYMBOLS:
            out.append(_SYMBOLS[ch])
        elif ord(ch) < 128 or 0xA0 <= ord(ch) <= 0xFF:
            out.append(ch)
        else:
            out.append("?")
    return "".join(out)
