"""A tiny transformer fine-tuned through a command system, end to end: a randomly initialised BERT built from a
config (no download) by scripts/examples/hf_command.py, on CPU, as one system of ``textbcv compare``.

Needs the optional ``torch`` and ``transformers``; skipped with a message where they are absent.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import textbcv

for _module in ("torch", "transformers", "datasets", "accelerate"):
    pytest.importorskip(_module, reason=f"{_module} is not installed (optional: the transformer recipe's test)")

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "examples" / "hf_command.py"


def test_a_tiny_transformer_is_a_command_system(tmp_path):
    blocks = textbcv.bundled_corpora()["ner"].read_text(encoding="utf-8").split("\n\n")
    corpus = tmp_path / "small.conll"
    corpus.write_text("\n\n".join(b for b in blocks[:48] if b.strip()) + "\n", encoding="utf-8")
    # the script's path as its docstring gives it, relative to the folder textbcv is started from
    command = (f"{sys.executable} {SCRIPT.relative_to(ROOT)} --train {{train}} --test {{test}} --out {{pred}} "
               "--seed {seed} --model tiny --epochs 2")
    run = tmp_path / "run"
    r = subprocess.run([sys.executable, "-m", "textbcv", "compare", str(corpus), "--task", "ner", "--m", "1",
                        "--systems", "iob2", "--max-iterations", "5", "--command-format", "jsonl",
                        "--system", f"tiny={command}", "--no-plots", "--out", str(run)],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    assert set(report["systems"]) == {"iob2", "tiny"}
    folds = [json.loads(x) for x in (run / "folds.jsonl").read_text(encoding="utf-8").splitlines()]
    tiny = [f for f in folds if f["system"] == "tiny"]
    assert len(tiny) == 2 and all(f["counts"]["overall"]["tp"] + f["counts"]["overall"]["fn"] > 0 for f in tiny)
    # the tiny model tagged every word of every test sentence, as the CRF did: the scorer saw the same halves
    crf = [f for f in folds if f["system"] == "iob2"]
    assert sorted(f["sentences"] for f in tiny) == sorted(f["sentences"] for f in crf)
    assert sorted(f["tokens"] for f in tiny) == sorted(f["tokens"] for f in crf)
    # each task's own output is kept in the run: the Trainer's summary, and the script's count of what it tagged
    tasks = sorted((run / "commands" / "tiny").glob("fold-*/seed-0"))
    assert len(tasks) == 2
    for task in tasks:
        assert "train_runtime" in (task / "stdout.log").read_text(encoding="utf-8")
        tagged = json.loads((task / "stderr.log").read_text(encoding="utf-8").strip().splitlines()[-1])
        assert tagged["cut_off"] == 0 and tagged["sentences"] in {f["sentences"] for f in tiny}
    comp = next(c for c in report["comparisons"] if c["metric"] == "f1")
    assert comp["decision"] in ("A better", "B better", "no clear difference")
