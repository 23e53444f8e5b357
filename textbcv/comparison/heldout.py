"""Independent test sets beside the m×2 estimate (``--heldout``).

Every fold's model also tags each held-out file; its counts, overall and per sentence, are saved in the fold's
record, so a resumed run or redrawn report needs no retraining. The report gives, per system and file, the
pooled P / R / F1, the fold models' F1 and the gap to the m×2 estimate, and per pair ΔF1 with a paired
bootstrap; every figure is also given without sentences that occur in the corpus.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from textbcv._io import safe_stem
from textbcv.corpus import read_corpus
from textbcv.corpus.model import Corpus
from textbcv.corpus.sniff import file_stem
from textbcv.corpus.transform import filter_chunks, prepare_corpus
from textbcv.errors import InputError, warn
from textbcv.folds.store import FoldStore
from textbcv.scoring import heldout_record
from textbcv.stats.compare import counts_scores
from textbcv.stats.onesplit import chunk_f1

if TYPE_CHECKING:
    from textbcv.stats.answer import BayesAnswer

__all__ = ["HeldoutSet", "read_heldout", "heldout_record", "heldout_section", "heldout_gaps", "file_stem",
           "RESAMPLES"]

#: Bootstrap resamples of ΔF1 on a held-out file.
RESAMPLES = 1000


@dataclass(frozen=True)
class HeldoutSet:
    """One held-out file as the models see it.

    Attributes
    ----------
    name : str
        The path as given (the key in ``folds.jsonl`` and ``report.json``).
    corpus : Corpus
        Its sentences, prepared for the task.
    gold : list of tuple
        Gold chunks of every sentence, after the ``--chunk-types`` / ``--untyped`` filters.
    duplicate : ndarray of bool
        Sentences whose tokens also occur in the corpus.
    """

    name: str
    corpus: Corpus
    gold: list
    duplicate: np.ndarray

    @property
    def stem(self) -> str:
        """The file's folder name under ``PRED_DIR/heldout/``: its stem, made safe (never leads out of the folder)."""
        return safe_stem(file_stem(self.name))

    def info(self) -> dict:
        """Sizes for the report.

        Returns
        -------
        dict
            ``{"sentences", "tokens", "gold_chunks", "duplicates"}``.
        """
        return {"sentences": len(self.corpus), "tokens": self.corpus.n_tokens,
                "gold_chunks": int(sum(len(g) for g in self.gold)), "duplicates": int(self.duplicate.sum())}


def read_heldout(files: Sequence[str | os.PathLike], raw: Corpus, options, format: str = "conll",
                 columns: str | None = None, scheme: str | None = None,
                 encoding: str | None = None) -> list[HeldoutSet]:
    """Read held-out files with the corpus's format, columns and scheme, and check they fit it.

    Parameters
    ----------
    files : sequence of path
        The held-out files; their stems must differ.
    raw : Corpus
        The corpus as read.
    options : CompareOptions
        ``task``, ``chunk_types``, ``untyped``.
    format : str
        The files' format, as the corpus's.
    columns : str, optional
        Column roles of a ``conll`` file.
    scheme : str, optional
        Tag scheme of the files; None detects it and requires the corpus's.
    encoding : str, optional
        Text encoding; default the corpus's.

    Returns
    -------
    list of HeldoutSet
        One per file, in order.

    Raises
    ------
    InputError
        Two files with one stem, tags in another scheme than the corpus's, or a chunk type the corpus lacks.
    """
    names = [os.fspath(f) for f in files]
    stems: dict[str, str] = {}
    for n in names:
        st = safe_stem(file_stem(n))
        if st in stems:
            raise InputError(f"heldout: {n} and {stems[st]} have the same name {st!r} (predictions of held-out "
                             "files are kept by name); rename one", param="heldout")
        stems[st] = n
    prepared = prepare_corpus(raw, options.task)
    types = set(prepared.chunk_counts())
    seen = {s.tokens for s in raw}
    out = []
    for name in names:
        h_raw = read_corpus([name], format=format, columns=columns, scheme=scheme,
                            encoding=encoding or raw.encoding)
        if scheme is None and raw.scheme and h_raw.scheme and h_raw.scheme != raw.scheme:
            raise InputError(f"heldout: its tags are in {h_raw.scheme.upper()}, the corpus's in {raw.scheme.upper()}; "
                             "a held-out file must be annotated as the corpus is (or give {scheme} to read both alike)",
                             file=name, param=("heldout", "scheme"))
        h = prepare_corpus(h_raw, options.task)
        for s in h:
            bad = [t for _, _, t in s.chunks if t not in types]
            if bad:
                known = ", ".join(sorted(t or "(untyped)" for t in types)) or "none"
                raise InputError(f"heldout: chunk type {bad[0]!r} is not a type of the corpus (types: {known})",
                                 file=s.source, line=s.line, param="heldout")
        gold = [filter_chunks(s.chunks, options.chunk_types, options.untyped) for s in h]
        dup = np.fromiter((s.tokens in seen for s in h_raw), dtype=bool, count=len(h_raw))
        if dup.any():
            warn(f"{int(dup.sum()):,} of its {len(dup):,} sentences also occur in the corpus; the held-out figures are "
                 "given with and without them", file=name)
        out.append(HeldoutSet(name, h, gold, dup))
    return out


