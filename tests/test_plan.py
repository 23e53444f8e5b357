"""``textbcv plan`` and the power of the paired posterior: detectable gains, more splits, more text."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import textbcv
from textbcv.cli import main
from textbcv.comparison.plan import M_STEPS, pair_plan
from textbcv.corpus import read_corpus, write_conll
from textbcv.stats.paired import PairedDifference

parts = st.floats(1e-8, 1e-3)


@settings(max_examples=80, deadline=None)
@given(parts, parts, st.integers(2, 10), st.floats(0.55, 0.99), st.floats(0.5, 0.95), st.floats(0, 1))
def test_power_and_detectable_are_inverse(var_test, var_model, m, threshold, power, shared):
    p = PairedDifference(0.0, var_test, var_model, 5.0, m, 400, 0.5, test_shared=shared)
    p = p.at_m(m)  # the degrees of freedom of the folds' spread, 2m − 1, as the posterior has them
    assert p.df == 2 * m - 1
    d = p.detectable(power, threshold)
    assert p.power(d, threshold) == pytest.approx(power, abs=1e-9)
    assert p.at_m(m) == p  # the same design
    more = p.at_m(m + 3)
    assert more.var_test >= p.var_test * shared * (1 - 1e-12) and more.var <= p.var  # more splits never widen it
    assert more.detectable(power, threshold) <= d + 1e-12


def test_detectable_is_the_normal_quantiles_for_a_known_sd():
    p = PairedDifference(0.0, 0.003 ** 2, 0.0, math.inf, 3, 1000, 0.7)
    assert p.detectable(0.5, 0.95) == pytest.approx(1.6448536269514722 * 0.003)
    assert p.detectable(0.8, 0.95) == pytest.approx((1.6448536269514722 + 0.8416212335729143) * 0.003)
    assert p.detectable(0.5, 0.5) == pytest.approx(0.0, abs=1e-15)


def test_pair_plan_target():
    p = PairedDifference(0.004, 0.002 ** 2, 0.0, math.inf, 3, 900, 0.8, test_shared=0.0)
    pp = pair_plan("A", "B", p, power=0.8, threshold=0.95, target=0.003)
    # only the test part, all of it falling as 1/m: sd_m' = 0.002·√(3/m'); the first step under the target
    need = [k for k in M_STEPS if k > 3 and (1.6448536 + 0.8416212) * 0.002 * math.sqrt(3 / k) <= 0.003]
    assert pp.m_for_target == need[0]
    assert pp.data_factor == pytest.approx((pp.detectable / 0.003) ** 2)
    stuck = PairedDifference(0.004, 0.002 ** 2, 0.0, math.inf, 3, 900, 0.8)  # the sentences' own difficulty only
    assert pair_plan("A", "B", stuck, target=0.003).m_for_target is None


def test_pair_plan_with_measured_seeds():
    # test part 1e-6, seed part 3e-6 measured with 2 seeds per system (share of A ½): S' seeds leave 3e-6 · 2/S'
    p = PairedDifference(0.004, 1e-6, 0.0, math.inf, 3, 900, 0.8, var_seed=3e-6, seeds=(2, 2))
    pp = pair_plan("A", "B", p, power=0.8, threshold=0.95, target=0.003)
    z = 1.6448536 + 0.8416212
    assert pp.seeds == (2, 2) and [k for k, _ in pp.by_seeds] == [3, 5, 10, 20]
    for k, d in pp.by_seeds:
        q = p.at_seeds(k)
        assert q.sd == pytest.approx(math.sqrt(1e-6 + 3e-6 * 2 / k), rel=1e-9)
        assert q.df == p.df  # the degrees of freedom are the folds' spread's
        assert d == pytest.approx(q.detectable(0.8, 0.95)) and d >= z * q.sd
    need = [k for k, d in pp.by_seeds if d <= 0.003]
    assert pp.seeds_for_target == (need[0] if need else None) and need
    assert pair_plan("A", "B", p, target=0.001).seeds_for_target is None  # the test part alone is above it
    # one seed per fold (not measured on its own): no seed rows
    assert pair_plan("A", "B", PairedDifference(0.004, 1e-6, 3e-6, math.inf, 3, 900, 0.8)).by_seeds == ()


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    d = tmp_path_factory.mktemp("plan")
    corpus = d / "ner.conll"
    write_conll(read_corpus(textbcv.bundled_corpora()["ner"])[:600], corpus)
    out = d / "run"
    assert main(["compare", str(corpus), "--task", "ner", "--systems", "iob2,iobes", "--m", "3",
                 "--max-iterations", "10", "--quiet", "--no-plots", "--out", str(out)]) == 0
    return out


def test_plan_command_and_api_agree(run, capsys):
    capsys.readouterr()
    assert main(["plan", str(run), "--target-delta", "1.5", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    api = textbcv.plan(run, target_delta=1.5).to_dict()
    assert cli == json.loads(json.dumps(api))
    (pair,) = cli["pairs"]
    assert (pair["a"], pair["b"], pair["m"], pair["target"]) == ("iob2", "iobes", 3, 0.015)
    assert 0 < pair["detectable_50"] < pair["detectable"]
    assert [k for k, _ in pair["by_m"]] == [k for k in M_STEPS if k > 3]
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    c = next(x for x in report["comparisons"] if x["metric"] == "f1")
    assert c["difference"]["basis"] == "paired"
    p = PairedDifference.from_dict({**c["difference"], "metric": "f1"})
    assert pair["detectable"] == pytest.approx(p.detectable(0.8, report["threshold"]))
    # the report states the same figure
    md = (run / "report.md").read_text(encoding="utf-8")
    assert f"detects true gains of about {100 * pair['detectable']:.2f} F1 points with 80% power" in md
    assert main(["plan", str(run)]) == 0
    text = capsys.readouterr().out
    assert (f"iob2 vs iobes (iobes − iob2 = {100 * pair['estimate']:+.2f} points at m = 3): "
            f"{100 * pair['detectable']:.2f} points") in text


def test_plan_refuses_runs_without_a_paired_posterior(run, tmp_path, capsys):
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    for c in report["comparisons"]:
        c.pop("difference")
    (tmp_path / "report.json").write_text(json.dumps(report), encoding="utf-8")
    capsys.readouterr()
    assert main(["plan", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("textbcv: error: ") and "no pair of this run has a paired posterior" in err
    assert err.count("\n") == 1
    assert main(["plan", str(run), "--power", "1.5"]) == 2
    assert "power must lie in (0, 1)" in capsys.readouterr().err


def test_difference_independent_is_the_theses_bayes_test(run, tmp_path, capsys):
    """--difference independent: the two systems' own posteriors as if independent (the thesis's test), said
    under the table and in the command that remakes the report; `test RUN --difference independent` alike."""
    from textbcv.stats.bayes import prob_better
    from textbcv.stats.posterior import posteriors

    corpus = str(run.parent / "ner.conll")  # the fixture's corpus
    out = tmp_path / "indep"
    assert main(["compare", corpus, "--task", "ner", "--systems", "iob2,iobes", "--m", "3", "--max-iterations", "10",
                 "--quiet", "--no-plots", "--difference", "independent", "--out", str(out)]) == 0
    r = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert r["meta"]["options"]["difference"] == "independent"
    assert {c["difference"]["basis"] for c in r["comparisons"]} == {"independent"}
    c = next(x for x in r["comparisons"] if x["metric"] == "f1")
    cf = r["count_factor"]
    want = prob_better(*[posteriors(**r["counts"][n], c=cf[n]["f1"])["f1"] for n in ("iob2", "iobes")])
    assert c["p_b_better"] == pytest.approx(want["p_b_better"], abs=1e-12)
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "Differences are not paired" in md and "--difference independent" in md
    capsys.readouterr()
    assert main(["test", str(run), "--difference", "independent", "--json"]) == 0
    t = json.loads(capsys.readouterr().out)
    assert {x["difference"]["basis"] for x in t["comparisons"]} == {"independent"}
    with pytest.raises(textbcv.InputError, match="difference: unknown basis 'both'"):
        textbcv.compare(corpus, ["iob2", "iobes"], m=1, difference="both")


def test_the_plan_says_its_runs_design_and_a_model_noise_measured_0():
    from textbcv.cli.plan import format_plan
    from textbcv.comparison.plan import Plan

    floored = PairedDifference(0.004, 0.002 ** 2, 0.0, 13.0, 7, 900, 0.8)
    measured = PairedDifference(0.004, 0.002 ** 2, 0.001 ** 2, 13.0, 7, 900, 0.8)
    assert floored.floored and not measured.floored
    plan = Plan(0.8, 0.95, None, (pair_plan("A", "B", floored), pair_plan("A", "C", measured))).to_dict()
    assert [p["floored"] for p in plan["pairs"]] == [True, False]
    stopping = {"rule": "measured", "reason": "m = 3 could not decide: extended to m = 7", "folds_per_system": 14}
    text = format_plan(plan, stopping)
    assert "The run's design: m = 3 could not decide: extended to m = 7 (14 folds per system)" in text
    assert text.count("measured 0 on these 14 folds") == 1  # the floored pair's, not the measured one's
    assert "The run's design" not in format_plan(plan)  # a report without a stopping block
