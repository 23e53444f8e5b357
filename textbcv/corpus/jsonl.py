"""Hugging Face ``datasets``-style JSON lines (one sentence per line, ``tokens`` and ``ner_tags``); Arrow folders.

Integer tags need label names, given or found beside the file; a ``document_id`` (or ``doc_id``) field keeps
documents whole. See docs/formats.md.

Examples
--------
>>> import tempfile, os, json
>>> d = tempfile.mkdtemp()
>>> p = os.path.join(d, "train.jsonl")
>>> rows = [{"tokens": ["EU", "rejects", "German", "call"], "ner_tags": [1, 0, 3, 0], "document_id": "a"},
...         {"tokens": ["Peter", "Blackburn"], "ner_tags": [5, 6], "document_id": "b"}]
>>> _ = open(p, "w").write("".join(json.dumps(r) + "\\n" for r in rows))
>>> names = ["O", "B-ORG", "I-ORG", "B-MISC", "I-MISC", "B-PER", "I-PER"]
>>> c = read_jsonl(p, label_names=names)
>>> c.format, c.scheme, c.n_documents, c[0].chunks, c[1].tags
('jsonl', 'iob2', 2, ((0, 1, 'ORG'), (2, 3, 'MISC')), ('B-PER', 'I-PER'))
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from textbcv._io import line_at, loads_json, read_text
from textbcv.corpus._text import LINE_BREAKS, first_bad_token, is_blank, split_lines
from textbcv.corpus.conll import _resolve_scheme
from textbcv.corpus.model import Corpus, Sentence
from textbcv.errors import InputError, warn

__all__ = ["read_jsonl", "read_arrow", "read_rows", "is_saved_dataset",
           "label_names_beside", "check_label_names", "TAGS_KEY", "DOCUMENT_KEYS", "NO_DOCUMENTS_NOTE"]

#: The field of the tags (as ``datasets`` names them for NER).
TAGS_KEY = "ner_tags"
#: Fields that name a sentence's document, in order of preference.
DOCUMENT_KEYS = ("document_id", "doc_id")
#: What reading a JSON-lines corpus without document ids costs.
NO_DOCUMENTS_NOTE = ("no document ids (a document_id field): every line is its own unit, so the splits move "
                     "sentences and one document can sit on both sides, which makes test halves easier than new "
                     "documents (on CoNLL-2003, whose Hugging Face loader drops the -DOCSTART- lines, sentence-level "
                     "halves were measured about 11 F1 points easier)")


@dataclass
class _File:
    """What :func:`textbcv.corpus.conll._resolve_scheme` needs to name the line of a bad tag."""

    path: str
    sizes: np.ndarray
    token_lines: np.ndarray
    roles: tuple[str, ...] = ("token", "ner")
    fields: Any = field(default=None)


def _element_lines(text: str, start: int) -> list[int]:
    """The 1-based line of each element of the JSON list that opens at ``text[start]`` ("[")."""
    decoder, pos = json.JSONDecoder(), start + 1
    lines: list[int] = []
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return lines
        lines.append(line_at(text, pos))
        pos = decoder.raw_decode(text, pos)[1]


def check_label_names(names: Sequence[str], file: str | None = None, text: str | None = None,
                      start: int | None = None, param: str | None = None) -> None:
    """Refuse a label vocabulary that names one label twice (two ids, one tag: the ids could not be told apart).

    Parameters
    ----------
    names : sequence of str
        The tag of each id, in id order.
    file : str, optional
        The file that lists them.
    text : str, optional
        That file's text: the error names the line of the second name (one name per line, or a JSON list).
    start : int, optional
        Where the JSON list opens in ``text`` (None: one name per line).
    param : str, optional
        The option that gave them.

    Raises
    ------
    InputError
        At the second name of a label named twice.

    Examples
    --------
    >>> check_label_names(["O", "B-PER", "I-PER"])
    >>> check_label_names(["O", "B-PER", "B-PER"], "names.json", '["O",\\n "B-PER",\\n "B-PER"]', 0)
    Traceback (most recent call last):
    ...
    textbcv.errors.InputError: names.json:3: label id 2 is named 'B-PER', as id 1 is: each label must be named once
    """
    first: dict[str, int] = {}
    for i, name in enumerate(names):
        if name not in first:
            first[name] = i
            continue
        line = None
        if text is not None:
            try:
                line = _element_lines(text, start)[i] if start is not None else i + 1
            except (ValueError, IndexError):
                line = None
        raise InputError(f"{param + ': ' if param else ''}label id {i} is named {name!r}, as id {first[name]} is: "
                         "each label must be named once", file=file, line=line, param=param)


def _info_names(info: Path) -> list[str] | None:
    """The ``ner_tags`` label names of a ``dataset_info.json`` (each named once), or None when it gives none."""
    text = read_text(info)
    try:
        names = loads_json(text, str(info))["features"][TAGS_KEY]["feature"]["names"]
    except (KeyError, TypeError):
        return None
    if not isinstance(names, list):
        return None
    names = [str(n) for n in names]
    at = text.find('"names"', max(text.find(f'"{TAGS_KEY}"'), 0))
    check_label_names(names, str(info), text, text.find("[", at) if at >= 0 else None)
    return names


def label_names_beside(path: str | os.PathLike) -> list[str] | None:
    """The label names beside a JSON-lines file: ``label_names.json``, else ``save_to_disk``'s ``dataset_info.json``.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    list of str or None
        The name of each integer id, in id order; None when neither file gives names.

    Raises
    ------
    InputError
        When ``label_names.json`` is not a JSON list of strings, or a label is named twice.
    """
    d = Path(path).parent
    own = d / "label_names.json"
    if own.is_file():
        text = read_text(own)
        names = loads_json(text, str(own))
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise InputError("expected a JSON list of label names", file=str(own), line=1)
        check_label_names(names, str(own), text, text.index("["))
        return names
    info = d / "dataset_info.json"
    return _info_names(info) if info.is_file() else None


def read_jsonl(paths: str | os.PathLike | Iterable[str | os.PathLike], label_names: Sequence[str] | None = None,
               scheme: str | None = None, encoding: str = "utf-8") -> Corpus:
    """Read ``datasets``-style JSON-lines files into a :class:`Corpus` of format ``"jsonl"``.

    Parameters
    ----------
    paths : path or iterable of paths
        Read in order; sentences are numbered across them.
    label_names : sequence of str, optional
        The tag of each integer id; default: found beside the file.
    scheme : str, optional
        Detected when omitted.
    encoding : str

    Returns
    -------
    Corpus

    Raises
    ------
    InputError
        ``FILE:LINE`` for a line that is not an object with ``tokens`` and ``ner_tags`` of one length, an id
        without a name, or integer and string tags mixed.
    """
    files_in = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    file_list = [str(os.fspath(p)) for p in files_in]

    def rows_of(path: str) -> Iterator[tuple[int, Any]]:
        for no, line in enumerate(split_lines(read_text(path, encoding)), 1):
            if not is_blank(line):
                yield no, loads_json(line, path, no)

    return read_rows([(path, rows_of(path), None) for path in file_list], label_names, scheme, "jsonl", encoding)


def read_rows(sources: Iterable[tuple[str, Iterable[tuple[int, Any]], Sequence[str] | None]],
              label_names: Sequence[str] | None, scheme: str | None, format: str, encoding: str = "utf-8") -> Corpus:
    """A :class:`Corpus` from ``datasets``-style rows, whatever holds them (JSON lines or a ``save_to_disk`` folder).

    Parameters
    ----------
    sources : iterable of (str, iterable of (int, object), sequence of str or None)
        Per file or folder: its name, its rows with their 1-based numbers, and the label names its metadata gives.
    label_names : sequence of str or None
        Given by the user; wins over any found.
    scheme : str or None
    format : str
        ``"jsonl"`` or ``"arrow"``, recorded.
    encoding : str
        Recorded.

    Returns
    -------
    Corpus

    Raises
    ------
    InputError
        As :func:`read_jsonl`.
    """
    names = list(label_names) if label_names is not None else None
    if names is not None:
        check_label_names(names, param="label_names")
    rows: list[tuple[tuple[str, ...], tuple[str, ...], int, str, int]] = []
    files: list[_File] = []
    file_list: list[str] = []
    document, any_ids = -1, False
    for path, items, own_names in sources:
        file_list.append(path)
        file_names = names if names is not None else (list(own_names) if own_names is not None else None)
        kinds: set[str] = set()
        sizes, lines = [], []
        last_doc: object = object()  # a new file starts a new document
        for no, obj in items:
            if not isinstance(obj, dict) or "tokens" not in obj or TAGS_KEY not in obj:
                raise InputError(f'expected a JSON object with "tokens" and "{TAGS_KEY}" (datasets-style JSON lines)',
                                 file=path, line=no)
            tokens, tags = obj["tokens"], obj[TAGS_KEY]
            if not isinstance(tokens, list):
                raise InputError('"tokens" must be a list of non-empty strings', file=path, line=no)
            wrong = first_bad_token(tokens)
            if wrong is not None:
                k, why = wrong
                raise InputError(f'"tokens": token {k + 1} ({_shown(tokens[k])}) {why}: a token is a '
                                 "non-empty string without spaces, TABs or line ends (as in a CoNLL column)",
                                 file=path, line=no)
            if not isinstance(tags, list) or len(tags) != len(tokens):
                raise InputError(f'"{TAGS_KEY}" must be a list as long as "tokens" ({len(tokens)}), got '
                                 f"{len(tags) if isinstance(tags, list) else type(tags).__name__}", file=path, line=no)
            if not tokens:
                continue
            kind = {type(t).__name__ for t in tags}
            if not kind <= {"int", "str"}:
                raise InputError(f'"{TAGS_KEY}" must hold integer ids or tag strings', file=path, line=no)
            kinds |= kind
            if len(kinds) > 1:
                raise InputError(f'"{TAGS_KEY}" mixes integer ids and tag strings', file=path, line=no)
            if "int" in kind:
                if file_names is None:
                    file_names = label_names_beside(path)
                    if file_names is None:
                        raise InputError(f'"{TAGS_KEY}" are integer ids, and no label names were given or found beside '
                                         "the file: put label_names.json (a JSON list, the tag of id i at i) or the "
                                         "dataset_info.json of save_to_disk beside it", file=path, line=no)
                bad = [t for t in tags if not 0 <= t < len(file_names)]
                if bad:
                    raise InputError(f"label id {bad[0]} out of range: {len(file_names)} label names "
                                     f"(0..{len(file_names) - 1})", file=path, line=no)
                tags = [file_names[t] for t in tags]
            doc = next((obj[k] for k in DOCUMENT_KEYS if k in obj), None)
            any_ids = any_ids or doc is not None
            if doc is None or doc != last_doc:  # consecutive lines of one id are one document
                document += 1
            last_doc = doc
            rows.append((tuple(tokens), tuple(tags), document, path, no))
            sizes.append(len(tokens))
            lines.append(no)
        files.append(_File(path, np.asarray(sizes, dtype=np.int64),
                           np.repeat(np.asarray(lines, dtype=np.int64), np.asarray(sizes, dtype=np.int64))))
    if not rows:
        raise InputError("no sentences (no line with tokens)", file=file_list[0] if file_list else None)
    tag_seqs = [r[1] for r in rows]
    lengths = np.array([len(t) for t in tag_seqs], dtype=np.int64)
    resolved = _resolve_scheme(files, tag_seqs, lengths, file_list, scheme)  # type: ignore[arg-type]
    if not any_ids:
        warn(NO_DOCUMENTS_NOTE, file=file_list[0])
    # without ids the corpus marks no documents: one document, whatever the files (as segmented text)
    sentences = []
    for tokens, tags, doc, path, no in rows:
        d = doc if any_ids else 0
        sentences.append(Sentence._make(tokens, tags, resolved, None, None, {}, d, path, no))
    return Corpus(sentences, file_list, format, resolved, encoding)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    for c in LINE_BREAKS:  # the message stays one line to every reader
        text = text.replace(c, f"\\u{ord(c):04x}")
    return text if len(text) <= 40 else text[:37] + "..."


#: What a broken save_to_disk folder (a truncated or changed file) makes ``datasets`` and ``pyarrow`` raise.
_ARROW_ERRORS = (OSError, ValueError, KeyError, TypeError, AttributeError, EOFError)


def _broken(folder: str, e: BaseException, row: int | None = None) -> InputError:
    first = (str(e).strip().splitlines() or [""])[0][:200]
    return InputError(f"cannot read this save_to_disk folder ({type(e).__name__}: {first}): is one of its files "
                      "truncated or changed? Save the dataset again (Dataset.save_to_disk)", file=folder, line=row)


def _rows(ds: Any, folder: str) -> Iterator[tuple[int, Any]]:
    """The rows of a loaded dataset, numbered from 1; a failed read is an InputError at the row."""
    i = 0
    try:
        for i, row in enumerate(ds, 1):
            yield i, row
    except _ARROW_ERRORS as e:
        raise _broken(folder, e, i + 1) from None


def is_saved_dataset(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a folder that ``datasets``' ``save_to_disk`` wrote (a ``Dataset`` or ``DatasetDict``).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    bool
    """
    d = Path(path)
    return d.is_dir() and ((d / "state.json").is_file() and (d / "dataset_info.json").is_file()
                           or (d / "dataset_dict.json").is_file())


