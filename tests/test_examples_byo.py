"""scripts/examples: a scikit-learn tagger and a CRF, through the command line (split --export → train →
evaluate) and through textbcv.compare in Python, give the same report.json apart from the named keys."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from textbcv.api import RUN_KEYS_THAT_DIFFER
from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora

EXAMPLES = Path(__file__).resolve().parents[1] / "scripts" / "examples"
sys.path.insert(0, str(EXAMPLES))

from compare_in_python import compare_in_python  # noqa: E402
from train_on_folds import train_on_folds  # noqa: E402


def differing(a, b, path: str = "") -> set[str]:
    """Dotted paths where two JSON values differ (a key present on one side only counts as differing)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = set()
        for k in set(a) | set(b):
            p = f"{path}.{k}" if path else k
            out |= {p} if k not in a or k not in b else differing(a[k], b[k], p)
        return out
    return set() if a == b else {path}


def covered(path: str) -> bool:
    return any(path == k or path.startswith(k + ".") for k in RUN_KEYS_THAT_DIFFER)


@pytest.fixture(scope="module")
def both_paths(tmp_path_factory):
    d = tmp_path_factory.mktemp("examples")
    corpus = d / "ner.conll"
    write_conll(read_corpus(bundled_corpora()["ner"])[:300], corpus)
    # the command-line path, as scripts/examples/byo_cli.sh runs it
    assert main(["split", str(corpus), "--m", "3", "--seed", "0", "--out", str(d / "splits.json"),
                 "--export", str(d / "folds")]) == 0
    train_on_folds(d / "folds", d / "predictions", quick=True, verbose=False)
    assert main(["evaluate", str(d / "splits.json"), str(corpus), "--task", "ner", "--quiet", "--no-plots",
                 "--system", f"crf={d / 'predictions' / 'crf'}", "--system", f"logreg={d / 'predictions' / 'logreg'}",
                 "--out", str(d / "cli")]) == 0
    # the Python path
    result = compare_in_python(str(corpus), None, m=3, quick=True)
    result.write(d / "py", plots=False)
    return d, result


def test_same_report_apart_from_named_keys(both_paths):
    d, result = both_paths
    cli = json.loads((d / "cli" / "report.json").read_text())
    py = json.loads((d / "py" / "report.json").read_text())
    diff = differing(cli, py)
    assert all(covered(p) for p in diff), sorted(p for p in diff if not covered(p))
    # the named keys are the ones that do differ (how the folds were made), and nothing beyond them
    assert {p.split(".")[0] for p in diff} == {"run", "meta"}
    assert "meta.imported" in diff and any(p.startswith("meta.systems") for p in diff)
    assert cli["fold_counts"] == py["fold_counts"] and cli["comparisons"] == py["comparisons"]
    assert cli["meta"]["imported"]["systems"]["crf"]["predictions"] == str(d / "predictions" / "crf")


def test_folds_equal_apart_from_how_they_were_made(both_paths):
    d, result = both_paths

    def strip(path):
        return [{k: v for k, v in json.loads(line).items() if k not in ("run", "spec")}
                for line in path.read_text().splitlines()]

    assert strip(d / "cli" / "folds.jsonl") == strip(d / "py" / "folds.jsonl")
    assert (d / "cli" / "splits.json").read_text() == (d / "py" / "splits.json").read_text() == \
        (d / "splits.json").read_text()


def test_compare_result_is_the_run_directory(both_paths):
    d, result = both_paths
    assert result.to_dict() == json.loads((d / "py" / "report.json").read_text())
    assert result.markdown() == (d / "py" / "report.md").read_text()
    assert [json.loads(line) for line in (d / "py" / "folds.jsonl").read_text().splitlines()] == list(result.folds)
    assert "Predictions imported" in (d / "cli" / "report.md").read_text()
    assert "Predictions imported" not in result.markdown()
