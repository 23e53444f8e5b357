"""Shared fixtures: where the shared corpora are, and how tests that need them skip."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TEXTBCV_SHARED", ROOT.parent / "shared")) / "corpora"
BUNDLED = ROOT / "corpora"
SCRIPTS = ROOT / "scripts"


def script(name: str):
    """An evidence script as a module (``import NAME`` with ``scripts/`` on the path, as the scripts import each
    other): what tests of a script import."""
    import importlib
    import sys

    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    return importlib.import_module(name)


def calibrate_cli(*argv: str):
    """``python -m textbcv calibrate ARGV`` as a subprocess (its CompletedProcess, output as text)."""
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "textbcv", "calibrate", *argv], capture_output=True, text=True)


def calibrate_in_process(capsys, *argv: str):
    """``textbcv calibrate ARGV`` through main() in this process, for the steps that follow a run made by
    :func:`calibrate_cli` (its exit status and output, without an interpreter start and imports)."""
    import subprocess

    from textbcv.cli import main

    capsys.readouterr()
    status = main(["calibrate", *argv])
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["textbcv", "calibrate", *argv], status, out, err)


def shared_path(*parts: str) -> Path:
    """Path of a file under ../shared/corpora; skips the test (with a message) when absent."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        if os.environ.get("CI"):
            pytest.fail(f"shared corpus file missing in CI: {p}")
        pytest.skip(f"shared corpus not available here: {p} (tests on real corpora run in CI)")
    return p


@pytest.fixture(scope="session")
def shared():
    """Callable fixture: ``shared("conll2003_en", "eng.train")`` -> Path or skip."""
    return shared_path
