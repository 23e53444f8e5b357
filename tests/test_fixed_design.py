"""The fixed-split design end to end: compare --train/--test, evaluate --test, their checks and resume."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import textbcv
from textbcv.defaults import fixed_training_part
from textbcv.errors import InputError
from textbcv.report.fixed import FixedReport, TrainingPart

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"


def _docs(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return ["-DOCSTART-" + d for d in text.split("-DOCSTART-")[1:]]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The bundled NER corpus cut into a training file (150 documents) and a test file (50)."""
    docs = _docs(Path(textbcv.bundled_corpora()["ner"]))
    d = tmp_path_factory.mktemp("fixed")
    (d / "train.conll").write_text("".join(docs[:150]), encoding="utf-8")
    (d / "test.conll").write_text("".join(docs[150:]), encoding="utf-8")
    return d / "train.conll", d / "test.conll"


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "textbcv", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd)


CRF = ("--task", "ner", "--systems", "iob2,iobes", "--algorithm", "ap", "--max-iterations", "5", "--train-seeds", "2")


@pytest.fixture(scope="module")
def run(files, tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "out"
    r = _cli("compare", "--train", files[0], "--test", files[1], *CRF, "--out", out, "--save-predictions")
    assert r.returncode == 0, r.stderr
    return out, r


def test_the_answer_names_the_design_first_and_fits_on_a_screen(run, files):
    out, r = run
    lines = r.stdout.rstrip("\n").splitlines()
    assert lines[0].startswith("On one fixed split (trained on train.conll, ")
    assert "tested on test.conll" in r.stdout and "2 training seeds per system" in r.stdout
    assert "a system is called better when P(better) ≥ 0.95." in r.stdout
    assert "the rule's 90% interval" in r.stdout and "leaves out the choice of training set" in r.stdout
    assert len(lines) <= 25
    assert "textbcv: system 2/2 done (" in r.stderr and ", 2 seeds): F1 " in r.stderr and "direction" not in r.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["format"] == "textbcv-fixed-report/1"
    d = report["design"]
    assert (d["train_sentences"] + d["test_sentences"], d["cluster_unit"], d["clusters"]) == (3103, "documents", 50)
    assert d["seeds"] == {"iob2": [0, 1], "iobes": [0, 1]}
    c = report["comparisons"][0]
    assert (c["a"], c["b"], c["difference"]["design"], c["difference"]["seeds"]) == ("iob2", "iobes", "fixed", [2, 2])
    assert FixedReport.from_dict(report).to_dict() == report
    part = fixed_training_part("ner")  # the size of what the design leaves out, as the project measured it
    assert part is not None and report["training_part"] == part
    assert f"(the project's measure: {TrainingPart.from_dict(part).words()})" in report["conclusion"]
    assert sorted(p.name for p in (out / "predictions").iterdir()) == [
        f"{s}-split0-dir0.seed-{k}.txt" for s in ("iob2", "iobes") for k in (0, 1)]


MEMORISER = Path(__file__).resolve().parent / "data" / "memoriser.py"


def _memo(dev: bool) -> str:
    return (f"memo={sys.executable} {MEMORISER} --train {{train}} --test {{test}} --out {{pred}} --seed {{seed}}"
            + (" --dev {dev}" if dev else ""))


def test_a_command_is_given_the_development_file_and_the_report_names_it(files, tmp_path):
    docs = _docs(Path(files[0]))
    train, dev = tmp_path / "train.conll", tmp_path / "dev.conll"
    train.write_text("".join(docs[:120]), encoding="utf-8")
    dev.write_text("".join(docs[120:]), encoding="utf-8")
    out = tmp_path / "out"
    r = _cli("compare", "--train", train, "--test", files[1], "--dev", dev, "--task", "ner", "--systems", "iob2",
             "--algorithm", "ap", "--max-iterations", "3", "--train-seeds", "2", "--system", _memo(True),
             "--out", out)
    assert r.returncode == 0, r.stderr
    assert "iob2 do not use the development file dev.conll" in r.stderr
    n_dev = len(textbcv.read_corpus([str(dev)]))
    gold_tagged = sum(t != "O" for s in textbcv.read_corpus([str(dev)]).sentences for t in s.tags)
    for seed in (0, 1):  # every seed's command read the development file, with its gold tags
        log = (out / "commands" / "memo" / "fold-0-0" / f"seed-{seed}" / "stderr.log").read_text()
        assert f"dev: {n_dev} sentences, {gold_tagged} tagged tokens" in log
    report = json.loads((out / "report.json").read_text())
    d = report["design"]
    assert (d["dev"], d["dev_sentences"], d["train_sentences"]) == (str(dev), n_dev, len(textbcv.read_corpus(
        [str(train)])))
    assert f"with dev.conll for development, {n_dev:,}" in report["conclusion"]
    assert json.loads((out / "fixed.json").read_text())["fingerprints"].keys() == {"train", "test", "dev"}
    # another development file is other text: the run is not resumed with it
    dev.write_text("".join(docs[125:]), encoding="utf-8")
    again = _cli("compare", "--train", train, "--test", files[1], "--dev", dev, "--task", "ner", "--systems", "iob2",
                 "--algorithm", "ap", "--max-iterations", "3", "--train-seeds", "2", "--system", _memo(True),
                 "--out", out, "--resume")
    assert again.returncode == 2 and "other training, test or development text" in again.stderr


@pytest.mark.parametrize("args, message", [
    (("compare", "{corpus}", "--task", "ner", "--systems", "iob2", "--system", _memo(True), "--out", "{out}"),
     "names {dev}, a development file, which only a fixed split given one has"),
    (("compare", "--train", "{train}", "--test", "{test}", "--task", "ner", "--systems", "iob2", "--algorithm", "ap",
      "--system", _memo(True), "--train-seeds", "2", "--out", "{out}"), "names {dev}, a development file"),
    (("compare", "{corpus}", "--task", "ner", "--systems", "iob2,iobes", "--dev", "{train}", "--out", "{out}"),
     "--dev belongs to the fixed-split design"),
    (("compare", "--train", "{train}", "--test", "{test}", "--dev", "{test}", "--task", "ner", "--systems",
      "iob2,iobes", "--algorithm", "ap", "--train-seeds", "2", "--out", "{out}"),
     "the test and development files are one file"),
    (("evaluate", "--dev", "{train}", "--task", "ner", "--system", "A=x", "--system", "B=y", "--out", "{out}"),
     "--dev names a file of --test's predictions; give --test"),
])
def test_a_development_file_is_refused_where_it_cannot_be_used(files, tmp_path, args, message):
    fill = {"{corpus}": str(textbcv.bundled_corpora()["ner"]), "{train}": str(files[0]), "{test}": str(files[1]),
            "{out}": str(tmp_path / "out")}
    r = _cli(*(fill.get(a, a) for a in args))
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "out").exists()


