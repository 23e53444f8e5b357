"""``textbcv calibrate``: null pairs on data sets drawn from the corpus, answered exactly as compare answers."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from conftest import calibrate_cli as cli
from conftest import calibrate_in_process as in_process
from scipy import stats as sst

import textbcv
from textbcv.calibration.draw import draw_data_set
from textbcv.calibration.moments import posterior_from_moments
from textbcv.calibration.study import CalibrationSettings, null_unit
from textbcv.calibration.summary import rate, summarize_null
from textbcv.corpus import read_corpus
from textbcv.errors import InputError

NER = textbcv.bundled_corpora()["ner"]
FAST = {"reps": 2, "size": 120, "max_iterations": 2, "progress": False}


@pytest.fixture(scope="module")
def corpus():
    return read_corpus(str(NER))


def test_calibrate_cli_end_to_end_resumes_and_grows(tmp_path, capsys):
    out = tmp_path / "cal"
    args = [str(NER), "--systems", "iob2", "--reps", "2", "--size", "120", "--max-iterations", "2", "--out", str(out)]
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    assert "proxy" in r.stderr and "Traceback" not in r.stderr  # lbfgs is deterministic: ap stands in, said so
    assert "iob2 against itself (seeds 1 and 2), 2 data sets:" in r.stdout
    assert sorted(p.name for p in out.iterdir()) == ["calibration.json", "calibration.png", "settings.json",
                                                     "units.jsonl"]
    units = [json.loads(x) for x in (out / "units.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(u["system"], u["r"]) for u in units] == [("iob2", 0), ("iob2", 1)]
    first = (out / "units.jsonl").read_bytes()

    again = in_process(capsys, *args)  # a finished folder is not overwritten without --resume
    assert again.returncode == 2 and again.stderr.startswith("textbcv: error: ") and "--resume" in again.stderr

    grown = cli(*args, "--reps", "3", "--resume")  # a larger --reps: only data set 2 runs
    assert grown.returncode == 0, grown.stderr
    lines = (out / "units.jsonl").read_bytes()
    assert lines.startswith(first) and lines.count(b"\n") == 3
    summary = json.loads((out / "calibration.json").read_text(encoding="utf-8"))
    assert summary["nulls"][0]["calls"]["n"] == 3 and summary["settings"]["reps"] == 3

    # a smaller --reps: nothing runs or drops
    fewer = in_process(capsys, *args[:-2], "--out", str(out), "--resume", "--reps", "1")
    assert fewer.returncode == 0, fewer.stderr
    assert (out / "units.jsonl").read_bytes() == lines
    summary = json.loads((out / "calibration.json").read_text(encoding="utf-8"))
    assert summary["nulls"][0]["calls"]["n"] == 3 and summary["settings"]["reps"] == 3

    other = in_process(capsys, *args[:-2], "--out", str(out), "--resume", "--seeds", "1,3")
    assert other.returncode == 2 and "other settings" in other.stderr

    # ap asked for by name trains as ap standing in for lbfgs does: the same calibration, resumed
    explicit = in_process(capsys, *args[:-2], "--out", str(out), "--resume", "--algorithm", "ap", "--reps", "3")
    assert explicit.returncode == 0, explicit.stderr
    assert (out / "units.jsonl").read_bytes() == lines


def test_a_null_unit_is_compares_own_answer(corpus):
    """The unit holds exactly what compare answers on the same data set, split seed and seeds."""
    settings = CalibrationSettings("x", len(corpus), ("iob2",), (1, 2), 1, 120, 3, 0, 0.95,
                                   {"algorithm": "ap", "max_iterations": 2}, True)
    sub = corpus.subset(draw_data_set(0, 120, len(corpus), corpus.documents, 0).tolist())
    u = null_unit(sub, 0, "iob2", settings)
    split_seed = int(np.random.default_rng([0, 0, 1]).integers(2 ** 31))
    res = textbcv.compare(sub, ["iob2@1", "iob2@2"], m=3, seed=split_seed, algorithm="ap", max_iterations=2,
                          progress=False)
    c = next(x for x in res.to_dict()["comparisons"] if x["metric"] == "f1")
    assert u["estimate"] == c["difference"]["estimate"] and u["sd"] == c["difference"]["sd"]
    assert u["p_b_better"] == c["p_b_better"] and u["decision"] == c["decision"]
    again = posterior_from_moments(u["moments"], 3)  # the unit's moments give the same posterior, untrained
    assert again.estimate == pytest.approx(u["estimate"], abs=1e-15) and again.sd == pytest.approx(u["sd"], rel=1e-9)
    assert again.var_model == pytest.approx(u["var_model"], abs=1e-15)


def test_a_several_seed_null_unit_is_compares_own_answer(corpus, tmp_path):
    """With train_seeds K each side trains K seeds (A from seeds[0], B from seeds[1]), as compare --train-seeds."""
    settings = CalibrationSettings("x", len(corpus), ("iob2",), (1, 4), 1, 120, 3, 0, 0.95,
                                   {"algorithm": "ap", "max_iterations": 2, "train_seeds": 3}, True)
    sub = corpus.subset(draw_data_set(0, 120, len(corpus), corpus.documents, 0).tolist())
    u = null_unit(sub, 0, "iob2", settings)
    split_seed = int(np.random.default_rng([0, 0, 1]).integers(2 ** 31))
    res = textbcv.compare(sub, ["iob2@1", "iob2@4"], m=3, seed=split_seed, algorithm="ap", max_iterations=2,
                          train_seeds=3, progress=False)
    c = next(x for x in res.to_dict()["comparisons"] if x["metric"] == "f1")
    assert c["difference"]["seeds"] == [3, 3]  # the seeds are a part of the posterior
    assert (u["estimate"], u["sd"], u["p_b_better"]) == (c["difference"]["estimate"], c["difference"]["sd"],
                                                         c["p_b_better"])
    # the command: default seeds 1 and 1 + K, named as ranges in what it prints
    r = cli(str(NER), "--systems", "iob2", "--reps", "1", "--size", "120", "--max-iterations", "2",
            "--train-seeds", "3", "--out", str(tmp_path / "cal"))
    assert r.returncode == 0, r.stderr
    assert "iob2 against itself (seeds 1–3 and 4–6)" in r.stdout
    held = json.loads((tmp_path / "cal" / "settings.json").read_text(encoding="utf-8"))["settings"]
    assert held["seeds"] == [1, 4] and held["options"]["train_seeds"] == 3


def test_moments_answer_segmentation_too():
    """A segmented corpus (characters as tokens, sentences as clusters): the moments give compare's posterior."""
    cws = read_corpus(str(textbcv.bundled_corpora()["cws"]))
    settings = CalibrationSettings("x", len(cws), ("bmes",), (1, 2), 1, 150, 3, 0, 0.95,
                                   {"algorithm": "ap", "max_iterations": 2}, True)
    u = null_unit(cws.subset(list(range(150))), 0, "bmes", settings)
    p = posterior_from_moments(u["moments"], 3)
    assert u["moments"]["cluster_unit"] == "sentences"
    assert (p.estimate, p.sd) == pytest.approx((u["estimate"], u["sd"]), rel=1e-9, abs=1e-15)


