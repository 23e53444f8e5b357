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
            # every data set has seeds of its own: no seed set's luck is shared across data sets
            assert (u["seed_a"], u["seed_b"]) == (2 * study.SEEDS * u["r"], (2 * u["r"] + 1) * study.SEEDS)
    before = {n: (tmp_path / f"{n}.jsonl").read_bytes() for n in study.SMOKE}
    capsys.readouterr()
    assert study.main(["--smoke", "--out", str(tmp_path)]) == 0
    assert {n: (tmp_path / f"{n}.jsonl").read_bytes() for n in study.SMOKE} == before
    rows = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["null"]
    assert set(rows) == set(study.SMOKE) and all(r["R"] == 2 for r in rows.values())
    lines = study.section(rows).splitlines()
    row = next(x for x in lines if x.startswith("| bundled English NER | 2 | ") and "textbcv's posterior" in x)
    mean = rows["bundled_ner"]["mean"]
    assert f"| {100 * mean:+.2f} ± " in row
    assert abs(mean - sum(u["estimate"] for u in units["bundled_ner"]) / 2) < 1e-12


def test_the_first_designs_units_are_summarised_apart(tmp_path):
    study = _module()
    old = tmp_path / study.SAME_SEEDS
    old.mkdir()
    calls = {t: None for t in study.TESTS}
    units = [{"r": r, "estimate": e, "calls": {**calls, "posterior": c}} for r, (e, c) in
             enumerate([(0.01, "B"), (0.03, None), (-0.01, None), (0.05, "B")])]
    (old / "bundled_ner.jsonl").write_text("".join(json.dumps(u) + "\n" for u in units))
    (tmp_path / "bundled_ner.jsonl").write_text("".join(json.dumps(u) + "\n" for u in units))  # no seed_a: not read
    assert study.summarize(tmp_path, study.SMOKE) == {}
    same = study.summarize_same_seeds(tmp_path, study.SMOKE)
    r = same["bundled_ner"]
    assert (r["R"], r["posterior"]["B"]["k"], r["posterior"]["A"]["k"]) == (4, 2, 0)
    assert abs(r["mean"] - 0.02) < 1e-12 and abs(r["se"] - (0.0006667 ** 0.5) / 2) < 1e-4
    assert "| bundled English NER | 4 | +2.00 ± " in study.section({}, same)


def test_official_has_no_smoke():
    study = _module()
    try:
        study.main(["--official", "--smoke"])
    except SystemExit as e:
        assert e.code == 2
    else:
        raise AssertionError("--official --smoke ran")


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
            # the truth's models have seeds other than the unit's: the two errors are independent
            assert u["truth_seed"] == u["seed_a"] + study.SEEDS
    close = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["close"]
    assert all(r["R"] == 2 and 0 <= r["coverage"]["rate"] <= 1 for r in close.values())
    assert "| bundled English NER | iobes − iob2 | 2 |" in study.close_section(close)
    for r in close.values():  # the truth's spread over training sets, net of its noise: what a fixed split leaves out
        assert r["training_sd"] is None or r["training_sd"] >= 0
        assert r["seed_sd"] > 0 and r["task"] in ("ner", "cws")
    assert study.training_parts(close) == {}  # two data sets are too few to quote
    many = {n: {**r, "training_R": study.PART_MIN_R, "training_sd": 0.01} for n, r in close.items()}
    parts = study.training_parts(many)
    assert set(parts) == {"ner", "cws"} and parts["ner"]["sd"] == 0.01
    assert parts["ner"]["where"].startswith("bundled English NER, iobes − iob2, ")
    assert parts["ner"]["where"].endswith(f"-sentence training sets, {study.PART_MIN_R} data sets")


def test_the_committed_summary_and_training_part_are_the_committed_units():
    """docs/fixed_study.json and the training-set part the fixed-split report quotes are the committed units'."""
    from textbcv import defaults

    study = _module()
    units = ROOT / "docs" / "fixed_study"
    committed = json.loads((ROOT / "docs" / "fixed_study.json").read_text(encoding="utf-8"))
    close = json.loads(json.dumps(study.summarize_close(units, study.CORPORA)))
    assert committed["close"] == close
    assert committed["null"] == json.loads(json.dumps(study.summarize(units, study.CORPORA)))
    assert defaults.evidence()["fixed_training_part"] == json.loads(json.dumps(study.training_parts(close)))
    for path in units.glob("*.jsonl"):  # every data set had seeds of its own, none shared with another's
        rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
        seeds = [(u["seed_a"], u["seed_b"]) for u in rows]
        assert all(a == 2 * u["seeds"] * u["r"] for (a, _), u in zip(seeds, rows)), path.name
        assert len({u["r"] for u in rows}) == len(rows), path.name  # no data set twice
    text = (ROOT / "docs" / "RESULTS.md").read_text(encoding="utf-8")
    assert study.section(committed["null"], committed["same_seeds"]) in text
