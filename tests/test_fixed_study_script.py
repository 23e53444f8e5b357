"""scripts/fixed_study.py --smoke: null pairs through the fixed split on the bundled corpora, resumed."""

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _module():
    spec = importlib.util.spec_from_file_location("fixed_study", ROOT / "scripts" / "fixed_study.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_smoke_writes_units_and_resumes_without_training(tmp_path, capsys):
    study = _module()
    assert study.main(["--smoke", "--out", str(tmp_path)]) == 0
    units = {n: [json.loads(x) for x in (tmp_path / f"{n}.jsonl").read_text().splitlines()] for n in study.SMOKE}
    for name, us in units.items():
        assert [u["r"] for u in us] == [0, 1]
        for u in us:
            assert set(u["calls"]) == set(study.TESTS)
            assert all(c in (None, "A", "B") for c in u["calls"].values())
            assert u["test_sentences"] > 0 and u["train_sentences"] > 3 * u["test_sentences"] * 0.8
            assert u["seeds"] == study.SEEDS and u["bootstrap_all"]["A"] + u["bootstrap_all"]["B"] + \
                u["bootstrap_all"]["none"] == study.SEEDS
    before = {n: (tmp_path / f"{n}.jsonl").read_bytes() for n in study.SMOKE}
    capsys.readouterr()
    assert study.main(["--smoke", "--out", str(tmp_path)]) == 0
    assert {n: (tmp_path / f"{n}.jsonl").read_bytes() for n in study.SMOKE} == before
    rows = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["null"]
    assert set(rows) == set(study.SMOKE) and all(r["R"] == 2 for r in rows.values())
    assert "| bundled English NER | 2 | textbcv's posterior" in study.section(rows)


def test_smoke_close_pairs_measure_their_truth_outside_the_data_set(tmp_path, capsys):
    study = _module()
    assert study.main(["--smoke", "--close", "--out", str(tmp_path)]) == 0
    for name in study.SMOKE:
        units = [json.loads(x) for x in (tmp_path / f"{name}{study.CLOSE}.jsonl").read_text().splitlines()]
        assert [u["r"] for u in units] == [0, 1]
        for u in units:
            assert u["pair"] == list(study.SMOKE[name]["pair"]) and u["truth_sd"] > 0
            assert u["truth_sentences"] > u["train_sentences"] + u["test_sentences"]
            assert isinstance(study.covered(u), bool)
    close = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["close"]
    assert all(r["R"] == 2 and 0 <= r["coverage"]["rate"] <= 1 for r in close.values())
    assert "| bundled English NER | iobes − iob2 | 2 |" in study.close_section(close)