def test_outputs_are_the_same_with_two_jobs(tmp_path):
    one = textbcv.calibrate(NER, ["iob2"], out=tmp_path / "one", **FAST)
    two = textbcv.calibrate(NER, ["iob2"], out=tmp_path / "two", jobs=2, **FAST)
    assert one.to_dict() == two.to_dict()
    for name in ("units.jsonl", "calibration.json", "calibration.png", "settings.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_documents_are_drawn_whole(corpus):
    docs = corpus.documents
    assert len(docs) > 1
    picked = set(draw_data_set(3, 200, len(corpus), docs, 7).tolist())
    assert len(picked) >= 200
    assert all(set(d) <= picked or not set(d) & picked for d in docs)


@pytest.mark.parametrize("kwargs, words", [
    ({"systems": ["iob2@1"]}, "without @SEED"),
    ({"systems": ["nosuchscheme"]}, "nosuchscheme"),
    ({"seeds": (1, 1)}, "two different"),
    ({"size": 10 ** 7}, "size must be"),
    ({"reps": 0}, "reps must be"),
    ({"threshold": 0.4}, "threshold"),
    ({"train_seeds": 3, "seeds": (1, 3)}, "overlap"),
    ({"train_seeds": 0}, "number of seeds"),
    ({"train_seeds": 2, "pair": ("iob2", "iobes")}, "close pair"),
    ({"task": "cws"}, "segments text into words"),  # the corpus's typed chunks: what compare refuses per data set
])
def test_impossible_options_fail_before_training(tmp_path, kwargs, words):
    args = {"systems": ["iob2"], **kwargs}
    with pytest.raises(InputError, match=words.replace("@", "@")):
        textbcv.calibrate(NER, args.pop("systems"), out=tmp_path / "cal", **{**FAST, **args})
    assert not (tmp_path / "cal").exists()


def test_a_corpus_the_task_cannot_read_is_refused_before_anything_is_written(tmp_path):
    # a treebank has no tag column for NER: refused with the corpus's file and line, no folder, no note
    tree = tmp_path / "tree.conllu"
    tree.write_text("".join(f"# sent_id = s{i}\n1\tA{i}\ta\tNOUN\t_\t_\t0\troot\t_\t_\n"
                            f"2\tgo\tgo\tVERB\t_\t_\t1\tdep\t_\t_\n\n" for i in range(40)), encoding="utf-8")
    r = cli(str(tree), "--systems", "iob2", "--reps", "1", "--size", "24", "--m", "3", "--out", str(tmp_path / "cal"))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"textbcv: error: {tree}:") and "needs a tag column" in r.stderr
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1 and not (tmp_path / "cal").exists()


