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

Chunks that do not start the way the file's scheme (given, or detected from
the tags) starts a chunk -- ``I-`` after ``O`` in IOB2, ``I-``/``E-`` in
IOBES, ``I-``/``L-`` in BILOU, ``M``/``E`` in BMES -- are scored as
conlleval does (each opens a chunk), and counted: one warning on stderr
and an ``orphans`` object in the JSON. IOB1 files, where ``I-`` starts are
normal, get none.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys

from textbcv._io import dumps_json
from textbcv.errors import InputError

__all__ = ["register", "run", "orphan_report"]


def _scheme(value: str) -> str:
    from textbcv.schemes import CONLLEVAL, get_scheme

    if value.lower() == CONLLEVAL:
        return CONLLEVAL
    try:
        return get_scheme(value).name
    except InputError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def register(subparsers) -> None:
    """Add the subcommand's parser to ``subparsers``, its ``func`` set to :func:`run`.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        The subparsers of the ``textbcv`` parser.
    """
    from textbcv.schemes import scheme_names

    p = subparsers.add_parser(
        "score",
        help="score gold vs predicted tags of a conlleval input file",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE",
                   help="one token per line, gold and predicted tag in the last two columns (a .gz file is "
                        "decompressed)")
    p.add_argument(
        "--scheme",
        type=_scheme,
        default="conlleval",
        metavar="SCHEME",
        help="decode chunks with this scheme: " + ", ".join(scheme_names(include_conlleval=True))
        + " (default: conlleval, conlleval.pl's rules)",
    )
    p.add_argument("--encoding", default="utf-8", metavar="ENC",
                   help="text encoding of FILE, e.g. latin-1 (default: utf-8)")
    p.add_argument("--json", action="store_true", help="print JSON (described in docs/formats.md) instead of "
                                                       "conlleval's report")
    p.add_argument("--modes", action="store_true",
                   help="also count every matching mode (strict, exact, partial, type: correct, incorrect, partial, "
                        "missed, spurious, with P / R / F1) and the error anatomy")
    p.set_defaults(func=run)


def modes_of(stream, scheme: str) -> dict:
    """The matching modes and error anatomy of a conlleval file (``score --modes``), from the stream already read.

    Parameters
    ----------
    stream : TagStream
        The file as read by :func:`textbcv.corpus.conlleval.read_tag_stream`.
    scheme : str
        The scheme the tags are decoded with (``"conlleval"``: conlleval.pl's rules), sentence by sentence.

    Returns
    -------
    dict
        ``modes`` (mode → the five outcome counts and unrounded ``precision``, ``recall``, ``f1`` fractions) and
        ``anatomy`` (the six anatomy counts).
    """
    from textbcv.scoring.modes import ANATOMY, mode_scores, row_modes
    from textbcv.scoring.tags import chunk_rows

    gold, pred, n = chunk_rows(stream.gold, stream.pred, stream.token, stream.vocab, scheme)
    rows, anatomy = row_modes(gold, pred, n)
    return {"modes": mode_scores(rows), "anatomy": dict(zip(ANATOMY, (int(x) for x in anatomy)))}


def format_modes(modes: dict) -> str:
    """The text of :func:`modes_of`: one line per mode, then the anatomy.

    Parameters
    ----------
    modes : dict
        :func:`modes_of`'s answer.

    Returns
    -------
    str
        Ending in a newline.
    """
    lines = ["", "matching modes (SemEval-2013; TP = correct + 1/2 partial):",
             f"{'mode':8} {'correct':>8} {'incorrect':>9} {'partial':>8} {'missed':>7} {'spurious':>8}  "
             f"{'precision':>9} {'recall':>7} {'FB1':>6}"]
    for mode, x in modes["modes"].items():
        lines.append(f"{mode:8} {x['correct']:8d} {x['incorrect']:9d} {x['partial']:8d} {x['missed']:7d} "
                     f"{x['spurious']:8d}  {100 * x['precision']:8.2f}% {100 * x['recall']:6.2f}% "
                     f"{100 * x['f1']:6.2f}")
    a = modes["anatomy"]
    lines.append("error anatomy (strict matches): " + ", ".join(f"{k} {v}" for k, v in a.items()))
    return "\n".join(lines) + "\n"


_TAG = re.compile(r"O|[A-Za-z]{1,2}([-_].+)?|.+[-_][A-Za-z]{1,2}")


