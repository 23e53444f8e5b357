"""Options and helpers shared by the subcommands that read a corpus."""

from __future__ import annotations

import argparse
import sys

from textbcv.corpus.model import Corpus
from textbcv.corpus.sniff import FORMATS
from textbcv.defaults import MIN_CLUSTERS, VARIANT
from textbcv.errors import InputError

__all__ = ["add_corpus_args", "read_corpus_args", "rope_fraction",
           "rope_warning", "THRESHOLD_HELP", "ROPE_HELP", "VARIANT_HELP", "DIFFERENCE_HELP", "check_threshold",
           "command_systems"]

#: ``--threshold`` of every command that decides (the value is textbcv.stats.bayes.THRESHOLD, repeated so that
#: `textbcv --help` does not import scipy; tests/test_report_decisions.py checks they agree).
GROUP_BY_HELP = ("units the splits keep whole, and the clusters of the posterior's variance: auto (default: documents "
                 f"when the corpus marks at least {MIN_CLUSTERS}, by -DOCSTART-, # newdoc or document ids, else "
                 "sentences), sentence, document, or file (every file a unit, only when asked: files are not "
                 f"documents); document and file need at least {MIN_CLUSTERS} of them")
THRESHOLD_HELP = ("decision rule: a system is called better when its posterior probability of being better, "
                  "P(better), is at least this; below it the report says \"no clear difference\" and gives P "
                  "(default 0.95; 0.5 is the thesis's larger-probability rule)")
ROPE_HELP = ("region of practical equivalence, in points of the metric (F1 points for F1), e.g. 0.5: \"better\" "
             "then means better by more than this, and the report adds P(equivalent) (default: none)")


VARIANT_HELP = (f"count factor of the posteriors (default {VARIANT}): clustered (the counts of one average "
                "fold divided by the design effect of sentences/documents, measured on the folds' per-sentence counts; "
                "covered F1 on new text in the real-text study), averaged-counts (ρ1 = ρ2 = 1, ignores clustered "
                "errors), "
                "adaptive (c_m, widened when the folds disagree more than c_m implies), thesis (c_m; under-covers), "
                "independent (ρ1 = ρ2 = 0), rho (give --rho1 and --rho2: measure your own with textbcv components; "
                "measured ρ for CRF taggers and other learners: docs/variance.md)")

DIFFERENCE_HELP = ("how the posterior of a difference is built: paired (default; both systems' per-sentence "
                   "counts on the same test sentences, plus the models' own noise from the folds' spread) or "
                   "independent (the two systems' own posteriors combined as if their errors were "
                   "independent: the thesis's Bayes test, about twice as wide on real text)")


def note(line: str) -> None:
    """Print a note for the user (how the input was read, what was chosen) on stderr.

    Parameters
    ----------
    line : str
        The note, one line.
    """
    print(line, file=sys.stderr, flush=True)


def check_threshold(value: float) -> float:
    """``--threshold`` checked: in [0.5, 1).

    Parameters
    ----------
    value : float
        The ``--threshold`` given, a probability.

    Returns
    -------
    float
        ``value`` unchanged.

    Raises
    ------
    InputError
        When ``value`` is outside [0.5, 1).
    """
    if not 0.5 <= value < 1:
        raise InputError(f"--threshold must lie in [0.5, 1), got {value:g}")
    return value


def rope_fraction(points: float | None) -> float | None:
    """``--rope`` (points) as the fraction the statistics use; InputError outside [0, 100).

    Parameters
    ----------
    points : float or None
        The ``--rope`` given, in points of the metric (0.5 is half an F1 point); None for no rope.

    Returns
    -------
    float or None
        ``points / 100`` (rounded to 12 decimals); None for None.

    Examples
    --------
    >>> rope_fraction(0.5), rope_fraction(None)
    (0.005, None)
    """
    if points is None:
        return None
    if not 0 <= points < 100:
        raise InputError(f"--rope must lie in [0, 100) points, got {points:g}")
    return round(points / 100, 12)


