"""`textbcv test`: CONTRACT output, table, folds.jsonl, and one-line errors with file:line."""

import json
import subprocess
import sys

import pytest

from textbcv.cli import main
from textbcv.report.sections import SECTIONS
from textbcv.stats.compare import bayes_answer

A = [{"tp": 90, "fp": 10, "fn": 12}, {"tp": 88, "fp": 11, "fn": 13}, {"tp": 91, "fp": 9, "fn": 12},
     {"tp": 89, "fp": 10, "fn": 14}, {"tp": 90, "fp": 12, "fn": 11}, {"tp": 92, "fp": 10, "fn": 10}]
B = [{"tp": 93, "fp": 9, "fn": 9}, {"tp": 91, "fp": 10, "fn": 10}, {"tp": 92, "fp": 9, "fn": 11},
     {"tp": 90, "fp": 10, "fn": 13}, {"tp": 93, "fp": 10, "fn": 8}, {"tp": 94, "fp": 8, "fn": 8}]  # A's gold per fold


def write_counts(tmp_path, obj, name="counts.json"):
    p = tmp_path / name
    p.write_text(json.dumps(obj, indent=1))
    return p


def run_cli(args, capsys):
    rc = main(args)
    out, err = capsys.readouterr()
    return rc, out, err


def test_json_answer_follows_contract(tmp_path, capsys):
    p = write_counts(tmp_path, {"m": 3, "systems": {"A": A, "B": B}})
    rc, out, err = run_cli(["test", str(p), "--json"], capsys)
    assert rc == 0 and err == ""
    r = json.loads(out)
    assert r["m"] == 3 and r["alpha"] == 0.05
    assert set(r["systems"]) == {"A", "B"}
    for s in r["systems"].values():
        for k in ("precision", "recall", "f1"):
            lo, hi = s[k]["ci"]
            assert 0 <= lo < s[k]["estimate"] < hi <= 1
    assert [(c["a"], c["b"], c["metric"]) for c in r["comparisons"]] == [
        ("A", "B", k) for k in ("precision", "recall", "f1")]
    for c in r["comparisons"]:
        assert c["p_b_better"] + c["p_a_better"] == pytest.approx(1)
        assert c["decision"] in ("B better", "A better", "no clear difference")
    from textbcv import defaults

    # the CLI's default variant (textbcv.defaults) is passed on to the stats layer, whose own default is the thesis's
    # (a COUNTS.json has no per-sentence counts: the clustered default falls back to adaptive, and says so)
    variant = "adaptive" if defaults.VARIANT == "clustered" else defaults.VARIANT
    expected = json.loads(json.dumps(bayes_answer({"A": A, "B": B}, 3, variant=variant).to_dict()))
    assert {k: r[k] for k in expected} == expected
    sections = {kind.key for kind in SECTIONS}  # every registered section's block (two systems: all of them)
    assert set(r) - set(expected) == (sections | {"notes"} if variant != defaults.VARIANT else sections)
    if variant != defaults.VARIANT:
        assert any("the adaptive variant was used" in n for n in r["notes"])
    rc2, out2, _ = run_cli(["test", str(p), "--json"], capsys)
    assert out2 == out  # byte-identical


def test_table_and_options(tmp_path, capsys):
    p = write_counts(tmp_path, {"m": 3, "systems": {"A": A, "B": B, "C": B}})
    rc, out, err = run_cli(["test", str(p), "--rope", "0.5", "--threshold", "0.9"], capsys)
    assert rc == 0
    assert "P(B better by > 0.5)" in out and "P(equiv.)" in out and "alpha/k" in out
    assert "a system is called better" in out and "at least 0.9" in out
    rc, out, err = run_cli(["test", str(p), "--json", "--variant", "averaged-counts"], capsys)
    r = json.loads(out)
    assert r["family_wise"]["pairs"] == 3
    bc = [c for c in r["comparisons"] if c["a"] == "B" and c["b"] == "C"]
    assert all(c["p_b_better"] == 0.5 and c["decision"] == "no clear difference" for c in bc)
    rc, out, err = run_cli(["test", str(p), "--json", "--method", "both", "--draws", "100000"], capsys)
    for c in json.loads(out)["comparisons"]:
        assert abs(c["mc_p_b_better"] - c["p_b_better"]) < 4 * max(c["mc_se"], 1e-3)


