"""CoNLL column files: one token per line, columns separated by runs of ASCII spaces and TABs.

A blank line ends a sentence; a ``-DOCSTART-`` line starts a document and is not a sentence (where no file has
one, the corpus marks no documents: all its sentences are one document, whatever the files). Any other
space (U+00A0, U+3000, ...) stays part of its token. Without column roles, a 4-column file is CoNLL-2003
(``token,pos,chunk,ner``) and a 2-column file is ``token,ner``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from itertools import chain

import numpy as np

from textbcv._io import atomic_write
from textbcv.corpus._text import has_other_spaces, load_text, long_lived
from textbcv.corpus.model import Corpus, Sentence
from textbcv.errors import InputError, warn
from textbcv.schemes import SCHEMES, TagCodes, detect_codes, get_scheme, orphan_chunks, split_tag, tag_stream

__all__ = ["read_conll", "write_conll", "parse_columns", "lower_case_tag", "ROLES", "DEFAULT_COLUMNS", "DOCSTART"]

ROLES = ("token", "lemma", "pos", "chunk", "ner", "_")
DEFAULT_COLUMNS = {4: ("token", "pos", "chunk", "ner"), 2: ("token", "ner"), 1: ("token",)}
DOCSTART = "-DOCSTART-"
_FIELD_SEPARATORS = re.compile("[ \t\n]+")


def parse_columns(columns: str | Sequence[str] | None) -> tuple[str, ...] | None:
    """Validate a column-role list such as ``"token,pos,chunk,ner"``.

    Parameters
    ----------
    columns : str or sequence of str or None
        Roles of ``ROLES`` in file order, comma-separated in a string; ``token`` exactly once, only ``_`` twice.

    Returns
    -------
    tuple of str or None
        None when ``columns`` is None (roles then follow the column count).

    Raises
    ------
    InputError
        For an unknown role, no ``token`` column, or a role given twice.

    Examples
    --------
    >>> parse_columns("token,_,ner")
    ('token', '_', 'ner')
    >>> parse_columns("token,colour")
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: columns: unknown role 'colour' (roles: token, lemma, pos, chunk, ner, _)
    """
    if columns is None:
        return None
    roles = tuple(r.strip() for r in (columns.split(",") if isinstance(columns, str) else columns))
    for r in roles:
        if r not in ROLES:
            raise InputError(f"columns: unknown role {r!r} (roles: {', '.join(ROLES)})", param="columns")
    if "token" not in roles:
        raise InputError("columns: one column must have the role 'token'", param="columns")
    for r in set(roles) - {"_"}:
        if roles.count(r) > 1:
            raise InputError(f"columns: role {r!r} given twice", param="columns")
    return roles


def _paths(paths) -> list[str]:
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return [os.fspath(p) for p in paths]


class _File:
    """One CoNLL file split into sentences: the fields, where every sentence's fields start, documents."""

    __slots__ = ("path", "roles", "fields", "first_field", "sizes", "first_lines", "new_document", "token_lines",
                 "marked")

    def __init__(self, path, roles, fields, first_field, sizes, first_lines, new_document, token_lines, marked):
        self.path = path
        self.roles = roles
        self.fields = fields  # every field of the file, in order
        self.first_field = first_field  # index in fields of every sentence's first field
        self.sizes = sizes  # tokens of every sentence
        self.first_lines = first_lines  # 1-based first line of every sentence
        self.new_document = new_document  # the sentence starts a new document
        self.token_lines = token_lines  # 1-based line of every token
        self.marked = marked  # the file has a -DOCSTART- line


def _docstart_lines(text: str) -> list[int]:
    """0-based indices of the lines whose first field is ``-DOCSTART-``."""
    out = []
    n = len(DOCSTART)
    line_no = counted = 0
    pos = text.find(DOCSTART)
    while pos >= 0:
        line_no += text.count("\n", counted, pos)
        counted = pos
        end = text.find("\n", pos)
        line = text[text.rfind("\n", 0, pos) + 1:end if end >= 0 else len(text)].lstrip(" \t")
        if line.startswith(DOCSTART) and (len(line) == n or line[n] in " \t"):
            out.append(line_no)
        if end < 0:
            break
        pos = text.find(DOCSTART, end)
    return out


#: Characters of text split into fields at a time: the block's new strings live only until each is replaced by
#: the one string of its value (a corpus holds each distinct token and tag once, not once per occurrence), and
#: its byte arrays only until its lines' field counts are made
_BLOCK = 1 << 20