def read_arrow(paths: str | os.PathLike | Iterable[str | os.PathLike], label_names: Sequence[str] | None = None,
               scheme: str | None = None) -> Corpus:
    """Read ``save_to_disk`` folders of the ``datasets`` library into a :class:`Corpus` of format ``"arrow"``.

    Rows are read as :func:`read_jsonl` reads lines; integer tags are named by the dataset's ``ner_tags``
    feature unless ``label_names`` are given. Needs ``pip install textbcv[datasets]``.

    Parameters
    ----------
    paths : path or iterable of paths
        Folders of one split each (e.g. ``data/train``).
    label_names : sequence of str, optional
    scheme : str, optional

    Returns
    -------
    Corpus

    Raises
    ------
    InputError
        Without ``datasets``, for a folder ``save_to_disk`` did not write or a ``DatasetDict``, and for any row
        :func:`read_jsonl` would refuse.
    """
    try:
        import datasets  # optional extra: imported only when an Arrow folder is read
    except ImportError:
        raise InputError("reading a save_to_disk folder needs the datasets library: pip install 'textbcv[datasets]' "
                         "(or export it with Dataset.to_json and read the JSON lines)") from None
    folders = [str(os.fspath(p)) for p in ([paths] if isinstance(paths, (str, os.PathLike)) else paths)]

    def source(folder: str) -> tuple[str, Iterator[tuple[int, Any]], list[str] | None]:
        d = Path(folder)
        if (d / "dataset_dict.json").is_file():
            splits = sorted(x.name for x in d.iterdir() if x.is_dir())
            raise InputError(f"a DatasetDict folder (splits {', '.join(splits)}): give one split's folder, e.g. "
                             f"{d / ('train' if 'train' in splits or not splits else splits[0])}", file=folder)
        if not is_saved_dataset(d):
            raise InputError("not a folder that datasets' save_to_disk wrote (no state.json and dataset_info.json)",
                             file=folder)
        _info_names(d / "dataset_info.json")  # a label named twice: said at its line, not as a broken folder
        bars = datasets.is_progress_bar_enabled()
        datasets.disable_progress_bars()  # stderr holds textbcv's lines only
        try:
            ds = datasets.load_from_disk(folder)
            feature = ds.features.get(TAGS_KEY)
        except _ARROW_ERRORS as e:
            raise _broken(folder, e) from None
        finally:
            if bars:
                datasets.enable_progress_bars()
        own = getattr(getattr(feature, "feature", None), "names", None)
        return folder, _rows(ds, folder), (list(own) if own else None)

    return read_rows([source(f) for f in folders], label_names, scheme, "arrow")