@pytest.mark.parametrize("obj,line,message", [
    ({"systems": {"A": A, "B": B}}, 1, 'missing key "m"'),
    ({"m": 2, "systems": {"A": A, "B": B}}, 4, "expected 2m = 4 folds"),
    ({"m": 3, "systems": {"A": A}}, 3, "at least 2 systems"),
    ({"m": 3, "systems": {"A": A, "B": B[:5] + [{"tp": -1, "fp": 0, "fn": 0}]}}, 62, "non-negative integer"),
    ({"m": 3, "systems": {"A": A, "B": B[:5] + [{"tp": 1.5, "fp": 0, "fn": 0}]}}, 62, "non-negative integer"),
    ({"m": 3, "systems": {"A": A, "B": B[:2] + [{"tp": 1, "fp": 0}] + B[3:]}}, 47, "missing key(s) fn"),
    ({"m": 0, "systems": {"A": A, "B": B}}, 2, "integer >= 1"),
])
def test_bad_counts_json(tmp_path, capsys, obj, line, message):
    p = write_counts(tmp_path, obj)
    rc, out, err = run_cli(["test", str(p)], capsys)
    assert rc == 2 and out == ""
    assert err.startswith(f"textbcv: error: {p}:{line}: ") and message in err


def test_invalid_json_and_no_traceback(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('{"m": 3,\n "systems": {\n')
    r = subprocess.run([sys.executable, "-m", "textbcv", "test", str(p)], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"textbcv: error: {p}:3: not valid JSON")


def folds_lines(systems, m=3, torn=False):
    lines = []
    for name, folds in systems.items():
        for i, f in enumerate(folds):
            lines.append(json.dumps({"system": name, "split": i // 2, "direction": i % 2,
                                     "counts": {"overall": f, "types": {"ORG": {"tp": 1, "fp": 0, "fn": i}}},
                                     "run": {"seconds": 1.0}}))
    text = "\n".join(lines) + "\n"
    return text + ('{"system": "A", "spl' if torn else "")


def test_folds_jsonl_equals_counts_json(tmp_path, capsys):
    pj = write_counts(tmp_path, {"m": 3, "systems": {"iob2": A, "iobes": B}})
    pl = tmp_path / "folds.jsonl"
    # shuffled order and a torn last line are fine
    lines = folds_lines({"iob2": A, "iobes": B}).splitlines()
    lines = [lines[0], lines[6]] + lines[1:6][::-1] + lines[7:][::-1]  # interleaved, iob2 seen first
    pl.write_text("\n".join(lines) + "\n" + '{"system": "A", "spl')
    _, out_j, _ = run_cli(["test", str(pj), "--json"], capsys)
    rc, out_l, err = run_cli(["test", str(pl), "--json"], capsys)
    assert rc == 0 and out_l == out_j
    rc, out_t, err = run_cli(["test", str(pl), "--json", "--type", "ORG"], capsys)
    assert rc == 0 and json.loads(out_t)["counts"]["iob2"] == {"tp": 6, "fp": 0, "fn": 15}


def test_folds_jsonl_errors(tmp_path, capsys):
    pl = tmp_path / "folds.jsonl"
    lines = folds_lines({"iob2": A, "iobes": B}).splitlines()
    pl.write_text("\n".join(lines[:-1]) + "\n")
    rc, out, err = run_cli(["test", str(pl)], capsys)
    assert rc == 2 and "system 'iobes': 1 of 2m = 6 folds missing (split 2 direction 1)" in err
    bad = lines[:]
    bad[3] = bad[3].replace('"tp": 89', '"tp": "89"')
    pl.write_text("\n".join(bad) + "\n")
    rc, out, err = run_cli(["test", str(pl)], capsys)
    assert rc == 2 and err.startswith(f"textbcv: error: {pl}:4: counts.overall.tp must be")
    dup = lines + [lines[0].replace('"tp": 90', '"tp": 91')]
    pl.write_text("\n".join(dup) + "\n")
    rc, out, err = run_cli(["test", str(pl)], capsys)
    assert rc == 2 and f"{pl}:13:" in err and "recorded twice" in err
