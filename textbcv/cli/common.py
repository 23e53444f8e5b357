"""Options and helpers shared by the subcommands that read a corpus."""

from __future__ import annotations

import argparse

from textbcv.corpus.model import Corpus

__all__ = ["add_corpus_args", "read_corpus_args"]

FORMATS = ("conll", "conllu", "segmented")


def add_corpus_args(parser: argparse.ArgumentParser, files: bool = True) -> None:
    """Add ``FILE...``, ``--format``, ``--columns`` and ``--scheme`` to ``parser``."""
    if files:
        parser.add_argument("files", nargs="+", metavar="FILE", help="corpus files, read in the order given")
    parser.add_argument("--format", choices=FORMATS, default="conll", help="corpus format (default: conll)")
    parser.add_argument(
        "--columns",
        metavar="ROLE,ROLE,...",
        help="roles of the columns of a conll file: token, lemma, pos, chunk, ner, _ (ignored); "
        "default: 4 columns = token,pos,chunk,ner; 2 columns = token,ner",
    )
    parser.add_argument(
        "--scheme",
        dest="corpus_scheme",
        metavar="SCHEME",
        help="scheme of the gold tag column (default: detected, e.g. iob1 for CoNLL-2003)",
    )


def read_corpus_args(args: argparse.Namespace) -> Corpus:
    """Read the corpus named by the options :func:`add_corpus_args` added."""
    from textbcv.corpus import read_corpus

    return read_corpus(args.files, format=args.format, columns=args.columns, scheme=args.corpus_scheme)
