"""CoNLL column files: one token per line, white-space separated columns.

Blank lines (empty or white space only, e.g. a lone TAB as in WNUT) end a
sentence; a line whose first field is ``-DOCSTART-`` starts a document and is
not a sentence. Columns get roles (``token``, ``lemma``, ``pos``, ``chunk``,
``ner``, ``_`` to ignore); without roles a 4-column file is CoNLL-2003
(``token,pos,chunk,ner``) and a 2-column file is ``token,ner``
(character-per-line files like ``字 B-ORG`` are this case).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from textbcv.corpus._text import read_lines
from textbcv.corpus.model import Corpus, Sentence
from textbcv.errors import InputError

__all__ = ["read_conll", "parse_columns", "ROLES", "DEFAULT_COLUMNS"]

ROLES = ("token", "lemma", "pos", "chunk", "ner", "_")
DEFAULT_COLUMNS = {4: ("token", "pos", "chunk", "ner"), 2: ("token", "ner"), 1: ("token",)}


def parse_columns(columns: str | Sequence[str] | None) -> tuple[str, ...] | None:
    """Validate a column-role list such as ``"token,pos,chunk,ner"``.

    Examples
    --------
    >>> parse_columns("token,_,ner")
    ('token', '_', 'ner')
    >>> parse_columns("token,colour")
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: --columns: unknown role 'colour' (roles: token, lemma, pos, chunk, ner, _)
    """
    if columns is None:
        return None
    roles = tuple(r.strip() for r in (columns.split(",") if isinstance(columns, str) else columns))
    for r in roles:
        if r not in ROLES:
            raise InputError(f"--columns: unknown role {r!r} (roles: {', '.join(ROLES)})")
    if "token" not in roles:
        raise InputError("--columns: one column must have the role 'token'")
    for r in set(roles) - {"_"}:
        if roles.count(r) > 1:
            raise InputError(f"--columns: role {r!r} given twice")
    return roles


def read_conll(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    columns: str | Sequence[str] | None = None,
    scheme: str | None = None,
) -> Corpus:
    """Read CoNLL column files into a :class:`Corpus`.

    Parameters
    ----------
    paths : path or iterable of paths
        Files read in the order given; sentences are numbered across them.
    columns : str or sequence of str, optional
        Column roles; default by column count (4: CoNLL-2003, 2: token + NER).
    scheme : str, optional
        Scheme of the ``ner`` column; detected from the tags when omitted
        (CoNLL-2003 is IOB1).

    Returns
    -------
    Corpus

    Raises
    ------
    InputError
        On a malformed file, naming file and line.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "x.conll")
    >>> _ = open(p, "w").write("-DOCSTART- -X- -X- O\\n\\nEU NNP B-NP I-ORG\\nrejects VBZ B-VP O\\n\\n")
    >>> c = read_conll(p)
    >>> len(c), c.n_tokens, c.n_documents, c.scheme
    (1, 2, 1, 'iob1')
    >>> c[0].chunks
    ((0, 1, 'ORG'),)
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    roles = parse_columns(columns)
    raw: list[tuple] = []  # (columns dict, document, source, line)
    document = -1
    for path in paths:
        lines = read_lines(path)
        n_before = len(raw)
        file_roles = roles
        new_document = True
        rows: list[list[str]] = []
        first_line = 0
        for lineno, line in enumerate(lines, 1):
            if not line or line.isspace():
                if rows:
                    if new_document:
                        document += 1
                        new_document = False
                    raw.append((file_roles, rows, document, path, first_line))
                    rows = []
                continue
            fields = line.split()
            if fields[0] == "-DOCSTART-":
                if rows:
                    raise InputError(
                        "-DOCSTART- inside a sentence: a document boundary must follow a blank line",
                        file=path, line=lineno,
                    )
                new_document = True
                continue
            if file_roles is None:
                file_roles = DEFAULT_COLUMNS.get(len(fields))
                if file_roles is None:
                    raise InputError(
                        f"found {len(fields)} columns; name their roles with --columns "
                        "(e.g. --columns token,pos,chunk,ner)", file=path, line=lineno,
                    )
            if len(fields) != len(file_roles):
                raise InputError(
                    f"expected {len(file_roles)} columns ({','.join(file_roles)}), found {len(fields)}",
                    file=path, line=lineno,
                )
            if not rows:
                first_line = lineno
            rows.append(fields)
        if rows:
            if new_document:
                document += 1
            raw.append((file_roles, rows, document, path, first_line))
        if len(raw) == n_before:
            raise InputError("no sentences: the file holds only -DOCSTART- and blank lines", file=path, line=1)
    return _build(raw, paths, scheme)


def _check_tags(raw: list[tuple], tag_seqs: list[tuple], prefixes: frozenset, what: str) -> None:
    """InputError at FILE:LINE for the first tag (not ``O``) whose prefix is not in ``prefixes``."""
    from textbcv.schemes import OUTSIDE, split_tag

    ok = {OUTSIDE}
    for (_roles, _rows, _doc, path, line), tags in zip(raw, tag_seqs):
        for k, tag in enumerate(tags):
            if tag in ok:
                continue
            if split_tag(tag)[0] not in prefixes:
                raise InputError(f"tag {tag!r} {what} (prefixes: {', '.join(sorted(prefixes))} and O)", file=path, line=line + k)
            ok.add(tag)


def _build(raw: list[tuple], paths: list[str], scheme: str | None) -> Corpus:
    from textbcv.schemes import SCHEMES, detect, get_scheme

    tag_seqs = []
    for roles, rows, *_ in raw:
        if "ner" in roles:
            k = roles.index("ner")
            tag_seqs.append(tuple(r[k] for r in rows))
        else:
            tag_seqs.append(())
    has_tags = any(tag_seqs)
    if scheme is not None:
        try:
            sch = get_scheme(scheme.lower())
        except (InputError, ValueError) as e:
            raise InputError(f"--scheme: {getattr(e, 'message', e)}") from None
        scheme = sch.name
        _check_tags(raw, tag_seqs, sch.prefixes, f"is not a tag of --scheme {scheme}")
    elif has_tags:
        try:
            scheme = detect(t for t in tag_seqs if t)
        except InputError as e:
            known = frozenset().union(*(s.prefixes for s in SCHEMES.values()))
            _check_tags(raw, tag_seqs, known, "is not a tag of any scheme")
            raise InputError(f"{e.message}; give the scheme with --scheme", file=paths[0]) from None
    sentences = []
    for (roles, rows, document, path, line), tags in zip(raw, tag_seqs):
        cols = list(zip(*rows))
        named = {}
        tokens = lemmas = pos = None
        for role, col in zip(roles, cols):
            if role == "token":
                tokens = col
            elif role == "lemma":
                lemmas = col
            elif role == "pos":
                pos = col
            elif role == "chunk":
                named["chunk"] = col
        sentences.append(
            Sentence(tokens, tags, scheme if tags else None, lemmas, pos, named, document, path, line)
        )
    return Corpus(sentences, paths, "conll", scheme)
