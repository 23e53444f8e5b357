"""``textbcv split``: write a split manifest (splits.json, docs/formats.md), optionally print its quality report."""

from __future__ import annotations

import os
import sys

import numpy as np

from textbcv import defaults
from textbcv._io import check_not_input, check_writable
from textbcv.cli.common import add_corpus_args, read_corpus_args
from textbcv.errors import InputError

#: Per-half χ²/J targets of a well balanced split (reported against the floor).
TARGETS = {"label": 0.05, "length": 0.3, "lemma": 0.3}


def register(subparsers) -> None:
    """Add the subcommand's parser to ``subparsers``, its ``func`` set to :func:`run`.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        The subparsers of the ``textbcv`` parser.
    """
    p = subparsers.add_parser("split", help="block-regularized m×2 CV splits of a corpus (JSON manifest)")
    add_corpus_args(p)
    p.add_argument("--m", type=int, default=3, help="number of splits (2m folds; default 3)")
    p.add_argument("--method", choices=("bcv", "bcv-select", "random", "brhs"), default="bcv",
                   help="bcv: balanced blocks (default); bcv-select: the thesis's best of --select random BCV "
                        "split sets; random: Dietterich's m×2 CV; brhs: balanced repeated half-sampling")
    p.add_argument("--balance", default=",".join(defaults.BALANCE) or "none", metavar="{label,lemma,length,...|none}",
                   help=f"properties balanced between the halves (default none: {defaults.balance_help()}; length "
                        "balances the length distribution itself)")
    p.add_argument("--group-by", choices=defaults.GROUP_BY_CHOICES, default=defaults.GROUP_BY,
                   help="units kept whole (default auto: documents when the corpus marks them, else sentences; on "
                        "CoNLL-2003 "
                        "sentence-level halves leave 8.9%% of test tokens unseen against 11.5%% by document)")
    p.add_argument("--keep-duplicates-apart", action="store_true",
                   help="do not force exact duplicate sentences into one block")
    p.add_argument("--select", type=int, default=100, metavar="R",
                   help="random BCV split sets drawn by bcv-select (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random choices of the splits (default 0)")
    p.add_argument("--effort", type=float, default=1.0, metavar="E",
                   help="balancing search effort (default 1.0; 0 = dealing only; time grows about linearly)")
    p.add_argument("--report", action="store_true",
                   help="print χ²/J per split and measure beside bcv-select and random m×2 CV")
    p.add_argument("--out", required=True, metavar="SPLITS.json",
                   help="the split manifest to write (an existing file is replaced only with --force)")
    p.add_argument("--force", action="store_true", help="replace --out when it exists")
    p.add_argument("--export", metavar="DIR",
                   help="also write every fold's train and test sentences (as in the source) to DIR/fold-{i}-{d}/, "
                        "for a tagger trained outside textbcv; then `textbcv evaluate` scores its predictions "
                        "(default: none; "
                        "DIR must be new or empty)")
    p.add_argument("--to", choices=("source", "hf"), default="source",
                   help="with --export: write the folds as in the source (default), or as Hugging Face datasets JSON "
                        "lines (train.jsonl, test.jsonl with integer ner_tags, label_names.json)")
    p.set_defaults(func=run)


def corpus_command(args) -> list[str]:
    """The corpus arguments (files and format options) that read the same corpus again.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line, with ``format`` set.

    Returns
    -------
    list of str
    """
    out = list(args.files)
    if args.format != "conll":
        out += ["--format", args.format]
    if args.columns:
        out += ["--columns", args.columns]
    if args.corpus_scheme:
        out += ["--scheme", args.corpus_scheme]
    return out