def _scores(c) -> dict:
    """Counts and P / R / F1 (None where undefined, with ``undefined``: metric → reason)."""
    return counts_scores(*(int(x) for x in c))


def _bootstrap(a: np.ndarray, b: np.ndarray, rng: np.random.Generator, resamples: int, alpha: float) -> dict:
    """Paired bootstrap over sentences of F1(B) − F1(A) from per-sentence counts (n, 3) of both."""
    n = len(a)
    deltas = []
    for start in range(0, resamples, 100):  # 100 resamples at a time bounds the memory
        k = min(100, resamples - start)
        w = rng.multinomial(n, np.full(n, 1.0 / n), size=k) if n else np.zeros((k, 0))
        deltas.append(chunk_f1(w @ b) - chunk_f1(w @ a))
    d = np.concatenate(deltas)
    lo, hi = np.quantile(d, [alpha / 2, 1 - alpha / 2])
    return {"ci": [float(lo), float(hi)], "p_b_better": float(np.mean(d > 0)), "p_a_better": float(np.mean(d < 0))}


def heldout_section(records: Mapping, names: Sequence[str], m: int, sets: Mapping[str, dict],
                    seed: int = 0, alpha: float = 0.05, resamples: int = RESAMPLES) -> dict:
    """The measurements of ``report.json``'s ``heldout`` block: each file's scores and the pairs' differences.

    Parameters
    ----------
    records : mapping (system, split, direction) → fold record
        Records holding ``heldout``.
    names : sequence of str
        The systems, in report order.
    m : int
        Number of splits: the first m splits' 2m fold models are pooled.
    sets : mapping file → info
        Per file ``{"sentences", "tokens", "gold_chunks", "duplicates"}`` and ``"duplicate"`` (the indices of
        sentences also in the corpus).
    seed : int
        Seed of the bootstrap (one stream per file, shared by every pair).
    alpha : float
        The ΔF1 intervals are equal-tailed 1 − alpha bootstrap intervals.
    resamples : int
        Bootstrap resamples per file.

    Returns
    -------
    dict
        ``{"files", "systems", "pairs", "bootstrap"}``.
    """
    files = {f: {k: v for k, v in info.items() if k != "duplicate"} for f, info in sets.items()}
    systems: dict = {n: {} for n in names}
    pooled: dict = {}
    for f, info in sets.items():
        keep = np.ones(info["sentences"], dtype=bool)
        keep[np.asarray(info["duplicate"], dtype=np.int64)] = False
        files[f].setdefault("duplicates", int((~keep).sum()))  # what heldout_gaps reads
        for n in names:
            parts = [records[(n, j, k)]["heldout"][f] for j in range(m) for k in (0, 1)]
            per = np.array([p["sentences"] for p in parts], dtype=np.int64).reshape(len(parts), -1, 3)
            sent = per.sum(axis=0)
            pooled[(n, f)] = sent
            model_f1 = chunk_f1(per.sum(axis=1))
            systems[n][f] = {
                "pooled": _scores(sent.sum(axis=0)),
                "pooled_without_duplicates": _scores(sent[keep].sum(axis=0)),
                "models_f1": {"mean": float(model_f1.mean()),
                              "sd": float(model_f1.std(ddof=1)) if len(model_f1) > 1 else 0.0,
                              "values": model_f1.tolist()},
            }
    pairs = []
    for fi, (f, info) in enumerate(sets.items()):
        keep = np.ones(info["sentences"], dtype=bool)
        keep[np.asarray(info["duplicate"], dtype=np.int64)] = False
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                pa, pb = pooled[(a, f)], pooled[(b, f)]
                row = {"a": a, "b": b, "file": f,
                       "delta_f1": float(chunk_f1(pb.sum(axis=0)) - chunk_f1(pa.sum(axis=0))),
                       "delta_f1_without_duplicates": float(chunk_f1(pb[keep].sum(axis=0))
                                                            - chunk_f1(pa[keep].sum(axis=0)))}
                # the same resampled sentences for every pair of one file
                row.update(_bootstrap(pa, pb, np.random.default_rng([seed, fi]), resamples, alpha))
                pairs.append(row)
    return {
        "files": files, "systems": systems, "pairs": pairs,
        "bootstrap": {"resamples": resamples, "seed": seed, "level": 1 - alpha,
                      "what": "the predictions of the 2m fold models pooled: each resample draws the file's sentences "
                              "with replacement and adds up every model's counts on them, for both systems alike"},
    }


