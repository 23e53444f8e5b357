"""``textbcv split``: write a split manifest (CONTRACT.md), optionally print its quality report."""

from __future__ import annotations

import numpy as np

from textbcv._io import check_writable
from textbcv.cli.common import add_corpus_args, read_corpus_args
from textbcv.errors import InputError


BALANCE = ("label", "lemma", "length")


def parse_balance(text: str) -> tuple[str, ...]:
    """The properties of ``--balance`` (``"none"``: none), each one of :data:`BALANCE`.

    Examples
    --------
    >>> parse_balance("label, length"), parse_balance("none")
    (('label', 'length'), ())
    """
    if text.strip() == "none":
        return ()
    props = tuple(x.strip() for x in text.split(",") if x.strip())
    for b in props:
        if b not in BALANCE:
            raise InputError(f"--balance: unknown property {b!r} (properties: {', '.join(BALANCE)}, or none)")
    return props


def register(subparsers) -> None:
    p = subparsers.add_parser("split", help="block-regularized m×2 CV splits of a corpus (JSON manifest)")
    add_corpus_args(p)
    p.add_argument("--m", type=int, default=3, help="number of splits (2m folds; default 3)")
    p.add_argument("--method", choices=("bcv", "random", "brhs"), default="bcv")
    p.add_argument("--balance", default="label,lemma,length", metavar="{label,lemma,length,...|none}")
    p.add_argument("--group-by", choices=("sentence", "document"), default="sentence")
    p.add_argument("--keep-duplicates-apart", action="store_true",
                   help="do not force exact duplicate sentences into one block")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--report", action="store_true", help="print χ²/J per split beside a random m×2 CV")
    p.add_argument("--out", required=True, metavar="SPLITS.json")
    p.set_defaults(func=run)


def run(args) -> int:
    from textbcv.split.manifest import make_splits

    if args.m < 1:
        raise InputError(f"--m must be at least 1, got {args.m}")
    if args.seed < 0:
        raise InputError(f"--seed must be a non-negative integer, got {args.seed}")
    balance = parse_balance(args.balance)
    check_writable(args.out)
    corpus = read_corpus_args(args)
    kw = dict(m=args.m, balance=balance, group_by=args.group_by, seed=args.seed,
              duplicates_together=not args.keep_duplicates_apart)
    s = make_splits(corpus, method=args.method, **kw)
    r = make_splits(corpus, method="random", **kw) if args.report else None  # before writing: no output on error
    s.save(args.out)
    if r is not None:
        print(f"{'split':>5}  {'measure':<8} {'J':>5} {args.method + ' χ²/J':>12} {'random χ²/J':>12}")
        for name in s.quality["chi2_per_df"]:
            a, b = s.quality["chi2_per_df"][name], r.quality["chi2_per_df"][name]
            for i in range(len(a)):
                print(f"{i:>5}  {name:<8} {s.quality['categories'][name][i]:>5} {a[i]:>12.4f} {b[i]:>12.4f}")
            print(f"{'mean':>5}  {name:<8} {'':>5} {np.mean(a):>12.4f} {np.mean(b):>12.4f}")
        print(f"max |φ − n/4|: {s.quality['overlap_max_deviation']} ({args.method}), "
              f"{r.quality['overlap_max_deviation']} (random)")
    return 0
