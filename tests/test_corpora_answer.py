"""``textbcv test RUN1 RUN2 RUN3``: the hierarchical answer across corpora from the runs' paired posteriors, and
the refusal of runs that do not belong together."""

from __future__ import annotations

import json
import shutil

import pytest
from scipy import stats

from textbcv.cli import main
from textbcv.comparison.from_folds import stored_paired
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora
from textbcv.stats.hierarchical import hierarchical

FAST = ["--task", "ner", "--m", "2", "--max-iterations", "5", "--quiet", "--no-plots"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("corpora")
    sents = read_corpus(bundled_corpora()["ner"])
    docs: dict = {}
    for s in sents:
        docs.setdefault(s.document, []).append(s)
    keys = sorted(docs)[:60]
    out = []
    for i in range(3):
        part = d / f"part{i}.conll"
        write_conll([s for k in keys[i::3] for s in docs[k]], part, docstart=True)
        assert main(["compare", str(part), *FAST, "--systems", "iob2,iobes", "--out", str(d / f"run{i}")]) == 0
        out.append(d / f"run{i}")
    return d, out


def test_the_answer_is_the_hierarchical_model_of_the_stored_posteriors(runs, capsys):
    d, rs = runs
    capsys.readouterr()
    assert main(["test", *map(str, rs), "--rope", "0.5", "--json", "--plots", str(d / "plots")]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["corpora"] == ["run0 (part0.conll)", "run1 (part1.conll)", "run2 (part2.conll)"]  # the runs named
    (p,) = answer["pairs"]
    y, s = [], []
    for r in rs:
        post = stored_paired(json.loads((r / "report.json").read_text(encoding="utf-8")))[("iob2", "iobes")]["f1"]
        y.append(post.estimate)
        s.append(post.sd * stats.t.ppf(0.975, post.df) / stats.norm.ppf(0.975))
    h = hierarchical(y, s, answer["corpora"], rope=0.005)
    assert p["p_b_better"] == pytest.approx(h.p_b_better) and p["mu"] == pytest.approx(h.mu)
    assert p["p_b_better"] + p["p_a_better"] + p["p_equivalent"] == pytest.approx(1)
    assert p["decision"] in ("iob2 better", "iobes better", "practically equivalent", "no clear difference")
    assert (d / "plots" / "across_corpora.png").stat().st_size > 1000
    # with a rope and no equivalence shown: the SD that equivalence needs (rope / z at the threshold, best case) and
    # the SD now (the overall interval's half-width / 1.96)
    if p["decision"] == "no clear difference" and abs(p["mu"]) <= 0.005:
        reach = p["equivalence_reach"]
        assert reach["sd_needed"] == pytest.approx(0.005 / stats.norm.ppf(0.975))
        width = p["mu_interval"][1] - p["mu_interval"][0]
        assert reach["sd_now"] == pytest.approx(width / (2 * stats.norm.ppf(0.975)))
        assert reach["data_factor"] == pytest.approx(max(1.0, (reach["sd_now"] / reach["sd_needed"]) ** 2))
        assert main(["test", *map(str, rs), "--rope", "0.5"]) == 0
        text = capsys.readouterr().out
        assert (f"posterior SD of at most {100 * reach['sd_needed']:.2f} points even at an estimate of 0; it is about "
                f"{100 * reach['sd_now']:.2f} now") in text
    else:
        assert "equivalence_reach" not in p
    assert main(["test", *map(str, rs)]) == 0
    text = capsys.readouterr().out
    assert "Across 3 corpora" in text and "overall" in text and "on a new corpus of this kind" in text
    assert "to show practical equivalence" not in text  # no rope, no equivalence to show


def test_runs_that_do_not_belong_together_are_refused(runs, tmp_path, capsys):
    d, rs = runs
    capsys.readouterr()
    assert main(["test", str(rs[0]), str(rs[0])]) == 2  # the same corpus twice
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "splits the same corpus as" in err
    out = tmp_path / "o"
    assert main(["compare", str(d / "part1.conll"), *FAST, "--systems", "iob2,bilou", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["test", str(rs[0]), str(tmp_path / "o")]) == 2
    assert "must compare the same systems" in capsys.readouterr().err
    other = tmp_path / "mode"
    shutil.copytree(rs[2], other)
    report = json.loads((other / "report.json").read_text(encoding="utf-8"))
    report["meta"]["options"]["mode"] = "partial"
    (other / "report.json").write_text(json.dumps(report), encoding="utf-8")
    assert main(["test", str(rs[0]), str(other)]) == 2
    assert "must share their mode" in capsys.readouterr().err
    assert main(["test", str(rs[0]), str(rs[1]), "--per-type"]) == 2
    assert "applies to one run" in capsys.readouterr().err


def test_the_text_says_what_equivalence_would_need():
    """With a rope, no clear difference and an overall estimate inside the rope, the answer says which posterior SD
    P(equivalent) >= the threshold needs (rope / z, at an estimate of 0) against the SD now, and how much more text."""
    from textbcv.comparison.corpora import equivalence_reach
    from textbcv.report.terminal import corpora_text as format_corpora

    h = hierarchical([0.001, -0.002, 0.0015], [0.004, 0.005, 0.006], ["a", "b", "c"], rope=0.005)
    reach = equivalence_reach(h.mu_interval, 0.05, 0.005, 0.95)
    assert reach["sd_needed"] == pytest.approx(0.005 / stats.norm.ppf(0.975)) and reach["data_factor"] > 1
    answer = {"corpora": ["a", "b", "c"], "threshold": 0.95, "assumptions": "as stated",
              "pairs": [{"a": "A", "b": "B", **h.to_dict(), "decision": "no clear difference",
                         "equivalence_reach": reach}]}
    text = format_corpora(answer)
    assert (f"the overall ΔF1 would need a posterior SD of at most {100 * reach['sd_needed']:.2f} points even at an "
            f"estimate of 0; it is about {100 * reach['sd_now']:.2f} now: about") in text
    del answer["pairs"][0]["equivalence_reach"]
    assert "to show practical equivalence" not in format_corpora(answer)
