"""``textbcv demo``: the main job on the bundled corpora (what ``scripts/demo`` runs)."""

from __future__ import annotations

import argparse
from pathlib import Path

from textbcv.cli.stats import corpus_stats, format_stats
from textbcv.corpus import read_conll, read_segmented
from textbcv.errors import InputError

__all__ = ["register", "run", "bundled_corpora"]


def bundled_corpora() -> dict[str, Path]:
    """Paths of the bundled corpora (``corpora/`` beside the package in a checkout)."""
    root = Path(__file__).resolve().parents[2] / "corpora"
    return {"ner": root / "ner_en.conll", "cws": root / "cws_zh.txt"}


def register(sub) -> None:
    p = sub.add_parser("demo", help="run the main job on the bundled corpora",
                       description="Run textbcv's main job on the bundled corpora.")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    paths = bundled_corpora()
    for task, path in paths.items():
        if not path.exists():
            raise InputError("bundled corpus not found; run scripts/make_corpora.py", file=str(path))
    ner = read_conll(paths["ner"])
    cws = read_segmented(paths["cws"])
    print("Bundled NER corpus (CoNLL-2003 layout)\n" + format_stats(corpus_stats(ner), ner))
    print("Bundled word-segmentation corpus (SIGHAN layout)\n" + format_stats(corpus_stats(cws), cws), end="")
    return 0
