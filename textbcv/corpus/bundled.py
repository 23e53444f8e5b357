"""The corpora that come with textbcv: a small English NER corpus and a small Chinese word-segmentation corpus.

They live in ``corpora/`` beside the package in a checkout (``corpora/README.md`` says where they
come from); ``textbcv demo`` and the examples run on them.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["bundled_corpora"]


def bundled_corpora() -> dict[str, Path]:
    """Paths of the bundled corpora: ``{"ner": ner_en.conll, "cws": cws_zh.txt}``.

    Examples
    --------
    >>> sorted(bundled_corpora()), bundled_corpora()["ner"].name
    (['cws', 'ner'], 'ner_en.conll')
    """
    root = Path(__file__).resolve().parents[2] / "corpora"
    return {"ner": root / "ner_en.conll", "cws": root / "cws_zh.txt"}
