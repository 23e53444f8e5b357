#!/usr/bin/env python3
"""Variance components of F1 under blocked m×2 CV: the simulation of seed 003 (Yang & Wang 2016), re-run.

Design (the seed's experiment 1): P(Y = 1) = ½ (labels drawn i.i.d.),
X | Y = 0 ~ N(0, I₃₀), X | Y = 1 ~ N(1·ones, 2·I₃₀) (variance 2, sd √2), for
n = 40, 80, 160, 200, 400, 800, 1,200, 1,600, 2,000; four scikit-learn
classifiers — classification tree (CART, unpruned, random_state = 0),
nearest neighbour (k = 5 voting, the seed's K is lost), Gaussian naive Bayes,
SVM (RBF kernel, C = 1, gamma = "scale"); F1 of class 1 on every fold.

Splits: textbcv's own m×2 BCV splitter, ``textbcv.split.split_units(n, m=7,
seed=r)`` without balancing (the seed's blocked 3×2 CV does not balance
classes); m = 3 and m = 5 are its first 3 and 5 splits, which are exactly
``split_units(n, m=3 / 5, seed=r)`` (nested; the script checks it). So one
data set gives the 3×2, 5×2 and 7×2 fold scores at once.

R independent data sets per n (data set r of size n is drawn from
``default_rng([3, n, r])``); every finished data set is one line of
``--work``/nNNNN.jsonl (per classifier the TP, FP, FN of the 14 folds), so an
interrupted run resumes, and the work directory is small enough to commit.
Data sets are run in blocks of ``--block`` over all n, so a run cut short has
(about) the same R at every n.

From the R × m × 2 arrays of fold F1, :func:`textbcv.stats.variance_components`
gives σ², ω, γ, ρ1, ρ2, Var(μ̂_m×2), the share of σ² (= the count factor c)
and the λ ratios, each with a 95% BCa bootstrap interval over the R data sets.
Rows go to ``docs/variance_components.json``, the bar charts (one per
classifier, like the seed's figures 2–5) to ``docs/variance_components_*.png``
and the section "variance_components" of ``docs/RESULTS.md``.

Fold scores from any other source (the real-text study) plug in with
``--external rows.jsonl`` (one JSON object per fold: run, split, fold and the
score) or ``--stores 'dir/r*.jsonl' --system B [--minus A]`` (textbcv fold
stores, one per independently drawn data set); see :func:`fold_scores_from_rows`
and :func:`fold_scores_from_stores`.

One core: scikit-learn runs with n_jobs = 1 and BLAS threads are pinned to 1.

Usage: scripts/variance_components.py [--reps 1000] [--block 100]
       scripts/variance_components.py --smoke            (< 1 min, writes under runs/)
       scripts/variance_components.py --summarize-only   (no training: summarize --work)
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse  # noqa: E402
import glob  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from textbcv.split import split_units  # noqa: E402
from textbcv.stats import thesis_count_factor, variance_components  # noqa: E402
from textbcv.stats.components import QUANTITIES  # noqa: E402

from _results import ROOT, append_line, fmt_seconds, machine, update_section, write_json  # noqa: E402

NS = (40, 80, 160, 200, 400, 800, 1200, 1600, 2000)
MS = (3, 5, 7)
M_MAX = 7
P = 30
SEED = 3  # seed 003
CLASSIFIERS = ("classification_tree", "nearest_neighbour", "naive_bayes", "svm")
LABELS = {"classification_tree": "classification tree (CT)", "nearest_neighbour": "nearest neighbour (NN, k = 5)",
          "naive_bayes": "naive Bayes (NB)", "svm": "SVM (RBF)"}
SHORT = {"classification_tree": "CT", "nearest_neighbour": "NN", "naive_bayes": "NB", "svm": "SVM"}
LAMBDAS = ("lambda_independent", "lambda_pairs", "lambda_5x2cv", "lambda_corrected")
#: the thesis's averaging box for c_m (eq. 6.25)
THESIS_RHO1 = (0.0, 0.5)
THESIS_RHO2 = (0.25, 0.5)


# --------------------------------------------------------------------------- the simulation


def make_classifier(name: str):
    """A fresh scikit-learn classifier (one core)."""
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier

    if name == "classification_tree":
        return DecisionTreeClassifier(random_state=0)
    if name == "nearest_neighbour":
        return KNeighborsClassifier(n_neighbors=5, n_jobs=1)
    if name == "naive_bayes":
        return GaussianNB()
    if name == "svm":
        return SVC(kernel="rbf", C=1.0, gamma="scale")
    raise ValueError(f"unknown classifier {name!r}")


def classifier_params() -> dict:
    return {c: {k: (v if isinstance(v, (int, float, str, bool)) or v is None else str(v))
                for k, v in sorted(make_classifier(c).get_params().items())} for c in CLASSIFIERS}


def draw_data(n: int, r: int) -> tuple[np.ndarray, np.ndarray]:
    """Data set r of size n: Y ~ Bernoulli(½); X | Y=0 ~ N(0, I₃₀), X | Y=1 ~ N(1, 2·I₃₀).

    >>> X, y = draw_data(40, 0)
    >>> X.shape, sorted(set(y.tolist()))
    ((40, 30), [0, 1])
    """
    rng = np.random.default_rng([SEED, n, r])
    y = (rng.random(n) < 0.5).astype(np.int64)
    z = rng.standard_normal((n, P))
    X = np.where(y[:, None] == 1, 1.0 + np.sqrt(2.0) * z, z)
    return X, y


def bcv_splits(n: int, r: int, m: int = M_MAX):
    """textbcv's m×2 BCV split set for data set r (no balancing)."""
    return split_units(n, m=m, seed=r, quality=False)


def check_nesting(n: int, r: int) -> None:
    """The m = 3 and m = 5 split sets are the first splits of m = 7 (else the m = 3, 5 rows would be wrong)."""
    s7 = bcv_splits(n, r, M_MAX)
    for m in MS:
        sm = bcv_splits(n, r, m)
        if not all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) for a, b in zip(sm.splits, s7.splits)):
            raise SystemExit(f"n = {n}, seed {r}: the m = {m} splits are not the first {m} of m = {M_MAX}")


def split_digest(s) -> str:
    h = hashlib.sha256()
    for t, _ in s.splits:
        h.update(np.asarray(t, dtype=np.int64).tobytes())
        h.update(b"|")
    return h.hexdigest()[:12]


