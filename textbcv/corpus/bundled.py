"""The corpora that ship with textbcv (``corpora/``; see ``corpora/README.md``): small English NER, Chinese CWS."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["bundled_corpora"]


def bundled_corpora() -> dict[str, Path]:
    """Paths of the bundled corpora: ``{"ner": ner_en.conll, "cws": cws_zh.txt}``.

    Returns
    -------
    dict

    Examples
    --------
    >>> sorted(bundled_corpora()), bundled_corpora()["ner"].name
    (['cws', 'ner'], 'ner_en.conll')
    """
    root = Path(str(resources.files("textbcv").joinpath("data/corpora"))).resolve()
    return {"ner": root / "ner_en.conll", "cws": root / "cws_zh.txt"}
