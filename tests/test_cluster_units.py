"""The posterior's clusters are the splits' units, never fewer than MIN_CLUSTERS; its correlation lies in [-1, 1].

Files are not documents unless the corpus marks documents: the same sentences in two files or in one give the
same answer, and ``--group-by file`` on two files is refused. No report.json under tests/ holds fewer clusters or a
correlation outside [-1, 1]; the minimum is the one scripts/cluster_minimum.py measured.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import calibrate_cli, script
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv import bundled_corpora
from textbcv.comparison.design_effects import check_units, cluster_units
from textbcv.corpus import Corpus, Sentence, read_conll, read_conllu, read_jsonl, read_segmented, write_conll
from textbcv.defaults import MIN_CLUSTERS, unit_note
from textbcv.errors import InputError
from textbcv.split import make_splits, split_units
from textbcv.stats.paired import paired_difference

ROOT = Path(__file__).resolve().parents[1]
FAST = ["--m", "2", "--max-iterations", "5", "--quiet", "--no-plots"]


def _unmarked(tmp: Path, n: int = 240) -> tuple[Path, Path, Path]:
    """The bundled NER corpus's first n sentences without its -DOCSTART- lines: in two files, and in one."""
    sents = read_conll(bundled_corpora()["ner"])[:n]
    a, b, one = tmp / "dev.conll", tmp / "test.conll", tmp / "one.conll"
    write_conll(sents[: n // 2], a, docstart=False)
    write_conll(sents[n // 2:], b, docstart=False)
    write_conll(sents, one, docstart=False)
    return a, b, one


def _compare(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "textbcv", "compare", *args], capture_output=True, text=True,
                          timeout=900)


def _answers(report: dict) -> list:
    """What a report answers: every comparison's estimate, posterior and decision, and its clusters."""
    return [(c["a"], c["b"], c["metric"], c["difference"]["estimate"], c["difference"]["sd"],
             c["difference"]["clusters"], c["difference"]["cluster_unit"], c["difference"]["correlation"],
             c.get("p_b_better"), c.get("decision")) for c in report["comparisons"]]


def test_two_unmarked_files_answer_as_their_concatenation(tmp_path):
    a, b, one = _unmarked(tmp_path)
    two = _compare(str(a), str(b), "--task", "ner", "--systems", "iob2,iobes", "--out", str(tmp_path / "two"), *FAST)
    assert two.returncode == 0, two.stderr
    cat = _compare(str(one), "--task", "ner", "--systems", "iob2,iobes", "--out", str(tmp_path / "one"), *FAST)
    assert cat.returncode == 0, cat.stderr
    r2 = json.loads((tmp_path / "two" / "report.json").read_text())
    r1 = json.loads((tmp_path / "one" / "report.json").read_text())
    assert _answers(r2) == _answers(r1)
    assert {x[5] for x in _answers(r2)} == {240} and {x[6] for x in _answers(r2)} == {"sentences"}
    assert r2["split"]["unit"] == "sentence" and r2["meta"]["corpus"]["documents"] == 1
    note = r2["split"]["notes"][0]
    assert note.startswith("this corpus marks no documents (-DOCSTART-, # newdoc): sentences are the units (its 2 "
                           "files are not taken as documents: --group-by file makes them the units)")
    assert "--group-by file" in note and "marks only" not in (tmp_path / "two" / "report.md").read_text()


def test_group_by_file_on_two_files_is_refused_before_anything_is_written(tmp_path):
    a, b, _ = _unmarked(tmp_path)
    out = tmp_path / "run"
    r = _compare(str(a), str(b), "--task", "ner", "--systems", "iob2,iobes", "--out", str(out), "--group-by", "file",
                 *FAST)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith("textbcv: error: --group-by file: the corpus has 2 files, fewer than the "
                               f"{MIN_CLUSTERS} clusters")
    assert not out.exists()
    bad = _compare(str(a), "--task", "ner", "--systems", "iob2,iobes", "--out", str(out), "--group-by", "files", *FAST)
    assert bad.returncode == 2 and "--group-by: unknown unit 'files'" in bad.stderr and not out.exists()


def test_calibrate_group_by_goes_through_the_same_checks(tmp_path):
    a, b, _ = _unmarked(tmp_path)
    out = tmp_path / "cal"
    r = calibrate_cli(str(a), str(b), "--systems", "iob2", "--reps", "1", "--size", "100", "--group-by", "file",
                      "--out", str(out))
    assert r.returncode == 2 and r.stderr.startswith("textbcv: error: --group-by file: the corpus has 2 files")
    assert not out.exists()
    r = calibrate_cli(str(a), "--systems", "iob2", "--reps", "1", "--group-by", "page", "--out", str(out))
    assert r.returncode == 2 and "--group-by: unknown unit 'page'" in r.stderr and not out.exists()


def test_group_by_file_keeps_files_whole_and_clusters_on_them(tmp_path):
    sents = read_conll(bundled_corpora()["ner"])[:320]
    paths = []
    for i in range(MIN_CLUSTERS + 1):
        p = tmp_path / f"f{i:02d}.conll"
        write_conll(sents[20 * i: 20 * (i + 1)], p, docstart=False)
        paths.append(str(p))
    c = read_conll(paths)
    assert c.n_documents == 1
    s = make_splits(c, m=3, group_by="file")
    name, ids, note = cluster_units(s, c)
    assert (name, note) == ("files", None) and len(np.unique(ids)) == MIN_CLUSTERS + 1
    for train, test in s.splits:  # every file on one side only
        assert not set(ids[train]) & set(ids[test])
    check_units("file", c)
    with pytest.raises(InputError, match="fewer than the"):
        check_units("file", c[:40])


def test_a_manifest_of_too_few_documents_falls_back_to_sentences_and_says_so():
    c = Corpus([Sentence((f"w{i}",), ("O",), "iob2", document=i // 10) for i in range(60)], ["x"], "conll", "iob2")
    s = split_units(60, 3, groups=c.document_ids, options={"group_by": "document"})
    name, ids, note = cluster_units(s, c)
    assert name == "sentences" and ids.tolist() == list(range(60))
    assert note.startswith(f"the splits keep 6 documents whole, fewer than the {MIN_CLUSTERS} clusters")
    assert make_splits(c, m=3).options["group_by"] == "sentence"  # auto: 6 documents are too few
    assert "marks only 6 documents" in unit_note("auto", "sentence", 6)


def test_readers_take_files_as_documents_only_where_documents_are_marked(tmp_path):
    sents = read_conll(bundled_corpora()["ner"])[:40]
    write_conll(sents[:20], tmp_path / "a.conll", docstart=False)
    write_conll(sents[20:], tmp_path / "b.conll", docstart=False)
    assert read_conll([tmp_path / "a.conll", tmp_path / "b.conll"]).n_documents == 1
    write_conll(sents[:20], tmp_path / "c.conll")  # with -DOCSTART- lines: marked, and a file starts a document
    marked = read_conll([tmp_path / "c.conll", tmp_path / "b.conll"])
    assert marked.n_documents == sents[:20].n_documents + 1
    (tmp_path / "a.txt").write_text("ab c\nd e\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("f g\n", encoding="utf-8")
    assert read_segmented([tmp_path / "a.txt", tmp_path / "b.txt"]).n_documents == 1
    row = '{"tokens": ["EU", "rejects"], "ner_tags": ["B-ORG", "O"]}\n'
    (tmp_path / "a.jsonl").write_text(row * 2, encoding="utf-8")
    (tmp_path / "b.jsonl").write_text(row, encoding="utf-8")
    assert read_jsonl([tmp_path / "a.jsonl", tmp_path / "b.jsonl"]).n_documents == 1
    word = "1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n\n"
    (tmp_path / "a.conllu").write_text(word * 2, encoding="utf-8")
    (tmp_path / "b.conllu").write_text(word, encoding="utf-8")
    assert read_conllu([tmp_path / "a.conllu", tmp_path / "b.conllu"]).n_documents == 1
    (tmp_path / "c.conllu").write_text("# newdoc\n" + word + "# newdoc\n" + word, encoding="utf-8")
    assert read_conllu([tmp_path / "c.conllu", tmp_path / "b.conllu"]).n_documents == 3


def _walk(x, found: list) -> None:
    if isinstance(x, dict):
        if "clusters" in x and isinstance(x["clusters"], int):
            found.append(("clusters", x["clusters"]))
        if "correlation" in x and x["correlation"] is not None:
            found.append(("correlation", x["correlation"]))
        for v in x.values():
            _walk(v, found)
    elif isinstance(x, list):
        for v in x:
            _walk(v, found)


def test_no_report_under_tests_has_too_few_clusters_or_a_correlation_outside_its_bounds():
    reports = sorted(p for p in (ROOT / "tests").rglob("report.json*") if p.is_file())
    assert len(reports) >= 3
    for p in reports:
        found: list = []
        _walk(json.loads(p.read_text(encoding="utf-8")), found)
        clusters = [v for k, v in found if k == "clusters"]
        assert clusters and min(clusters) >= MIN_CLUSTERS, p
        assert all(-1 <= v <= 1 for k, v in found if k == "correlation"), p


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 40), st.integers(1, 2), st.integers(0, 10_000), st.booleans(), st.booleans())
def test_the_paired_correlation_is_never_outside_minus_one_one(k, m, seed, related, same):
    rng = np.random.default_rng(seed)
    n = max(k, 8)
    doc = rng.integers(0, k, n)
    folds_a, folds_b, groups = [], [], []
    for _ in range(2 * m):
        test = np.sort(rng.choice(n, size=n // 2, replace=False))
        a = rng.integers(0, 4, size=(len(test), 3))
        b = a.copy() if same else rng.integers(0, 4, size=(len(test), 3))
        folds_a.append(a)
        folds_b.append(b)
        groups.append(doc[test])
    pairs = (np.array([(i, j) for i in range(k) for j in range(i + 1, k)], dtype=np.int64).reshape(-1, 2)
             if related else None)
    for metric in ("precision", "recall", "f1"):
        r = paired_difference(folds_a, folds_b, groups, m, metric=metric, related=pairs).correlation
        assert math.isnan(r) or -1.0 <= r <= 1.0


def test_cluster_minimum_smoke_and_the_committed_measurement(capsys):
    cm = script("cluster_minimum")
    assert cm.main(["--smoke"]) == 0
    out = json.loads(capsys.readouterr().out)
    res = json.loads(Path(out["json"]).read_text())
    assert [r["k"] for r in res["rows"]] == [2, 30] and {r["reps"] for r in res["rows"]} == {20}
    for r in res["rows"]:
        for name in ("documents", "sentences"):
            d = r[name]
            assert d["calls_a"] + d["calls_b"] <= 20 and 0 <= d["upper_a"] <= 1
    committed = json.loads((ROOT / "docs" / "cluster_minimum.json").read_text())
    assert committed["minimum"] == MIN_CLUSTERS == committed["min_clusters"]
    rows = {r["k"]: r["documents"] for r in committed["rows"]}
    assert max(rows[2]["rate_a"], rows[2]["rate_b"]) > 0.1  # two clusters: far above the rule's 5%
    assert all(max(rows[k]["rate_a"], rows[k]["rate_b"]) <= 0.05 for k in rows if k >= MIN_CLUSTERS)