def fold_counts(name: str, X, y, train, test) -> tuple[int, int, int]:
    """TP, FP, FN of class 1 on the test half (a training half with one class predicts that class)."""
    if len(np.unique(y[train])) < 2:
        pred = np.full(len(test), y[train][0])
    else:
        pred = make_classifier(name).fit(X[train], y[train]).predict(X[test])
    yt = y[test]
    tp = int(np.sum((pred == 1) & (yt == 1)))
    fp = int(np.sum((pred == 1) & (yt == 0)))
    fn = int(np.sum((pred == 0) & (yt == 1)))
    return tp, fp, fn


def run_unit(n: int, r: int, classifiers=CLASSIFIERS) -> dict:
    """One data set: per classifier the flat list TP, FP, FN of folds (split 0: k = 0, 1; split 1: ...)."""
    X, y = draw_data(n, r)
    s = bcv_splits(n, r)
    counts = {}
    for c in classifiers:
        flat = []
        for _, _, train, test in s.folds():
            flat.extend(fold_counts(c, X, y, train, test))
        counts[c] = flat
    return {"n": n, "r": r, "splits": split_digest(s), "counts": counts}


def f1_from_counts(flat) -> np.ndarray:
    """(m, 2) fold F1 of class 1 from the flat TP, FP, FN list (0 where 2TP + FP + FN = 0)."""
    c = np.asarray(flat, dtype=float).reshape(-1, 2, 3)
    tp, fp, fn = c[..., 0], c[..., 1], c[..., 2]
    den = 2 * tp + fp + fn
    return np.divide(2 * tp, den, out=np.zeros_like(den), where=den > 0)


def load_units(path: Path) -> dict[int, dict]:
    """Finished data sets of one n, by r (a torn last line from a killed run is dropped)."""
    units: dict[int, dict] = {}
    if not path.exists():
        return units
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end < len(data):
        with open(path, "r+b") as f:
            f.truncate(end)
    for lineno, line in enumerate(data[:end].decode("utf-8").splitlines(), 1):
        if line.strip():
            try:
                u = json.loads(line)
                units.setdefault(int(u["r"]), u)
            except (ValueError, KeyError, TypeError) as e:
                raise SystemExit(f"{path}:{lineno}: not a unit line ({e}); delete the line or choose another --work")
    return units


# --------------------------------------------------------------------------- fold scores from anywhere


def fold_scores_from_rows(rows, value: str = "f1", run: str = "run", split: str = "split", fold: str = "fold",
                          where: dict | None = None, m: int | None = None) -> np.ndarray:
    """R × m × 2 array of ``row[value]`` from one row per fold (``row[run]``, ``row[split]``, ``row[fold]``).

    ``where`` keeps the rows whose fields equal its values (e.g. ``{"pool": "conll2003", "unit": "sentence"}``);
    ``value`` may also be ``"f1"`` on rows holding ``tp``, ``fp``, ``fn`` instead. Runs are sorted by id;
    every run must have all folds of splits 0..m−1 (m = the largest common number of complete splits when
    not given); a fold given twice is an error.

    >>> rows = [{"run": r, "split": j, "fold": k, "f1": r + j / 10 + k / 100}
    ...         for r in range(3) for j in range(2) for k in (0, 1)]
    >>> fold_scores_from_rows(rows)[2].tolist()
    [[2.0, 2.01], [2.1, 2.11]]
    """
    where = where or {}
    table: dict = {}
    for i, row in enumerate(rows):
        if any(row.get(k) != v for k, v in where.items()):
            continue
        if value in row:
            x = float(row[value])
        elif value == "f1" and all(k in row for k in ("tp", "fp", "fn")):
            d = 2 * row["tp"] + row["fp"] + row["fn"]
            x = 2 * row["tp"] / d if d else 0.0
        else:
            raise ValueError(f"row {i + 1}: no {value!r}")
        key = (int(row[split]), int(row[fold]))
        if key[1] not in (0, 1) or key[0] < 0:
            raise ValueError(f"row {i + 1}: bad split/fold {key}")
        per = table.setdefault(row[run], {})
        if key in per:
            raise ValueError(f"row {i + 1}: run {row[run]!r} split {key[0]} fold {key[1]} given twice")
        per[key] = x
    if not table:
        raise ValueError("no rows match")

    def complete(per: dict) -> int:
        j = 0
        while (j, 0) in per and (j, 1) in per:
            j += 1
        return j

    have = min(complete(p) for p in table.values())
    m = have if m is None else m
    if m < 1 or have < m:
        raise ValueError(f"some run has only {have} complete splits, {m} needed")
    return np.array([[[table[r][(j, k)] for k in (0, 1)] for j in range(m)] for r in sorted(table)])


def fold_scores_from_stores(paths, system: str, minus: str | None = None, m: int | None = None) -> np.ndarray:
    """R × m × 2 fold F1 of ``system`` (or F1(system) − F1(minus)) from textbcv fold stores, one store per run.

    Each path is a ``folds.jsonl`` of one independently drawn data set (a
    :class:`textbcv.tagging.FoldStore`: ``system``, ``split``, ``direction``,
    ``counts.overall`` TP/FP/FN).
    """
    from textbcv.tagging import FoldStore

    rows = []
    for r, p in enumerate(sorted(map(str, paths))):
        st = FoldStore(p)
        for (name, j, k), rec in st.records.items():
            c = rec["counts"]["overall"]
            d = 2 * c["tp"] + c["fp"] + c["fn"]
            rows.append({"run": r, "system": name, "split": j, "fold": k, "f1": 2 * c["tp"] / d if d else 0.0})
    x = fold_scores_from_rows(rows, where={"system": system}, m=m)
    if minus is not None:
        x = x - fold_scores_from_rows(rows, where={"system": minus}, m=x.shape[1])
    return x


