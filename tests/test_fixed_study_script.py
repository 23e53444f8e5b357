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
    rows = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(rows) == set(study.SMOKE) and all(r["R"] == 2 for r in rows.values())
    assert "| bundled English NER | 2 | textbcv's posterior" in study.section(rows)