def test_without_a_measured_training_part_the_answer_quotes_no_size(run):
    report = json.loads((run[0] / "report.json").read_text())
    bare = FixedReport.from_dict({**report, "training_part": None})
    assert bare.training_part is None and "the project's measure" not in bare.conclusion()
    assert "which one split cannot measure; m×2 cross-validation (`textbcv compare`)" in bare.conclusion()
    other = FixedReport.from_dict({**report, "training_part": {"sd": 0.0123, "seed_sd": None, "where": "X"}})
    assert "cannot measure (the project's measure: SD 1.23 points on X); m×2" in other.conclusion()


def test_the_same_predictions_imported_give_the_same_report_json(run, files, tmp_path):
    out, _ = run
    for s in ("iob2", "iobes"):
        (tmp_path / s).mkdir()
        for k in (0, 1):
            shutil.copy(out / "predictions" / f"{s}-split0-dir0.seed-{k}.txt", tmp_path / s / f"seed-{k}.txt")
    r = _cli("evaluate", "--task", "ner", "--test", files[1], "--train", files[0], "--system",
             f"iob2={tmp_path / 'iob2'}", "--system", f"iobes={tmp_path / 'iobes'}", "--out", tmp_path / "ev")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "ev" / "report.json").read_bytes() == (out / "report.json").read_bytes()
    api = textbcv.evaluate_fixed(files[1], {"iob2": tmp_path / "iob2", "iobes": tmp_path / "iobes"},
                                 out=tmp_path / "ev2", train=files[0])
    assert api.to_dict() == json.loads((out / "report.json").read_text())
    # a development file named on import is in the design, and only there: the scores do not move
    dev = tmp_path / "dev.conll"
    dev.write_text("".join(_docs(Path(files[0]))[:10]), encoding="utf-8")
    named = textbcv.evaluate_fixed(files[1], {"iob2": tmp_path / "iob2", "iobes": tmp_path / "iobes"},
                                   out=tmp_path / "ev3", train=files[0], dev=dev).to_dict()
    plain = api.to_dict()
    assert (named["design"]["dev"], named["design"]["dev_sentences"]) == (str(dev), len(textbcv.read_corpus(
        [str(dev)])))
    assert named["design"]["train_sentences"] == plain["design"]["train_sentences"]
    assert named["comparisons"] == plain["comparisons"] and named["systems"] == plain["systems"]