def check_tag_columns(stream) -> None:
    """Check that the gold column (the second to last) holds tags, not the words of a one-tag-column file.

    At least half of the column's distinct values must look like tags (``O``, ``B``, ``B-TYPE``, ``TYPE-B``...).

    Parameters
    ----------
    stream : TagStream
        The file as read by :func:`textbcv.corpus.conlleval.read_tag_stream`.

    Raises
    ------
    InputError
        When more than half of the gold column's distinct values are not tags.
    """
    import numpy as np

    seen = np.bincount(stream.gold, weights=stream.token, minlength=len(stream.vocab))  # O(n), unlike np.unique
    values = [stream.vocab[c] for c in np.flatnonzero(seen)]
    if not values:
        return
    words = [v for v in values if not _TAG.fullmatch(v)]
    if len(words) * 2 > len(values):
        shown = ", ".join(repr(w) for w in words[:3])
        raise InputError(f"its gold column (the second to last of {stream.columns}) holds {shown} ...: words, not "
                         "tags; a file to score ends every token line with its gold and its predicted tag "
                         "(token ... gold predicted)", file=stream.path)


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
    if "numpy" not in sys.modules:
        # scoring does no linear algebra: starting OpenBLAS's thread pool, when numpy loads, would take a fifth
        # of the command's time
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # the command holds what it reads in a few arrays, which reference counting frees: the collector's passes over
    # the objects of numpy's import would be a twentieth of its time
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _run(args)
    finally:
        if collecting:
            gc.enable()


def _run(args: argparse.Namespace) -> int:
    """:func:`run` with the collector off."""
    from textbcv.corpus.conlleval import read_tag_stream
    from textbcv.scoring import format_conlleval, score_codes

    s = read_tag_stream(args.file, docstart="boundary" if args.json else "token", encoding=args.encoding)
    check_tag_columns(s)
    if args.scheme != "conlleval":
        _check_tags(s, args.scheme)
    score = score_codes(s.gold, s.pred, s.token, s.vocab, scheme=args.scheme)
    orphans = orphan_report(s, args.scheme)
    if orphans:
        print(f"textbcv: warning: {s.path}: {orphans['message']}", file=sys.stderr)
    modes = modes_of(s, args.scheme) if args.modes else None
    if args.json:
        out = score.to_dict()
        if orphans:
            out["orphans"] = {k: v for k, v in orphans.items() if k != "message"}
        if modes is not None:
            out.update(modes)
        sys.stdout.write(dumps_json(out))
    else:
        sys.stdout.write(format_conlleval(score))
        if modes is not None:
            sys.stdout.write(format_modes(modes))
    return 0


def orphan_report(stream, scheme: str) -> dict | None:
    """Chunks that do not start as the scheme (given, or detected for ``"conlleval"``) starts a chunk.

    Parameters
    ----------
    stream : TagStream
        The file as read by :func:`textbcv.corpus.conlleval.read_tag_stream`.
    scheme : str
        A scheme name, or ``"conlleval"``.

    Returns
    -------
    dict or None
        ``scheme``, ``gold`` and ``predicted`` counts, ``prefixes`` (prefix → count) and the warning ``message``;
        None when there is none (always for IOB1, IOE1, IOE2).
    """
    from textbcv.schemes import CONLLEVAL, detect_pairs, get_scheme, orphan_pairs, split_tag, tag_pairs

    n = len(stream.vocab)
    gold_pairs, pred_pairs = tag_pairs(stream.gold, n), tag_pairs(stream.pred, n)
    if scheme == CONLLEVAL:
        try:
            scheme = detect_pairs(gold_pairs + pred_pairs, stream.vocab)
        except InputError:
            return None  # tags of no scheme (e.g. conlleval's [ ] .): nothing to compare with
    gold = orphan_pairs(gold_pairs, stream.vocab, scheme)
    pred = orphan_pairs(pred_pairs, stream.vocab, scheme)
    n_gold, n_pred = sum(gold.values()), sum(pred.values())
    if not n_gold + n_pred:
        return None
    prefixes = {p: gold.get(p, 0) + pred.get(p, 0) for p in sorted(set(gold) | set(pred))}
    typed = {split_tag(t)[0] for t in stream.vocab if split_tag(t)[1]}
    shown = " or ".join(f"{p}-" if p in typed else p for p in prefixes)
    name = get_scheme(scheme).name.upper()
    n = n_gold + n_pred
    hint = "is the scheme IOB1?" if name == "IOB2" else f"are the tags really {name}?"
    message = (f"{n} chunk{'s start' if n != 1 else ' starts'} with {shown} ({n_gold} gold, {n_pred} predicted), "
               f"which never starts a chunk in {name}: {hint} Each is scored as the start of a chunk, as conlleval "
               "does.")
    return {"scheme": get_scheme(scheme).name, "gold": n_gold, "predicted": n_pred, "prefixes": prefixes,
            "message": message}


def _check_tags(stream, scheme: str) -> None:
    """InputError at FILE:LINE for the first tag (of a token) that is not a tag of ``scheme``."""
    import numpy as np

    from textbcv.schemes import get_scheme

    sch = get_scheme(scheme)
    bad = np.zeros(len(stream.vocab), dtype=bool)
    for i, t in enumerate(stream.vocab):
        try:
            sch.kind(t)
        except InputError:
            bad[i] = True
    if not bad.any():
        return
    hit = (bad[stream.gold] | bad[stream.pred]) & stream.token
    if not hit.any():
        return
    i = int(np.argmax(hit))
    col, code = ("gold", stream.gold[i]) if bad[stream.gold[i]] else ("predicted", stream.pred[i])
    try:
        sch.kind(stream.vocab[code])
    except InputError as e:
        raise InputError(f"{col} {e.message}", file=stream.path, line=stream.line_of(i)) from None