def _study():
    """scripts/real_text_study.py as a module (its pools, data-set draws and unit files), loaded once."""
    import importlib.util

    if "real_text_study" not in sys.modules:
        spec = importlib.util.spec_from_file_location("real_text_study", Path(__file__).with_name("real_text_study.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        sys.modules["real_text_study"] = mod
    return sys.modules["real_text_study"]


def real_text_scores(study_dir: Path) -> list[tuple[dict, np.ndarray]]:
    """Fold F1 arrays (R × 7 × 2) from the real-text study's committed data sets, with their labels.

    One array per pool, unit, design (``bcv``: BCV without balancing; ``random``: random m×2 CV) and
    score (``A``, ``B`` and the paired difference ``B − A``). Only data sets holding that piece count;
    the fold order is the study's (split-major, m = 7, whose first 3 splits are its m = 3 design).
    """
    rts = _study()
    out = []
    # POOL.jsonl of each pool: the folder also holds other studies' units (pairs-, decomposition-), other layouts
    for path in (Path(study_dir) / f"{p}.jsonl" for p in sorted(rts.POOLS)):
        merged = rts.merge_lines(rts.load_lines(path))
        if not merged:
            continue
        pool = next(iter(merged.values()))["pool"]
        keys = sorted({k for u in merged.values() for k in u["pieces"]})
        for key in keys:
            design, unit = key.split("/")
            if design not in ("bcv", "random"):
                continue
            rs = sorted(r for r, u in merged.items() if key in u["pieces"])
            f1 = {s: np.stack([f1_from_counts(np.asarray(merged[r]["pieces"][key]["counts"][s]).ravel()) for r in rs])
                  for s in ("A", "B")}
            base = {"pool": pool, "unit": unit, "design": design, "runs": rs}
            for score, x in (("A", f1["A"]), ("B", f1["B"]), ("B − A", f1["B"] - f1["A"])):
                out.append(({**base, "score": score}, x))
    return out


def pool_overlap(study_dir: Path, pool: str, rs: list[int]) -> dict:
    """Mean share of a data set's sentences that another data set of the study also holds (pairs of ``rs``).

    Redraws the study's data sets (``Pool.draw`` of scripts/real_text_study.py) from the pool's sentences
    and documents, without extracting features.
    """
    from textbcv.corpus import read_corpus

    rts = _study()

    p = rts.POOLS[pool]
    corpus = read_corpus([str(rts.SHARED / f) for f in p["files"]], format=p["format"])
    fake = object.__new__(rts.Pool)
    fake.sents = corpus.sentences
    fake.docs = corpus.documents if "document" in p["units"] else None
    sets = [set(rts.Pool.draw(fake, r, p["n"]).tolist()) for r in rs]
    shares = [len(a & b) / len(a) for i, a in enumerate(sets) for j, b in enumerate(sets) if i != j]
    N = len(corpus.sentences)
    return {"pool_sentences": N, "data_set_sentences": round(float(np.mean([len(a) for a in sets])), 1),
            "mean_shared_share": round(float(np.mean(shares)), 4) if shares else None,
            "expected_shared_share": round(float(np.mean([len(a) for a in sets])) / N, 4)}


def components_row(scores: np.ndarray, n_resamples: int, seed: int, **labels) -> dict:
    """One JSON row: the labels, R, m, and every figure of :func:`variance_components` with its interval."""
    vc = variance_components(scores, n_resamples=n_resamples, seed=seed).to_dict()
    row = dict(labels)
    row.update({"m": vc["m"], "R": vc["R"]})
    row.update({q: vc[q] for q in QUANTITIES})
    row["c_m_thesis"] = thesis_count_factor(vc["m"])
    row["bootstrap"] = {"method": "BCa", "resamples": n_resamples, "confidence": vc["confidence"], "seed": seed}
    if vc["percentile_fallback"]:
        row["bootstrap"]["percentile_fallback"] = vc["percentile_fallback"]
    return row


# --------------------------------------------------------------------------- summary, findings, plots


def stable_seed(*parts) -> int:
    return int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:4], "little")


def summarize(work: Path, ns, classifiers, n_resamples: int, progress) -> list[dict]:
    rows = []
    for n in ns:
        units = load_units(work / f"n{n:04d}.jsonl")
        rs = sorted(units)
        if len(rs) < 3:
            continue
        for c in classifiers:
            f1 = np.stack([f1_from_counts(units[r]["counts"][c]) for r in rs])  # R × 7 × 2
            for m in MS:
                t0 = time.time()
                rows.append(components_row(f1[:, :m], n_resamples, stable_seed(c, n, m), source="simulation",
                                           classifier=c, n=n))
                progress(f"summary: {c}, n = {n}, m = {m}, R = {len(rs)} ({time.time() - t0:.1f} s)")
    return rows


def _v(row, q):
    return row[q]["value"]


def _ci(row, q, scale=1.0, nd=2):
    e = row[q]
    if e["low"] is None:
        return f"{scale * e['value']:.{nd}f}"
    return f"{scale * e['value']:.{nd}f} [{scale * e['low']:.{nd}f}, {scale * e['high']:.{nd}f}]"