def _block_fields(block: str, other_spaces: bool) -> list[str]:
    """The fields of ``block`` (whole lines), split on runs of ASCII spaces, TABs and LFs."""
    if not other_spaces:
        return block.split()
    part = _FIELD_SEPARATORS.split(block)
    if part and part[-1] == "":
        part.pop()
    if part and part[0] == "":
        del part[0]
    return part


def _line_counts(block: str, n_fields: int) -> np.ndarray:
    """Fields per line of ``block`` (whole lines; the last without its line end counts), from its bytes."""
    b = np.frombuffer(block.encode("utf-8"), dtype=np.uint8)
    # the separators (LF, space, TAB), found among the few bytes <= 32 rather than with passes over every byte
    low = np.flatnonzero(b <= 32)
    value = b[low]
    is_sep = (value == 32) | (value == 10) | (value == 9)
    sep, value = low[is_sep], value[is_sep]
    # a field starts at byte 0 unless it is a separator, and after each separator not followed by one; the fields
    # before a line end are those that start before it
    starts_after = np.append(np.diff(sep) > 1, sep[-1:] + 1 < len(b))
    ahead = np.cumsum(starts_after) - starts_after
    before = ahead[value == 10] + int(bool(len(b)) and (not len(sep) or sep[0] > 0))  # fields up to each line end
    if block and not block.endswith("\n"):  # a last line without a line end
        before = np.append(before, n_fields)
    return np.diff(before, prepend=0)


def split_text(text: str, n_lines: int) -> tuple[list[str], np.ndarray]:
    """Every field of ``text`` and the number of fields of each of its lines, without a list per line.

    Parameters
    ----------
    text : str
        With LF line ends only.
    n_lines : int
        A last line without its line end counts.

    Returns
    -------
    fields : list of str
        Split on runs of ASCII spaces and TABs.
    counts : numpy.ndarray of int64
        Fields per line (0 for a blank line).

    Examples
    --------
    >>> split_text("a b\\n\\n c\\u00a0d \\te", 3)
    (['a', 'b', 'c\\xa0d', 'e'], array([2, 0, 2]))
    """
    fields: list[str] = []
    counts = []
    seen: dict[str, str] = {}
    one = seen.setdefault
    other_spaces = has_other_spaces(text)
    start, n = 0, len(text)
    while start < n:
        end = text.find("\n", min(start + _BLOCK, n))
        end = n if end < 0 else end + 1
        block = text[start:end]
        part = _block_fields(block, other_spaces)
        fields += map(one, part, part)
        counts.append(_line_counts(block, len(part)))
        start = end
    return fields, (np.concatenate(counts) if counts else np.zeros(0, dtype=np.int64))[:n_lines]


def _parse(text: str, n: int, path: str, roles: tuple[str, ...] | None) -> _File:
    fields, lens = split_text(text, n)
    doc = np.zeros(n, dtype=bool)
    if DOCSTART in text:
        doc[_docstart_lines(text)] = True
    tok = (lens > 0) & ~doc
    prev = np.zeros(n, dtype=bool)
    prev[1:] = tok[:-1]
    errors = []  # (line index, message): the first one in file order is raised
    inside = np.flatnonzero(doc & prev)
    if len(inside):
        errors.append((int(inside[0]), "-DOCSTART- inside a sentence: a document boundary must follow a blank line"))
    token_idx = np.flatnonzero(tok)
    if not len(token_idx):
        if errors:
            raise InputError(errors[0][1], file=path, line=errors[0][0] + 1)
        raise InputError("no sentences: the file holds only -DOCSTART- and blank lines", file=path, line=1)
    first = int(token_idx[0])
    if roles is None:
        roles = DEFAULT_COLUMNS.get(int(lens[first]))
        if roles is None:
            errors.append((first, f"found {int(lens[first])} columns; name their roles with --columns "
                                  "(e.g. --columns token,pos,chunk,ner)"))
    if roles is not None:
        k = len(roles)
        bad = token_idx[lens[token_idx] != k]
        if len(bad):
            i = int(bad[0])
            errors.append((i, f"expected {k} columns ({','.join(roles)}), found {int(lens[i])}"))
    if errors:
        i, msg = min(errors, key=lambda e: e[0])
        raise InputError(msg, file=path, line=i + 1)
    nxt = np.zeros(n, dtype=bool)
    nxt[:-1] = tok[1:]
    starts = np.flatnonzero(tok & ~prev)
    ends = np.flatnonzero(tok & ~nxt) + 1
    offsets = np.zeros(n, dtype=np.int64)
    np.cumsum(lens[:-1], out=offsets[1:])
    new_document = np.zeros(len(starts), dtype=bool)
    new_document[0] = True
    docs = np.flatnonzero(doc)
    if len(docs):
        j = np.searchsorted(starts, docs)
        new_document[j[j < len(starts)]] = True
    return _File(path, roles, fields, offsets[starts], ends - starts, starts + 1, new_document, token_idx + 1,
                 bool(len(docs)))


