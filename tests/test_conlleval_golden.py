"""`textbcv score` against conlleval.pl's own output on perturbed real corpora (an outside oracle).

scripts/conlleval_check.py built the check files from the shared corpora, ran conlleval.pl
(2004-01-26, not shipped with textbcv) on them and committed its output to
tests/data/conlleval_golden/. Here the same files are rebuilt (deterministic) and textbcv's report
must equal conlleval.pl's byte for byte; the JSON counts must equal the numbers in that report.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import script, shared_path

from textbcv.cli import main

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "conlleval_golden"
NAMES = sorted(p.stem for p in GOLDEN.glob("*.txt"))


def load():
    return script("conlleval_check")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    shared_path("conll2003_en", "eng.testb")
    shared_path("ud_chinese_gsd", "zh_gsd-ud-dev.conllu")
    shared_path("ud_english_ewt", "en_ewt-ud-dev.conllu")
    mod = load()
    d = tmp_path_factory.mktemp("conlleval")
    out = {}
    for name, sents in mod.gold_files().items():
        (d / f"{name}.txt").write_text(mod.check_text(name, sents), encoding="utf-8")
        out[name] = d / f"{name}.txt"
    return out


def test_every_golden_file_has_a_check_file(files):
    assert NAMES == sorted(files) and len(NAMES) == 7


@pytest.mark.parametrize("name", NAMES)
def test_score_report_is_conlleval_byte_for_byte(files, name, capsysbinary):
    assert main(["score", str(files[name])]) == 0
    assert capsysbinary.readouterr().out == (GOLDEN / f"{name}.txt").read_bytes()


@pytest.mark.parametrize("name", NAMES)
def test_score_json_counts_equal_conlleval(files, name, capsys):
    """--json counts are conlleval's, except that a -DOCSTART- line is a document boundary there, not a
    token: a predicted chunk on it (the perturbation puts some there) is one of conlleval's "found"."""
    head = (GOLDEN / f"{name}.txt").read_text().splitlines()[0]
    counts = re.search(r"with (\d+) phrases; found: (\d+) phrases; correct: (\d+)", head)
    gold, found, correct = map(int, counts.groups())
    on_docstart = sum(1 for line in files[name].read_text(encoding="utf-8").splitlines()
                      if line.startswith("-DOCSTART- ") and line.split()[-1] != "O")
    assert main(["score", str(files[name]), "--json"]) == 0
    o = json.loads(capsys.readouterr().out)["overall"]
    assert (o["tp"], o["tp"] + o["fp"] + on_docstart, o["tp"] + o["fn"]) == (correct, found, gold)
    if name.startswith("conll"):
        assert on_docstart > 0  # the case is really exercised
