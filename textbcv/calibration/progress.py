"""Progress of a calibration on stderr: one update per finished data set (null pair or close pair)."""

from __future__ import annotations

import sys
import time

from tqdm.auto import tqdm

__all__ = ["DataSetProgress"]


class DataSetProgress:
    """Finished data sets of a calibration on stderr: a tqdm bar on a terminal, a plain line each otherwise, or
    nothing.

    Parameters
    ----------
    total : int
        Units of the calibration (null pairs and close pairs of every data set), finished ones included.
    done : int
        Units found finished (resumed): not counted in the time estimate.
    mode : {"bar", "lines", None}
    """

    def __init__(self, total: int, done: int, mode: str | None):
        self.total, self.done, self.mode, self.todo = total, done, mode, total - done
        self.start = time.monotonic()
        self.bar = tqdm(total=total, initial=done, desc="data sets", unit="pair", disable=mode != "bar",
                        dynamic_ncols=True)

    def update(self, u: dict) -> None:
        """Record one finished unit.

        Parameters
        ----------
        u : dict
            Its ``units.jsonl`` record.
        """
        self.done += 1
        if self.mode == "bar":
            self.bar.update(1)
        elif self.mode == "lines":
            elapsed = time.monotonic() - self.start
            ran = self.done - (self.total - self.todo)
            left = elapsed / ran * (self.total - self.done)
            what = u["system"] if u.get("kind", "null") == "null" else " vs ".join(u["pair"])
            truth = f" (truth {100 * u['truth']:+.2f})" if "truth" in u else ""
            print(f"textbcv: calibrate: {self.done}/{self.total} done ({what}, data set {u['r']}): "
                  f"ΔF1 {100 * u['estimate']:+.2f} points{truth}, {u['decision']}; {elapsed:.0f} s elapsed, "
                  f"about {left:.0f} s left", file=sys.stderr, flush=True)

    def close(self) -> None:
        """Close the bar (a no-op in the other modes)."""
        self.bar.close()
