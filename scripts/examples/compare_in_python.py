#!/usr/bin/env python3
"""The Python path: the same two taggers through ``textbcv.compare``.

    python scripts/examples/compare_in_python.py CORPUS --out run-py [--m 3]

gives the report of the command-line path (``byo_cli.sh``: split --export,
train_on_folds.py, evaluate) — the same ``report.json`` apart from the keys
that say how and when the folds were made (``textbcv.api.RUN_KEYS_THAT_DIFFER``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from taggers import make_taggers  # noqa: E402

import textbcv  # noqa: E402


def compare_in_python(corpus: str, out: str | None, m: int = 3, quick: bool = False) -> "textbcv.CompareResult":
    """Both taggers on the m×2 folds of ``corpus`` (seed 0, the splits of ``textbcv split``'s defaults)."""
    systems = [textbcv.System(name, "iob2", tagger=tagger) for name, tagger in make_taggers(quick).items()]
    return textbcv.compare(corpus, systems, m=m, seed=0, out=out, progress=False)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("corpus", help="a CoNLL NER corpus")
    p.add_argument("--out", required=True, help="run directory")
    p.add_argument("--m", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="few training iterations (for tests)")
    a = p.parse_args()
    result = compare_in_python(a.corpus, a.out, a.m, a.quick)
    print(result.markdown())
    return 0


if __name__ == "__main__":
    sys.exit(main())
