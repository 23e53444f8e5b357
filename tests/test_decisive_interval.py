"""The headline shows the interval the decision rule decides by: a call never stands beside an interval crossing 0."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.report.verdicts import decisive_words
from textbcv.stats.compare import bayes_answer

EXAMPLE = json.loads((Path(__file__).resolve().parents[1] / "docs" / "example-counts.json").read_text())


def _scaled(k: float) -> dict:
    return {s: [{c: int(round(v * k)) for c, v in f.items()} for f in fs] for s, fs in EXAMPLE["systems"].items()}


def test_a_call_whose_95_interval_crosses_0_shows_the_interval_that_decided():
    for k in np.linspace(2.0, 3.0, 41):
        c = next(x for x in bayes_answer(_scaled(k), 3).comparisons if x.metric == "f1")
        if 0.95 <= c.p_b_better < 0.975:
            break
    else:
        pytest.fail("no scale gives 0.95 <= P < 0.975")
    d = c.difference
    assert c.decision == "B better" and d.ci[0] < 0  # the 95% interval crosses 0, yet the rule calls B better
    assert d.level == pytest.approx(0.9) and d.decisive[0] > 0
    words = decisive_words(c)
    assert words.startswith("B − A = +") and "the rule's 90% interval [+" in words and words.endswith("lies above 0")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(50, 400), st.integers(0, 80), st.integers(0, 80)), min_size=4, max_size=4),
       st.lists(st.tuples(st.integers(-30, 30), st.integers(-20, 20), st.integers(-20, 20)), min_size=4, max_size=4),
       st.sampled_from([0.9, 0.95, 0.975]), st.sampled_from([None, 0.005]))
def test_the_decisive_interval_agrees_with_the_decision(base, shift, threshold, rope):
    counts = {"A": [{"tp": t, "fp": p, "fn": n} for t, p, n in base],
              "B": [{"tp": max(1, t + dt), "fp": max(0, p + dp), "fn": max(0, n + dn)}
                    for (t, p, n), (dt, dp, dn) in zip(base, shift)]}
    c = next(x for x in bayes_answer(counts, 2, threshold=threshold, rope=rope).comparisons if x.metric == "f1")
    lo, hi = c.difference.decisive
    r = rope or 0.0
    eps = 1e-7  # the interval's ends are found to about 1e-10; P at the threshold itself is a tie
    if abs(c.p_b_better - threshold) > eps:
        assert (lo > r) == (c.decision == "B better"), (lo, c.p_b_better)
    if abs(c.p_a_better - threshold) > eps:
        assert (hi < -r) == (c.decision == "A better"), (hi, c.p_a_better)


def test_a_variance_part_floored_at_0_is_said_as_a_floor():
    from textbcv.report.model import CompareReport
    from textbcv.report.sources import sources_line

    golden = Path(__file__).resolve().parent / "data" / "golden" / "ner" / "report.json.golden"
    report = json.loads(golden.read_text(encoding="utf-8"))
    for c in report["comparisons"]:
        if c["metric"] == "f1" and c["difference"].get("basis") == "paired":
            c["difference"]["var_model"] = 0.0
    line = sources_line(CompareReport.from_dict(report))
    assert "the models' own noise too small to measure" in line and "0.00" not in line
    assert "estimated at or below 0 and is counted as 0" in line
