"""The RESULTS.md section "Designs side by side" is what scripts/design_table.py computes from the committed units.

No training: the script reads docs/fixed_study.json, docs/design_study.json and the calibrate folders' null units,
and reruns ASO and the t-test on the per-fold counts at the m where each design decides.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import design_table  # noqa: E402


def _unit(r: int, a, b) -> dict:
    return {"r": r, "moments": {"counts_a": a, "counts_b": b}}


def test_field_calls_follow_the_per_fold_f1():
    a = [[80, 20, 20]] * 6
    b = [[90 + i % 2, 10, 10] for i in range(6)]  # B ahead on every fold
    calls = design_table.field_calls(_unit(0, a, b), 3)
    assert calls == {"aso": "B", "t": "B"}
    assert design_table.field_calls(_unit(0, b, a), 3) == {"aso": "A", "t": "A"}
    same = design_table.field_calls(_unit(1, a, a), 3)
    assert same["t"] is None  # no spread: no t-test call


def test_field_calls_read_only_the_first_2m_folds():
    a = [[80, 20, 20]] * 6 + [[50, 50, 50]] * 8
    b = [[90 + i % 2, 10, 10] for i in range(6)] + [[10, 90, 90]] * 8
    assert design_table.field_calls(_unit(0, a, b), 3) == {"aso": "B", "t": "B"}
    assert design_table.field_calls(_unit(0, a, b), 7)["t"] == "A"  # the later folds pull the other way
    f1 = design_table._f1(np.asarray(b[:6], dtype=float))
    assert np.allclose(f1[:2], [2 * 90 / 200, 2 * 91 / 202])


@pytest.mark.slow
def test_committed_section_is_the_rerun():
    table = design_table.build(ROOT / "docs")
    assert json.loads((ROOT / "docs" / "design_table.json").read_text(encoding="utf-8")) == json.loads(
        json.dumps(table))
    text = (ROOT / "docs" / "RESULTS.md").read_text(encoding="utf-8")
    assert design_table.render(table) in text
    for name in design_table.CORPORA:
        designs = table["corpora"][name]["designs"]
        assert set(designs) == {"fixed", "m3", design_table.DEFAULT}
        assert designs["m3"]["null"]["R"] >= 200 and designs[design_table.DEFAULT]["null"]["R"] >= 200
