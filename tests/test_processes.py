"""No process left behind: every child textbcv starts ends with it, however it ends.

A `compare --jobs 2` whose command systems hang (each starts a child, and a grandchild that leaves its parent
for init but stays in the command's process group) is stopped by SIGTERM, SIGINT, SIGHUP, or by the failure of
another command; a second after textbcv has exited, no process it started — found by parent while it ran, and by
process group (its own and each command's) — is alive. Processes are read from /proc (Linux).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import textbcv

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")

NER = str(textbcv.bundled_corpora()["ner"])
HANG = """\
import os, sys, time
from pathlib import Path
Path(sys.argv[1], str(os.getpid())).write_text("")
time.sleep(600)
"""


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent, process group) of a live process, None when gone or a zombie."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return None if fields[0] in "ZX" else (fields[0], int(fields[1]), int(fields[2]))


def _processes() -> dict[int, tuple[str, int, int]]:
    out = {}
    for p in Path("/proc").iterdir():
        if p.name.isdigit() and (s := _stat(int(p.name))) is not None:
            out[int(p.name)] = s
    return out


def _descendants(root: int) -> set[int]:
    procs = _processes()
    found, todo = set(), [root]
    while todo:
        parent = todo.pop()
        for pid, (_, ppid, _) in procs.items():
            if ppid == parent and pid not in found:
                found.add(pid)
                todo.append(pid)
    return found


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _survivors(pids: set[int], groups: set[int], where: Path) -> list[str]:
    """Live processes among ``pids``, in ``groups``, or naming a file under ``where`` (a command started after
    the others were seen)."""
    alive = [pid for pid in pids if _stat(pid) is not None]
    alive += [pid for pid, (_, _, pg) in _processes().items() if pg in groups and pid not in alive]
    alive += [pid for pid in _processes() if os.fsencode(where) in _cmdline(pid) and pid != os.getpid()]
    return [f"{pid}: {Path(f'/proc/{pid}/cmdline').read_bytes().replace(bytes(1), b' ')[:120]!r}"
            for pid in sorted(set(alive)) if _stat(pid) is not None]


def _start(tmp_path: Path, fail_b: bool = False, extra: tuple[str, ...] = ()) -> tuple[subprocess.Popen, Path]:
    hang, started = tmp_path / "hang.py", tmp_path / "started"
    hang.write_text(HANG, encoding="utf-8")
    started.mkdir()
    # a child, and a grandchild left to init by its subshell (still in the command's process group)
    command = (f"(sleep 600 &) ; sleep 600 & {sys.executable} {hang} {started} {{train}} {{test}} {{pred}}; "
               "wait")
    fails = f"until ls {started} | grep -q . ; do sleep 0.05; done; false {{train}} {{test}} {{pred}}"
    b = fails if fail_b else command  # b fails once a's command runs
    argv = [sys.executable, "-m", "textbcv", "compare", NER, "--task", "ner", "--m", "1", "--jobs", "2", "--quiet",
            "--no-plots", "--out", str(tmp_path / "run"), "--system", f"a={command}", "--system", f"b={b}", *extra]
    with open(tmp_path / "stderr.txt", "wb") as err:  # a file: a pipe would stay open while a survivor holds it
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    return proc, started


def _wait_for(proc: subprocess.Popen, started: Path, n: int) -> None:
    deadline = time.monotonic() + 240  # a loaded machine: the bound only ends a broken run
    while len(list(started.iterdir())) < n:
        assert proc.poll() is None, (started.parent / "stderr.txt").read_text()
        assert time.monotonic() < deadline, "the commands never started"
        time.sleep(0.05)


def _seen(proc: subprocess.Popen) -> tuple[set[int], set[int]]:
    """The processes below textbcv and the process groups they are in (textbcv's own included)."""
    pids = _descendants(proc.pid)
    groups = {proc.pid} | {s[2] for pid in pids if (s := _stat(pid)) is not None}
    return pids, groups


def _ended(proc: subprocess.Popen, tmp_path: Path) -> str:
    try:
        proc.wait(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        pytest.fail("textbcv did not end")
    return (tmp_path / "stderr.txt").read_text(encoding="utf-8")


def _left(pids: set[int], groups: set[int], where: Path) -> list[str]:
    """Those of ``pids``, of ``groups`` and of the run in ``where`` alive a second after textbcv ended; each is
    then killed (the test's own clean-up, so that a failure leaves nothing either)."""
    time.sleep(1)
    left = _survivors(pids, groups, where)
    pids = pids | {int(x.split(":")[0]) for x in left}
    groups = groups | {s[2] for pid in pids if (s := _stat(pid)) is not None and s[2] != os.getpgid(0)}
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    for pg in groups:
        with contextlib.suppress(OSError):
            os.killpg(pg, signal.SIGKILL)
    return left


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_signal_ends_every_process_of_the_run(tmp_path, how):
    proc, started = _start(tmp_path)
    _wait_for(proc, started, 2)
    pids, groups = _seen(proc)
    assert len(groups) >= 3  # textbcv's group and the two commands' own
    os.kill(proc.pid, getattr(signal, how))
    err = _ended(proc, tmp_path)
    assert _left(pids, groups, tmp_path) == []
    assert proc.returncode == 128 + getattr(signal, how), err
    assert "Traceback" not in err and f"textbcv: interrupted ({how})" in err, err


def test_a_failing_command_ends_every_process_of_the_run(tmp_path):
    proc, started = _start(tmp_path, fail_b=True)
    pids: set[int] = set()
    groups: set[int] = set()
    deadline = time.monotonic() + 240
    while proc.poll() is None and time.monotonic() < deadline:  # what runs until the failure ends the run
        more, more_groups = _seen(proc)
        pids |= more
        groups |= more_groups
        time.sleep(0.02)
    err = _ended(proc, tmp_path)
    assert _left(pids, groups, tmp_path) == []
    assert proc.returncode == 2 and "system 'b'" in err and "status 1" in err, err
    assert any(started.iterdir())  # the hanging command had started


def test_a_signal_ends_the_local_dask_cluster_and_its_commands(tmp_path):
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    proc, started = _start(tmp_path, extra=("--backend", "dask"))
    _wait_for(proc, started, 2)
    pids, groups = _seen(proc)
    os.kill(proc.pid, signal.SIGTERM)
    err = _ended(proc, tmp_path)
    assert _left(pids, groups, tmp_path) == []
    assert proc.returncode == 128 + signal.SIGTERM and "textbcv: interrupted (SIGTERM)" in err, err


def test_an_unrecorded_command_is_found_by_its_runs_mark_and_stopped(tmp_path):
    """A worker killed between starting a command and recording its process group leaves no record: the command's
    processes still carry the run's mark in their environment, and stop_commands ends their group."""
    from textbcv.tagging.command import RUN_MARK, RUNNING, stop_commands

    root = tmp_path / "commands"
    (root / RUNNING).mkdir(parents=True)
    env = {**os.environ, RUN_MARK: str(root / RUNNING)}
    proc = subprocess.Popen("(sleep 600 &) ; sleep 600", shell=True, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len([p for p, s in _processes().items() if s[2] == proc.pid]) < 2:
            assert time.monotonic() < deadline, "the command never started its children"
            time.sleep(0.05)
        assert stop_commands(root, grace=2) == 1
        proc.wait(timeout=30)
        assert _left({proc.pid}, {proc.pid}, tmp_path) == []
    finally:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
