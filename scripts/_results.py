"""Helpers shared by the evidence scripts: RESULTS.md sections between marker comments, machine info.

Each script owns one section of ``docs/RESULTS.md``, delimited by
``<!-- BEGIN name -->`` and ``<!-- END name -->``; :func:`update_section`
replaces that section only (or appends it), leaving the others untouched.

>>> import tempfile, os
>>> p = os.path.join(tempfile.mkdtemp(), "R.md")
>>> update_section(p, "a", "alpha"); update_section(p, "b", "beta"); update_section(p, "a", "ALPHA")
>>> "ALPHA" in open(p).read() and "beta" in open(p).read() and "alpha" not in open(p).read()
True
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import platform
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w") -> Iterator[IO]:
    """Open a temporary file beside ``path`` and rename it onto ``path`` only when the block succeeds (the
    evidence scripts' own; textbcv's private helpers are not theirs to import)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8", "newline": ""})) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_json(path: str | os.PathLike, obj: Any, indent: int | None = 2) -> None:
    """``obj`` as JSON in ``path``, atomically, in textbcv's form (insertion order, UTF-8, no NaN)."""
    with atomic_write(path) as f:
        f.write(json.dumps(obj, indent=indent, ensure_ascii=False, allow_nan=False) + ("\n" if indent is not None
                                                                                        else ""))


def append_line(path: str | os.PathLike, line: str) -> None:
    """Append one line (with its newline) to ``path`` and sync it: a finished unit of a study. The file is locked
    meanwhile, so that two processes of one study (on disjoint units) never interleave their lines."""
    with open(path, "a", encoding="utf-8") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            f.write(line.rstrip("\n") + "\n")
            f.flush()
            os.fsync(f.fileno())
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


HEADER = ("# textbcv — evidence\n\n"
          "Every section below is written by the script it names, from a clean checkout; "
          "re-running a script replaces its own section only.\n")

SECTION_ORDER = ("reproduce", "real-text", "unit-leakage", "block-stratification", "variance", "variance_components",
                 "split", "benchmarks")


def _markers(name: str) -> tuple[str, str]:
    return f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"


def update_section(path: str | os.PathLike, name: str, text: str) -> None:
    """Replace (or add) section ``name`` of the markdown file ``path`` with ``text`` (atomically)."""
    path = Path(path)
    old = path.read_text(encoding="utf-8") if path.exists() else HEADER
    begin, end = _markers(name)
    block = f"{begin}\n{text.rstrip()}\n{end}"
    pat = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if pat.search(old):
        new = pat.sub(lambda _: block, old, count=1)
    else:
        # keep the canonical order of known sections when adding a new one
        new = None
        if name in SECTION_ORDER:
            for later in SECTION_ORDER[SECTION_ORDER.index(name) + 1:]:
                b, _ = _markers(later)
                i = old.find(b)
                if i >= 0:
                    new = old[:i] + block + "\n\n" + old[i:]
                    break
        if new is None:
            new = old.rstrip() + "\n\n" + block + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path) as f:
        f.write(new)


def machine() -> dict:
    """Where and when a figure was measured."""
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "nproc": os.cpu_count(),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def fmt_seconds(s: float) -> str:
    """``75.3`` → ``"1 min 15 s"``.

    >>> fmt_seconds(75.3), fmt_seconds(9.84), fmt_seconds(3725)
    ('1 min 15 s', '9.8 s', '1 h 2 min')
    """
    if s < 60:
        return f"{s:.1f} s"
    if s < 3600:
        return f"{int(s // 60)} min {int(round(s % 60))} s"
    return f"{int(s // 3600)} h {int(round((s % 3600) / 60))} min"


#: the package data the option notes and the report quote (``textbcv.defaults.evidence()``)
EVIDENCE_FILE = ROOT / "textbcv" / "data" / "evidence.json"


def claim_settings(path: str | os.PathLike, settings: Any) -> bool:
    """A study's settings file: written when missing; else False when it holds other settings (the caller refuses
    to mix units of two studies), True when the same."""
    path = Path(path)
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8")) == json.loads(json.dumps(settings))
    write_json(path, settings)
    return True


def update_evidence(key: str, value: Any, about: str, path: str | os.PathLike = EVIDENCE_FILE) -> None:
    """Replace one study's key of ``textbcv/data/evidence.json`` (and its line in ``about``), keeping the other
    studies' keys: each study owns its keys, none rewrites another's."""
    path = Path(path)
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    abouts = data.get("about", {})
    if not isinstance(abouts, dict):  # the one-study form: a single sentence for real_text and real_text_balance
        abouts = {"real_text": abouts}
    abouts[key] = about
    data["about"] = dict(sorted(abouts.items()))
    data[key] = value
    with atomic_write(path) as f:
        f.write(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
