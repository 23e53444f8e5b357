"""The corpus model: :class:`Sentence` and :class:`Corpus`.

A chunk is ``(start, end, type)`` in token offsets, ``end`` exclusive; untyped chunks (words) have type ``""``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from textbcv.schemes import decode

__all__ = ["Chunk", "Sentence", "Corpus"]

Chunk = tuple[int, int, str]
_new = object.__new__
_set = object.__setattr__


@dataclass(frozen=True, eq=False)
class Sentence:
    """One sentence of a corpus: a sequence of its token strings, so taggers written for token lists accept it.

    Parameters
    ----------
    tokens : tuple of str
        Characters for segmented text.
    tags : tuple of str
        Gold chunk tags as written in the file, or ``()`` when it has none.
    scheme : str or None
        The tagging scheme of ``tags`` (``"iob1"``, ``"iob2"``, ``"bmes"``, ...).
    lemmas, pos : tuple of str or None
    columns : mapping of str to tuple of str
        Any other named columns (e.g. ``"chunk"``).
    document : int
        0-based.
    source : str
    line : int
        1-based line of its first token in ``source``.

    Examples
    --------
    >>> s = Sentence(("EU", "rejects", "German", "call"), ("I-ORG", "O", "I-MISC", "O"), scheme="iob1")
    >>> s.chunks
    ((0, 1, 'ORG'), (2, 3, 'MISC'))
    >>> len(s), s[1], list(s)[-1]
    (4, 'rejects', 'call')
    """

    tokens: tuple[str, ...]
    tags: tuple[str, ...] = ()
    scheme: str | None = None
    lemmas: tuple[str, ...] | None = None
    pos: tuple[str, ...] | None = None
    columns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    document: int = 0
    source: str = ""
    line: int = 0

    def __len__(self) -> int:
        return len(self.tokens)

    def __iter__(self) -> Iterator[str]:
        return iter(self.tokens)

    def __getitem__(self, i):
        return self.tokens[i]

    @classmethod
    def _make(cls, tokens, tags, scheme, lemmas, pos, columns, document, source, line) -> "Sentence":
        """A sentence from every field, in order, unchecked (the readers' fast path)."""
        s = _new(cls)
        _set(s, "__dict__", {"tokens": tokens, "tags": tags, "scheme": scheme, "lemmas": lemmas, "pos": pos,
                             "columns": columns, "document": document, "source": source, "line": line})
        return s

    @cached_property
    def chunks(self) -> tuple[Chunk, ...]:
        """Gold chunks decoded from :attr:`tags` with :attr:`scheme` (lenient, as conlleval)."""
        if not self.tags or self.scheme is None:
            return ()

        return tuple(decode(self.tags, self.scheme))

    @property
    def words(self) -> tuple[str, ...]:
        """The text of each chunk (the words, for segmented text)."""
        return tuple("".join(self.tokens[s:e]) for s, e, _ in self.chunks)

    def key(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Identity used to find exact duplicate sentences.

        Returns
        -------
        tuple of (tuple of str, tuple of str)
            ``(tokens, tags)``.
        """
        return (self.tokens, self.tags)


@dataclass(eq=False)
class Corpus:
    """Sentences read from one or more files, in reading order.

    Parameters
    ----------
    sentences : list of Sentence
    files : list of str
    format : str
        ``"conll"``, ``"conllu"``, ``"segmented"``, ...
    scheme : str or None
        Scheme of the gold tags, shared by every sentence.
    encoding : str
        The files' text encoding (to read them again).

    Examples
    --------
    >>> c = Corpus([Sentence(("a",), ("B-X",), "iob2", document=0),
    ...             Sentence(("b", "c"), ("O", "B-Y"), "iob2", document=1)], ["x.conll"], "conll", "iob2")
    >>> len(c), c.n_tokens, c.n_documents
    (2, 3, 2)
    >>> dict(c.chunk_counts())
    {'X': 1, 'Y': 1}
    """

    sentences: list[Sentence]
    files: list[str]
    format: str
    scheme: str | None = None
    encoding: str = "utf-8"

    def __len__(self) -> int:
        return len(self.sentences)

    def __iter__(self) -> Iterator[Sentence]:
        return iter(self.sentences)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return Corpus(self.sentences[i], self.files, self.format, self.scheme, self.encoding)
        return self.sentences[i]

    @property
    def n_tokens(self) -> int:
        """Number of tokens over all sentences."""
        return sum(len(s.tokens) for s in self.sentences)

    @property
    def document_ids(self) -> list[int]:
        """Document index of every sentence."""
        return [s.document for s in self.sentences]

    @property
    def n_documents(self) -> int:
        """Number of distinct documents holding at least one sentence."""
        return len(set(self.document_ids))

    @property
    def documents(self) -> list[list[int]]:
        """Sentence indices of every document, in order."""
        out: dict[int, list[int]] = {}
        for i, s in enumerate(self.sentences):
            out.setdefault(s.document, []).append(i)
        return list(out.values())

    def chunk_counts(self) -> Counter:
        """Number of gold chunks per type (``""`` for untyped), in ASCII order of type.

        Returns
        -------
        collections.Counter
        """
        c = Counter(t for s in self.sentences for _, _, t in s.chunks)
        return Counter(dict(sorted(c.items())))

    def subset(self, indices: Sequence[int]) -> "Corpus":
        """The corpus restricted to ``indices``, in the order given (repeats allowed).

        Parameters
        ----------
        indices : sequence of int

        Returns
        -------
        Corpus
        """
        return Corpus([self.sentences[i] for i in indices], self.files, self.format, self.scheme, self.encoding)