def test_resume_trains_nothing_and_gives_the_same_report(run, files):
    out, _ = run
    before = (out / "folds.jsonl").read_bytes(), (out / "report.json").read_bytes()
    r = _cli("compare", "--train", files[0], "--test", files[1], *CRF, "--out", out, "--resume", "--quiet",
             "--save-predictions")
    assert r.returncode == 0, r.stderr
    assert ((out / "folds.jsonl").read_bytes(), (out / "report.json").read_bytes()) == before


def test_a_run_of_other_text_is_not_resumed(run, files, tmp_path):
    out, _ = run
    other = tmp_path / "test2.conll"
    other.write_text("".join(_docs(files[1])[:30]), encoding="utf-8")
    r = _cli("compare", "--train", files[0], "--test", other, *CRF, "--out", out, "--resume")
    assert r.returncode == 2 and "made for other training, test or development text" in r.stderr


@pytest.mark.parametrize("extra, message", [
    (("--m", "3"), "--m belongs to the m×2 design"),
    (("--heldout", "x.conll"), "--heldout belongs to the m×2 design"),
    (("--balance", "label"), "--balance belongs to the m×2 design"),
])
def test_m2x_options_are_refused_with_a_fixed_split(files, tmp_path, extra, message):
    r = _cli("compare", "--train", files[0], "--test", files[1], *CRF, *extra, "--out", tmp_path / "o")
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "o").exists()


def test_bad_fixed_inputs_end_in_one_line_before_training(files, tmp_path):
    no_gold = tmp_path / "no-gold.conll"
    no_gold.write_text("".join(" ".join([*p[:3], "O"]) + "\n" if len(p) == 4 and p[0] != "-DOCSTART-" else line + "\n"
                               for line in files[1].read_text().splitlines() for p in [line.split()]))
    cases = [
        (("compare", "--train", files[0], "--test", no_gold, *CRF), "holds no gold chunks"),
        (("compare", "--train", files[0], *CRF), "needs both --train and --test"),
        (("compare", "--train", files[0], "--test", files[0], *CRF), "one file"),
        (("compare", "--train", files[0], "--test", files[1], "--task", "ner", "--systems", "iob2,iobes",
          "--algorithm", "ap"), "--train-seeds K of at least 2"),
        (("compare", files[0], "--train", files[0], "--test", files[1], *CRF), "not both"),
        (("compare", "--task", "ner", "--systems", "iob2,iobes"), "give the corpus FILE"),
        (("evaluate", "--task", "ner", "--test", files[1], "--system", f"a={tmp_path}", "--system",
          f"b={tmp_path}"), "holds no seed-S.txt"),
        (("evaluate", "--task", "ner", "--test", files[1], "--system", f"a={tmp_path}", "--system",
          f"b={tmp_path}", "--variant", "thesis"), "--variant belongs to the m×2 design"),
        (("evaluate", "--task", "ner", "--test", files[1], "--system", f"a={tmp_path}", "--system",
          f"b={tmp_path}", "--mode", "partial"), "strict matches"),
    ]
    for k, (args, message) in enumerate(cases):
        r = _cli(*args, "--out", tmp_path / f"o{k}")
        assert r.returncode == 2, (args, r.stderr)
        assert message in r.stderr and r.stderr.startswith("textbcv: error: "), (args, r.stderr)
        assert "Traceback" not in r.stderr
        assert not (tmp_path / f"o{k}").exists()


def test_one_seeds_predictions_are_refused(files, tmp_path):
    for s in ("a", "b"):
        (tmp_path / s).mkdir()
        shutil.copy(files[1], tmp_path / s / "seed-0.txt")
    with pytest.raises(InputError, match="one seed's predictions"):
        textbcv.evaluate_fixed(files[1], {"a": tmp_path / "a", "b": tmp_path / "b"}, out=tmp_path / "o")
    (tmp_path / "a" / "seed-01.txt").write_text("")
    with pytest.raises(InputError, match="plain integer"):
        textbcv.evaluate_fixed(files[1], {"a": tmp_path / "a", "b": tmp_path / "b"}, out=tmp_path / "o")


