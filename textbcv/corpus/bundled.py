"""The corpora that come with textbcv: a small English NER corpus and a small Chinese word-segmentation corpus.

They live in ``corpora/`` of a checkout (``corpora/README.md`` says where they come from) and ship
with the package as its data (``textbcv/data/corpora``, a link to ``corpora/`` in the source tree), so
a ``pip install`` has them too; ``textbcv demo`` and the examples run on them.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["bundled_corpora"]


def bundled_corpora() -> dict[str, Path]:
    """Paths of the bundled corpora: ``{"ner": ner_en.conll, "cws": cws_zh.txt}``.

    Returns
    -------
    dict
        ``"ner"`` (English-like NER, CoNLL columns, 200 documents) and ``"cws"`` (Chinese word
        segmentation, one segmented sentence per line) → the file's path.

    Examples
    --------
    >>> sorted(bundled_corpora()), bundled_corpora()["ner"].name
    (['cws', 'ner'], 'ner_en.conll')
    """
    root = Path(str(resources.files("textbcv").joinpath("data/corpora"))).resolve()
    return {"ner": root / "ner_en.conll", "cws": root / "cws_zh.txt"}
