"""Command systems: a tagger that is a command line, run once per fold and training seed.

For each fold and seed textbcv writes the training half (gold tags in the system's scheme) and the test half
(every tag ``O``), runs the command in the folder the run was started from (so a relative path in it means what
it means in the user's shell) with the placeholders ``{train}``, ``{test}``,
``{pred}``, ``{seed}``, ``{device}`` and ``{workdir}`` replaced by shell-quoted values (and ``{dev}``, a development
file in the training file's form, on a fixed split given one), and reads the predictions
it wrote to ``{pred}`` as ``textbcv evaluate`` does. A task that leaves ``done.json`` is never run again. Each
command runs in a process group of its own, recorded under the run's ``.running/`` while it runs, so that the
process running the whole comparison stops every group (:func:`stop_commands`) however its workers end.
See docs/byo.md, "A command system: your trainer in one command".
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shlex
import signal
import string
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Collection, Iterator, Sequence

from textbcv._io import atomic_write, safe_stem
from textbcv.corpus.model import Sentence
from textbcv.corpus.predictions import check_predicted_tags, read_tag_predictions
from textbcv.errors import InputError
from textbcv.tagging.fold_files import write_fold_files

__all__ = ["CommandSpec", "command_spec", "CommandTagger", "PLACEHOLDERS", "FORMATS", "task_folder",
           "write_fold_files", "device_slot", "run_command_task", "stop_commands", "forget_commands", "RUNNING"]

PLACEHOLDERS = ("train", "test", "pred", "seed", "device", "workdir", "dev")
#: The environment variable naming, in every process a command starts, the run's folder of running commands.
RUN_MARK = "TEXTBCV_RUNNING"
FORMATS = ("conll", "jsonl")
#: stderr lines quoted when a command fails
STDERR_TAIL = 5
#: Folder of a run's command tasks that records the process group of every command running (a file each)
RUNNING = ".running"
#: The file in :data:`RUNNING` that says the run is stopping: a worker starts no command then
STOPPING = "stopping"
#: Seconds a stopped command has to end after SIGTERM before it is killed
GRACE = 5.0


@dataclass(frozen=True)
class CommandSpec:
    """What a command system runs.

    Attributes
    ----------
    command : str
        The command line with placeholders (:data:`PLACEHOLDERS`); ``{train}``, ``{test}`` and ``{pred}`` required.
    format : {"conll", "jsonl"}
        The format of the fold files it reads.
    timeout : float or None
        Seconds one task may run before its process group is stopped.
    devices : tuple of str
        Device names handed to concurrent tasks (default: slot numbers ``0``, ``1``, ...).

    Examples
    --------
    >>> CommandSpec("python tag.py --train {train} --test {test} --out {pred} --seed {seed}").placeholders
    ('train', 'test', 'pred', 'seed')
    """

    command: str
    format: str = "conll"
    timeout: float | None = None
    devices: tuple[str, ...] = ()

    def __post_init__(self):
        if not isinstance(self.command, str) or not self.command.strip():
            raise InputError("a command system needs a command line", param="command")
        if self.format not in FORMATS:
            raise InputError(f"command format must be one of {', '.join(FORMATS)}, got {self.format!r}",
                             param="command_format")
        if self.timeout is not None and not (isinstance(self.timeout, (int, float)) and 0 < self.timeout < 1e9):
            raise InputError(f"task timeout must be a positive number of seconds, got {self.timeout!r}",
                             param="task_timeout")
        names = self.placeholders
        for n in names:
            if n not in PLACEHOLDERS:
                raise InputError(f"command {self.command!r}: unknown placeholder {{{n}}} (placeholders: "
                                 f"{', '.join('{' + p + '}' for p in PLACEHOLDERS)})", param="command")
        for need in ("train", "test", "pred"):
            if need not in names:
                raise InputError(f"command {self.command!r}: it must name {{{need}}} (the fold's training file, "
                                 f"its test file and where to write the predictions)", param="command")

    @property
    def placeholders(self) -> tuple[str, ...]:
        """The placeholders the command names, in order, each once."""
        try:
            found = [f for _, f, _, _ in string.Formatter().parse(self.command) if f is not None]
        except ValueError as e:
            raise InputError(f"command {self.command!r}: {e} (write a literal brace as {{{{ or }}}})",
                             param="command") from None
        return tuple(dict.fromkeys(found))

    def line(self, values: dict[str, str]) -> str:
        """The command line with every placeholder replaced by its shell-quoted value.

        Parameters
        ----------
        values : dict
            A value for every name of :data:`PLACEHOLDERS`.

        Returns
        -------
        str
        """
        return self.command.format_map({k: shlex.quote(str(v)) for k, v in values.items()})

    def to_dict(self) -> dict:
        """The spec as JSON-ready values.

        Returns
        -------
        dict
            ``command``, ``format``, ``timeout``, ``devices``.
        """
        return {"command": self.command, "format": self.format, "timeout": self.timeout,
                "devices": list(self.devices)}


def command_spec(command: "str | CommandSpec", format: str = "conll", timeout: float | None = None,
                 devices: Sequence[str] = ()) -> CommandSpec:
    """The :class:`CommandSpec` of a command line as ``--system NAME=COMMAND`` reads it (or ``command`` itself).

    Parameters
    ----------
    command : str or CommandSpec
        A command line with placeholders (surrounding white space dropped), or a spec, returned as it is.
    format, timeout, devices
        As :class:`CommandSpec`, for a command line.

    Returns
    -------
    CommandSpec

    Raises
    ------
    TypeError
        For anything but a string or a CommandSpec.
    InputError
        For a command line :class:`CommandSpec` refuses.

    Examples
    --------
    >>> command_spec(" python train.py {train} {test} {pred} {seed} ").command
    'python train.py {train} {test} {pred} {seed}'
    """
    if isinstance(command, CommandSpec):
        return command
    if not isinstance(command, str):
        raise TypeError(f"a command system's command is a command line (str) or a CommandSpec, got "
                        f"{type(command).__name__} {command!r:.80}")
    return CommandSpec(command.strip(), format=format, timeout=timeout, devices=tuple(devices))


def task_folder(root: str | os.PathLike, system: str, split: int, direction: int, seed: int | None) -> Path:
    """The folder of one task: ``ROOT/SYSTEM/fold-SPLIT-DIRECTION/seed-SEED`` (None seed: ``seed-0``).

    Parameters
    ----------
    root : path
    system : str
    split, direction : int
    seed : int or None

    Returns
    -------
    Path
    """
    return Path(root) / safe_stem(system) / f"fold-{split}-{direction}" / f"seed-{0 if seed is None else seed}"


@contextlib.contextmanager
def device_slot(root: str | os.PathLike, devices: Sequence[str], slots: int) -> Iterator[str]:
    """Hold one of ``slots`` device slots (a lock file each) for a task; yield its device name.

    Parameters
    ----------
    root : path
        Where the lock files live (shared by every process of the run).
    devices : sequence of str
        Slot i gets ``devices[i % len(devices)]`` (default: ``str(i)``).
    slots : int

    Yields
    ------
    str
    """
    d = Path(root) / ".slots"
    d.mkdir(parents=True, exist_ok=True)
    n = max(1, slots)
    while True:
        for i in range(n):
            f = open(d / f"slot-{i}.lock", "a")
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                f.close()
                continue
            try:
                yield devices[i % len(devices)] if devices else str(i)
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)
                f.close()
            return
        time.sleep(0.05)  # more tasks than slots (another run's workers): wait for one to end


def run_command_task(spec: CommandSpec, system: str, fold_folder: str | os.PathLike, task: str | os.PathLike,
                     test: Sequence[Sentence], split: int, direction: int, seed: int | None,
                     device: str = "0", cwd: str | os.PathLike | None = None,
                     running: str | os.PathLike | None = None, scheme: str | None = None,
                     types: Collection[str] | None = None, dev: bool = False) -> list[list[str]]:
    """Run one fold × seed task (or reuse a finished one) and return its predicted tags.

    Parameters
    ----------
    spec : CommandSpec
    system : str
    fold_folder : path
        Holds the fold's files (:func:`write_fold_files`).
    task : path
        The task's folder (:func:`task_folder`) and working directory.
    test : sequence of Sentence
        The test half; the predictions must match it token by token.
    split, direction : int
    seed : int or None
    device : str
        Given as ``{device}`` and ``CUDA_VISIBLE_DEVICES``.
    cwd : path, optional
        The command's working directory (default: this process's); the task's folder where it does not exist.
    running : path, optional
        Where the command's process group is recorded while it runs (:func:`stop_commands`).
    scheme : str, optional
        The system's scheme: its predicted tags are checked as ``textbcv evaluate`` checks a prediction file's
        (:func:`~textbcv.corpus.predictions.check_predicted_tags`); None: not checked.
    types : collection of str, optional
        The chunk types a prediction may name (None: any).
    dev : bool
        The fold's folder holds ``dev.EXT`` (given as ``{dev}``).

    Returns
    -------
    list of list of str
        One predicted tag per token of every test sentence.

    Raises
    ------
    InputError
        When the command fails or times out (with the tail of its stderr), or its predictions are malformed.
    """
    task = Path(task).absolute()  # the command runs in the task's folder: every path it is given is absolute
    task.mkdir(parents=True, exist_ok=True)
    ext = "conll" if spec.format == "conll" else "jsonl"
    fold_folder = Path(fold_folder).absolute()
    pred, done = task / "pred.conll", task / "done.json"
    where = f"system {system!r}, fold {split},{direction}, seed {0 if seed is None else seed}"
    seconds, line = 0.0, ""
    if not done.is_file():
        pred.unlink(missing_ok=True)
        values = {"train": os.fspath(fold_folder / f"train.{ext}"), "test": os.fspath(fold_folder / f"test.{ext}"),
                  "pred": os.fspath(pred), "seed": str(0 if seed is None else seed), "device": str(device),
                  "workdir": os.fspath(task), **({"dev": os.fspath(fold_folder / f"dev.{ext}")} if dev else {})}
        line = spec.line(values)
        env = {**os.environ, "CUDA_VISIBLE_DEVICES": str(device), "TEXTBCV_SEED": values["seed"]}
        t0 = time.monotonic()
        here = Path(cwd) if cwd is not None else Path.cwd()
        rc = _run(line, task, here if here.is_dir() else task, env, spec.timeout,
                  None if running is None else Path(running))
        if rc is None:
            raise InputError(f"{where}: the command ran past --task-timeout {spec.timeout:g} s and was stopped"
                             f"{_tail(task / 'stderr.log')}; its logs are in {task}")
        if rc != 0:
            raise InputError(f"{where}: the command exited with status {rc}{_tail(task / 'stderr.log')}; its logs "
                             f"are in {task}")
        if not pred.is_file():
            raise InputError(f"{where}: the command exited with status 0 but wrote no predictions at {pred}")
        seconds = round(time.monotonic() - t0, 3)
    try:
        preds = read_tag_predictions(pred, test)
        if scheme is not None:
            check_predicted_tags(preds, scheme, types)
        tags = [list(t) for t in preds.tags]
    except InputError as e:
        done.unlink(missing_ok=True)
        raise InputError(f"{where}: {e.message}", file=e.file, line=e.line) from None
    if not done.is_file():
        # a cache of the task: the fold's record (appended durably by the store) is what a resume trusts, and a
        # done.json lost in a crash only runs the task again
        with atomic_write(done, durable=False) as f:
            f.write(json.dumps({"seconds": seconds, "command": line}) + "\n")
    return tags


class CommandTagger:
    """A command system's fit / predict for one fold and seed.

    ``fit`` keeps the training half; ``predict`` writes the fold's files, holds a device slot and runs the task.

    Parameters
    ----------
    spec : CommandSpec
    system : str
    root : path or None
        The run's folder of command tasks; None raises InputError.
    split, direction : int
    seed : int or None
    slots : int
        Tasks that may run at once.
    cwd : path, optional
        The command's working directory (default: this process's).
    scheme : str, optional
    types : collection of str, optional
        As :func:`run_command_task`.
    dev : (sequence of Sentence, sequence of sequences of str), optional
        The development set with gold tags in the system's scheme, given to the command as ``{dev}``.
    """

    def __init__(self, spec: CommandSpec, system: str, root: str | os.PathLike | None, split: int, direction: int,
                 seed: int | None, slots: int = 1, cwd: str | os.PathLike | None = None, scheme: str | None = None,
                 types: Collection[str] | None = None,
                 dev: tuple[Sequence[Sentence], Sequence[Sequence[str]]] | None = None):
        if root is None:
            raise InputError(f"system {system!r}: a command system runs in a run folder: give {{out}}", param="out")
        self.spec, self.system, self.root = spec, system, Path(root)
        self.split, self.direction, self.seed, self.slots = split, direction, seed, slots
        self.cwd = cwd
        self.scheme, self.types, self.dev = scheme, types, dev
        self._train: tuple[list[Sentence], list[Sequence[str]]] = ([], [])

    def fit(self, sentences: Sequence[Sentence], tags: Sequence[Sequence[str]]) -> "CommandTagger":
        """Keep the training half (the command trains when :meth:`predict` runs it).

        Parameters
        ----------
        sentences : sequence of Sentence
        tags : sequence of sequences of str

        Returns
        -------
        CommandTagger
            ``self``.
        """
        self._train = (list(sentences), list(tags))
        return self

    def predict(self, sentences: Sequence[Sentence]) -> list[list[str]]:
        """Run the fold's task and return its predicted tags.

        Parameters
        ----------
        sentences : sequence of Sentence

        Returns
        -------
        list of list of str
        """
        fold = self.root / safe_stem(self.system) / f"fold-{self.split}-{self.direction}"
        write_fold_files(fold, self._train[0], self._train[1], sentences, self.spec.format, self.dev)
        task = task_folder(self.root, self.system, self.split, self.direction, self.seed)
        with device_slot(self.root, self.spec.devices, self.slots) as device:
            return run_command_task(self.spec, self.system, fold, task, sentences, self.split, self.direction,
                                    self.seed, device, self.cwd, self.root / RUNNING, self.scheme, self.types,
                                    self.dev is not None)


def _run(line: str, logs: Path, cwd: Path, env: dict, timeout: float | None, running: Path | None) -> int | None:
    """Run ``line`` in a shell of its own process group (recorded in ``running``); its exit status, or None when
    stopped at ``timeout``."""
    if running is not None and (running / STOPPING).exists():
        raise InputError("the run is stopping: no command is started")
    if running is not None:  # every process the command starts carries it: found even if its group went unrecorded
        env = {**env, RUN_MARK: str(running)}
    with open(logs / "stdout.log", "wb") as out, open(logs / "stderr.log", "wb") as err:
        proc = subprocess.Popen(line, shell=True, cwd=cwd, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                start_new_session=True)
        mark = None
        try:
            if running is not None:
                running.mkdir(parents=True, exist_ok=True)
                mark = running / str(proc.pid)
                mark.touch()
                if (running / STOPPING).exists():  # stopped since it started, and perhaps after its group was read
                    _kill(proc)
                    raise InputError("the run is stopping: the command was stopped")
            return proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(proc)
            return None
        except BaseException:  # interrupted: the command and everything it started go with textbcv
            _kill(proc)
            raise
        finally:
            if mark is not None:
                mark.unlink(missing_ok=True)


def _kill(proc: subprocess.Popen) -> None:
    """End a command's whole process group: SIGTERM, then SIGKILL to what is left after :data:`GRACE` seconds."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + GRACE
    try:
        proc.wait(timeout=GRACE)
    except subprocess.TimeoutExpired:
        pass
    # the shell may end before the rest of its group: a child it forked as the signal went out never received it
    while _group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _group_alive(proc.pid):  # (an empty group's number may be taken again: never signal one)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def stop_commands(root: str | os.PathLike, grace: float = GRACE) -> int:
    """Stop every command still recorded as running under ``root``: SIGTERM to its process group, SIGKILL after
    ``grace`` seconds.

    The commands' own clean-up runs in the process that started each; this is for the process running the whole
    comparison, once its workers are gone (killed with a pool, or by a signal), so that no command outlives it.
    From then on no worker starts a command under ``root`` (:data:`STOPPING`) until :func:`forget_commands`.

    Parameters
    ----------
    root : path
        The run's folder of command tasks (its :data:`RUNNING` records the groups).
    grace : float

    Returns
    -------
    int
        The process groups found still running and stopped.

    Examples
    --------
    >>> import tempfile
    >>> stop_commands(tempfile.mkdtemp())
    0
    """
    folder = Path(root) / RUNNING
    folder.mkdir(parents=True, exist_ok=True)
    (folder / STOPPING).touch()  # first: a worker that starts a command after the groups are read stops it itself
    marks = [p for p in folder.iterdir() if p.name.isdigit()]
    # a worker killed between starting a command and recording its group leaves it unrecorded: its processes still
    # carry the run's mark in their environment (Linux: /proc)
    found = {int(m.name) for m in marks} | _marked_groups(folder)
    groups = []
    for group in sorted(found):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGTERM)
            groups.append(group)
    deadline, left = time.monotonic() + grace, list(groups)
    while left:
        left = [g for g in left if _group_alive(g)]
        if not left or time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    # then SIGKILL, and the marks read again: a child that left for a session of its own meanwhile is in a new group
    for _ in range(3):
        for g in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(g, signal.SIGKILL)
        left = sorted(_marked_groups(folder) - set(groups))
        groups += left
    for mark in marks:
        mark.unlink(missing_ok=True)
    return len(groups)


