"""What `pip install .` gives besides the code: the bundled corpora and the measured evidence, as package data."""

from __future__ import annotations

import os
import re
from pathlib import Path

import textbcv
from textbcv import defaults

ROOT = Path(__file__).resolve().parents[1]


def _package_data() -> list[str]:
    """``[tool.setuptools.package-data] textbcv = [...]`` of pyproject.toml (read without a TOML parser, which
    Python 3.10 lacks)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[tool.setuptools.package-data]", 1)[1].split("\n[", 1)[0]
    return re.findall(r'"([^"]+)"', re.search(r"^textbcv\s*=\s*\[(.*?)\]", section, re.M | re.S).group(1))


def test_bundled_corpora_ship_with_the_package():
    assert {"data/*.json", "data/corpora/*"} <= set(_package_data())
    link = ROOT / "textbcv" / "data" / "corpora"
    # in the source tree the package's copy is a link to corpora/, so there is one home for the files
    assert link.is_symlink() and os.readlink(link) == "../../corpora"
    paths = textbcv.bundled_corpora()
    assert all(p.is_file() for p in paths.values())
    assert {p.parent for p in paths.values()} == {(ROOT / "corpora").resolve()}


def test_evidence_is_package_data_not_source():
    assert not (ROOT / "textbcv" / "_evidence.py").exists()
    ev = defaults.evidence()
    assert set(ev) == {"about", "real_text", "real_text_balance", "real_text_pairs_null", "seed_null",
                       "model_noise_floor", "calibration_corpora", "calibration_corpora_close",
                       "calibration_corpora_seeds", "aso_null", "fixed_training_part"}
    assert set(ev["about"]) == set(ev) - {"about"}  # each study states what its keys hold
    assert ev["real_text"]["clustered"]["conll"]["R"] >= 100
