"""A comparison's run directory (:class:`RunDir`): its layout, its checks, and its manifest and lock."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from textbcv import __version__
from textbcv._io import check_writable, file_sha256, read_text, safe_stem, write_json
from textbcv.errors import InputError, Interrupted
from textbcv.folds.store import FoldStore

__all__ = ["RunDir", "fold_file_stem", "RUN_FILES", "RUN_MARKERS", "MANIFEST", "MANIFEST_FORMAT"]

#: The run manifest: written first into every run directory, it lists the files textbcv wrote there
#: (with their SHA-256; ``append`` for the fold store, ``dir`` for folders it made). Only files it
#: lists, unchanged since, are ever replaced or deleted.
MANIFEST = "textbcv-run.json"
MANIFEST_FORMAT = "textbcv-run 1"
#: Lock file of a run directory (an OS lock, released when the process ends, however it ends).
LOCK = ".textbcv-run.lock"
_LOCKS: dict[str, int] = {}  # run directory (resolved) -> descriptor of its held lock file

#: The files a compare run writes into its directory.
RUN_FILES = ("splits.json", "fixed.json", "folds.jsonl", "report.json", "report.md", "report.tex", "posteriors.png",
             "f1_difference.png", "pairwise.png", "fold_f1.png")
#: Files that mark a directory as a run without a manifest (read, never written to).
RUN_MARKERS = ("splits.json", "folds.jsonl", "report.json")
#: The order in which ``textbcv report`` lists a run's files.
_SHOWN = ("report.md", "report.tex", "report.json", *[f for f in RUN_FILES if f.endswith(".png")], "splits.json",
          "folds.jsonl")


def fold_file_stem(system: str, split: int, direction: int) -> str:
    """The stem of one fold's files, ``SYSTEM-splitJ-dirK`` (the system's name made safe).

    Parameters
    ----------
    system : str
    split : int
    direction : int

    Returns
    -------
    str
    """
    return f"{safe_stem(system)}-split{split}-dir{direction}"


@dataclass(frozen=True)
class RunDir:
    """The run directory at ``path`` (which need not exist yet).

    Parameters
    ----------
    path : str or path-like
    """

    path: Path

    def __init__(self, path: str | os.PathLike) -> None:
        object.__setattr__(self, "path", Path(path))

    # --- the layout -------------------------------------------------------------------------------------
    @property
    def splits(self) -> Path:
        """``splits.json``: the split manifest of the folds."""
        return self.path / "splits.json"

    @property
    def folds(self) -> Path:
        """``folds.jsonl``: one record per finished fold."""
        return self.path / "folds.jsonl"

    @property
    def report_json(self) -> Path:
        """``report.json``: the comparison's results, every value the other reports show."""
        return self.path / "report.json"

    @property
    def report_md(self) -> Path:
        """``report.md``: the Markdown report."""
        return self.path / "report.md"

    @property
    def report_tex(self) -> Path:
        """``report.tex``: the comparison's tables for a paper (LaTeX, booktabs)."""
        return self.path / "report.tex"

    @property
    def models(self) -> Path:
        """``models/``: the fold models kept by ``--save-models``."""
        return self.path / "models"

    @property
    def predictions(self) -> Path:
        """``predictions/``: the fold predictions kept by ``--save-predictions``."""
        return self.path / "predictions"

    def prediction(self, system: str, split: int, direction: int) -> Path:
        """Where ``--save-predictions`` keeps a system's predictions of one fold.

        Parameters
        ----------
        system : str
        split : int
        direction : int

        Returns
        -------
        pathlib.Path
        """
        return self.predictions / (fold_file_stem(system, split, direction) + ".txt")

    def files(self) -> list[str]:
        """The run's existing files, in the order ``textbcv report`` lists them.

        Returns
        -------
        list of str
        """
        return [p for p in _SHOWN if (self.path / p).exists()]

    # --- checks -------------------------------------------------------------------------------------------
    def check_out(self, resume: bool) -> None:
        """Refuse an ``--out`` textbcv must not write into (nothing is written).

        Accepted: a new or empty directory, or a textbcv run (:data:`MANIFEST`) whose files are unchanged;
        one with finished folds needs ``resume``.

        Parameters
        ----------
        resume : bool

        Raises
        ------
        InputError
            Naming the directory and what to do instead.

        Examples
        --------
        >>> import tempfile
        >>> d = Path(tempfile.mkdtemp())
        >>> _ = (d / "thesis.tex").write_text("x")
        >>> RunDir(d).check_out(resume=False)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        textbcv.errors.InputError: ...: out: the directory is not empty and holds no textbcv run (thesis.tex);
        choose a new or empty directory
        """
        out = self.path
        if out.is_symlink() and not out.exists():
            raise InputError("out is a symbolic link to nothing (or a loop of links); give a directory",
                             file=str(out), param="out")
        if out.exists() and not out.is_dir():
            raise InputError("out must be a directory", file=str(out), param="out")
        holder = self.holder()
        if holder is not None:  # named first: whatever else the folder holds, it is being written now
            raise InputError(f"out: another textbcv process (pid {holder}) is writing this run; wait for it to end, "
                             "or choose another {out}", file=str(out), param="out")
        check_writable(out, directory=True)
        if not out.is_dir():
            self._check_parent()
            return
        try:
            names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
        except OSError as e:
            raise InputError(f"out: cannot read the directory: {e.strerror or e}", file=str(out),
                             param="out") from None
        if not names:
            if not os.access(out, os.W_OK | os.X_OK):
                raise InputError("out: the directory is not writable", file=str(out), param="out")
            return
        if MANIFEST not in names:
            if any(n in RUN_MARKERS for n in names) and resume:
                raise InputError(
                    "out: a run of an earlier textbcv version, whose files textbcv cannot tell from yours, so it "
                    "will not write there; `textbcv report` and `textbcv test` still read it. To continue it, run "
                    "again into a new {out} with {splits} " + str(self.splits) + " (the same splits)",
                    file=str(out), param=("out", "splits"))
            shown = ", ".join(names[:3]) + (f", … ({len(names)} entries)" if len(names) > 3 else "")
            raise InputError(f"out: the directory is not empty and holds no textbcv run ({shown}); choose a new "
                             "or empty directory", file=str(out), param="out")
        self._manifest()  # a damaged manifest is named here, before anything is read or trained
        foreign = [n for n in (*RUN_FILES, "models", "predictions")
                   if (out / n).exists() or (out / n).is_symlink()
                   if not self.owns(n)]
        if foreign:
            raise InputError(f"out: {', '.join(foreign)} here {'was' if len(foreign) == 1 else 'were'} not written "
                             "by textbcv, or changed since it wrote them; textbcv replaces only its own files: move "
                             "them away or choose another {out}", file=str(out), param="out")
        if (self.folds.exists() or self.tasks_begun()) and not resume:
            what = "folds.jsonl" if self.folds.exists() else "its command tasks in commands/"
            raise InputError(f"holds a previous run ({what}); add {{resume}}=True to continue it, or choose another "
                             "{out}", file=str(out), param=("resume", "out"))
        if not os.access(out, os.W_OK | os.X_OK):
            raise InputError("out: the directory is not writable", file=str(out), param="out")

    def is_run(self) -> bool:
        """True when the directory holds a run manifest.

        Returns
        -------
        bool
        """
        return (self.path / MANIFEST).is_file()

    def is_legacy_run(self) -> bool:
        """True for a run written without a manifest.

        Returns
        -------
        bool
        """
        return self.path.is_dir() and not (self.path / MANIFEST).exists() and any(
            (self.path / n).exists() for n in RUN_MARKERS)

    def _check_parent(self) -> None:
        """InputError when the nearest existing folder above a new ``out`` cannot be written."""
        for parent in self.path.absolute().parents:
            if parent.exists():
                if not os.access(parent, os.W_OK | os.X_OK):
                    raise InputError(f"out: cannot create it: {parent} is not writable", file=str(self.path),
                                     param="out")
                return

    # --- the manifest: which files are textbcv's ----------------------------------------------------------
    def _manifest(self) -> dict | None:
        """The manifest's content, None without one; InputError for a damaged one."""
        import json

        p = self.path / MANIFEST
        if not p.is_file():
            return None
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as e:
            raise InputError(f"not a textbcv run manifest ({e}); move the run away or choose another {{out}}",
                             file=str(p), param="out") from None
        if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT or not isinstance(
                data.get("files"), dict):
            raise InputError(f"not a textbcv run manifest (format {MANIFEST_FORMAT}); move the run away or choose "
                             "another {out}", file=str(p), param="out")
        return data

    def owns(self, name: str) -> bool:
        """True when ``name`` is listed in the manifest and, for a file, unchanged since written.

        Parameters
        ----------
        name : str

        Returns
        -------
        bool
        """
        man = self._manifest()
        entry = None if man is None else man["files"].get(name)
        if entry is None:
            return False
        p = self.path / name
        if p.is_symlink():
            return False
        if entry == "dir":
            return p.is_dir()
        if entry == "append":
            return p.is_file()
        return p.is_file() and file_sha256(p) == entry

    def check_writable_file(self, name: str) -> Path:
        """``path / name``, after checking it is absent or textbcv's own.

        Parameters
        ----------
        name : str

        Returns
        -------
        pathlib.Path

        Raises
        ------
        InputError
            When the file exists and is not textbcv's.
        """
        p = self.path / name
        if (p.exists() or p.is_symlink()) and not self.owns(name):
            raise InputError(f"{name} was not written by textbcv, or changed since it wrote it; textbcv replaces "
                             "only its own files: move it away, or write the run into another folder", file=str(p))
        return p

    def claim(self, *folders: str) -> None:
        """Write the run's manifest and lock it; ``folders`` become the run's own. Call after :meth:`check_out`.

        Parameters
        ----------
        *folders : str

        Raises
        ------
        InputError
            When the directory cannot be created, is locked, or a folder is not textbcv's.
        """
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise InputError(f"cannot create the run directory: {e.strerror or e}", file=str(self.path),
                             param="out") from None
        self.lock()
        man = self._manifest()
        if man is None:
            man = {"format": MANIFEST_FORMAT, "textbcv": __version__, "files": {"folds.jsonl": "append"}}
        changed = man["files"].get("folds.jsonl") != "append"
        man["files"]["folds.jsonl"] = "append"  # the fold store, appended to fold by fold
        for d in folders:
            if man["files"].get(d) != "dir":
                p = self.path / d
                if p.exists() or p.is_symlink():
                    raise InputError(f"{d}/ was not made by textbcv; move it away, or write the run into another "
                                     "folder", file=str(p))
                man["files"][d] = "dir"
                changed = True
        if changed or not (self.path / MANIFEST).exists():
            write_json(self.path / MANIFEST, man)

    def record(self, *names: str) -> None:
        """Record ``names`` in the manifest with their SHA-256 (missing ones dropped).

        Parameters
        ----------
        *names : str
        """
        man = self._manifest()
        if man is None:
            return
        for name in names:
            p = self.path / name
            if p.is_file():
                man["files"][name] = file_sha256(p)
            else:
                man["files"].pop(name, None)
        write_json(self.path / MANIFEST, man)

    def save_splits(self, splits) -> None:
        """Write ``splits.json`` if textbcv may, and record it.

        Parameters
        ----------
        splits : SplitSet
        """
        splits.save(self.check_writable_file("splits.json"))
        self.record("splits.json")

    def lock(self) -> None:
        """Hold an OS lock on the run directory until :meth:`unlock` or the end of this process."""
        key = str(self.path.resolve())
        if key in _LOCKS:
            return
        try:
            import fcntl
        except ImportError:  # no POSIX locks on this platform: runs are not guarded against each other
            return
        p = self.path / LOCK
        while True:
            try:
                fd = os.open(p, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as e:
                raise InputError(f"cannot lock the run directory: {e.strerror or e}", file=str(self.path)) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "?"
                os.close(fd)
                raise InputError(f"out: another textbcv process (pid {holder}) is writing this run; wait for it to "
                                 "end, or choose another {out}", file=str(self.path), param="out") from None
            try:
                if os.stat(p).st_ino == os.fstat(fd).st_ino:
                    break  # the lock file still at its name (not one a finishing holder just removed)
            except FileNotFoundError:
                pass
            os.close(fd)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        _LOCKS[key] = fd

    def holder(self) -> str | None:
        """The pid of another live process holding this run's lock, or None.

        Returns
        -------
        str or None
        """
        p = self.path / LOCK
        if str(self.path.resolve()) in _LOCKS or not p.is_file():
            return None
        try:
            import fcntl
        except ImportError:
            return None
        try:
            fd = os.open(p, os.O_RDONLY)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "?"
        else:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return None
        finally:
            os.close(fd)

    def unlock(self) -> None:
        """Release the lock taken by :meth:`lock` (if this process holds it)."""
        fd = _LOCKS.pop(str(self.path.resolve()), None)
        if fd is not None:
            try:
                (self.path / LOCK).unlink(missing_ok=True)  # removed while held, so no one locks a stale file
            finally:
                os.close(fd)

    def require(self, *files: str, what: str = "a finished `textbcv compare` run directory", prefix: str = "") -> None:
        """Raise InputError unless every one of ``files`` is in the directory.

        Parameters
        ----------
        *files : str
        what : str
            What the directory should be, for the message.
        prefix : str
            Text put before the message.
        """
        for name in files:
            if not (self.path / name).is_file():
                raise InputError(f"{prefix}no {name} here: not {what}", file=str(self.path))

    # --- reading ------------------------------------------------------------------------------------------
    def read_report_md(self) -> str:
        """The text of ``report.md``; InputError when missing or unreadable.

        Returns
        -------
        str
        """
        self.require("report.md")
        return read_text(self.report_md, hint="not a report written by textbcv")

    # --- writing ------------------------------------------------------------------------------------------
    def discard(self, existed: bool) -> None:
        """Undo a failed write: remove textbcv's unchanged files, the manifest, and a directory it made.

        Parameters
        ----------
        existed : bool
            Whether the directory existed before this run claimed it.
        """
        man = self._manifest() or {"files": {}}
        if self.owns("commands") and not self.tasks_begun():  # only the fold files textbcv wrote for the commands
            shutil.rmtree(self.path / "commands", ignore_errors=True)
        for name, entry in man["files"].items():
            if entry != "dir" and self.owns(name):
                (self.path / name).unlink(missing_ok=True)
        (self.path / MANIFEST).unlink(missing_ok=True)
        self.unlock()
        if not existed:
            with contextlib.suppress(OSError):
                self.path.rmdir()

    def tasks_begun(self) -> int:
        """The command-system tasks begun in this run folder (a folder each under ``commands/``, with its logs).

        Returns
        -------
        int
        """
        return sum(1 for _ in (self.path / "commands").glob("*/fold-*/seed-*")) if self.owns("commands") else 0

    def kept(self, total: int | None = None) -> str:
        """What an unfinished run keeps here, as a clause: its finished folds (of ``total``) and command tasks.

        Parameters
        ----------
        total : int or None
            The folds of the whole run, when known.

        Returns
        -------
        str
            ``""`` when nothing is kept.
        """
        try:
            folds = len(FoldStore(self.folds).done)
        except Exception:  # unreadable: kept, for the user to look at
            return f"folds.jsonl is kept in {self.path}"
        tasks = sum(1 for _ in (self.path / "commands").glob("*/fold-*/seed-*/done.json"))
        if not folds and not self.tasks_begun():
            return ""
        parts = [f"{folds} of {total} folds" if total is not None else f"{folds} fold{'' if folds == 1 else 's'}"]
        if self.owns("commands"):
            parts.append(f"{tasks} finished command task{'' if tasks == 1 else 's'}")
        one = len(parts) == 1 and folds == 1 and total is None
        return f"{' and '.join(parts)} {'is' if one else 'are'} kept in {self.path}"

    def ended(self, existed: bool, error: BaseException, total: int | None = None) -> BaseException:
        """After a run failed or was stopped: discard what it wrote unless something is worth resuming (a finished
        fold, a command task begun); the exception to raise (for an interrupt, an :class:`Interrupted` saying what
        is kept).

        Parameters
        ----------
        existed : bool
            Whether the directory existed before the run claimed it.
        error : BaseException
        total : int or None
            The folds of the whole run, when known.

        Returns
        -------
        BaseException
        """
        kept = self.kept(total)
        if not kept:
            self.discard(existed)
        if isinstance(error, KeyboardInterrupt):
            return Interrupted(getattr(error, "signum", signal.SIGINT), kept, resumable=bool(kept))
        return error

    def remove_run_files(self) -> None:
        """Delete the run files textbcv wrote here; any other file stays."""
        for f in RUN_FILES:
            if self.owns(f):
                (self.path / f).unlink(missing_ok=True)
        self.record(*RUN_FILES)


@contextlib.contextmanager
def owned_outputs(folder: str | os.PathLike, names: Sequence[str]) -> Iterator[Path]:
    """Write ``names`` into ``folder`` under a run's manifest rules; a failure removes what was written.

    Parameters
    ----------
    folder : path
    names : sequence of str

    Yields
    ------
    Path
        ``folder``.

    Raises
    ------
    InputError
        When a file of those names is the user's, or the folder cannot be made or is being written.

    Examples
    --------
    >>> import tempfile, os
    >>> d = os.path.join(tempfile.mkdtemp(), "plots")
    >>> with owned_outputs(d, ["a.png"]) as f:
    ...     _ = (f / "a.png").write_bytes(b"png")
    >>> sorted(os.listdir(d))
    ['a.png', 'textbcv-run.json']
    """
    run = RunDir(folder)
    for name in names:
        run.check_writable_file(name)
    existed, had_manifest = run.path.exists(), run.is_run()
    new = [n for n in names if not (run.path / n).exists()]
    run.claim()
    try:
        yield run.path
    except BaseException:
        for n in new:
            (run.path / n).unlink(missing_ok=True)
        if not had_manifest:
            (run.path / MANIFEST).unlink(missing_ok=True)
        run.unlock()
        if not existed:
            with contextlib.suppress(OSError):
                run.path.rmdir()
        raise
    run.record(*names)
    run.unlock()