def rope_warning(points: float | None) -> str | None:
    """The warning for a rope below 0.05 points — almost surely a fraction typed by habit (earlier versions
    took ``--rope 0.005`` for half a point) — to print once every check has passed; else None.

    Parameters
    ----------
    points : float or None
        The ``--rope`` given, in points; None for no rope.

    Returns
    -------
    str or None
        The warning (without ``textbcv:``), for a rope strictly between 0 and 0.05 points.

    Examples
    --------
    >>> print(rope_warning(0.005))
    --rope 0.005 is in points: ±0.005 F1 points, a rope of almost nothing; for ±0.5 points give --rope 0.5
    >>> rope_warning(0.5) is None
    True
    """
    if points is None or not 0 < points < 0.05:
        return None
    return (f"--rope {points:g} is in points: ±{points:g} F1 points, a rope of almost nothing; "
            f"for ±{100 * points:g} points give --rope {100 * points:g}")



def add_corpus_args(parser: argparse.ArgumentParser, files: bool = True, optional: str | None = None) -> None:
    """Add ``FILE...``, ``--format``, ``--columns``, ``--scheme`` and ``--encoding`` to ``parser``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser; the options land in ``files``, ``format``, ``columns``, ``corpus_scheme`` and
        ``encoding`` of its namespace.
    files : bool
        Add the positional ``FILE...`` (one or more corpus files); default True.
    optional : str, optional
        The files may be left out for this reason (said in their help), e.g. another design's options.
    """
    if files:
        parser.add_argument("files", nargs="*" if optional else "+", metavar="FILE",
                            help="corpus files, read in the order given (.gz files are decompressed)"
                            + (f"; {optional}" if optional else ""))
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="corpus format (default: detected from the content and extension, and said on stderr)")
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
    parser.add_argument("--encoding", default="utf-8", metavar="ENC",
                        help="text encoding of the corpus files, e.g. latin-1 (default: utf-8)")
    parser.add_argument("--label-names", metavar="FILE", default=None,
                        help="for jsonl or arrow corpora with integer tag ids: the tag of each id, as a JSON list or "
                             "one name per line (default: the dataset's own, else label_names.json or "
                             "dataset_info.json beside the file)")


def read_corpus_args(args: argparse.Namespace) -> Corpus:
    """Read the corpus named by the options :func:`add_corpus_args` added
    (:func:`textbcv.comparison.corpus_files.read_files`).

    A detected format is said on stderr when the command has succeeded (``args.notes``) and set in
    ``args.format``.

    Parameters
    ----------
    args : argparse.Namespace
        The namespace of :func:`add_corpus_args`'s options.

    Returns
    -------
    Corpus
        The corpus as read, before any task preparation.

    Raises
    ------
    InputError
        When the encoding or format is refused or a file cannot be read.
    """
    from textbcv.comparison.corpus_files import read_files

    corpus, note = read_files(args.files, args.format, args.columns, args.corpus_scheme, args.encoding,
                              getattr(args, "label_names", None))
    args.format = corpus.format
    if note:  # said once the command has succeeded (an error stays the only line on stderr)
        args.notes = [*getattr(args, "notes", []), note]
    return corpus


def command_systems(args: argparse.Namespace, seed: int | None = None, train_seeds: int = 1) -> list:
    """The command systems of ``--system NAME=COMMAND``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    seed, train_seeds : int
        Every command system's training seed and seeds per fold (``compare``'s ``--train-seed`` and
        ``--train-seeds``; calibrate sets each side's).

    Returns
    -------
    list of System
        One per ``--system``, in the order given.
    """
    from textbcv.tagging.command import command_spec  # here: `textbcv --help` stays fast
    from textbcv.tagging.system import System

    out = []
    scheme = args.command_scheme or ("bmes" if args.task == "cws" else "iob2")
    for text in args.command_systems:
        name, eq, command = text.partition("=")
        if not eq or not name.strip() or not command.strip():
            raise InputError(f"--system {text!r}: write NAME=COMMAND, e.g. --system bert='python train.py --train "
                             "{train} --test {test} --out {pred} --seed {seed}'")
        spec = command_spec(command, format=args.command_format, timeout=args.task_timeout, devices=args.devices)
        out.append(System(name.strip(), scheme, command=spec, seed=seed, train_seeds=train_seeds))
    return out
