"""The README a new user reads in five minutes: at most 10,000 characters, and the output it quotes is real."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_short():
    assert len(README) <= 10_000, len(README)


@pytest.mark.slow
def test_the_quoted_answer_is_what_the_quoted_command_prints(tmp_path):
    blocks = re.findall(r"```\n(.*?)```", README, re.S)
    command = next(b for b in blocks if b.startswith(".venv/bin/textbcv compare corpora/ner_en.conll"))
    quoted = next(b for b in blocks if re.match(r"On \d+×2 block-regularized", b))
    argv = shlex.split(command.strip())[1:]
    argv[argv.index("--out") + 1] = str(tmp_path / "run")
    r = subprocess.run([sys.executable, "-m", "textbcv", *argv], cwd=ROOT, capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(quoted), r.stdout[:600]