def forget_commands(root: str | os.PathLike) -> None:
    """Drop the records of commands left under ``root`` by a run killed outright (SIGKILL), before a run starts.

    Their process groups are not this run's: a number recorded then may name another process now, so none is
    signalled.

    Parameters
    ----------
    root : path
        The run's folder of command tasks.

    Examples
    --------
    >>> import tempfile
    >>> forget_commands(tempfile.mkdtemp())
    """
    folder = Path(root) / RUNNING
    if folder.is_dir():
        for mark in folder.iterdir():
            mark.unlink(missing_ok=True)


def _marked_groups(running: Path) -> set[int]:
    """The process groups of live processes whose environment names ``running`` as their run (:data:`RUN_MARK`)."""
    mark = f"{RUN_MARK}={running}".encode() + b"\0"
    proc = Path("/proc")
    out: set[int] = set()
    if not proc.is_dir():
        return out
    for p in proc.iterdir():
        if not p.name.isdigit():
            continue
        try:
            if mark in (p / "environ").read_bytes() + b"\0":
                fields = (p / "stat").read_text().rsplit(")", 1)[1].split()
                if fields[0] not in "ZX" and int(fields[2]) != os.getpgid(0):
                    out.add(int(fields[2]))
        except (OSError, IndexError, ValueError):
            continue
    return out


def _group_alive(group: int) -> bool:
    """True while a process of ``group`` runs (one that has ended but awaits its parent does not count)."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    proc = Path("/proc")
    if not proc.is_dir():
        return True
    for p in proc.iterdir():  # Linux: a group of zombies only (a dead worker's children) has ended
        if p.name.isdigit():
            try:
                fields = (p / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[2]) == group and fields[0] not in "ZX":
                return True
    return False


def _tail(path: Path) -> str:
    """The last lines of a log, as one clause of a one-line message."""
    try:
        text = path.read_bytes()[-4000:].decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [x.strip() for x in text.splitlines() if x.strip()][-STDERR_TAIL:]
    return "; its stderr ends: " + " | ".join(lines) if lines else " (its stderr is empty)"
