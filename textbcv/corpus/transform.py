"""Corpus transforms used before splitting: words to characters, chunk filters, the corpus a task sees."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textbcv.corpus._text import first_bad_token
from textbcv.corpus.model import Chunk, Corpus, Sentence
from textbcv.corpus.segmented import bmes_tags
from textbcv.errors import InputError
from textbcv.schemes import get_scheme

__all__ = ["words_to_characters", "filter_chunks", "prepare_corpus", "prediction_types"]


def words_to_characters(corpus: Corpus) -> Corpus:
    """A word-segmentation corpus from a word-tokenised one, as if read as segmented text.

    Parameters
    ----------
    corpus : Corpus
        Its tags are dropped.

    Returns
    -------
    Corpus
        Format ``"segmented"``, scheme ``"bmes"``; documents, sources and lines kept.

    Raises
    ------
    InputError
        For a word that is not a token (empty, or holding a space, a TAB or a line end).

    Examples
    --------
    >>> c = Corpus([Sentence(("中国", "人"), document=0, source="x", line=3)], ["x"], "conllu")
    >>> s = words_to_characters(c)[0]
    >>> s.tokens, s.words, s.line
    (('中', '国', '人'), ('中国', '人'), 3)
    """
    out = []
    for s in corpus:
        wrong = first_bad_token(list(s.tokens))
        if wrong is not None:
            raise InputError(f"word {wrong[0] + 1} ({s.tokens[wrong[0]]!r}) {wrong[1]}; cannot split it into "
                             "characters", file=s.source, line=s.line)
        out.append(Sentence(tuple("".join(s.tokens)), bmes_tags(s.tokens), "bmes", None, None, {}, s.document, s.source,
                            s.line))
    return Corpus(out, corpus.files, "segmented", "bmes", corpus.encoding)


def filter_chunks(chunks: Iterable[Chunk], keep: Sequence[str] | None = None,
                  untyped: bool = False) -> tuple[Chunk, ...]:
    """Keep only chunks of the types in ``keep`` (None keeps all); with ``untyped`` set every type to ``""``.

    Parameters
    ----------
    chunks : iterable of Chunk
    keep : sequence of str, optional
    untyped : bool

    Returns
    -------
    tuple of Chunk

    Examples
    --------
    >>> ch = [(0, 2, "ORG"), (3, 4, "PER")]
    >>> filter_chunks(ch, keep=["ORG"]), filter_chunks(ch, untyped=True)
    (((0, 2, 'ORG'),), ((0, 2, ''), (3, 4, '')))
    """
    out = [c for c in chunks if keep is None or c[2] in keep]
    if untyped:
        out = [(a, b, "") for a, b, _ in out]
    return tuple(out)


def prepare_corpus(corpus: Corpus, task: str) -> Corpus:
    """The corpus as the task sees it: characters and words for ``cws``; ``corpus`` itself for ``ner``.

    Parameters
    ----------
    corpus : Corpus
    task : {"ner", "cws"}

    Returns
    -------
    Corpus
        For ``"cws"``, ``corpus`` itself when already segmented, else :func:`words_to_characters` of it.

    Raises
    ------
    InputError
        For ``"cws"`` on typed chunks (NER tags), or ``"ner"`` on a corpus without tags or whose tags are word
        boundaries (segmented text, untyped BMES).
    """
    if task == "cws":
        types = sorted({t for s in corpus for _, _, t in s.chunks if t})
        if types:  # a tag column of typed chunks: NER, whose tags word segmentation would silently drop
            first = next(s for s in corpus if any(t for _, _, t in s.chunks))
            raise InputError(f'{{task}}="cws" segments text into words, but this corpus\'s tags are typed chunks '
                             f'({", ".join(types[:4])}{", ..." if len(types) > 4 else ""}): named entities, not words; '
                             'did you mean {task}="ner"?', file=first.source, line=first.line, param="task")
        if corpus.format == "segmented" or (corpus.scheme is not None and get_scheme(corpus.scheme).untyped):
            return corpus
        return words_to_characters(corpus)
    if not any(s.tags for s in corpus):
        first = corpus[0]
        raise InputError('{task}="ner" needs a tag column (e.g. {columns}="token,pos,chunk,ner"); this corpus has none',
                         file=first.source, line=first.line, param=("task", "columns"))
    if corpus.scheme and get_scheme(corpus.scheme).untyped and not any(t for s in corpus for _, _, t in s.chunks):
        # word boundaries (segmented text, untyped BMES tags): NER would score every word as an entity of no type
        first = corpus[0]
        what = ("this corpus is segmented text, whose tags are" if corpus.format == "segmented" else
                "this corpus's tags are")
        raise InputError(f'{{task}}="ner" needs named-entity tags, but {what} untyped {corpus.scheme.upper()}: word '
                         'boundaries, not entities; did you mean {task}="cws"?', file=first.source, line=first.line,
                         param="task")
    return corpus


def prediction_types(corpus: Corpus, task: str = "ner", untyped: bool = False) -> set[str] | None:
    """The chunk types a prediction may name: the corpus's, and ``""`` with ``untyped``; None (any) for ``cws``.

    Parameters
    ----------
    corpus : Corpus
        The corpus as the task sees it (:func:`prepare_corpus`).
    task : {"ner", "cws"}
    untyped : bool
        Chunk boundaries only (``--untyped``): a chunk of no type is a prediction too.

    Returns
    -------
    set of str or None

    Examples
    --------
    >>> c = Corpus([Sentence(("EU", "rejects"), ("B-ORG", "O"), "iob2")], ["c.conll"], "conll", "iob2")
    >>> sorted(prediction_types(c)), sorted(prediction_types(c, untyped=True)), prediction_types(c, "cws")
    (['ORG'], ['', 'ORG'], None)
    """
    if task != "ner":
        return None
    return set(corpus.chunk_counts()) | ({""} if untyped else set())