def test_a_folder_of_other_files_is_refused_and_left_alone(tmp_path):
    (tmp_path / "mine.txt").write_text("precious", encoding="utf-8")
    r = cli(str(NER), "--systems", "iob2", "--reps", "1", "--size", "120", "--out", str(tmp_path))
    assert r.returncode == 2 and "holds no textbcv calibration" in r.stderr and r.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]


def test_a_changed_output_is_not_replaced(tmp_path):
    textbcv.calibrate(NER, ["iob2"], out=tmp_path / "cal", **{**FAST, "reps": 1})
    (tmp_path / "cal" / "calibration.json").write_text("{}", encoding="utf-8")  # the user's edit
    with pytest.raises(InputError, match="not replaced"):
        textbcv.calibrate(NER, ["iob2"], out=tmp_path / "cal", resume=True, **FAST)
    assert (tmp_path / "cal" / "calibration.json").read_text(encoding="utf-8") == "{}"


def test_wilson_rate_is_scipys():
    for k, n in [(0, 5), (3, 200), (9, 450), (200, 200)]:
        r = rate(k, n)
        ci = sst.binomtest(k, n).proportion_ci(method="wilson")
        assert (r.lo, r.hi) == pytest.approx((ci.low, ci.high)) and r.rate == k / n


def test_summary_counts_calls_and_floored_runs():
    units = ([{"estimate": 0.01, "sd": 0.004, "var_model": 0.0, "decision": "B better"}] * 3
             + [{"estimate": -0.001, "sd": 0.004, "var_model": 1e-6, "decision": "no clear difference"}] * 5
             + [{"estimate": -0.012, "sd": 0.005, "var_model": 2e-6, "decision": "A better"}] * 2)
    s = summarize_null("iob2", units)
    assert (s.calls_b.k, s.calls_a.k, s.calls.k, s.calls.n) == (3, 2, 5, 10)
    assert (s.floored.k, s.calls_floored.k, s.calls_floored.n, s.calls_other.k, s.calls_other.n) == (3, 3, 3, 2, 7)
    assert s.rms_estimate == pytest.approx(np.sqrt((3 * 0.01 ** 2 + 5 * 0.001 ** 2 + 2 * 0.012 ** 2) / 10))
    assert s.sd_over_rms == pytest.approx(0.004 / s.rms_estimate)
    assert s.floor_p == pytest.approx(sst.fisher_exact([[3, 0], [2, 5]]).pvalue)
    d = s.to_dict()
    assert all(0 <= d[k]["rate"] <= 1 for k in ("calls", "calls_a", "calls_b", "floored"))


