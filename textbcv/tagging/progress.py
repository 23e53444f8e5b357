"""Progress of a fold run on stderr: a tqdm bar, one line per finished fold, or nothing."""

from __future__ import annotations

import math
import sys
import time

from tqdm.auto import tqdm

from textbcv.scoring import Tally

__all__ = ["FoldProgress"]


class FoldProgress:
    """Progress of a fold run: a tqdm bar, one line per finished fold, or nothing.

    The time left is the work left at the pace of this run's own folds: the seconds its workers spent per unit of
    cost (:attr:`costs`), times the cost left, shared by the workers; folds found finished (a resumed run) count
    neither in the work nor in the pace.

    Parameters
    ----------
    total : int
        Folds of the run, resumed ones included.
    costs : dict
        Relative cost of every fold still to run, by ``(system, split, direction)``; drives the time estimate.
    mode : {"bar", "lines", None}
    file : file, optional
        Where lines go (default ``sys.stderr``).
    clock : callable
    workers : int
        Folds that run at once.
    unit : {"fold", "system"}
        What one record is: a fold of an m×2 run, or (one training and test set) a system with all its seeds.

    Examples
    --------
    >>> import io
    >>> f = io.StringIO()
    >>> p = FoldProgress(4, {("a", 0, 0): 3.0, ("a", 0, 1): 1.0}, "lines", file=f, clock=iter([0.0, 6.0]).__next__)
    >>> f.getvalue()
    'textbcv: resuming: 2 of 4 folds done, 2 to run\\n'
    >>> p.update({"system": "a", "split": 0, "direction": 0, "counts": {"overall": {"tp": 3, "fp": 1, "fn": 1}},
    ...           "run": {"seconds": 6.0}})
    >>> f.getvalue().splitlines()[-1]
    'textbcv: fold 3/4 done (a, split 0, direction 0): F1 75.00%; 6 s elapsed, about 2 s left'
    """

    def __init__(self, total: int, costs: dict, mode: str | None, file=None, clock=time.monotonic, workers: int = 1,
                 unit: str = "fold"):
        self.total, self.costs, self.mode, self.clock = total, dict(costs), mode, clock
        self.unit = unit
        self.file = file
        self.done = total - len(costs)
        self.workers = max(1, workers)
        self.cost_left = sum(self.costs.values())
        self.cost_done = 0.0
        self.seconds = 0.0  # worker seconds of the folds run here
        if self.done and mode is not None:
            print(f"textbcv: resuming: {self.done} of {total} {unit}s done, {len(costs)} to run",
                  file=self.file or sys.stderr, flush=True)
        self.start = clock()
        self.bar = tqdm(total=total, initial=self.done, desc=f"{unit}s", unit=unit, disable=mode != "bar",
                        dynamic_ncols=True)

    def update(self, rec: dict) -> None:
        """Record one finished fold.

        Parameters
        ----------
        rec : dict
            The fold's record.
        """
        self.done += 1
        key = (rec["system"], int(rec["split"]), int(rec["direction"]))
        c = self.costs.pop(key, 0.0)
        self.cost_done += c
        self.cost_left -= c
        seconds = rec.get("run", {}).get("seconds")
        seeds = len(rec.get("seed_counts") or {}) or 1
        where = (f"{rec['system']}, {seeds} seed{'s' if seeds > 1 else ''}" if self.unit == "system" else
                 f"{rec['system']}, split {rec['split']}, direction {rec['direction']}")
        if self.mode == "bar":
            self.bar.update(1)
            self.bar.set_postfix_str(where, refresh=False)
        elif self.mode == "lines":
            elapsed = self.clock() - self.start
            self.seconds += seconds if isinstance(seconds, (int, float)) else elapsed
            o = rec["counts"]["overall"]
            f1 = Tally(o["tp"], o["fp"], o["fn"]).f1
            at_once = min(self.workers, len(self.costs)) or 1
            left = self.seconds * self.cost_left / self.cost_done / at_once if self.cost_done > 0 else float("nan")
            left_text = "done" if self.done >= self.total else f"about {_duration(left)} left"
            print(f"textbcv: {self.unit} {self.done}/{self.total} done ({where}): F1 {100 * f1:.2f}%; "
                  f"{_duration(elapsed)} elapsed, {left_text}", file=self.file or sys.stderr, flush=True)

    def close(self) -> None:
        """Close the progress bar (a no-op in the other modes)."""
        self.bar.close()


def _duration(seconds: float) -> str:
    """A duration for a progress line.

    Examples
    --------
    >>> _duration(4.4), _duration(75), _duration(3725), _duration(float("nan"))
    ('4 s', '1 min 15 s', '1 h 02 min', '?')
    """
    if math.isnan(seconds):
        return "?"
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"
