"""``textbcv stats``: sentences, tokens, documents and chunks per type of a corpus."""

from __future__ import annotations

import argparse

from textbcv._io import dumps_json
from textbcv.cli.common import add_corpus_args, read_corpus_args
from textbcv.corpus.model import Corpus
from textbcv.corpus.source import document_marks

__all__ = ["register", "run", "corpus_stats", "format_stats"]


def register(sub) -> None:
    """Add the subcommand's parser to ``sub``, its ``func`` set to :func:`run`.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subparsers of the ``textbcv`` parser.
    """
    p = sub.add_parser("stats", help="print sentences, tokens, documents and chunks per type",
                       description="Print sentences, tokens, documents and chunks per type of a corpus.")
    add_corpus_args(p)
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=run)


def corpus_stats(corpus: Corpus) -> dict:
    """The figures ``textbcv stats`` prints, as the JSON object of docs/formats.md.

    Parameters
    ----------
    corpus : Corpus
        The corpus as read.

    Returns
    -------
    dict
        ``sentences``, ``tokens``, ``documents`` and ``chunks`` (type → gold chunks).

    Examples
    --------
    >>> from textbcv.corpus import Corpus, Sentence
    >>> c = Corpus([Sentence(("a", "b"), ("B-X", "I-X"), "iob2")], ["f"], "conll", "iob2")
    >>> corpus_stats(c)
    {'sentences': 1, 'tokens': 2, 'documents': 1, 'chunks': {'X': 1}}
    """
    return {
        "sentences": len(corpus),
        "tokens": corpus.n_tokens,
        "documents": corpus.n_documents,
        "chunks": dict(corpus.chunk_counts()),
    }


def _documents(n: int, corpus: Corpus) -> str:
    """The documents row: their number, or that the corpus marks none."""
    if n <= 1 and corpus.format == "jsonl":
        return "no document ids (a document_id field): one undivided text; splits fall back to sentences"
    if n <= 1 and (corpus.format == "segmented" or (corpus.format == "conll" and not document_marks(corpus))):
        return "no document marks (-DOCSTART- lines): one undivided text; splits fall back to sentences"
    return f"{n:,}"


def format_stats(stats: dict, corpus: Corpus) -> str:
    """A readable table of :func:`corpus_stats`, ending in a newline.

    Parameters
    ----------
    stats : dict
        :func:`corpus_stats`' answer.
    corpus : Corpus
        The same corpus, for its files, format, scheme and document marks.

    Returns
    -------
    str
    """
    rows = [("files", ", ".join(corpus.files)), ("format", corpus.format)]
    if corpus.scheme:
        rows.append(("tag scheme", corpus.scheme))
    rows += [("sentences", f"{stats['sentences']:,}"), ("tokens", f"{stats['tokens']:,}"),
             ("documents", _documents(stats["documents"], corpus))]
    chunks = stats["chunks"]
    if chunks:
        rows.append(("chunks", f"{sum(chunks.values()):,}"))
        for t, n in chunks.items():
            rows.append((f"  {t or '(untyped)'}", f"{n:,}"))
    w = max(len(k) for k, _ in rows)
    return "".join(f"{k:<{w}}  {v}\n" for k, v in rows)


def run(args: argparse.Namespace) -> int:
    """Run the subcommand on its parsed command line.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        Exit status 0; a user error raises :class:`~textbcv.errors.InputError`.
    """
    corpus = read_corpus_args(args)
    stats = corpus_stats(corpus)
    print(dumps_json(stats) if args.json else format_stats(stats, corpus), end="")
    return 0
