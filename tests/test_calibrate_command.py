"""textbcv calibrate with systems of the user's own (a command, a tagger that takes a seed) against themselves."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import calibrate_cli as cli

import textbcv
from textbcv.calibration.draw import draw_data_set, split_seed
from textbcv.errors import InputError
from textbcv.tagging import LexiconTagger
from textbcv.tagging.command import CommandSpec

NER = textbcv.bundled_corpora()["ner"]
MEMORISER = Path(__file__).resolve().parent / "data" / "memoriser.py"
# the memoriser tags unknown tokens by a hash of its seed: two seeds tag differently
COMMAND = f"{sys.executable} {MEMORISER} --train {{train}} --test {{test}} --out {{pred}} --seed {{seed}}"
FAST = {"reps": 2, "size": 120, "progress": False}


class ForgetfulLexicon:
    """A lexicon tagger that forgets a seeded tenth of its training sentences: two seeds tag differently."""

    def __init__(self, seed: int = 0):
        self.seed = seed

    def fit(self, sentences, tags):
        keep = np.random.default_rng(self.seed).random(len(sentences)) > 0.1
        self.inner = LexiconTagger().fit([s for s, k in zip(sentences, keep) if k],
                                         [t for t, k in zip(tags, keep) if k])
        return self

    def predict(self, sentences):
        return self.inner.predict(sentences)


def memo(command: str = COMMAND) -> textbcv.System:
    return textbcv.System("memo", "iob2", command=CommandSpec(command))


def test_a_command_systems_null_pair_is_compares_own_answer(tmp_path):
    cal = textbcv.calibrate(NER, [memo()], out=tmp_path / "cal", **FAST)
    units = [json.loads(x) for x in (tmp_path / "cal" / "units.jsonl").read_text().splitlines()]
    assert [(u["system"], u["r"]) for u in units] == [("memo", 0), ("memo", 1)]
    corpus = textbcv.read_corpus(str(NER))
    sub = corpus.subset(draw_data_set(1, 120, len(corpus), corpus.documents, 0).tolist())
    sides = [textbcv.System(f"memo@{s}", "iob2", command=CommandSpec(COMMAND), seed=s) for s in (1, 2)]
    # no m: the measured design, as compare runs it
    res = textbcv.compare(sub, sides, sequential=True, stop="measured", m_start=3, m_max=7, seed=split_seed(0, 1),
                          progress=False)
    d = next(c for c in res.to_dict()["comparisons"] if c["metric"] == "f1")["difference"]
    assert units[1]["estimate"] == d["estimate"] != 0 and units[1]["sd"] == d["sd"]
    assert units[1]["m"] == res.to_dict()["stopping"]["m_used"]
    settings = json.loads((tmp_path / "cal" / "settings.json").read_text())["settings"]
    assert settings["systems"] == ["memo"] and settings["options"] == {} and settings["proxy"] is False
    assert settings["own_systems"]["memo"]["params"]["command"] == COMMAND
    # the comparisons' work is gone once answered; the sentence names the command, not a CRF algorithm
    assert sorted(p.name for p in (tmp_path / "cal").iterdir()) == ["calibration.json", "calibration.png",
                                                                      "settings.json", "units.jsonl"]
    assert "memo trained by its own command with seeds 1 and 2" in cal.sentence()


def test_a_failed_command_keeps_its_work_and_resume_runs_only_the_rest(tmp_path, monkeypatch):
    whole = tmp_path / "whole"
    fixed = {**FAST, "m": 3}  # 2 x 6 tasks per data set
    textbcv.calibrate(NER, [memo()], out=whole, **fixed)
    marker = tmp_path / "runs.txt"
    counted = memo(f"echo run >> {marker}; " + COMMAND)
    monkeypatch.setenv("TAGGER_FAIL", "r0001-memo/commands/memo@2/fold-1-0")
    with pytest.raises(InputError, match="exited with status 3") as e:
        textbcv.calibrate(NER, [counted], out=tmp_path / "cal", **fixed)
    assert "1 finished units are kept" in str(e.value) and "--resume" in str(e.value)
    logs = tmp_path / "cal" / "work" / "r0001-memo" / "commands" / "memo@2" / "fold-1-0" / "seed-2"
    assert "cannot tag" in (logs / "stderr.log").read_text()  # the error's logs are where it says
    before = marker.read_text().count("run")
    monkeypatch.delenv("TAGGER_FAIL")
    textbcv.calibrate(NER, [counted], out=tmp_path / "cal", resume=True, **fixed)
    # data set 1's finished tasks were not run again: 2 x 6 tasks per data set, and the failed one once more
    assert before > 12 + 1 and marker.read_text().count("run") == 12 + 12 + 1
    units = (tmp_path / "cal" / "units.jsonl").read_text()
    assert [json.loads(x)["estimate"] for x in units.splitlines()] == \
        [json.loads(x)["estimate"] for x in (whole / "units.jsonl").read_text().splitlines()]
    assert not (tmp_path / "cal" / "work").exists()


def test_a_command_that_ignores_its_seed_is_reported(tmp_path, capsys):
    seedless = COMMAND.replace(" --seed {seed}", "")
    cal = textbcv.calibrate(NER, [memo(seedless)], **FAST)
    assert cal.nulls[0].rms_estimate == 0
    err = capsys.readouterr().err
    assert err.count("memo gave the same counts with seed 1 and seed 2 on every fold of data set 0") == 1
    assert "its null pairs measure nothing" in err


def test_a_tagger_that_takes_a_seed_is_calibrated_as_compare_answers_it(tmp_path):
    cal = textbcv.calibrate(NER, [textbcv.System("forget", "iob2", tagger=ForgetfulLexicon)], out=tmp_path / "cal",
                            **FAST)
    corpus = textbcv.read_corpus(str(NER))
    sub = corpus.subset(draw_data_set(0, 120, len(corpus), corpus.documents, 0).tolist())
    sides = [textbcv.System(f"forget@{s}", "iob2", tagger=lambda s=s: ForgetfulLexicon(seed=s)) for s in (1, 2)]
    res = textbcv.compare(sub, sides, m=3, seed=split_seed(0, 0), progress=False)
    d = next(c for c in res.to_dict()["comparisons"] if c["metric"] == "f1")["difference"]
    unit = json.loads((tmp_path / "cal" / "units.jsonl").read_text().splitlines()[0])
    assert unit["estimate"] == d["estimate"] != 0 and unit["sd"] == d["sd"]
    assert "forget trained by test_calibrate_command.ForgetfulLexicon with seeds 1 and 2" in cal.sentence()


@pytest.mark.parametrize("system, kwargs, words", [
    (textbcv.System("lex", "iob2", tagger=LexiconTagger()), {}, "not a tagger object"),
    (textbcv.System("lex", "iob2", tagger=LexiconTagger), {}, "takes no seed= argument"),
    (textbcv.System("forget", "iob2", tagger=ForgetfulLexicon), {"train_seeds": 2}, "fitted once per fold"),
    (textbcv.System("memo@3", "iob2", command=CommandSpec(COMMAND)), {}, "without @SEED"),
])
def test_systems_calibrate_cannot_seed_are_refused_before_anything_is_written(tmp_path, system, kwargs, words):
    with pytest.raises(InputError, match=words):
        textbcv.calibrate(NER, [system], out=tmp_path / "cal", **FAST, **kwargs)
    assert not (tmp_path / "cal").exists()


def test_the_command_line_takes_command_systems(tmp_path):
    r = cli(str(NER), "--system", f"memo={COMMAND}", "--reps", "1", "--size", "120", "--out", str(tmp_path / "cal"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("memo against itself (seeds 1 and 2), 1 data sets:")
    units = [json.loads(x) for x in (tmp_path / "cal" / "units.jsonl").read_text().splitlines()]
    assert [u["system"] for u in units] == ["memo"] and np.isfinite(units[0]["estimate"])
    bad = cli(str(NER), "--system", "memo", "--reps", "1", "--out", str(tmp_path / "bad"))
    assert bad.returncode == 2 and "write NAME=COMMAND" in bad.stderr and not (tmp_path / "bad").exists()


def test_a_command_systems_folds_run_on_dask_with_the_same_answer(tmp_path):
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    textbcv.calibrate(NER, [memo()], out=tmp_path / "one", **{**FAST, "reps": 1})
    textbcv.calibrate(NER, [memo()], out=tmp_path / "dask", backend="dask", jobs=2, **{**FAST, "reps": 1})
    assert (tmp_path / "one" / "units.jsonl").read_bytes() == (tmp_path / "dask" / "units.jsonl").read_bytes()


def test_a_resume_may_run_the_command_elsewhere_but_not_another_command(tmp_path):
    # the devices and the time limit say where and how long a command runs, not what is measured
    here = textbcv.System("memo", "iob2", command=CommandSpec(COMMAND, devices=("0",)))
    there = textbcv.System("memo", "iob2", command=CommandSpec(COMMAND, devices=("1",), timeout=600))
    textbcv.calibrate(NER, [here], out=tmp_path / "cal", **{**FAST, "reps": 1})
    cal = textbcv.calibrate(NER, [there], out=tmp_path / "cal", resume=True, **FAST)
    assert cal.nulls[0].calls.n == 2
    with pytest.raises(InputError, match="other settings"):
        textbcv.calibrate(NER, [memo(COMMAND + " --format conll")], out=tmp_path / "cal", resume=True, **FAST)
