"""LaTeX text for pdflatex: what ``report.tex`` and the sections' tables write their words with."""

from __future__ import annotations

import unicodedata

__all__ = ["tex_escape", "unset_characters"]

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
            "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
            ">": r"\textgreater{}", "`": r"\textasciigrave{}", "|": r"\textbar{}"}
_SYMBOLS = {"×": r"$\times$", "≥": r"$\geq$", "≤": r"$\leq$", "±": r"$\pm$", "—": "---", "–": "--", "−": r"$-$",
            "²": r"\textsuperscript{2}", "³": r"\textsuperscript{3}", "·": r"$\cdot$", "†": r"$^\dagger$", "’": "'",
            "‘": "`", "“": "``", "”": "''", "…": r"\ldots{}", "→": r"$\rightarrow$", "←": r"$\leftarrow$",
            "↔": r"$\leftrightarrow$", "\u00a0": "~", "≈": r"$\approx$", "≠": r"$\neq$", "≡": r"$\equiv$",
            "∈": r"$\in$", "∉": r"$\notin$", "∩": r"$\cap$", "∪": r"$\cup$", "∞": r"$\infty$", "√": r"$\surd$",
            "∑": r"$\sum$", "∫": r"$\int$", "∝": r"$\propto$", "⌊": r"$\lfloor$", "⌋": r"$\rfloor$",
            "⌈": r"$\lceil$", "⌉": r"$\rceil$", "ᵀ": r"$^\top$", "′": r"$'$", "•": r"\textbullet{}",
            "⁻": r"$^{-}$", "⁺": r"$^{+}$", "⁽": r"$^{(}$", "⁾": r"$^{)}$", "ʲ": r"$^{j}$",
            **{chr(0x2070 + d): f"$^{{{d}}}$" for d in range(10) if d not in (1, 2, 3)},  # ¹ ² ³ are Latin-1
            **{chr(0x2080 + d): f"$_{{{d}}}$" for d in range(10)}}
#: Greek letters as math by their names; the capitals LaTeX has no macro for look like Latin ones (Α -> A).
_GREEK_AS_LATIN = {"Alpha": "A", "Beta": "B", "Epsilon": "E", "Zeta": "Z", "Eta": "H", "Iota": "I", "Kappa": "K",
                   "Mu": "M", "Nu": "N", "Omicron": "O", "Rho": "P", "Tau": "T", "Chi": "X", "omicron": "o"}


def _greek(ch: str) -> str:
    """A Greek letter (U+0391 to U+03C9) as pdflatex sets it: ``$\\delta$``, ``$\\Delta$``, ``A``."""
    name = unicodedata.name(ch).split()[-1].capitalize().replace("Lamda", "Lambda")
    name = name if ch.isupper() else name.lower()
    return _GREEK_AS_LATIN.get(name, rf"$\{name}$")


_SYMBOLS.update({chr(c): _greek(chr(c)) for c in range(0x391, 0x3CA) if c != 0x3A2})  # U+03A2 is unassigned
_SYMBOLS["ς"] = r"$\varsigma$"
#: Combining accents (after NFD) as the LaTeX accent commands that T1 fonts set: š -> \v{s}, Ĉ -> \^{C}.
_ACCENTS = {"\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=", "\u0306": "u", "\u0307": ".",
            "\u0308": '"', "\u030a": "r", "\u030b": "H", "\u030c": "v", "\u0327": "c", "\u0328": "k"}
#: The same accents over math (μ̂ -> $\hat{\mu}$).
_MATH_ACCENTS = {"\u0300": "grave", "\u0301": "acute", "\u0302": "hat", "\u0303": "tilde", "\u0304": "bar",
                 "\u0306": "breve", "\u0307": "dot", "\u0308": "ddot", "\u030a": "mathring", "\u030c": "check"}
#: Greek letters written with a one-digit index in the report's words (ρ1, ρ2): typeset as a subscript.
_SUBSCRIPTED = {"ρ": r"$\rho_{}$"}


def _accented(ch: str) -> str | None:
    """A Latin letter with accents as LaTeX accent commands (``\\v{s}``), or None when ``ch`` is no such letter."""
    base, marks = unicodedata.normalize("NFD", ch)[0], unicodedata.normalize("NFD", ch)[1:]
    if not marks or not base.isascii() or not base.isalpha() or any(m not in _ACCENTS for m in marks):
        return None
    out = base
    for mark in marks:
        out = f"\\{_ACCENTS[mark]}{{{out}}}"
    return out


def unset_characters(text: str) -> list[str]:
    """The characters of ``text`` that :func:`tex_escape` cannot set and writes as ``?`` (CJK and the like), in order.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of str
        Each such character once, in the order of first appearance.

    Examples
    --------
    >>> unset_characters("Δ = 0.2 for 北京 and š")
    ['北', '京']
    """
    seen: dict[str, None] = {}
    for i, ch in enumerate(str(text)):
        if ch in _ACCENTS and i > 0:
            continue
        if ord(ch) >= 128 and not 0xA0 <= ord(ch) <= 0xFF and ch not in _SYMBOLS and ch not in _SUBSCRIPTED \
                and _accented(ch) is None:
            seen[ch] = None
    return list(seen)


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
        if ch in _ACCENTS and out:  # a combining accent goes over what was set before it
            prev = out[-1]
            math = len(prev) > 1 and prev[0] == prev[-1] == "$" and ch in _MATH_ACCENTS
            out[-1] = f"$\\{_MATH_ACCENTS[ch]}{{{prev[1:-1]}}}$" if math else f"\\{_ACCENTS[ch]}{{{prev}}}"
            continue
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif ch in _SYMBOLS:
            out.append(_SYMBOLS[ch])
        elif ord(ch) < 128 or 0xA0 <= ord(ch) <= 0xFF:
            out.append(ch)
        else:
            out.append(_accented(ch) or "?")
    return "".join(out)