def read_conll(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    columns: str | Sequence[str] | None = None,
    scheme: str | None = None,
    encoding: str = "utf-8",
) -> Corpus:
    """Read CoNLL column files into a :class:`Corpus`.

    Parameters
    ----------
    paths : path or iterable of paths
        Read in order (gzip decompressed); sentences are numbered across them.
    columns : str or sequence of str, optional
        Column roles; default by column count (4: CoNLL-2003, 2: token + NER).
    scheme : str, optional
        Scheme of the ``ner`` column; detected when omitted.
    encoding : str

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
    paths = _paths(paths)
    roles = parse_columns(columns)
    with long_lived():
        files = []
        for path in paths:
            text, n_lines = load_text(path, encoding)
            files.append(_parse(text, n_lines, path, roles))
            del text
        return _build(files, paths, scheme, encoding)


def _prefixes() -> frozenset:
    """Every prefix of every scheme of :data:`~textbcv.schemes.SCHEMES` (read now: a scheme may be registered later)."""
    return frozenset().union(*(s.prefixes for s in SCHEMES.values()))


def lower_case_tag(tag: str) -> str | None:
    """The message and fix when ``tag`` has a known prefix in lower case (``b-per``, ``o``), else None.

    Parameters
    ----------
    tag : str

    Returns
    -------
    str or None

    Examples
    --------
    >>> lower_case_tag("B-per") is None, lower_case_tag("b-per")
    (True, "tag 'b-per' has a lower-case prefix: tags are case-sensitive, and the prefixes (B-, I-, E-, S-, ...) \
and O are expected in upper case; write the prefixes in upper case (b-per → B-per), the chunk types as they are")
    """
    prefix, typ = split_tag(tag)
    known = _prefixes()
    if prefix in known or prefix == "O" or prefix.upper() not in known | {"O"}:
        return None
    fixed = prefix.upper() + (f"-{typ}" if typ else "")
    return (f"tag {tag!r} has a lower-case prefix: tags are case-sensitive, and the prefixes (B-, I-, E-, S-, ...) "
            f"and O are expected in upper case; write the prefixes in upper case ({tag} → {fixed}), the chunk types "
            "as they are")


def _tag_error(files: list[_File], flat_index: int, message: str, param: str | None = None) -> InputError:
    """InputError at the FILE:LINE of the ``flat_index``-th tag over all files (``param``: the parameter it names)."""
    for f in files:
        n = int(f.sizes.sum()) if "ner" in f.roles else 0
        if flat_index < n:
            return InputError(message, file=f.path, line=int(f.token_lines[flat_index]), param=param)
        flat_index -= n
    return InputError(message, file=files[0].path, param=param)  # pragma: no cover - index within the tags


def _resolve_scheme(files: list[_File], tag_seqs: list[tuple], lengths: np.ndarray, paths: list[str],
                    scheme: str | None) -> str | None:
    """The scheme of the ``ner`` columns (given or detected), after checking every distinct tag."""
    codes_of = TagCodes()
    codes = np.fromiter(map(codes_of.__getitem__, chain.from_iterable(tag_seqs)), dtype=np.int64,
                        count=int(lengths.sum()))
    vocab = list(codes_of)

    def check(prefixes, what: str, param: str | None = None) -> None:
        bad = [codes_of[t] for t in vocab[1:] if split_tag(t)[0] not in prefixes]
        if bad:
            first = int(np.flatnonzero(np.isin(codes, bad))[0])
            tag = vocab[codes[first]]
            raise _tag_error(files, first, f"tag {tag!r} {what} (prefixes: {', '.join(sorted(prefixes))} and O)",
                             param)

    lower = [codes_of[t] for t in vocab[1:] if lower_case_tag(t)]
    if lower:  # b-per, o: read as they are, they would be no tag of any scheme, or untyped chunks
        first = int(np.flatnonzero(np.isin(codes, lower))[0])
        raise _tag_error(files, first, lower_case_tag(vocab[codes[first]]) or "")
    typed = [t for t in vocab[1:] if split_tag(t)[1]]
    untyped = [t for t in vocab[1:] if not split_tag(t)[1]]
    if typed and untyped:  # a bare B- / I- among typed tags would be read as a chunk of no type
        first = int(np.flatnonzero(np.isin(codes, [codes_of[t] for t in untyped]))[0])
        raise _tag_error(files, first, f"tag {vocab[codes[first]]!r} has no chunk type while the other tags have "
                                       f"one ({', '.join(typed[:3])}): a chunk of no type among typed chunks is "
                                       "most likely a broken tag; give it its type")
    if scheme is not None:
        try:
            sch = get_scheme(scheme.lower())
        except (InputError, ValueError) as e:
            raise InputError(f"scheme: {getattr(e, 'message', e)}", param="scheme") from None
        check(sch.prefixes, f'is not a tag of {{scheme}}="{sch.name}"', "scheme")
        name = sch.name
    else:
        try:
            name = detect_codes(codes, vocab, lengths)
        except InputError as e:
            check(_prefixes(), "is not a tag of any scheme")
            raise InputError(f"{e.message}; give the scheme with {{scheme}}", file=paths[0], param="scheme") from None
    _notes_on_tags(codes, vocab, lengths, name, paths[0])
    return name


def _iob_starts(codes: np.ndarray, vocab: list[str], lengths: np.ndarray) -> tuple[int, int]:
    """(B- starts where the tag before differs, I- starts after O, another type or a sentence start)."""
    # integer codes, not string arrays: a string array is as wide as the longest tag times every token
    parts = [split_tag(t) if i else ("O", "") for i, t in enumerate(vocab)]
    types: dict[str, int] = {}
    prefix = np.array([{"B": 1, "I": 2}.get(x, 0) for x, _ in parts], dtype=np.int8)
    kind = np.array([types.setdefault(y, len(types)) for _, y in parts], dtype=np.int64)
    p, k = prefix[codes], kind[codes]
    first = np.zeros(len(codes), dtype=bool)
    first[(np.cumsum(lengths) - lengths)[lengths > 0]] = True
    same = np.zeros(len(codes), dtype=bool)
    same[1:] = (k[1:] == k[:-1]) & (p[:-1] > 0) & ~first[1:]
    return int(np.sum((p == 1) & ~same)), int(np.sum((p == 2) & ~same))


def _notes_on_tags(codes: np.ndarray, vocab: list[str], lengths: np.ndarray, scheme: str | None, path: str) -> None:
    """One-line notes on legal but unusual tags: chunks started inside a chunk, types like ``B-PER|I-LOC``."""
    if scheme is not None and len(codes):
        stream, _ = tag_stream(codes, lengths, 0)
        orphans = orphan_chunks(stream, vocab, scheme)
        if orphans:
            n = sum(orphans.values())
            shown = " and ".join(f"{p}-" if any(split_tag(t)[1] for t in vocab[1:]) else p for p in sorted(orphans))
            warn(f"{n} chunk{'s start' if n != 1 else ' starts'} with {shown}, which never starts a chunk in "
                 f"{scheme.upper()} (a sentence or chunk beginning inside a chunk); each is read as the start of a "
                 "chunk, as conlleval does", file=path)
    if scheme == "iob1" and len(codes):
        b_starts, i_starts = _iob_starts(codes, vocab, lengths)
        # a mix, not a few slips: both styles at least 1% of the chunks (CoNLL-2003's eng.train has 2 B- starts
        # after O among 34,995 chunks; conlleval reads them as starts too, so nothing is misread there)
        if min(b_starts, i_starts) >= max(1, 0.01 * (b_starts + i_starts)):
            warn(f"the tags mix IOB1 and IOB2: {i_starts:,} chunk{'s start' if i_starts != 1 else ' starts'} with "
                 f"I- (IOB1) and {b_starts:,} with B- after O or another type (IOB2); read as IOB1, where both "
                 "start a chunk, as conlleval does — if the file is IOB2, give --scheme iob2 to be told where its "
                 "chunks start with I-", file=path)
    types = {split_tag(t)[1] for t in vocab[1:]}
    known = _prefixes()
    joined = sorted(t for t in types if "-" in t and any(p in types or p in known for p in t.split("-")))
    if joined:
        warn(f"chunk type{'s' if len(joined) > 1 else ''} {', '.join(map(repr, joined[:3]))} "
             f"look{'' if len(joined) > 1 else 's'} like two tags or types joined by '-' (e.g. I-PER-LOC): read as "
             f"{'types' if len(joined) > 1 else 'a type'} of {'their' if len(joined) > 1 else 'its'} own", file=path)
    odd = sorted({split_tag(t)[1] for t in vocab[1:] if "|" in split_tag(t)[1]})
    if odd:
        warn(f"chunk type{'s' if len(odd) > 1 else ''} {', '.join(map(repr, odd[:3]))} "
             f"contain{'' if len(odd) > 1 else 's'} '|': read as {'one type each' if len(odd) > 1 else 'one type'} "
             "(two tags run together?)", file=path)


#: One sentence read by :func:`_build`: (tokens, tags, lemmas, pos, other columns, document, path, line).
_Row = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...] | None, tuple[str, ...] | None,
             dict[str, tuple[str, ...]], int, str, int]


def _build(files: list[_File], paths: list[str], scheme: str | None, encoding: str) -> Corpus:
    rows: list[_Row] = []  # per sentence: (tokens, tags, lemmas, pos, chunk, document, path, line)
    append = rows.append
    document = -1
    tag_seqs = []
    tag_lengths = []
    # a file starts a document only where the corpus marks documents: files are not documents of their own
    marked = any(f.marked for f in files)
    for f in files:
        roles = f.roles
        k = len(roles)
        fields = f.fields
        jt = roles.index("token")
        jn = roles.index("ner") if "ner" in roles else -1
        jl = roles.index("lemma") if "lemma" in roles else -1
        jp = roles.index("pos") if "pos" in roles else -1
        jc = roles.index("chunk") if "chunk" in roles else -1
        path = f.path
        for o, size, line, new in zip(f.first_field.tolist(), f.sizes.tolist(), f.first_lines.tolist(),
                                      f.new_document.tolist()):
            e = o + k * size
            if new and (marked or document < 0):
                document += 1
            tags = tuple(fields[o + jn:e:k]) if jn >= 0 else ()
            append((
                tuple(fields[o + jt:e:k]),
                tags,
                tuple(fields[o + jl:e:k]) if jl >= 0 else None,
                tuple(fields[o + jp:e:k]) if jp >= 0 else None,
                {"chunk": tuple(fields[o + jc:e:k])} if jc >= 0 else {},
                document, path, line,
            ))
            if jn >= 0:
                tag_seqs.append(tags)
        if jn >= 0:
            tag_lengths.append(f.sizes)
        f.fields = None
    scheme = _resolve_scheme(files, tag_seqs, np.concatenate(tag_lengths), paths, scheme) if tag_seqs else None
    make = Sentence._make
    sentences = [make(t, g, scheme if g else None, lem, p, c, d, s, n) for t, g, lem, p, c, d, s, n in rows]
    return Corpus(sentences, paths, "conll", scheme, encoding)


# ----------------------------------------------------------------------------- writer


def write_conll(
    sentences: Iterable[Sentence],
    path: str | os.PathLike,
    columns: Sequence[str] = ("token", "pos", "chunk", "ner"),
    docstart: bool = True,
) -> None:
    """Write sentences as a CoNLL column file (UTF-8, space-separated, atomically).

    Parameters
    ----------
    sentences : iterable of Sentence
    path : path
    columns : sequence of str
        Roles or keys of ``Sentence.columns``, in order; a missing column is written ``_`` (``O`` for ``ner``).
    docstart : bool
        Write a ``-DOCSTART-`` line (and a blank line) where a new document starts.

    Raises
    ------
    InputError
        For a value that cannot be a column (empty, or holding a space, TAB or line end).

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "x.conll")
    >>> s = Sentence(("EU", "rejects"), ("I-ORG", "O"), "iob1", pos=("NNP", "VBZ"))
    >>> write_conll([s], p, ("token", "pos", "ner"))
    >>> print(open(p).read(), end="")
    -DOCSTART- -X- O
    <BLANKLINE>
    EU NNP I-ORG
    rejects VBZ O
    <BLANKLINE>
    """
    with atomic_write(path) as f:
        last_doc = None
        for s in sentences:
            if docstart and s.document != last_doc:
                f.write(" ".join(["-DOCSTART-"] + ["-X-"] * (len(columns) - 2) + ["O"]) + "\n\n")
                last_doc = s.document
            cols = []
            for role in columns:
                col: tuple[str, ...] | None
                if role == "token":
                    col = s.tokens
                elif role == "ner":
                    col = s.tags or ("O",) * len(s)
                elif role == "lemma":
                    col = s.lemmas
                elif role == "pos":
                    col = s.pos
                else:
                    col = s.columns.get(role)
                cols.append(col if col is not None else ("_",) * len(s))
            for row in zip(*cols):
                for v in row:
                    if not v or any(c in v for c in " \t\n\r"):
                        raise InputError(f"cannot write {v!r} in a column file: empty or holds a space, TAB or line "
                                         "end",
                                         file=s.source, line=s.line)
                f.write(" ".join(row) + "\n")
            f.write("\n")