def test_a_folder_another_live_process_holds_is_refused(tmp_path):
    from textbcv.calibration.study import LOCK_FILE

    textbcv.calibrate(NER, ["iob2"], out=tmp_path / "cal", **{**FAST, "reps": 1})
    assert not (tmp_path / "cal" / LOCK_FILE).exists()
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        (tmp_path / "cal" / LOCK_FILE).write_text(f"{holder.pid}\n", encoding="utf-8")
        with pytest.raises(InputError, match=f"another process \\(pid {holder.pid}\\)"):
            textbcv.calibrate(NER, ["iob2"], out=tmp_path / "cal", resume=True, **FAST)
    finally:
        holder.kill()
        holder.wait()
    cal = textbcv.calibrate(NER, ["iob2"], out=tmp_path / "cal", resume=True, **FAST)  # a dead holder's lock
    assert cal.nulls[0].calls.n == 2 and not (tmp_path / "cal" / LOCK_FILE).exists()


def test_load_calibration_needs_no_corpus(tmp_path):
    from textbcv.calibration.study import load_calibration

    cal = textbcv.calibrate(NER, ["iob2"], out=tmp_path / "cal", **FAST)
    again, units = load_calibration(tmp_path / "cal")
    assert again.to_dict() == cal.to_dict() and len(units) == 2


def test_settings_write_the_same_bytes_whatever_the_order_of_their_options():
    # options gathered in another order (the task given first, or added after the proxy) are the same settings
    one = CalibrationSettings("x", 10, ("bmes",), (1, 2), 5, 100, 3, 0, 0.95,
                              options={"task": "cws", "max_iterations": 10, "algorithm": "ap"}, proxy=True,
                              pair=("bmes", "bmes+ctype"), truth_halvings=2,
                              pair_options={"max_iterations": 10, "task": "cws"})
    two = CalibrationSettings("x", 10, ("bmes",), (1, 2), 5, 100, 3, 0, 0.95,
                              options={"algorithm": "ap", "max_iterations": 10, "task": "cws"}, proxy=True,
                              pair=("bmes", "bmes+ctype"), truth_halvings=2,
                              pair_options={"task": "cws", "max_iterations": 10})
    assert json.dumps(one.to_dict()) == json.dumps(two.to_dict())
    assert list(one.to_dict()["options"]) == ["algorithm", "max_iterations", "task"]
    assert CalibrationSettings.from_dict(one.to_dict()) == one


def test_a_dask_cluster_writes_the_same_calibration(tmp_path):
    # data sets on the workers of a local dask cluster, a close pair's truth among them: the same bytes as in-process
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    args = {**FAST, "reps": 2, "pair": ("iob2", "iobes"), "truth_halvings": 1, "algorithm": "ap"}
    textbcv.calibrate(NER, ["iob2"], out=tmp_path / "one", **args)
    textbcv.calibrate(NER, ["iob2"], out=tmp_path / "dask", backend="dask", jobs=2, **args)
    for name in ("units.jsonl", "calibration.json", "settings.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "dask" / name).read_bytes()


def test_a_scheduler_without_dask_is_refused_before_anything_is_written(tmp_path):
    r = cli(str(NER), "--systems", "iob2", "--scheduler", "tcp://127.0.0.1:1", "--reps", "1", "--out",
            str(tmp_path / "cal"))
    assert r.returncode == 2 and "needs --backend dask" in r.stderr and not (tmp_path / "cal").exists()