def heldout_gaps(heldout: dict, answer: BayesAnswer) -> dict:
    """``heldout`` with every system's cross-validation F1 set beside its held-out F1.

    Adds the estimate and interval, the gap (estimate − held-out F1) and whether the held-out F1 falls outside the
    interval; with repeated sentences, the same without them.

    Parameters
    ----------
    heldout : dict
        The measurements of :func:`heldout_section`.
    answer : BayesAnswer
        The Bayes answer: its F1 estimates and intervals.

    Returns
    -------
    dict
        A new ``heldout`` block; ``heldout`` is not changed.

    Examples
    --------
    >>> from textbcv.stats.answer import BayesAnswer
    >>> held = {"files": {"f": {"duplicates": 0}}, "pairs": [], "bootstrap": {},
    ...         "systems": {"A": {"f": {"pooled": {"f1": 0.75}, "pooled_without_duplicates": {"f1": 0.75}}}}}
    >>> ans = BayesAnswer.from_dict({"systems": {"A": {"f1": {"estimate": 0.8, "ci": [0.78, 0.82]}}}})
    >>> g = heldout_gaps(held, ans)["systems"]["A"]["f"]
    >>> round(g["gap"], 3), g["outside_interval"]
    (0.05, True)
    """
    systems: dict = {}
    for n, by_file in heldout["systems"].items():
        est = answer.systems[n]["f1"]
        systems[n] = {}
        for f, row in by_file.items():
            total, clean = row["pooled"]["f1"], row["pooled_without_duplicates"]["f1"]
            defined = est.estimate is not None and total is not None
            row = {**row,
                   "cv_f1": {"estimate": est.estimate, "ci": None if est.ci is None else list(est.ci)},
                   "gap": float(est.estimate - total) if defined else None,
                   # (ci is None exactly when the estimate is: Posterior.undefined_because)
                   "outside_interval": defined and est.ci is not None and not (est.ci[0] <= total <= est.ci[1])}
            if heldout["files"][f].get("duplicates"):  # the gap to new text is the one without the repeats
                ok = est.estimate is not None and clean is not None
                row["gap_without_duplicates"] = float(est.estimate - clean) if ok else None
                row["outside_interval_without_duplicates"] = bool(
                    ok and est.ci is not None and not (est.ci[0] <= clean <= est.ci[1]))
            systems[n][f] = row
    return {**heldout, "systems": systems}


def check_heldout_records(store: FoldStore, names: Sequence[str], heldout: Sequence[str]) -> None:
    """Refuse to resume folds that were tagged on other held-out files than ``heldout``.

    Parameters
    ----------
    store : FoldStore
        The run's fold records.
    names : sequence of str
        The systems of this comparison (records of other systems are not checked).
    heldout : sequence of str
        The held-out files of this comparison, as given.

    Raises
    ------
    InputError
        When a finished fold of one of ``names`` was tagged on another set of held-out files.
    """
    want = set(heldout)
    for (name, j, k), rec in store.records.items():
        if name in names and set(rec.get("heldout", {})) != want:
            have = ", ".join(sorted(rec.get("heldout", {}))) or "none"
            raise InputError(f"the finished folds were made with other held-out files ({have}) than {{heldout}} gives "
                             f"({', '.join(heldout) or 'none'}); use another {{out}}", file=str(store.path),
                             param=("heldout", "out"))
