"""A memo of crfsuite trainings for the test process: the same input trains once per test session.

Many tests train the same folds of the bundled corpora with the same options (each compares outputs, not
trainings). crfsuite's training is a deterministic function of its input (the sequences, labels, algorithm,
parameters and, for the stochastic algorithms, the C ``rand()`` seed textbcv sets before it), so a model trained
once is the model any later training of the same input would write. The memo keys a training on all of that, byte
for byte, and replays the model file; every other part of a run (features, tagging, counts, reports, resumes) still
runs. It only serves trainings in the test process itself: worker processes and subprocesses train afresh.
``TEXTBCV_TRAIN_MEMO=0`` turns it off.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

_STORE: Path | None = None
_SEED: list[int | None] = [None]
stats = {"trained": 0, "replayed": 0}


def enabled() -> bool:
    """Whether the memo serves this session."""
    return os.environ.get("TEXTBCV_TRAIN_MEMO", "1") != "0"


def install() -> None:
    """Replace ``pycrfsuite.Trainer`` and record the C seed textbcv sets (idempotent)."""
    global _STORE
    import pycrfsuite

    from textbcv.tagging import crf

    if getattr(pycrfsuite.Trainer, "_memo", False):
        return
    _STORE = Path(tempfile.mkdtemp(prefix="textbcv-train-memo-"))
    original_seed = crf._seed_c_rand

    def seed_c_rand(seed: int = crf.C_RAND_SEED) -> bool:
        _SEED[0] = seed
        return original_seed(seed)

    crf._seed_c_rand = seed_c_rand
    pycrfsuite.Trainer = _memo_trainer(pycrfsuite.Trainer)


def uninstall() -> None:
    """Remove the memo's models."""
    if _STORE is not None:
        shutil.rmtree(_STORE, ignore_errors=True)


def _sequence_bytes(x) -> bytes:
    """An item sequence's exact content: every item's attributes (names, weights, string values), in order."""
    items = x.items() if hasattr(x, "items") else x
    out = []
    for item in items:
        if isinstance(item, (list, tuple)):
            out.append("\x1f".join(map(str, item)))
        else:  # a dict of weights, string values or nested dicts: its repr is exact for str, float and dict
            out.append(repr(item))
    return "\x1e".join(out).encode("utf-8", "surrogatepass")


def _memo_trainer(base):
    """A ``Trainer`` class that trains through ``base`` only for an input it has not seen in this session."""

    class MemoTrainer(base):  # type: ignore[misc, valid-type]
        _memo = True

        def __init__(self, *args, **kwargs):
            self._held: list = []
            self._hash = hashlib.sha256()
            self._choice: tuple = ()
            super().__init__(*args, **kwargs)

        def select(self, algorithm, type="crf1d"):  # noqa: A002 - crfsuite's own argument name
            self._choice = (algorithm, type)
            return super().select(algorithm, type)

        def set_params(self, params):
            self._hash.update(repr(sorted((str(k), repr(v)) for k, v in params.items())).encode())
            return super().set_params(params)

        def set(self, name, value):
            self._hash.update(repr((str(name), repr(value))).encode())
            return super().set(name, value)

        def append(self, xseq, yseq, group=0):
            self._hash.update(_sequence_bytes(xseq))
            self._hash.update(b"\x00" + "\x1f".join(yseq).encode("utf-8", "surrogatepass") + b"\x00")
            self._hash.update(str(group).encode())
            self._held.append((xseq, yseq, group))

        def train(self, model, holdout=-1):
            # the C seed counts only where textbcv set it for this training (the stochastic algorithms)
            seed, _SEED[0] = _SEED[0], None
            key = hashlib.sha256(self._hash.digest() + repr((self._choice, seed, holdout)).encode()).hexdigest()
            assert _STORE is not None
            kept = _STORE / key
            if kept.exists():
                stats["replayed"] += 1
                shutil.copyfile(kept, model)
                return None
            for x, y, g in self._held:
                super().append(x, y, g)
            self._held = []
            result = super().train(model, holdout)
            shutil.copyfile(model, kept)
            stats["trained"] += 1
            return result

    return MemoTrainer