def findings(rows: list[dict]) -> list[str]:
    """The seed's qualitative claims, checked on the m = 3 rows (and c_m on every m)."""
    out = []
    sim = [r for r in rows if r.get("source") == "simulation"]
    by = {(r["classifier"], r["n"], r["m"]): r for r in sim}
    clfs = [c for c in CLASSIFIERS if any(k[0] == c for k in by)]
    ns = sorted({r["n"] for r in sim})
    if len(ns) < 2:
        return ["Too few sample sizes to check the seed's trends."]
    lo_n, hi_n = ns[0], ns[-1]
    big = [n for n in ns if n >= 400] or ns[-2:]
    # 1. ρ1 falls with n
    parts = []
    for c in clfs:
        a, b = by[(c, lo_n, 3)], by[(c, hi_n, 3)]
        rho = [by[(c, n, 3)]["rho1"]["value"] for n in ns]
        sp = stats.spearmanr(ns, rho).statistic if len(set(rho)) > 1 else float("nan")
        if b["rho1"]["high"] is not None and a["rho1"]["low"] is not None and b["rho1"]["high"] < a["rho1"]["low"]:
            verdict = "falls (the intervals at the two ends do not overlap)"
        elif sp < 0:
            verdict = "tends down, but the intervals at the two ends overlap"
        else:
            verdict = "does not fall"
        parts.append(f"{SHORT[c]}: {_ci(a, 'rho1')} at n = {lo_n} → {_ci(b, 'rho1')} at n = {hi_n}, "
                     f"Spearman {sp:+.2f} over the {len(ns)} n: {verdict}")
    out.append("**ρ1 falls with n** (seed: ρ1 decreases, CT reaching 0.007 at n = 2,000) — " + "; ".join(parts) + ".")
    # 2. ρ2 settles (seed: below 0.4 for CT, NN, NB; SVM 0.4–0.5 at n = 800 and 1,600)
    parts = []
    for c in clfs:
        rr = [by[(c, n, 3)] for n in big]
        lows = [r["rho2"]["low"] for r in rr if r["rho2"]["low"] is not None]
        highs = [r["rho2"]["high"] for r in rr if r["rho2"]["high"] is not None]
        vals = [r["rho2"]["value"] for r in rr]
        common = lows and highs and max(lows) <= min(highs)
        state = ("one value fits every interval: settles" if common
                 else "the intervals do not share a value: still moving")
        parts.append(f"{SHORT[c]}: {min(vals):.2f}–{max(vals):.2f} for n ≥ {big[0]} ({state}; "
                     f"at n = {lo_n}: {by[(c, lo_n, 3)]['rho2']['value']:.2f})")
    out.append("**ρ2 settles** (seed: ρ2 levels off below 0.4, SVM up to 0.4–0.5) — " + "; ".join(parts) + ".")
    # 3. share of σ²
    parts = []
    for c in clfs:
        sh = [by[(c, n, 3)]["count_factor"]["value"] for n in ns]
        parts.append(f"{SHORT[c]} {min(sh):.2f}–{max(sh):.2f}")
    out.append("**σ² explains only 30–40% of Var(μ̂_3×2)** (seed) — measured share σ²/(6·Var) = c over n: "
               + ", ".join(parts) + ".")
    # 4. negative ρ1 for naive Bayes
    if "naive_bayes" in clfs:
        neg = [n for n in ns if by[("naive_bayes", n, 3)]["rho1"]["value"] < 0]
        sig = [n for n in ns if (by[("naive_bayes", n, 3)]["rho1"]["high"] or 0) < 0]
        out.append(f"**Negative ρ1 for naive Bayes** (seed) — ρ1 < 0 at n = {', '.join(map(str, neg)) or 'none'}; "
                   f"the whole interval below 0 at n = {', '.join(map(str, sig)) or 'none'}.")
    # 5. λ1 ≈ 1.5–3 × λ2
    parts = []
    for c in clfs:
        ratio = [by[(c, n, 3)]["lambda_independent"]["value"] / by[(c, n, 3)]["lambda_pairs"]["value"] for n in ns]
        inside = sum(1.5 <= x <= 3 for x in ratio)
        parts.append(f"{SHORT[c]} {min(ratio):.2f}–{max(ratio):.2f} ({inside}/{len(ns)} n within 1.5–3)")
    out.append("**λ1 is 1.5–3 times λ2** (seed; read here as λ_independent / λ_pairs, point values) — "
               + "; ".join(parts) + ".")
    # the seed also calls the sample variance a *conservative* estimate; S²/(2m) never is here. Another
    # reading of its λ: the sample variances S² and S²_pairs themselves taken as Var(μ̂) (not divided by 2m, m)
    parts = []
    for c in clfs:
        rr = [by[(c, n, 3)] for n in ns]
        ratio = [2 * _v(r, "lambda_independent") / _v(r, "lambda_pairs") for r in rr]
        inside = sum(1.5 <= x <= 3 for x in ratio)
        parts.append(f"{SHORT[c]} {min(ratio):.2f}–{max(ratio):.2f} ({inside}/{len(ns)} within 1.5–3)")
    s2 = [6 * _v(by[(c, n, 3)], "lambda_independent") for c in clfs for n in ns]
    lind = [_v(by[(c, n, 3)], "lambda_independent") for c in clfs for n in ns]
    out.append(f"**The sample variance is conservative** (seed) — S²/(2m) is not: "
               f"λ_ind = {min(lind):.2f}–{max(lind):.2f} (always too narrow). S² itself taken as Var(μ̂) is: "
               f"E[S²]/Var = {min(s2):.2f}–{max(s2):.2f}. Under that "
               "reading (λ1 = E[S²]/Var, λ2 = E[S²_pairs]/Var) the ratio λ1/λ2 is " + "; ".join(parts) + ".")
    # 6. c_m
    for m in MS:
        rr = [r for r in sim if r["m"] == m]
        if not rr:
            continue
        cm = thesis_count_factor(m)
        inside = sum(r["count_factor"]["low"] is not None
                     and r["count_factor"]["low"] <= cm <= r["count_factor"]["high"] for r in rr)
        above = sum(r["count_factor"]["low"] is not None and r["count_factor"]["low"] > cm for r in rr)
        below = sum(r["count_factor"]["high"] is not None and r["count_factor"]["high"] < cm for r in rr)
        cs = [r["count_factor"]["value"] for r in rr]
        box = sum(THESIS_RHO1[0] <= _v(r, "rho1") <= THESIS_RHO1[1]
                  and THESIS_RHO2[0] <= _v(r, "rho2") <= THESIS_RHO2[1] for r in rr)
        out.append(f"**c_{m} = {cm:.4f} (thesis) against the measured c = 1/(1 + ρ1 + {2 * m - 2}ρ2)**, m = {m}: "
                   f"measured {min(cs):.3f}–{max(cs):.3f} over {len(rr)} rows; c_{m} inside the interval in {inside}, "
                   f"below it in {above} (c_{m} too small: intervals wider than the measured variance needs), "
                   f"above it in {below} (c_{m} too large: intervals too narrow). (ρ1, ρ2) inside the thesis's "
                   f"averaging box ρ1 ∈ [0, ½], ρ2 ∈ [¼, ½] in {box} of {len(rr)} rows.")
    return out


