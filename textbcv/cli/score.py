"""``textbcv score FILE [--scheme S] [--json]``: score a conlleval input file.

Without ``--json`` the output is conlleval.pl's report, byte for byte, with
conlleval.pl's conventions: a ``-DOCSTART-`` line is a token (it counts in
"processed N tokens" and in the accuracy). With ``--json`` the JSON object of
docs/formats.md is printed and ``-DOCSTART-`` lines are document boundaries, not
tokens (textbcv's units).

``--scheme conlleval`` (default) uses conlleval.pl's chunk rules, which
miscount IOBES output: ``S-X S-X`` is one chunk for conlleval (an ``S``
never closes a chunk of its own type) and so is ``E-X B-X`` (it has no rule
for ``E`` followed by ``B``). ``--scheme iobes`` (or any other scheme)
decodes each sentence with that scheme instead, so both gold and predicted
chunks are the chunks the tags encode.
"""

from __future__ import annotations

import argparse
import sys

from textbcv._io import dumps_json
from textbcv.errors import InputError

__all__ = ["register", "run"]


def _scheme(value: str) -> str:
    from textbcv.schemes import CONLLEVAL, get_scheme

    if value.lower() == CONLLEVAL:
        return CONLLEVAL
    try:
        return get_scheme(value).name
    except InputError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def register(subparsers) -> None:
    """Add the ``score`` subcommand."""
    from textbcv.schemes import scheme_names

    p = subparsers.add_parser(
        "score",
        help="score gold vs predicted tags of a conlleval input file",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", help="one token per line, gold and predicted tag in the last two columns")
    p.add_argument(
        "--scheme",
        type=_scheme,
        default="conlleval",
        metavar="SCHEME",
        help="decode chunks with this scheme: " + ", ".join(scheme_names(include_conlleval=True))
        + " (default: conlleval, conlleval.pl's rules)",
    )
    p.add_argument("--json", action="store_true", help="print JSON (described in docs/formats.md) instead of conlleval's report")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Score ``args.file`` and print the report."""
    from textbcv.corpus.conlleval import read_conlleval
    from textbcv.scoring import format_conlleval, score_tags

    f = read_conlleval(args.file, docstart="boundary" if args.json else "token")
    if args.scheme != "conlleval":
        _check_tags(f, args.scheme)
    score = score_tags(
        [s.gold for s in f.sentences],
        [s.pred for s in f.sentences],
        scheme=args.scheme,
        final_boundary=f.final_boundary,
    )
    if args.json:
        sys.stdout.write(dumps_json(score.to_dict()))
    else:
        sys.stdout.write(format_conlleval(score))
    return 0


def _check_tags(f, scheme: str) -> None:
    """InputError at FILE:LINE for the first tag that is not a tag of ``scheme``."""
    from textbcv.schemes import get_scheme

    sch = get_scheme(scheme)
    tags = {t for s in f.sentences for t in s.gold + s.pred}
    bad = set()
    for t in tags:
        try:
            sch.kind(t)
        except InputError:
            bad.add(t)
    if not bad:
        return
    for s in f.sentences:
        for i, (g, p) in enumerate(zip(s.gold, s.pred)):
            for col, t in (("gold", g), ("predicted", p)):
                if t in bad:
                    try:
                        sch.kind(t)
                    except InputError as e:
                        raise InputError(f"{col} {e.message}", file=f.path, line=s.line + i) from None