def run(args) -> int:
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
    from textbcv.split.make import check_options, make_splits

    # the library's validation, before the corpus is read (main() words its errors as this command's options)
    check_options(args.m, args.method, args.seed, balance=args.balance, effort=args.effort, select=args.select)
    check_writable(args.out)
    check_not_input(args.out, args.files)
    if args.export:
        check_not_input(args.export, args.files, "export")
    elif args.to != "source":
        raise InputError("--to applies with --export (the format of the exported folds)")
    if os.path.lexists(args.out) and not args.force:  # a link, even to nothing, is the user's too
        raise InputError("--out: the file exists; add --force to replace it, or choose another name", file=args.out)
    if args.export:
        from textbcv.split.export import check_export_dir

        if args.method == "brhs":
            raise InputError("--export needs 2-fold splits (--method bcv, bcv-select or random), not brhs")
        check_export_dir(args.export)
    corpus = read_corpus_args(args)
    kw = dict(m=args.m, balance=args.balance, group_by=args.group_by, seed=args.seed,
              duplicates_together=not args.keep_duplicates_apart, effort=args.effort)
    s = make_splits(corpus, method=args.method, select=args.select, **kw)
    if args.report:  # computed before writing, so that a failure leaves no output file
        balanced = args.balance.strip() not in ("", "none")  # bcv-select selects on the balance measures
        others = [(meth, make_splits(corpus, method=meth, select=args.select, **kw))
                  for meth in ("bcv", "bcv-select", "random")
                  if meth != args.method and (balanced or meth != "bcv-select")]
    if args.export:
        from textbcv.split.export import export_folds

        export_folds(corpus, s, args.export, splits_path=args.out, command=corpus_command(args), to=args.to)
    s.save(args.out)
    if args.report:
        print(_report(args.method, s, others))
    for line in _notes(s, args.group_by, corpus):
        print(f"textbcv: note: {line}", file=sys.stderr)
    return 0


def _notes(s, group_by: str, corpus) -> list[str]:
    """The unit used, and the measured bias of any option known to bend the estimate."""
    unit = s.options.get("group_by", "sentence")
    out = []
    if unit == "document":
        out.append(f"units: documents ({corpus.n_documents} in the corpus), kept whole"
                   + (" (--group-by auto)" if group_by == "auto" else ""))
    if unit == "file":
        out.append(f"units: files ({len(corpus.files)}), kept whole (--group-by file)")
    note = defaults.unit_note(group_by, unit, corpus.n_documents, len(corpus.files))
    if note:
        out.append(note)
    out += defaults.option_notes(s.options.get("balance", ()))
    return out


def _report(method: str, s, others) -> str:
    cols = [(method, s)] + others
    head = f"{'split':>5}  {'measure':<8} {'J':>5}" + "".join(f" {name + ' χ²/J':>16}" for name, _ in cols)
    lines = [head]
    for name in s.quality["chi2_per_df"]:
        vals = [x.quality["chi2_per_df"][name] for _, x in cols]
        for i in range(len(vals[0])):
            lines.append(f"{i:>5}  {name:<8} {s.quality['categories'][name][i]:>5}"
                         + "".join(f" {v[i]:>16.4f}" for v in vals))
        lines.append(f"{'mean':>5}  {name:<8} {'':>5}" + "".join(f" {np.mean(v):>16.4f}" for v in vals))
        lines.append(f"{'max':>5}  {name:<8} {'':>5}" + "".join(f" {np.max(v):>16.4f}" for v in vals))
        floors = [x.quality.get("chi2_floor", {}).get(name) for _, x in cols]
        if any(f is not None for f in floors):
            lines.append(f"{'floor':>5}  {name:<8} {'':>5}"
                         + "".join(f" {f:>16.4f}" if f is not None else f" {'':>16}" for f in floors))
    for name, x in cols:
        ov = x.quality["overlap"]
        extra = ""
        if "bound" in ov:
            extra = (f" (bound N/4 = {ov['bound']:g} for {ov['blocks']} blocks of {ov['units_placed']} units"
                     + (f" grouping {x.n} sentences" if ov["units_placed"] != x.n else "") + ")")
        lines.append(f"max |φ − n/4| {name}: {x.quality['overlap_max_deviation']:g} "
                     f"(n/4 = {ov['n_over_4']:g}, φ in [{ov['min']}, {ov['max']}]){extra}")
    if any("chi2_floor" in x.quality for _, x in cols):
        lines.append("floor: no m×2 BCV split keeping the same units whole, with blocks as evenly filled, has a lower "
                     "mean χ²/J over its halves (textbcv.split.quality.chi2_floor)")
        for name, floor in s.quality.get("chi2_floor", {}).items():
            target = TARGETS.get(name)
            if target is not None and floor > target:
                lines.append(f"{name}: the floor {floor:.4f} is above the target χ²/J ≤ {target:g}: no split keeping "
                             "these "
                             "units whole can reach it (units holding much of one category: duplicates, documents, "
                             "paragraphs repeating their words); judge this measure against its floor")
    return "\n".join(lines)
