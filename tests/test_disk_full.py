"""A full disk, for real: a small tmpfs as the output's file system. Every command ends in one ``textbcv: error:``
line, exit 2, no traceback, and leaves nothing it made; a folder of the user's keeps exactly what it held.

Mounting needs the right to (root in a container); where it is missing the tests skip with a message, and the
same paths stay covered by a simulated ENOSPC in tests/test_users_files.py.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

import textbcv

NER = str(textbcv.bundled_corpora()["ner"])


@contextlib.contextmanager
def _small_fs(kilobytes: int):
    """A tmpfs of ``kilobytes``, mounted for the block and removed after; skips where mounting is not allowed."""
    point = Path("/tmp") / f"textbcv-full-{uuid.uuid4().hex[:8]}"
    point.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kilobytes}k", "tmpfs", str(point)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        point.rmdir()
        pytest.skip(f"cannot mount a small tmpfs here ({(r.stderr or r.stdout).strip()[:80]}): the full disk is "
                    "checked with a simulated ENOSPC in test_users_files.py")
    try:
        yield point
    finally:
        subprocess.run(["umount", str(point)], capture_output=True)
        point.rmdir()


@pytest.fixture
def full_disk():
    """A 64 KB tmpfs: a report, a split manifest or a plot does not fit."""
    with _small_fs(64) as point:
        yield point


def _cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "textbcv", *argv], capture_output=True, text=True, timeout=300)


def _failed_cleanly(r: subprocess.CompletedProcess) -> None:
    assert r.returncode == 2, r.stderr
    lines = [x for x in r.stderr.splitlines() if x.startswith("textbcv: error: ")]
    assert len(lines) == 1 and "No space left on device" in lines[0] and "Traceback" not in r.stderr


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A finished compare run on an ordinary disk, for the commands that read one."""
    out = tmp_path_factory.mktemp("run") / "run"
    r = _cli("compare", NER, "--task", "ner", "--systems", "iob2,iobes", "--m", "1", "--max-iterations", "2",
             "--quiet", "--no-plots", "--out", str(out))
    assert r.returncode == 0, r.stderr
    return out


def test_compare_on_a_full_disk_leaves_nothing(full_disk):
    r = _cli("compare", NER, "--task", "ner", "--systems", "iob2,iobes", "--m", "1", "--max-iterations", "2",
             "--quiet", "--out", str(full_disk / "run"))
    _failed_cleanly(r)
    assert list(full_disk.iterdir()) == []


def test_evaluate_on_a_full_disk_leaves_nothing(full_disk, tmp_path):
    # predictions: the gold test halves as exported (a perfect system), twice
    preds = {name: tmp_path / name for name in ("gold", "again")}
    export = tmp_path / "folds"
    r = _cli("split", NER, "--m", "1", "--out", str(tmp_path / "splits.json"), "--export", str(export))
    assert r.returncode == 0, r.stderr
    for name, folder in preds.items():
        folder.mkdir()
        for fold in sorted(export.glob("fold-*")):
            rows = [x.split() for x in (fold / "test.conll").read_text(encoding="utf-8").splitlines()]
            (folder / f"{fold.name}.txt").write_text(
                "\n".join(f"{x[0]} {x[-1]}" if x else "" for x in rows) + "\n", encoding="utf-8")
    r = _cli("evaluate", str(tmp_path / "splits.json"), NER, "--task", "ner", "--quiet",
             *(a for n, f in preds.items() for a in ("--system", f"{n}={f}")), "--out", str(full_disk / "run"))
    _failed_cleanly(r)
    assert list(full_disk.iterdir()) == []


def test_split_on_a_full_disk_leaves_nothing(full_disk):
    r = _cli("split", NER, "--m", "3", "--out", str(full_disk / "splits.json"), "--export", str(full_disk / "f"))
    _failed_cleanly(r)
    assert list(full_disk.iterdir()) == []


def test_test_plots_on_a_full_disk_keep_the_users_folder_as_it_was(full_disk, finished_run):
    r = _cli("test", str(finished_run), "--plots", str(full_disk / "plots"))
    _failed_cleanly(r)
    assert list(full_disk.iterdir()) == []
    mine = full_disk / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine\n", encoding="utf-8")
    r = _cli("test", str(finished_run), "--plots", str(mine))
    _failed_cleanly(r)
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
    assert (mine / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    shutil.rmtree(mine)
    assert os.listdir(full_disk) == []


def _state(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("argv", [["--threshold", "0.9"], ["--redraw"]], ids=["what-if", "redraw"])
def test_a_redraw_on_a_full_disk_leaves_the_run_as_it_was(finished_run, argv):
    """The run and a little room: the redrawn report (a what-if folder, or the run's own files rewritten) does not
    fit, and the run keeps every file as it was, its manifest included."""
    size = sum(p.stat().st_size for p in finished_run.rglob("*") if p.is_file()) // 1024
    with _small_fs(size + 24) as point:
        run = point / "run"
        shutil.copytree(finished_run, run)
        before = _state(run)
        r = _cli("report", str(run), *argv)
        _failed_cleanly(r)
        assert _state(run) == before


def test_a_calibration_on_a_full_disk_keeps_its_units_and_resumes():
    """calibrate saves every finished data set as it goes: when the summary does not fit, the units stay, the
    message says --resume, and after room is made the resumed run trains nothing and writes the summary."""
    args = ["calibrate", NER, "--systems", "iob2", "--reps", "2", "--size", "120", "--max-iterations", "2"]
    with _small_fs(16) as point:
        out = point / "cal"
        r = _cli(*args, "--out", str(out))
        _failed_cleanly(r)
        assert "--resume" in r.stderr
        units = (out / "units.jsonl").read_bytes()
        assert units.count(b"\n") == 2
        subprocess.run(["mount", "-o", "remount,size=4m", str(point)], check=True, capture_output=True)
        r = _cli(*args, "--out", str(out), "--resume")
        assert r.returncode == 0, r.stderr
        assert "done (" not in r.stderr  # nothing trained again
        assert (out / "units.jsonl").read_bytes() == units and (out / "calibration.json").is_file()