def plot(rows: list[dict], plot_dir: Path, stem: str) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = []
    sim = [r for r in rows if r.get("source") == "simulation" and r["m"] == 3]
    for c in CLASSIFIERS:
        rr = sorted((r for r in sim if r["classifier"] == c), key=lambda r: r["n"])
        if not rr:
            continue
        ns = [r["n"] for r in rr]
        x = np.arange(len(ns))
        fig = plt.figure(figsize=(16, 7.5))
        gs = fig.add_gridspec(6, 5, hspace=1.1, wspace=0.45)
        # the seed's figures: per n, the bars σ², ω, γ (each n on its own scale: they shrink with n)
        comps = (("sigma2", "σ²", "tab:blue"), ("omega", "ω", "tab:orange"), ("gamma", "γ", "tab:green"))
        for i, r in enumerate(rr[:9]):
            ax = fig.add_subplot(gs[2 * (i // 3): 2 * (i // 3) + 2, i % 3])
            v = np.array([r[q]["value"] for q, _, _ in comps])
            lo = np.array([r[q]["low"] if r[q]["low"] is not None else r[q]["value"] for q, _, _ in comps])
            hi = np.array([r[q]["high"] if r[q]["high"] is not None else r[q]["value"] for q, _, _ in comps])
            ax.bar(range(3), v, 0.7, color=[col for _, _, col in comps],
                   yerr=[np.maximum(v - lo, 0), np.maximum(hi - v, 0)], capsize=2, error_kw={"lw": 0.8})
            ax.set_xticks(range(3), [lab for _, lab, _ in comps])
            ax.axhline(0, color="black", lw=0.6)
            ax.ticklabel_format(axis="y", style="sci", scilimits=(0, 0))
            ax.set_title(f"n = {r['n']:,}", fontsize=9, loc="right")
        ax = fig.add_subplot(gs[0:3, 3:5])
        w = 0.4
        for i, (q, col, lab) in enumerate((("rho1", "tab:orange", "ρ1 = ω/σ²"), ("rho2", "tab:green", "ρ2 = γ/σ²"))):
            v = np.array([r[q]["value"] for r in rr])
            lo = np.array([r[q]["low"] if r[q]["low"] is not None else r[q]["value"] for r in rr])
            hi = np.array([r[q]["high"] if r[q]["high"] is not None else r[q]["value"] for r in rr])
            ax.bar(x + (i - 0.5) * w, v, w, color=col, label=lab,
                   yerr=[np.maximum(v - lo, 0), np.maximum(hi - v, 0)], capsize=2, error_kw={"lw": 0.8})
        ax.axhspan(*THESIS_RHO2, color="tab:green", alpha=0.08, label="ρ2 range behind c_m")
        ax.axhline(0, color="black", lw=0.6)
        ax.set_xticks(x, [f"n = {n}" if i == 0 else str(n) for i, n in enumerate(ns)], fontsize=8)
        ax.set_title("correlations", fontsize=10)
        ax.legend(fontsize=8, loc="upper left", ncol=3)
        ax = fig.add_subplot(gs[3:6, 3:5])
        share = {"σ²": [r["count_factor"]["value"] for r in rr]}
        share["ω"] = [r["omega"]["value"] / (6 * r["var_mx2"]["value"]) for r in rr]
        share["4γ"] = [4 * r["gamma"]["value"] / (6 * r["var_mx2"]["value"]) for r in rr]
        pos, neg = np.zeros(len(rr)), np.zeros(len(rr))
        for (lab, v), col in zip(share.items(), ("tab:blue", "tab:orange", "tab:green")):
            v = np.array(v)
            base = np.where(v >= 0, pos, neg)
            ax.bar(x, v, 0.6, bottom=base, color=col, label=lab)
            pos, neg = pos + np.maximum(v, 0), neg + np.minimum(v, 0)
        ax.axhline(thesis_count_factor(3), color="black", ls="--", lw=0.9, label="c_3 = 0.3688")
        ax.set_xticks(x, [str(n) for n in ns], fontsize=8)
        ax.set_xlabel("n")
        ax.set_ylim(min(-0.05, neg.min() - 0.02), 1.28)
        ax.set_title("shares of Var(μ̂_3×2) = (σ² + ω + 4γ)/6; the σ² share is c", fontsize=10)
        ax.legend(fontsize=8, loc="upper left", ncol=4)
        fig.suptitle(f"{LABELS[c]}: F1 of class 1 under blocked 3×2 CV, R = {rr[0]['R']} data sets per n "
                     "(95% bootstrap intervals)", fontsize=10)
        name = f"{stem}_{c}.png"
        fig.savefig(plot_dir / name, dpi=100)
        plt.close(fig)
        names.append(name)
    return names


def render(result: dict) -> str:
    meta = result["meta"]
    rows = result["rows"]
    sim = {(r["classifier"], r["n"], r["m"]): r for r in rows if r.get("source") == "simulation"}
    ns = sorted({k[1] for k in sim})
    L = ["## Variance components of F1 under blocked m×2 CV (seed 003's simulation)", ""]
    if meta["smoke"]:
        L += [f"**Smoke run** (n = {', '.join(map(str, ns))}, R ≤ {meta['reps']}): tests the script, not the method.",
              ""]
    rs = sorted({r["R"] for r in sim.values()})
    L += [
        f"`scripts/variance_components.py`: the design of Yang & Wang (2016), experiment 1 — P(Y = 1) = ½ (i.i.d. "
        "labels), X | Y = 0 ~ N(0, I₃₀), X | Y = 1 ~ N(1, 2·I₃₀); classification tree (scikit-learn CART, unpruned), "
        "nearest neighbour (k = 5), Gaussian naive Bayes, SVM (RBF, C = 1); F1 of class 1. Splits: textbcv's m×2 BCV "
        "(`split_units`, no balancing), m = 7 per data set, whose first 3 and 5 splits are the m = 3 and m = 5 split "
        "sets (nested, checked). "
        f"R = {f'{rs[0]}–{rs[-1]}' if len(rs) > 1 else rs[0]} independent data sets per n (planned {meta['reps']}); "
        "σ², ω, γ are the mean diagonal, within-pair and across-pair entries of the sample covariance of the 2m fold "
        "F1s over the R data sets; Var = Var(μ̂_m×2) over the data sets, which equals (σ² + ω + (2m−2)γ)/(2m). "
        "Intervals: 95% BCa bootstrap over the R data sets (2,000 resamples unless stated in the JSON; where BCa "
        "or a ratio is undefined in some resamples, the percentile interval of the defined ones, listed as "
        "`percentile_fallback` in the row's `bootstrap`). "
        "c = σ²/(2m·Var) = 1/(1 + ρ1 + (2m−2)ρ2) is the share of Var that σ² explains and the factor the "
        "thesis's c_m stands in for. λ = (mean over data sets of a within-run variance estimate) / Var: "
        "λ_ind = S²/(2m) (all folds independent), λ_pair = var of the m pair means / m (pairs independent; "
        "our reading of the seed's λ2), λ_5×2 = Dietterich's within-pair s² / (2m), λ_corr = Ĉ_m²·Var2 "
        "(textbcv's sequential t-test); 1 = unbiased, < 1 = too narrow. The seed's own λ formula did not survive "
        "extraction (\"λ1 = 1 − …\"), so its λ and ours may differ in form.",
        "",
        "Blocked 3×2 CV (σ², ω, γ in 10⁻⁴; the seed's tables 2–5 and figures 2–5):",
        "",
        "| classifier | n | R | F1 | σ² | ω | γ | ρ1 [95% CI] | ρ2 [95% CI] | c = σ² share [95% CI] | λ_ind | λ_pair | "
        "λ_5×2 | λ_corr |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|---|---:|---:|---:|---:|",
    ]
    for c in CLASSIFIERS:
        for n in ns:
            r = sim.get((c, n, 3))
            if r is None:
                continue
            L.append(f"| {SHORT[c]} | {n:,} | {r['R']} | {_v(r, 'mean'):.3f} | {1e4 * _v(r, 'sigma2'):.3g} | "
                     f"{1e4 * _v(r, 'omega'):.3g} | {1e4 * _v(r, 'gamma'):.3g} | {_ci(r, 'rho1')} | {_ci(r, 'rho2')} | "
                     f"{_ci(r, 'count_factor')} | " + " | ".join(f"{_v(r, q):.2f}" for q in LAMBDAS) + " |")
    easy = sorted({SHORT[c] for (c, n, m), r in sim.items() if n >= 80 and _v(r, "mean") > 0.98},
                  key=list(SHORT.values()).index)
    if easy:
        L += ["", f"In this design {' and '.join(easy)} reach a mean F1 above 0.98 from n = 80 on "
              "(about 2% errors or fewer): their fold F1 moves with a handful of errors, so their rows describe a "
              "near-perfect classifier."]
    L += ["", "m = 5 and m = 7 (same data sets; the first 5 and all 7 splits): ρ1, ρ2 and c against "
          f"c_5 = {thesis_count_factor(5):.4f}, c_7 = {thesis_count_factor(7):.4f}:", "",
          "| classifier | n | ρ1 (m = 5) | ρ2 (m = 5) | c (m = 5) [95% CI] | ρ1 (m = 7) | ρ2 (m = 7) "
          "| c (m = 7) [95% CI] |",
          "|---|---:|---:|---:|---|---:|---:|---|"]
    for c in CLASSIFIERS:
        for n in ns:
            a, b = sim.get((c, n, 5)), sim.get((c, n, 7))
            if a is None or b is None:
                continue
            L.append(f"| {SHORT[c]} | {n:,} | {_v(a, 'rho1'):.3f} | {_v(a, 'rho2'):.3f} | "
                     f"{_ci(a, 'count_factor', nd=3)} | {_v(b, 'rho1'):.3f} | {_v(b, 'rho2'):.3f} | "
                     f"{_ci(b, 'count_factor', nd=3)} |")
    L += ["", "Against the seed's findings (computed from the rows above):", ""]
    L += [f"- {x}" for x in result["findings"]]
    real = [r for r in rows if r.get("source") == "real_text"]
    if real:
        L += ["", "### On real text: CRF taggers (the real-text study's data sets)", "",
              "Fold F1 of the real-text study's two CRF systems (A: word/character n-grams; B: with shape or "
              "character-type features) on its data sets of whole documents (CoNLL-2003) or sentences (MSR), under "
              "BCV without balancing (`bcv`) and random m×2 CV (`random`), m = 7 per data set and its first 3 splits; "
              "`B − A` is the per-fold difference. The data sets are drawn from one finite pool, so they share "
              "sentences (column 'shared'): their fold scores are positively correlated across data sets, which "
              "shrinks σ², ω and γ below their values for independent data sets (for the part of the variance that "
              "comes from the data, by about the finite-population factor 1 − n/N); ρ1, ρ2 and c are ratios of these "
              "and shrink less, but with a few data sets their intervals are wide — read them as a first measurement.",
              "",
              "| pool | unit | design | score | m | R | shared | F1 | ρ1 [95% CI] | ρ2 [95% CI] | c [95% CI] "
              "| c_m (thesis) | λ_corr |",
              "|---|---|---|---|---:|---:|---:|---:|---|---|---|---:|---:|"]
        for r in sorted(real, key=lambda r: (r["pool"], r["unit"], r["design"], r["score"], r["m"])):
            sh = r["overlap"]["mean_shared_share"]
            L.append(f"| {r['pool']} | {r['unit']} | {r['design']} | {r['score']} | {r['m']} | {r['R']} | "
                     f"{'—' if sh is None else f'{100 * sh:.1f}%'} | {_v(r, 'mean'):.4f} | {_ci(r, 'rho1')} | "
                     f"{_ci(r, 'rho2')} | {_ci(r, 'count_factor', nd=3)} | {r['c_m_thesis']:.4f} | "
                     f"{_v(r, 'lambda_corrected'):.2f} |")
    ext = [r for r in rows if r.get("source") not in ("simulation", "real_text")]
    if ext:
        L += ["", "Fold scores from other sources (`--external` / `--stores`):", "",
              "| source | labels | m | R | ρ1 [95% CI] | ρ2 [95% CI] | c [95% CI] | λ_corr |",
              "|---|---|---:|---:|---|---|---|---:|"]
        for r in ext:
            labels = ", ".join(f"{k} = {v}" for k, v in r.items() if k not in QUANTITIES and k not in
                               ("source", "m", "R", "c_m_thesis", "bootstrap"))
            L.append(f"| {r['source']} | {labels} | {r['m']} | {r['R']} | {_ci(r, 'rho1')} | {_ci(r, 'rho2')} | "
                     f"{_ci(r, 'count_factor', nd=3)} | {_v(r, 'lambda_corrected'):.2f} |")
    L += ["", "Bar charts (σ², ω, γ; ρ1, ρ2; the shares of Var; m = 3): "
          + ", ".join(f"[{SHORT[c]}]({name})" for c, name in zip(CLASSIFIERS, meta["plots"])) + ".", ""]
    L += [f"Run time: {fmt_seconds(meta['train_seconds'])} of training over {meta['invocations']} invocation(s) "
          f"({meta['units']:,} data sets, one core); summary {fmt_seconds(meta['summary_seconds'])}. "
          f"Measured {meta['machine']['date']} ({meta['machine']['nproc']} CPUs, load average "
          f"{', '.join(map(str, meta['machine']['loadavg']))}; scikit-learn {meta['sklearn']}). "
          f"Regenerate: `{meta['command'].strip()}`."]
    return "\n".join(L)


# --------------------------------------------------------------------------- main


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=None, help="data sets per n (default 1000; smoke 12)")
    ap.add_argument("--block", type=int, default=100, help="data sets per n before moving on to the next n")
    ap.add_argument("--ns", default=None, help="comma-separated n (default: the seed's nine)")
    ap.add_argument("--classifiers", default=",".join(CLASSIFIERS))
    ap.add_argument("--n-resamples", type=int, default=None, help="bootstrap resamples (default 2000; smoke 200)")
    ap.add_argument("--work", default=None, help="unit store (default docs/variance_components; smoke runs/...)")
    ap.add_argument("--json", default=None)
    ap.add_argument("--results", default=None)
    ap.add_argument("--plot-dir", default=None)
    ap.add_argument("--smoke", action="store_true", help="n = 40, 80, R = 12, 200 resamples; outputs under runs/")
    ap.add_argument("--summarize-only", action="store_true", help="train nothing; summarize the units in --work")
    ap.add_argument("--no-plots", action="store_true", help="keep the bar charts already drawn")
    ap.add_argument("--render-only", action="store_true",
                    help="recompute nothing: redraw the charts and the RESULTS.md section from --json")
    ap.add_argument("--real-text", nargs="?", const=str(ROOT / "docs" / "real_text_study"), default=None,
                    metavar="DIR",
                    help="add the components of the real-text study's fold F1 (default docs/real_text_study)")
    ap.add_argument("--external", default=None, help="JSONL, one row per fold: add its components to the JSON")
    ap.add_argument("--stores", default=None, help="glob of textbcv fold stores, one per independent data set")
    ap.add_argument("--system", default=None, help="system of --stores")
    ap.add_argument("--minus", default=None, help="--stores: score F1(system) − F1(minus)")
    ap.add_argument("--value", default="f1", help="--external: the score field (f1, or any other)")
    ap.add_argument("--where", action="append", default=[], metavar="KEY=VALUE", help="--external: keep matching rows")
    ap.add_argument("--label", action="append", default=[], metavar="KEY=VALUE", help="labels of the external row")
    args = ap.parse_args(argv)
    smoke = args.smoke
    reps = args.reps if args.reps is not None else (12 if smoke else 1000)
    ns = tuple(int(x) for x in args.ns.split(",")) if args.ns else ((40, 80) if smoke else NS)
    classifiers = tuple(c for c in args.classifiers.split(",") if c)
    if not classifiers or any(c not in CLASSIFIERS for c in classifiers):
        ap.error(f"--classifiers: choose from {', '.join(CLASSIFIERS)}")
    if reps < 3 or args.block < 1 or any(n < 8 for n in ns):
        ap.error("need --reps >= 3, --block >= 1 and every n >= 8")
    n_resamples = args.n_resamples or (200 if smoke else 2000)
    base = ROOT / "runs" / "variance_components_smoke" if smoke else ROOT / "docs"
    work = Path(args.work or (base / "units" if smoke else ROOT / "docs" / "variance_components"))
    out_json = Path(args.json or base / "variance_components.json")
    results = Path(args.results or (base / "RESULTS.md"))
    plot_dir = Path(args.plot_dir or base)
    stem = "variance_components"

    def progress(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    def parse_kv(items, what):
        out = {}
        for it in items:
            if "=" not in it:
                ap.error(f"{what} takes KEY=VALUE, got {it!r}")
            k, v = it.split("=", 1)
            out[k] = v
        return out

    if args.render_only:
        if not out_json.exists():
            ap.error(f"{out_json}: nothing to render")
        result = json.loads(out_json.read_text(encoding="utf-8"))
        result["findings"] = findings(result["rows"])
        if not args.no_plots:
            plot_dir.mkdir(parents=True, exist_ok=True)
            result["meta"]["plots"] = plot(result["rows"], plot_dir, stem)
        write_json(out_json, result)
        update_section(results, "variance_components", render(result))
        return 0

    if args.real_text:
        if not out_json.exists():
            ap.error(f"{out_json}: run the simulation (or --smoke) first; real-text rows are added to its JSON")
        result = json.loads(out_json.read_text(encoding="utf-8"))
        new, overlaps = [], {}
        for labels, x in real_text_scores(Path(args.real_text)):
            rs = labels.pop("runs")
            if len(rs) < 3:
                progress(f"real text {labels}: {len(rs)} data sets, fewer than 3: skipped")
                continue
            key = (labels["pool"], tuple(rs))
            if key not in overlaps:
                overlaps[key] = pool_overlap(Path(args.real_text), labels["pool"], rs)
            for m in (3, 7):
                t0 = time.time()
                row = components_row(x[:, :m], n_resamples, stable_seed("real_text", sorted(labels.items()), m),
                                     source="real_text", **labels)
                row["overlap"] = overlaps[key]
                new.append(row)
                progress(f"real text {labels} m = {m}, R = {row['R']}: ρ1 = {_ci(row, 'rho1')}, "
                         f"ρ2 = {_ci(row, 'rho2')}, c = {_ci(row, 'count_factor', nd=3)} ({time.time() - t0:.1f} s)")
        if not new:
            progress("real text: no pool has 3 data sets yet")
            return 1
        result["rows"] = [r for r in result["rows"] if r.get("source") != "real_text"] + new
        result["meta"]["real_text_command"] = " ".join(["scripts/variance_components.py"] + list(
            argv if argv is not None else sys.argv[1:]))
        result["findings"] = findings(result["rows"])
        write_json(out_json, result)
        update_section(results, "variance_components", render(result))
        return 0

    if args.external or args.stores:
        if not out_json.exists():
            ap.error(f"{out_json}: run the simulation (or --smoke) first; external rows are added to its JSON")
        result = json.loads(out_json.read_text(encoding="utf-8"))
        labels = parse_kv(args.label, "--label")
        if args.external:
            with open(args.external, encoding="utf-8") as f:
                rows_in = [json.loads(line) for line in f if line.strip()]
            x = fold_scores_from_rows(rows_in, value=args.value, where=parse_kv(args.where, "--where"))
            source = f"external:{Path(args.external).name}"
        else:
            if not args.system:
                ap.error("--stores needs --system")
            paths = sorted(glob.glob(args.stores))
            if not paths:
                ap.error(f"--stores: no file matches {args.stores}")
            x = fold_scores_from_stores(paths, args.system, args.minus)
            labels |= {"system": args.system} | ({"minus": args.minus} if args.minus else {})
            source = "fold-stores"
        new = [components_row(x[:, :m], n_resamples, stable_seed(source, sorted(labels.items()), m), source=source,
                              **labels) for m in MS if m <= x.shape[1]]
        if x.shape[1] not in MS and x.shape[1] >= 2:
            new.append(components_row(x, n_resamples, stable_seed(source, sorted(labels.items()), x.shape[1]),
                                      source=source, **labels))

        def keyf(r):
            return r.get("source"), tuple(sorted((k, v) for k, v in r.items() if isinstance(v, str))), r["m"]

        keys = {keyf(r) for r in new}
        result["rows"] = [r for r in result["rows"] if keyf(r) not in keys] + new
        result["findings"] = findings(result["rows"])
        write_json(out_json, result)
        update_section(results, "variance_components", render(result))
        for r in new:
            progress(f"{source} {labels} m = {r['m']}, R = {r['R']}: ρ1 = {_ci(r, 'rho1')}, ρ2 = {_ci(r, 'rho2')}, "
                     f"c = {_ci(r, 'count_factor', nd=3)}")
        return 0

    work.mkdir(parents=True, exist_ok=True)
    key = {"design": "seed003", "p": P, "seed": SEED, "m_max": M_MAX, "classifiers": classifier_params()}
    meta_path = work / "meta.json"
    wmeta = json.loads(meta_path.read_text()) if meta_path.exists() else {"key": key, "train_seconds": 0.0,
                                                                           "invocations": 0}
    if wmeta["key"]["design"] != key["design"] or wmeta["key"]["classifiers"].keys() != key["classifiers"].keys() or \
            any(wmeta["key"][k] != key[k] for k in ("p", "seed", "m_max")):
        ap.error(f"{work} holds units of another design; choose another --work")
    t_start = time.time()
    if not args.summarize_only:
        import sklearn

        wmeta["invocations"] += 1
        wmeta.setdefault("sklearn", sklearn.__version__)
        if wmeta["sklearn"] != sklearn.__version__:
            progress(f"note: units so far were made with scikit-learn {wmeta['sklearn']}, "
                     f"this run uses {sklearn.__version__}")
        write_json(meta_path, wmeta)
        for n in ns:
            check_nesting(n, 0)
        stores = {n: load_units(work / f"n{n:04d}.jsonl") for n in ns}
        todo = sum(1 for n in ns for r in range(reps) if r not in stores[n])
        done_now, t_run = 0, time.time()
        progress(f"{todo} data sets to run ({sum(len(s) for s in stores.values())} already in {work})")
        for b0 in range(0, reps, args.block):
            for n in ns:
                t0, k = time.time(), 0
                for r in range(b0, min(reps, b0 + args.block)):
                    if r in stores[n]:
                        continue
                    u = run_unit(n, r, CLASSIFIERS)
                    append_line(work / f"n{n:04d}.jsonl", json.dumps(u, separators=(",", ":")))
                    stores[n][r] = u
                    k += 1
                if k:
                    done_now += k
                    el = time.time() - t_run
                    wmeta["train_seconds"] += time.time() - t0
                    write_json(meta_path, wmeta)
                    progress(f"n = {n}: data sets {b0}–{min(reps, b0 + args.block) - 1} done "
                             f"({(time.time() - t0) / k:.2f} s each); {done_now}/{todo} this run, {fmt_seconds(el)} "
                             f"elapsed, about {fmt_seconds(el / done_now * (todo - done_now))} to go")
    t_sum = time.time()
    rows = summarize(work, ns, classifiers, n_resamples, progress)
    if not rows:
        progress("nothing to summarize yet")
        return 1
    old = json.loads(out_json.read_text(encoding="utf-8")) if out_json.exists() else {"rows": []}
    rows += [r for r in old.get("rows", []) if r.get("source") != "simulation"]
    plot_dir.mkdir(parents=True, exist_ok=True)
    units = sum(len(load_units(work / f"n{n:04d}.jsonl")) for n in ns)
    result = {
        "meta": {"design": "Yang & Wang (2016) experiment 1: P(Y=1) = 1/2 i.i.d.; X|Y=0 ~ N(0, I30), "
                           "X|Y=1 ~ N(1, 2 I30); F1 of class 1",
                 "ns": list(ns), "ms": list(MS), "reps": reps, "classifiers": key["classifiers"],
                 "splits": "textbcv.split.split_units(n, m=7, seed=r), no balancing; m = 3, 5 = first splits (nested)",
                 "data_seed": f"numpy default_rng([{SEED}, n, r])", "units": units, "smoke": smoke,
                 "sklearn": wmeta.get("sklearn"), "invocations": wmeta["invocations"],
                 "train_seconds": round(wmeta["train_seconds"], 1), "summary_seconds": 0.0,
                 "plots": [], "machine": machine(),
                 "lambda": {"lambda_independent": "mean S^2/(2m) / Var (all 2m folds independent)",
                            "lambda_pairs": "mean var(pair means)/m / Var (the m pairs independent)",
                            "lambda_5x2cv": "mean (1/m) sum_j s_j^2 / (2m) / Var (Dietterich's within-pair s^2)",
                            "lambda_corrected": "mean C_hat_m^2 Var2 / Var (textbcv's sequential t-test)"},
                 "command": " ".join(["scripts/variance_components.py"] + [
                     a for a in (argv if argv is not None else sys.argv[1:]) if a != "--summarize-only"])},
        "rows": rows,
    }
    result["findings"] = findings(rows)
    result["meta"]["plots"] = ([f"{stem}_{c}.png" for c in CLASSIFIERS] if args.no_plots
                               else plot(rows, plot_dir, stem))
    result["meta"]["summary_seconds"] = round(time.time() - t_sum, 1)
    write_json(out_json, result)
    update_section(results, "variance_components", render(result))
    for f in result["findings"]:
        print("- " + f)
    progress(f"wrote {out_json}, {results} and {len(result['meta']['plots'])} plots "
             f"in {fmt_seconds(time.time() - t_start)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
