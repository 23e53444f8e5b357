"""Shared fixtures: where the shared corpora are, how tests that need them skip, and the session's training memo."""

from __future__ import annotations

import os
from pathlib import Path

import _train_memo
import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TEXTBCV_SHARED", ROOT.parent / "shared")) / "corpora"
BUNDLED = ROOT / "corpora"
SCRIPTS = ROOT / "scripts"


@pytest.fixture(autouse=True)
def _no_worker_pool_left():
    """After a test that ran folds on loky workers in this process (``jobs`` > 1), its pool is killed: no test
    leaves idle workers (and their resource tracker) to the next, and an interrupted session has none to wait
    for."""
    yield
    _kill_worker_pool()


def _kill_worker_pool() -> None:
    """Kill joblib's reusable loky executor, if one was started (a test that needs none starts none)."""
    from joblib.externals.loky import reusable_executor

    executor = getattr(reusable_executor, "_executor", None)
    if executor is not None:
        executor.shutdown(wait=True, kill_workers=True)


def pytest_configure(config):
    """Trainings of the same input replay their model within the session (tests/_train_memo.py says why exact)."""
    if _train_memo.enabled():
        _train_memo.install()


def pytest_sessionfinish(session, exitstatus):
    """Ctrl-C of the suite, or its end: no worker pool is left for the interpreter's exit to wait on."""
    _kill_worker_pool()
    _train_memo.uninstall()


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


@pytest.fixture(scope="session")
def ner_small(tmp_path_factory) -> Path:
    """The bundled NER corpus's first whole documents, about 700 sentences: for tests whose assertions do not
    depend on the corpus's size, where training on all 3,103 sentences would be most of their time."""
    docs = (BUNDLED / "ner_en.conll").read_text(encoding="utf-8").split("-DOCSTART- -X- -X- O\n")[1:]
    keep, n = [], 0
    while n < 700:
        keep.append(docs[len(keep)])
        n += sum(1 for block in keep[-1].split("\n\n") if block.strip())
    path = tmp_path_factory.mktemp("ner_small") / "ner_small.conll"
    path.write_text("".join("-DOCSTART- -X- -X- O\n" + d for d in keep), encoding="utf-8")
    return path