def test_deterministic_crfs_need_no_seeds_and_say_so(files):
    r = textbcv.compare_fixed(files[0], files[1], ["iob2", "iobes"], task="ner", max_iterations=5, progress=False)
    assert r.design.deterministic and r.design.seeds == {"iob2": [0], "iobes": [0]}
    p = r.comparisons[0].difference.paired
    assert (p.var_seed, p.seeds, p.df) == (0.0, (1, 1), 49.0)
    assert "deterministic trainers (one model each)" in r.conclusion()


def test_a_python_tagger_is_refused(files):
    from textbcv.tagging import LexiconTagger

    systems = [textbcv.System("lex", "iob2", tagger=LexiconTagger()),
               textbcv.System("lex2", "iob2", tagger=LexiconTagger(lowercase=True))]
    with pytest.raises(InputError, match="Python tagger"):
        textbcv.compare_fixed(files[0], files[1], systems, task="ner")


@pytest.mark.skipif(not (SHARED / "conll2003_en" / "eng.testb").exists(),
                    reason="shared corpus not available here (tests on real corpora run in CI)")
def test_the_official_conll2003_split_is_read_as_it_is(tmp_path):
    from textbcv.comparison.fixed import prepare_fixed
    from textbcv.comparison.options import CompareOptions

    d = SHARED / "conll2003_en"
    plan = prepare_fixed(d / "eng.train", d / "eng.testb", tmp_path / "o",
                         CompareOptions(systems=("iob2", "iobes"), task="ner", algorithm="ap", train_seeds=5))
    x = plan.design
    assert (x.train_sentences, x.test_sentences, x.test_tokens) == (14041, 3453, 46435)
    assert (x.cluster_unit, x.clusters) == ("documents", 231)
    assert not os.path.exists(tmp_path / "o")


def test_plan_of_a_fixed_run_plans_seeds_and_test_text_not_splits(run):
    out, _ = run
    p = textbcv.plan(json.loads((out / "report.json").read_text()), target_delta=1.0)
    x = p.pairs[0]
    assert (x.design, x.by_m, x.m_for_target, x.seeds) == ("fixed", (), None, (2, 2))
    assert [k for k, _ in x.by_seeds] == [3, 5, 10, 20] and all(d < x.detectable for _, d in x.by_seeds)
    r = _cli("plan", out, "--target-delta", "1")
    assert r.returncode == 0, r.stderr
    assert "on the fixed split" in r.stdout and "m = " not in r.stdout and "per system" in r.stdout


def test_calibrate_measures_the_fixed_split_and_no_m2x_report_quotes_it(tmp_path):
    from textbcv.comparison.calibration_quote import run_calibration

    ner = textbcv.bundled_corpora()["ner"]
    out = tmp_path / "run" / "calibration"
    cal = textbcv.calibrate(ner, ["iob2"], design="fixed", train_seeds=2, reps=2, size=600, max_iterations=3,
                            task="ner", out=out, progress=False, plot=False)
    units = [json.loads(x) for x in (out / "units.jsonl").read_text().splitlines()]
    assert [(u["r"], u["m"], u["folds_per_system"]) for u in units] == [(0, 1, 1), (1, 1, 1)]
    # every data set trains seeds of its own: A 1–2, B 3–4 on the first, 4 further on the next
    assert [u["seeds"] for u in units] == [[1, 3], [5, 7]] and cal.settings.draw == 3
    assert "iob2 against itself (seeds 1–2 and 3–4 on the first data set, 4 further on each next)" in cal.text()
    assert re.search(r"\(B's seeds called better on [0-2], A's seeds on [0-2]\)", cal.sentence())
    assert all(u["test_sentences"] > 0 and u["train_sentences"] > 3 * u["test_sentences"] for u in units)
    assert (cal.settings.design, cal.settings.test_share, cal.settings.m) == ("fixed-split", 0.2, 1)
    assert "through one fixed split of each data set (20% of it as the test set, 2 training seeds per side)" in \
        cal.sentence()
    assert "model-noise part" not in cal.text()
    held = json.loads((out / "calibration.json").read_text())
    block, warning = run_calibration(tmp_path / "run", held["settings"]["corpus"])
    assert block is None and "fixed-split design" in warning
    for bad, message in [({"m": 3}, "belongs to the m×2 design"), ({"train_seeds": 1}, "at least 2"),
                         ({"test_share": 1.5}, "between 0 and 1")]:
        with pytest.raises(InputError, match=message):
            textbcv.calibrate(ner, ["iob2"], design="fixed", reps=2, size=600, task="ner",
                              **{"train_seeds": 2, **bad})
