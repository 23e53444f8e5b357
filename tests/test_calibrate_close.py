"""``textbcv calibrate --pair A,B``: a close pair on the calibration's data sets, against its truth outside each."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import calibrate_cli as cli
from conftest import calibrate_in_process as in_process
from scipy import stats as sst

import textbcv
from textbcv.calibration.draw import draw_data_set, split_seed
from textbcv.calibration.settings import CalibrationSettings
from textbcv.calibration.study import load_calibration
from textbcv.calibration.summary import covers, summarize_close
from textbcv.calibration.units import close_unit
from textbcv.cli import main
from textbcv.corpus import read_corpus
from textbcv.errors import InputError
from textbcv.schemes import decode, encode
from textbcv.tagging import parse_system
from textbcv.tagging.crf import CRFTagger
from textbcv.tagging.features import extract

NER = textbcv.bundled_corpora()["ner"]
# lbfgs, the pair's own algorithm, tags nothing after 2 iterations on 60 sentences: 10 give a truth that moves
FAST = {"reps": 2, "size": 120, "max_iterations": 10, "progress": False}
ARGS = ["--reps", "2", "--size", "120", "--max-iterations", "10"]


# The close-pair tests run on ``ner_small``: the truth tags every sentence outside a data set with each of its
# models, which on the whole corpus is most of these tests' time; nothing asserted here depends on the corpus's size.


def lines(path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_cli_close_pair_end_to_end_resumes_and_grows(tmp_path, capsys, ner_small):
    out = tmp_path / "cal"
    n = len(read_corpus(str(ner_small)))
    args = [str(ner_small), "--systems", "iob2", "--pair", "iob2,iobes", *ARGS, "--out", str(out)]
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and "(iob2 vs iobes, data set 1)" in r.stderr  # a progress line per unit
    assert "iobes against iob2 (close pair, truth from 4 halvings), 2 data sets:" in r.stdout
    assert sorted(p.name for p in out.iterdir()) == ["calibration.json", "calibration.png", "settings.json",
                                                     "units.jsonl"]
    units = lines(out / "units.jsonl")
    assert [(u["kind"], u["r"]) for u in units] == [("null", 0), ("close", 0), ("null", 1), ("close", 1)]
    close = [u for u in units if u["kind"] == "close"]
    for u in close:
        assert u["pair"] == ["iob2", "iobes"] and u["truth_noise"] > 0 and -1 < u["truth"] < 1
        assert len(u["truth_models"]) == 8 and u["truth_cluster_unit"] == "documents"
        assert n - 2 * 120 < u["outside_sentences"] < n - 100  # the corpus outside the data set (and its repeats)
        assert u["truth_noise"] == pytest.approx(u["truth_var_test"] + u["truth_var_halvings"])
        assert set(u["moments"]) >= {"xprod", "counts_a", "counts_b"}
    settings = json.loads((out / "settings.json").read_text(encoding="utf-8"))["settings"]
    # the null pairs train the stochastic proxy; the close pair is trained as the user trains it
    assert settings["options"]["algorithm"] == "ap" and "algorithm" not in settings["pair_options"]
    assert settings["pair"] == ["iob2", "iobes"] and settings["truth_halvings"] == 4

    summary = json.loads((out / "calibration.json").read_text(encoding="utf-8"))
    (c,) = summary["close"]
    # the summary is a hand count over the units
    q = [sst.t.ppf(0.975, u["df"]) for u in close]
    held = sum(abs(u["estimate"] - u["truth"]) <= qq * np.sqrt(u["sd"] ** 2 + u["truth_noise"])
               for u, qq in zip(close, q))
    assert (c["coverage"]["k"], c["coverage"]["n"]) == (held, 2)
    assert c["calls_b"]["k"] == sum(u["decision"] == "B better" for u in close)
    assert c["calls_a"]["k"] == sum(u["decision"] == "A better" for u in close)
    assert c["mean_truth"] == pytest.approx(np.mean([u["truth"] for u in close]))
    assert c["sd_truth"] == pytest.approx(np.std([u["truth"] for u in close], ddof=1))
    net = np.mean([(u["estimate"] - u["truth"]) ** 2 for u in close]) - np.mean([u["truth_noise"] for u in close])
    assert c["rmse_net"] == (pytest.approx(np.sqrt(net)) if net > 0 else None)
    assert c["median_sd"] == pytest.approx(np.median([u["sd"] for u in close]))
    assert "iobes against iob2" in summary["sentence"] and "held the truth" in summary["sentence"]
    first = (out / "units.jsonl").read_bytes()

    same = in_process(capsys, *args, "--resume")  # complete: nothing runs
    assert same.returncode == 0, same.stderr
    assert (out / "units.jsonl").read_bytes() == first and "done" not in same.stderr

    grown = cli(*args, "--resume", "--reps", "3")  # data set 2's null and close units only
    assert grown.returncode == 0, grown.stderr
    after = (out / "units.jsonl").read_bytes()
    assert after.startswith(first) and [(u["kind"], u["r"]) for u in lines(out / "units.jsonl")][4:] == [
        ("null", 2), ("close", 2)]
    assert json.loads((out / "calibration.json").read_text(encoding="utf-8"))["close"][0]["coverage"]["n"] == 3
    cal, loaded = load_calibration(out)
    assert cal.close[0].coverage.n == 3 and len(loaded) == 6

    for other in (["--truth-halvings", "2"], []):  # another H, or the pair left out: other settings
        argv = [x for x in args if x not in ("--pair", "iob2,iobes")] if not other else args
        r = in_process(capsys, *argv, "--resume", *other)
        assert r.returncode == 2 and "other settings" in r.stderr and "Traceback" not in r.stderr
    assert (out / "units.jsonl").read_bytes() == after


def _chunks(tags, scheme):
    return set(decode(tags, scheme))


def test_the_truth_is_an_independent_recomputation(ner_small):
    """The truth retrained outside calibrate's code path: crfsuite through CRFTagger on halves drawn as documented,
    chunks counted by set intersection here, F1 written here."""
    corpus = read_corpus(str(ner_small))
    settings = CalibrationSettings("x", len(corpus), (), (1, 2), 1, 120, 3, 7, 0.95, pair=("iob2", "iobes"),
                                   truth_halvings=2, pair_options={"max_iterations": 10})
    D = draw_data_set(1, 120, len(corpus), corpus.documents, 7)
    u = close_unit(corpus, D, 1, settings)
    res = textbcv.compare(corpus.subset(D.tolist()), ["iob2", "iobes"], m=3, seed=split_seed(7, 1),
                          max_iterations=10, progress=False)
    c = next(x for x in res.to_dict()["comparisons"] if x["metric"] == "f1")
    assert (u["estimate"], u["sd"], u["decision"]) == (c["difference"]["estimate"], c["difference"]["sd"],
                                                       c["decision"])

    docs = np.array(corpus.document_ids)
    seen = {corpus[i].tokens for i in D}
    test = [i for i in range(len(corpus)) if i not in set(D.tolist()) and corpus[i].tokens not in seen]
    assert u["outside_sentences"] == len(test) and u["outside_clusters"] == len(set(docs[test]))
    rng = np.random.default_rng([7, 1, 2])
    deltas, models = [], []
    for h in range(2):
        ud = np.unique(docs[D])
        first = np.isin(docs[D], ud[rng.permutation(len(ud))[: len(ud) // 2]])
        for d, half in enumerate((D[first], D[~first])):
            f1, counts = {}, []
            for name in ("iob2", "iobes"):
                system = parse_system(name, max_iterations=10)
                assert system.template is not None
                crf = CRFTagger(system.template, "lbfgs", system.params)
                crf.fit_features(extract([corpus[i] for i in half], system.template),
                                 [encode(corpus[i].chunks, len(corpus[i]), system.scheme) for i in half])
                pred = crf.predict_features(extract([corpus[i] for i in test], system.template))
                tp = fp = fn = 0
                for i, tags in zip(test, pred):
                    g, p = set(corpus[i].chunks), _chunks(tags, system.scheme)
                    tp, fp, fn = tp + len(g & p), fp + len(p - g), fn + len(g - p)
                f1[name] = 2 * tp / (2 * tp + fp + fn)
                counts.append([tp, fp, fn])
            deltas.append(f1["iobes"] - f1["iob2"])
            models.append({"halving": h, "half": d, "train_sentences": len(half), "counts_a": counts[0],
                           "counts_b": counts[1]})
    assert u["truth_models"] == models
    assert u["truth"] == pytest.approx(np.mean(deltas), abs=1e-12)
    means = np.array(deltas).reshape(2, 2).mean(axis=1)
    assert u["truth_var_halvings"] == pytest.approx(np.var(means, ddof=1) / 2, rel=1e-9)
    assert u["truth_noise"] > u["truth_var_halvings"] > 0


def test_two_jobs_give_the_same_files_and_a_pair_alone_draws_no_plot(tmp_path, ner_small):
    one = textbcv.calibrate(ner_small, ["iob2"], pair=("iob2", "iobes"), truth_halvings=2, out=tmp_path / "one", **FAST)
    two = textbcv.calibrate(ner_small, ["iob2"], pair=("iob2", "iobes"), truth_halvings=2, out=tmp_path / "two", jobs=2,
                            **FAST)
    assert one.to_dict() == two.to_dict()
    for name in ("units.jsonl", "calibration.json", "calibration.png", "settings.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    alone = textbcv.calibrate(ner_small, [], pair=("iob2", "iobes"), truth_halvings=2, out=tmp_path / "alone",
                              **{**FAST, "reps": 1})
    assert alone.nulls == () and alone.close[0].coverage.n == 1
    assert sorted(p.name for p in (tmp_path / "alone").iterdir()) == ["calibration.json", "settings.json",
                                                                      "units.jsonl"]
    # the pair alone answers data set 0 exactly as beside null pairs
    assert lines(tmp_path / "alone" / "units.jsonl")[0] == lines(tmp_path / "one" / "units.jsonl")[1]


@pytest.mark.parametrize("argv, words", [
    (["--pair", "iob2"], "--pair must be two systems"),
    (["--pair", "iob2,iob2"], "--pair must be two different systems"),
    (["--pair", "iob2,iob2+ner-thesis"], "are the same one"),
    (["--pair", "iob2,nosuch"], "nosuch"),
    (["--pair", "iob2,iobes", "--truth-halvings", "0"], "--truth-halvings must be at least 1"),
    (["--pair", "iob2,iobes+wordshape-nosuch"], "wordshape-nosuch"),
    (["--truth-halvings", "0", "--systems", "iob2"], "--truth-halvings must be at least 1"),
    (["--pair", "iob2,iobes", "--size", "3103"], "below the corpus's 3,103 sentences with --pair"),
    ([], "give --systems (at least one system), --pair or both"),
])
def test_bad_close_options_exit_2_before_anything_is_written(tmp_path, argv, words, capsys):
    args = [str(NER), *ARGS, "--out", str(tmp_path / "cal"), *argv]
    if argv == ["--pair", "iob2"]:  # one case through a process, `python -m textbcv` as a user runs it
        r = cli(*args)
        status, stdout, stderr = r.returncode, r.stdout, r.stderr
    else:  # the others in this process: the same main(), without an interpreter start and imports each
        capsys.readouterr()
        status = main(["calibrate", *args])
        stdout, stderr = capsys.readouterr()
    assert status == 2 and stderr.startswith("textbcv: error: ") and words in stderr, stderr
    assert "Traceback" not in stderr and stdout == ""
    assert not (tmp_path / "cal").exists()


def test_bad_close_options_from_python(tmp_path):
    with pytest.raises(InputError, match="truth_halvings must be at least 1"):
        textbcv.calibrate(NER, ["iob2"], pair=("iob2", "iobes"), truth_halvings=0, out=tmp_path / "c", **FAST)
    with pytest.raises(InputError, match="pair must be two systems"):
        textbcv.calibrate(NER, ["iob2"], pair="iob2,iobes", out=tmp_path / "c", **FAST)
    assert not (tmp_path / "c").exists()


def test_a_folder_from_before_close_pairs_resumes(tmp_path):
    """Null units without ``kind`` and settings without the pair's: the folder resumes, only the missing unit runs."""
    out = tmp_path / "cal"
    textbcv.calibrate(NER, ["iob2"], out=out, **{**FAST, "max_iterations": 2})
    old = [{k: v for k, v in u.items() if k != "kind"} for u in lines(out / "units.jsonl")]
    (out / "units.jsonl").write_text("".join(json.dumps(u, ensure_ascii=False) + "\n" for u in old),
                                     encoding="utf-8")
    assert "pair" not in json.loads((out / "settings.json").read_text(encoding="utf-8"))["settings"]
    cal = textbcv.calibrate(NER, ["iob2"], out=out, resume=True, **{**FAST, "max_iterations": 2, "reps": 3})
    units = lines(out / "units.jsonl")
    assert [u.get("kind") for u in units] == [None, None, "null"] and cal.nulls[0].calls.n == 3 and cal.close == ()
    with pytest.raises(InputError, match="other settings"):  # a pair is not added to a calibration without one
        textbcv.calibrate(NER, ["iob2"], pair=("iob2", "iobes"), out=out, resume=True,
                          **{**FAST, "max_iterations": 2})


def test_close_summary_counts_and_net_rmse():
    units = ([{"estimate": 0.012, "sd": 0.004, "df": 5.0, "decision": "B better", "truth": 0.005,
               "truth_noise": 1e-6}] * 3
             + [{"estimate": -0.002, "sd": 0.004, "df": 5.0, "decision": "no clear difference", "truth": 0.004,
                 "truth_noise": 2e-6}] * 6
             + [{"estimate": -0.03, "sd": 0.004, "df": None, "decision": "A better", "truth": 0.006,
                 "truth_noise": 1e-6}])
    s = summarize_close("iob2", "iobes", units)
    assert (s.calls_b.k, s.calls_a.k, s.calls.k, s.calls.n) == (3, 1, 4, 10)
    assert s.coverage.k == 9 and [covers(u) for u in units[-2:]] == [True, False]
    mse = (3 * 0.007 ** 2 + 6 * 0.006 ** 2 + 0.036 ** 2) / 10
    assert s.rmse_net == pytest.approx(np.sqrt(mse - 1.6e-6)) and s.sd_over_rmse_net == pytest.approx(
        0.004 / s.rmse_net)
    assert s.mean_truth == pytest.approx(0.0045)
    tiny = summarize_close("a", "b", [{"estimate": 0.0, "sd": 0.01, "df": 5.0, "decision": "no clear difference",
                                       "truth": 0.001, "truth_noise": 1e-4}])
    assert tiny.rmse_net is None and tiny.sd_over_rmse_net is None and tiny.sd_truth is None
    assert summarize_close("a", "b", []).coverage.n == 0
    assert json.dumps(s.to_dict(), allow_nan=False)


def test_a_close_pair_alone_is_not_quoted_as_a_false_call_rate(tmp_path):
    from textbcv.comparison.calibration_quote import run_calibration

    (tmp_path / "calibration").mkdir()
    held = {"format": "textbcv-calibration/1", "settings": {"corpus": "f" * 16, "m": 3, "threshold": 0.95},
            "nulls": [], "close": [{"a": "iob2", "b": "iobes", "coverage": {"k": 1, "n": 1}}], "sentence": "x"}
    (tmp_path / "calibration" / "calibration.json").write_text(json.dumps(held), encoding="utf-8")
    block, warning = run_calibration(tmp_path, "f" * 16)
    assert block is None and "close pair only" in warning and "project's evidence" in warning
