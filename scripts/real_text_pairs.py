#!/usr/bin/env python3
"""Real-text study of the *difference*: calibration, false decisions and power of ΔF1 answers.

An extension of the real-text study (``scripts/real_text_study.py``: its pools, data sets and truth). The
systems of ``real_text_study.py`` differ by about 18 (CoNLL) and 7 (MSR) F1 points, so they cannot
show whether a test calls small gains or invents them. This study adds, on the same pools and the
same data sets (``real_text_study.draw_data_set``: data set r is the same sentences in both):

* a **null pair**: one averaged-perceptron CRF against itself with another training seed
  (crfsuite's ``ap`` shuffles the training sequences with the seeded C ``rand()``); its true ΔF1 is
  0, so every call is a false decision;
* two **close pairs** per pool whose true ΔF1 is a fraction of a point to about 2 points (chosen
  on a pilot; the measured truths are in the summary): CoNLL base template IOB2 against the same
  template in IOBES, and against it without the case and digit flags; MSR base template BMES
  against BB2B3MES, and against it without character bigrams;
* the study's **default pair** (A against B of ``real_text_study.py``) on its first 100 data sets.

Per data set r (pieces, each resumable):

``folds``  BCV without balancing, m = 7 (its first 3 splits are the m = 3 design), seed r, by
           document on CoNLL and by sentence on MSR, as the CLI defaults. Every system is trained on
           every training half and tags its test half. Stored per system the fold counts (TP, FP,
           FN); per pair the clusters' cross-product matrix of (TP, FP + FN) of both systems over
           the 14 folds (:func:`textbcv.stats.paired.cluster_cross_products`; clusters are documents
           on CoNLL, sentences on MSR) — what any linearised paired variance needs; per pair the
           one-split tests (paired bootstrap, approximate randomization) on fold (0, 0).
``truth``  (r < ``--truth-reps``) the truth as in ``real_text_study.py``: ``--truth-halvings`` random
           halvings of D by unit (the same halvings as its ``truth`` piece), each half trained on
           and tested on the rest of the pool; per model and system the counts, and per system and
           pair the cluster variance of the truth's own estimate over the test text.
``truth2`` (r < ``--rerun-reps``) the truth again on other halvings: the truth's own noise measured.
``related`` the fold models again (counts checked against ``folds``), and per pair the cross products of related
           clusters — documents (else sentences) that share a rare name, as textbcv finds them
           (:func:`textbcv.corpus.related.related_clusters`) — which textbcv's posterior adds to the clusters'
           own (:func:`textbcv.stats.paired.related_cross_products`); every system's per-cluster fold sums are
           kept under ``--work`` (``POOL/clusters/``, not committed) for other definitions of related clusters.

Finished data sets are lines of ``docs/real_text_study/pairs-POOL.jsonl`` (committed); pieces of
unfinished ones stay under ``--work``. ``--summarize-only`` writes ``docs/real_text_pairs.json``
and the RESULTS.md section ``real-text-pairs``. A run does the data sets ``--start`` … ``--reps`` − 1 of
each pool it is given, so two processes can share one pool on disjoint ranges (e.g. ``--pools conll
--reps 275`` and ``--pools conll --start 275``); a finished data set's line is appended under a lock.
Summarize with the default ``--reps``.

``--check-compare K`` answers each pool's first K committed data sets again through ``textbcv.compare`` (the
study's systems as :class:`textbcv.System` values, its splits, its clusters) and records, per pair and m, whether
every fold's counts and the posterior are the study's (``pairs-check-POOL.jsonl``); the summary states the result.
The study's own training loop shares the pool's features between systems and data sets (hours saved); the check
is what shows its answers are the ones ``textbcv compare`` gives.

Usage: scripts/real_text_pairs.py [--pools conll,msr] [--start R0] [--reps 450] [--until SECONDS]
       scripts/real_text_pairs.py --smoke --out DIR
       scripts/real_text_pairs.py --check-compare 2
       scripts/real_text_pairs.py --summarize-only
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pycrfsuite

sys.path.insert(0, str(Path(__file__).resolve().parent))
import real_text_pairs_summary as summ  # noqa: E402
import real_text_study as rts  # noqa: E402

import textbcv  # noqa: E402
from textbcv.calibration.moments import upper_triangle  # noqa: E402
from textbcv.corpus.related import RELATED_MOST, related_clusters  # noqa: E402
from textbcv.schemes import decode, encode  # noqa: E402
from textbcv.scoring import sentence_counts  # noqa: E402
from textbcv.split import make_splits  # noqa: E402
from textbcv.stats.onesplit import one_split_tests  # noqa: E402
from textbcv.stats.paired import cluster_cross_products, related_cross_products  # noqa: E402
from textbcv.tagging.crf import CRFTagger  # noqa: E402
from textbcv.tagging.features import Template  # noqa: E402

from _results import (  # noqa: E402
    ROOT,
    append_line,
    claim_settings,
    fmt_seconds,
    update_evidence,
    update_section,
    write_json,
)

M_MAX = 7
_NER_AFFIXES = ("prefix1", "prefix2", "prefix3", "suffix1", "suffix2", "suffix3", "suffix4")
BASE = {
    "ner": Template("pair-ner-base", atoms=("w", "shape"), window=(-2, 2), ngrams=(1, 2),
                    token_atoms=("lower", *_NER_AFFIXES, "istitle", "isupper", "isdigit")),
    "cws": Template("pair-cws-base", atoms=("c", "ctype"), window=(-2, 2), ngrams=(1, 2)),
}
VARIANTS = {
    "ner": Template("pair-ner-noflags", atoms=("w", "shape"), window=(-2, 2), ngrams=(1, 2),
                    token_atoms=("lower", *_NER_AFFIXES)),
    "cws": Template("pair-cws-nobigram", atoms=("c", "ctype"), window=(-2, 2), ngrams=(1,)),
}
#: system name -> (scheme, template, training seed or None: the C_RAND_SEED default), per task
SYSTEMS = {
    "ner": {"base": ("iob2", BASE["ner"], None), "seed1": ("iob2", BASE["ner"], 1),
            "iobes": ("iobes", BASE["ner"], None), "noflags": ("iob2", VARIANTS["ner"], None),
            "A": ("iob2", rts.TEMPLATES["ner"]["A"], None), "B": ("iob2", rts.TEMPLATES["ner"]["B"], None)},
    "cws": {"base": ("bmes", BASE["cws"], None), "seed1": ("bmes", BASE["cws"], 1),
            "bb2b3mes": ("bb2b3mes", BASE["cws"], None), "nobigram": ("bmes", VARIANTS["cws"], None),
            "A": ("bmes", rts.TEMPLATES["cws"]["A"], None), "B": ("bmes", rts.TEMPLATES["cws"]["B"], None)},
}
#: pair name -> (system A, system B), per task
PAIRS = {
    "ner": {"null": ("base", "seed1"), "scheme": ("base", "iobes"), "feature": ("base", "noflags"),
            "default": ("A", "B")},
    "cws": {"null": ("base", "seed1"), "scheme": ("base", "bb2b3mes"), "feature": ("base", "nobigram"),
            "default": ("A", "B")},
}
PAIR_TEXT = {
    "ner": {"null": "ap CRF against itself, training seed 0 vs 1", "scheme": "IOB2 vs IOBES (base template)",
            "feature": "base template vs without case and digit flags", "default": "the study's A vs B"},
    "cws": {"null": "ap CRF against itself, training seed 0 vs 1", "scheme": "BMES vs BB2B3MES (base template)",
            "feature": "base template vs without character bigrams", "default": "the study's A vs B"},
}
SMOKE_LIMIT = {"conll": 1200, "msr": 300}  # --smoke: the pools' first sentences
SMOKE_N = {"conll": 240, "msr": 60}  # --smoke: sentences per data set
DEFAULT_REPS = 100  # the default pair runs on the first 100 data sets (those of real_text_study.py)


def systems_for(task: str, r: int, truth: bool = False) -> list[str]:
    """Systems trained on data set r (the default pair's only on the first 100; no truth for the null copy)."""
    names = [s for s in SYSTEMS[task] if r < DEFAULT_REPS or s not in ("A", "B")]
    return [s for s in names if not (truth and s == "seed1")]


def pairs_for(task: str, systems: list[str]) -> dict[str, tuple[str, str]]:
    return {p: ab for p, ab in PAIRS[task].items() if ab[0] in systems and ab[1] in systems}


class PairPool(rts.Pool):
    """A study pool with the pair systems' features and tags."""

    def __init__(self, name: str, limit: int | None, max_iterations: int):
        super().__init__(name, limit, max_iterations)
        from textbcv.tagging.features import extract

        self.task = self.spec["task"]
        self.feats: dict[str, list] = {}
        self.tags_by: dict[str, list] = {}
        for scheme, tpl, _ in SYSTEMS[self.task].values():
            if tpl.name not in self.feats:
                self.feats[tpl.name] = extract(self.sents, tpl)
            if scheme not in self.tags_by:
                self.tags_by[scheme] = [encode(g, len(s), scheme) for g, s in zip(self.gold, self.sents)]
        self.cluster = np.arange(len(self.sents), dtype=np.int64)
        if self.docs is not None:
            for d, members in enumerate(self.docs):
                self.cluster[np.asarray(members, dtype=np.int64)] = d
        # crfsuite's own form of each sentence's features, made on first use and kept: a truth model tags most of
        # the pool, and converting the feature lists took half of its tagging time (the tags are the same)
        self.items: dict[str, list] = {name: [None] * len(self.sents) for name in self.feats}
        # the pool's millions of feature strings never die: out of the collector's sight, its full passes
        # (about 0.8 s each) no longer walk them
        gc.freeze()

    def _items(self, template: str, idx: np.ndarray) -> list:
        items, feats = self.items[template], self.feats[template]
        for i in idx.tolist():
            if items[i] is None:
                items[i] = pycrfsuite.ItemSequence(feats[i])
        return [items[i] for i in idx.tolist()]

    def train_test_system(self, system: str, train: np.ndarray, test: np.ndarray) -> np.ndarray:
        scheme, tpl, seed = SYSTEMS[self.task][system]
        feats, tags = self.feats[tpl.name], self.tags_by[scheme]
        crf = CRFTagger(tpl, "ap", self.params, seed=seed)
        crf.fit_features([feats[i] for i in train], [tags[i] for i in train])
        pred = crf.predict_features(self._items(tpl.name, np.asarray(test)))
        return sentence_counts([self.gold[i] for i in test], [decode(p, scheme) for p in pred])


_PP: PairPool | None = None


def _task(args: tuple) -> tuple:
    key, system, train, test = args
    assert _PP is not None
    return key, system, _PP.train_test_system(system, train, test)


def _f1_vec(c: np.ndarray) -> np.ndarray:
    """(TP, FP + FN) columns of (n, 3) counts: all a linearised F1 needs."""
    return np.stack([c[:, 0], c[:, 1] + c[:, 2]], axis=1)


def _train_folds(pool: PairPool, r: int, D: np.ndarray, unit: str, jobs: int) -> tuple:
    """Data set r's m = 7 BCV folds (pool indices), its split digest, and every system's per-sentence counts on
    every fold's test half, {(fold, system): (n_test, 3)}."""
    sub = pool.corpus.subset(D.tolist())
    s7 = make_splits(sub, m=M_MAX, method="bcv", balance=(), group_by=unit, seed=r, **rts.SPLIT_KW)
    folds = [(D[np.asarray(tr)], D[np.asarray(te)]) for _j, _k, tr, te in s7.folds()]
    systems = systems_for(pool.task, r)
    tasks = [(f, s, tr, te) for f, (tr, te) in enumerate(folds) for s in systems]
    res = rts.run_tasks(tasks, jobs, fn=_task)
    return folds, rts.digest(np.concatenate([np.asarray(t) for t, _ in s7.splits])), systems, res


def piece_folds(pool: PairPool, r: int, D: np.ndarray, unit: str, jobs: int) -> dict:
    folds, split_digest, systems, res = _train_folds(pool, r, D, unit, jobs)
    out: dict = {"systems": systems,
                 "counts": {s: [[int(x) for x in res[(f, s)].sum(axis=0)] for f in range(len(folds))]
                            for s in systems},
                 "unit": unit, "clusters_are": "documents" if pool.docs is not None else "sentences",
                 "xprod": {}, "onesplit": {}}
    clusters = [pool.cluster[te] for _tr, te in folds]
    out["fold_clusters"] = [int(len(np.unique(c))) for c in clusters]
    for p, (a, b) in pairs_for(pool.task, systems).items():
        S, k = cluster_cross_products(
            [np.hstack([_f1_vec(res[(f, a)]), _f1_vec(res[(f, b)])]) for f in range(len(folds))], clusters)
        out["xprod"][p] = upper_triangle(S)
        out["clusters"] = k
        t = one_split_tests(res[(0, a)], res[(0, b)], seed=r)
        out["onesplit"][p] = {"delta": t.delta, "p_bootstrap": t.bootstrap.p_value,
                              "p_randomization": t.randomization.p_value}
    out["digest"] = split_digest
    return out


def _related_piece(pool: PairPool, D: np.ndarray, systems: list[str], per_cluster: dict[str, np.ndarray],
                   ids: np.ndarray) -> dict:
    """The ``related`` piece from every system's per-cluster fold sums ``per_cluster`` (clusters ``ids`` × folds ×
    (TP, FP, FN)) and the related clusters textbcv finds in data set D."""
    related = related_clusters(pool.corpus.subset(D.tolist()), pool.cluster[D])
    out: dict = {"most": RELATED_MOST, "pairs": int(len(related)),
                 "linked_clusters": int(len(np.unique(related))), "xprod": {}}
    folds = range(per_cluster[systems[0]].shape[1])
    for p, (a, b) in pairs_for(pool.task, systems).items():
        # one pseudo-sentence per cluster and fold: its sums, so the cluster sums are the same
        R = related_cross_products([np.hstack([_f1_vec(per_cluster[a][:, f]), _f1_vec(per_cluster[b][:, f])])
                                    for f in folds], [ids] * len(folds), related)
        out["xprod"][p] = upper_triangle(R)
    return out


def piece_related(pool: PairPool, r: int, D: np.ndarray, unit: str, jobs: int, committed: dict | None,
                  keep: Path | None) -> dict:
    """The fold models again (their counts checked against the ``folds`` piece), with the cross products of related
    clusters (:func:`textbcv.corpus.related.related_clusters`, :func:`textbcv.stats.paired.related_cross_products`)
    per pair: what textbcv's posterior adds for clusters that share a rare name. ``keep``: a file for every system's
    per-cluster fold sums and the clusters' names (not committed), for other definitions of related clusters."""
    folds, split_digest, systems, res = _train_folds(pool, r, D, unit, jobs)
    if committed is not None:
        if committed["digest"] != split_digest or committed["systems"] != systems or any(
                [int(x) for x in res[(f, s)].sum(axis=0)] != committed["counts"][s][f]
                for s in systems for f in range(len(folds))):
            raise SystemExit(f"pairs {pool.name} r={r}: the fold models differ from the committed folds piece "
                             "(other settings or code)")
    clusters = [pool.cluster[te] for _tr, te in folds]
    ids = np.unique(np.concatenate(clusters))
    per_cluster = {}
    for s in systems:
        X = np.zeros((len(ids), len(folds), 3), dtype=np.int64)
        for f, g in enumerate(clusters):
            pos = np.searchsorted(ids, g)
            for j in range(3):
                X[:, f, j] = np.bincount(pos, weights=res[(f, s)][:, j], minlength=len(ids))
        per_cluster[s] = X
    if keep is not None:
        keep.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(keep, ids=ids, D=D, **{f"X_{s}": X for s, X in per_cluster.items()})
    return _related_piece(pool, D, systems, per_cluster, ids)


def recompute_related(pool: PairPool, path: Path, work: Path, log) -> int:
    """Rewrite the ``related`` pieces of ``path`` (a pool's committed units) whose rule is not textbcv's present one
    (:data:`textbcv.corpus.related.RELATED_MOST`), from the per-cluster fold sums a run kept under ``work`` (checked
    against the committed fold counts): no training. The file is locked meanwhile (a running study appends to it).
    Returns the number of pieces rewritten; stops on a piece whose kept sums are missing."""
    import fcntl

    with open(path, "r+", encoding="utf-8") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            lines = [json.loads(x) for x in f.read().splitlines() if x.strip()]
            folds_of = {x["r"]: x["pieces"]["folds"] for x in lines if "folds" in x["pieces"]}
            done = 0
            for x in lines:
                rel = x["pieces"].get("related")
                if rel is None or rel["most"] == RELATED_MOST:
                    continue
                kept = work / pool.name / "clusters" / f"r{x['r']:04d}.npz"
                if not kept.exists():
                    raise SystemExit(f"{kept} not found: the related piece of {pool.name} r={x['r']} needs its fold "
                                     "models trained again (run the study without --recompute-related)")
                z = np.load(kept)
                fo = folds_of[x["r"]]
                per_cluster = {s: z[f"X_{s}"] for s in fo["systems"]}
                if any(per_cluster[s].sum(axis=0).tolist() != fo["counts"][s] for s in fo["systems"]):
                    raise SystemExit(f"{kept}: its sums differ from the committed fold counts of r={x['r']}")
                D = z["D"]
                if rts.digest(D) != x["digest"]:
                    raise SystemExit(f"{kept}: another data set than the committed r={x['r']}")
                x["pieces"]["related"] = {**_related_piece(pool, D, fo["systems"], per_cluster, z["ids"]),
                                          "seconds": rel.get("seconds")}
                done += 1
            f.seek(0)
            f.write("".join(json.dumps(x, sort_keys=True, separators=(",", ":")) + "\n" for x in lines))
            f.truncate()
            f.flush()
            os.fsync(f.fileno())
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)
    log(f"pairs {pool.name}: {done} related pieces rewritten under the present rule (most = {RELATED_MOST})")
    return done


def _lin_f1(c: np.ndarray, groups: np.ndarray, k: int) -> np.ndarray:
    """Per-cluster linearised F1 (a − F·b)/Σb of one model's per-sentence counts (a = 2TP, b = 2TP + FP + FN)."""
    a = 2.0 * c[:, 0]
    b = 2.0 * c[:, 0] + c[:, 1] + c[:, 2]
    sb = b.sum()
    if sb <= 0:
        return np.zeros(k)
    return np.bincount(groups, weights=(a - a.sum() / sb * b) / sb, minlength=k)


def cluster_var(z: np.ndarray) -> float:
    """k/(k − 1)·Σ z_g² of k per-cluster linearised values z (0 with one cluster): their sum's cluster variance."""
    k = len(z)
    return float(k / (k - 1) * np.sum(z * z)) if k > 1 else 0.0


def piece_truth(pool: PairPool, r: int, D: np.ndarray, unit: str, halvings: int, jobs: int, rerun: int) -> dict:
    inD = np.zeros(len(pool.sents), dtype=bool)
    inD[D] = True
    rest = np.flatnonzero(~inD)
    rng = np.random.default_rng([2026, r, (1 if unit == "document" else 2) + 10 * rerun])
    systems = systems_for(pool.task, r, truth=True)
    tasks, keys = [], []
    for h in range(halvings):
        mask = rts.unit_halving(rng, D, pool, unit)
        for d, half in enumerate((D[mask], D[~mask])):
            keys.append((h, d))
            tasks += [((h, d), s, half, rest) for s in systems]
    res = rts.run_tasks(tasks, jobs, fn=_task)
    groups = np.unique(pool.cluster[rest], return_inverse=True)[1].ravel()
    k = int(groups.max()) + 1
    lin = {s: np.mean([_lin_f1(res[(key, s)], groups, k) for key in keys], axis=0) for s in systems}

    test_var = {s: cluster_var(lin[s]) for s in systems}
    test_var.update({p: cluster_var(lin[b] - lin[a]) for p, (a, b) in pairs_for(pool.task, systems).items()})
    return {"systems": systems, "counts": {s: [[int(x) for x in res[(key, s)].sum(axis=0)] for key in keys]
                                           for s in systems},
            "test_var": test_var, "test_clusters": k, "test_sentences": int(len(rest))}


def run_dataset(pool: PairPool, r: int, n: int, args, work: Path, log, have: dict | None) -> dict | None:
    D = pool.draw(r, n)
    unit = pool.spec["units"][0]
    head = {"pool": pool.name, "r": r, "n_sentences": int(len(D)), "digest": rts.digest(D)}
    if have is not None and have["digest"] != head["digest"]:
        raise SystemExit(f"pairs data set {pool.name} r={r} differs from the committed one (pool or n changed)")
    want = (["folds"] + (["truth"] if r < args.truth_reps else []) + (["truth2"] if r < args.rerun_reps else [])
            + ["related"])
    todo = [p for p in want if p not in (have or {}).get("pieces", {})]
    if not todo:
        return None
    wfile = work / pool.name / f"r{r:04d}.jsonl"
    wfile.parent.mkdir(parents=True, exist_ok=True)
    done: dict[str, dict] = {}
    if wfile.exists():
        for line in wfile.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:  # a torn last line of a killed run: that piece is run again
                continue
            done[rec["piece"]] = rec["result"]
    if "head" in done and done["head"] != head:
        raise SystemExit(f"{wfile}: data set {r} differs from the saved one; use another --work")

    def save(piece: str, result: dict) -> None:
        with open(wfile, "a", encoding="utf-8") as f:
            f.write(json.dumps({"piece": piece, "result": result}, separators=(",", ":")) + "\n")
        done[piece] = result

    if "head" not in done:
        save("head", head)
    for piece in todo:
        if piece in done:
            continue
        t0 = time.time()
        if piece == "folds":
            res = piece_folds(pool, r, D, unit, args.jobs)
        elif piece == "related":
            folds_piece = (have or {}).get("pieces", {}).get("folds", done.get("folds"))
            keep = work / pool.name / "clusters" / f"r{r:04d}.npz"
            res = piece_related(pool, r, D, unit, args.jobs, folds_piece, keep)
        else:
            res = piece_truth(pool, r, D, unit, args.truth_halvings, args.jobs, rerun=int(piece == "truth2"))
        res["seconds"] = round(time.time() - t0, 1)
        save(piece, res)
        log(f"  pairs {pool.name} r={r}: {piece} done in {res['seconds']:.0f} s")
    committed = (have or {}).get("pieces", {})
    return {**head, "pieces": {p: v for p, v in done.items() if p != "head" and p not in committed}}


def study_systems(task: str, names: list[str], max_iterations: int) -> list:
    """The study's systems as :class:`textbcv.System` values, which ``textbcv.compare`` trains as the study does."""
    out = []
    for s in names:
        scheme, tpl, seed = SYSTEMS[task][s]
        out.append(textbcv.System(s, scheme, template=tpl, algorithm="ap", params={"max_iterations": max_iterations},
                                  seed=seed))
    return out


def check_compare(pool: str, corpus, r: int, n: int, rec: dict, jobs: int, max_iterations: int) -> dict:
    """Data set r of ``pool`` (its ``corpus``, :func:`real_text_study.read_pool`) answered again by
    ``textbcv.compare`` (the study's systems, splits and clusters), against the committed unit ``rec``: per pair and
    m (3 and 7), whether every fold's counts are the study's, and compare's ΔF1 estimate, SD and degrees of freedom
    beside the study's posterior from the unit's moments. compare extracts its own features: the pool's are not
    made."""
    spec = rts.POOLS[pool]
    unit = spec["units"][0]
    D = rts.draw_data_set(r, n, corpus.documents if "document" in spec["units"] else None, len(corpus))
    if rts.digest(D) != rec["digest"]:
        raise SystemExit(f"pairs {pool} r={r}: the data set differs from the committed one")
    sub = corpus.subset(D.tolist())
    folds = rec["pieces"]["folds"]
    rows = []
    for m in (3, M_MAX):
        sp = make_splits(sub, m=m, method="bcv", balance=(), group_by=unit, seed=r, **rts.SPLIT_KW)
        res = textbcv.compare(sub, study_systems(spec["task"], folds["systems"], max_iterations),
                              splits=sp, jobs=jobs, progress=False, group_by=unit)
        got = {(f["system"], 2 * f["split"] + f["direction"]): [f["counts"]["overall"][k] for k in ("tp", "fp", "fn")]
               for f in res.folds}
        comparisons = {(c["a"], c["b"]): c for c in res.to_dict()["comparisons"] if c["metric"] == "f1"}
        for p, (a, b) in pairs_for(spec["task"], folds["systems"]).items():
            c = comparisons[(a, b)]["difference"]
            post = summ.textbcv_posterior(rec["pieces"], a, b, p, m)
            rows.append({"pool": pool, "r": r, "pair": p, "m": m,
                         "counts_equal": all(got[(s, f)] == folds["counts"][s][f] for s in (a, b)
                                             for f in range(2 * m)),
                         "estimate": [post.estimate, c["estimate"]], "sd": [post.sd, c["sd"]],
                         "df": [post.df, c.get("df")]})
    return {"pool": pool, "r": r, "rows": rows}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pools", default="conll,msr")
    ap.add_argument("--reps", type=int, default=450, help="data sets per pool (default 450)")
    ap.add_argument("--truth-reps", type=int, default=400, help="data sets with a truth (default 400)")
    ap.add_argument("--rerun-reps", type=int, default=40, help="data sets whose truth is run twice (default 40)")
    ap.add_argument("--start", type=int, default=0, help="first data set of this run (default 0)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--max-iterations", type=int, default=10)
    ap.add_argument("--truth-halvings", type=int, default=4)
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder of real_text_pairs.json and real_text_study/")
    ap.add_argument("--results", default=None, help="RESULTS.md to update (default OUT/RESULTS.md)")
    ap.add_argument("--work", default=str(ROOT / "docs" / "real_text_study" / "work-pairs"))
    ap.add_argument("--until", type=float, default=None, help="stop starting new data sets after this many seconds")
    ap.add_argument("--summarize-only", action="store_true")
    ap.add_argument("--recompute-related", action="store_true",
                    help="rewrite the committed related pieces of another rule from the sums kept under --work")
    ap.add_argument("--check-compare", type=int, default=0, metavar="K",
                    help="answer the first K committed data sets of each pool again with textbcv.compare and record "
                         "whether its answers are the study's (pairs-check-POOL.jsonl), then summarize")
    ap.add_argument("--smoke", action="store_true", help="tiny pools, two data sets each (under a minute)")
    args = ap.parse_args(argv)
    pools = [p for p in args.pools.split(",") if p]
    if not pools or any(p not in rts.POOLS for p in pools):
        ap.error(f"--pools: choose from {', '.join(rts.POOLS)}")
    limit = None
    n = {p: rts.POOLS[p]["n"] for p in rts.POOLS}
    if args.smoke:
        args.reps, args.truth_reps, args.rerun_reps, args.max_iterations, args.truth_halvings = 2, 2, 1, 2, 1
        limit, n = SMOKE_LIMIT, SMOKE_N
    out = Path(args.out)
    units_dir = out / "real_text_study"
    units_dir.mkdir(parents=True, exist_ok=True)
    work = Path(args.work) if not args.smoke or args.work != ap.get_default("work") else units_dir / "work-pairs"
    settings = {"max_iterations": args.max_iterations, "truth_halvings": args.truth_halvings, "n": n,
                "smoke": args.smoke, "m": M_MAX,
                "systems": {t: {s: [sc, tp.to_dict(), sd] for s, (sc, tp, sd) in v.items()}
                            for t, v in SYSTEMS.items()},
                "pairs": PAIRS}
    settings_path = units_dir / "pairs-settings.json"
    if not claim_settings(settings_path, settings):
        ap.error(f"{settings_path} holds a pairs study with other settings; choose another --out")

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    global _PP
    t_start = time.time()
    if args.recompute_related:
        for p in pools:
            recompute_related(PairPool(p, limit and limit[p], args.max_iterations), units_dir / f"pairs-{p}.jsonl",
                              work, log)
        return 0
    if args.check_compare:
        for p in pools:
            path = units_dir / f"pairs-check-{p}.jsonl"
            merged = rts.merge_lines(rts.load_lines(units_dir / f"pairs-{p}.jsonl"))
            have = {x["r"] for x in rts.load_lines(path)}
            todo = [r for r in range(args.check_compare) if r in merged and r not in have]
            corpus = rts.read_pool(p, limit and limit[p]) if todo else None
            for r in todo:
                t1 = time.time()
                unit = check_compare(p, corpus, r, n[p], merged[r], args.jobs, args.max_iterations)
                append_line(path, json.dumps(unit, sort_keys=True, separators=(",", ":")))
                log(f"pairs {p}: data set r={r} answered by textbcv.compare in {fmt_seconds(time.time() - t1)}")
    elif not args.summarize_only:
        for p in pools:
            path = units_dir / f"pairs-{p}.jsonl"
            merged = rts.merge_lines(rts.load_lines(path))
            todo = list(range(args.start, args.reps))
            t0 = time.time()
            _PP = PairPool(p, limit and limit[p], args.max_iterations)
            log(f"pairs {p}: pool of {len(_PP.sents):,} sentences loaded in {time.time() - t0:.0f} s; "
                f"{len(merged)} data sets committed")
            for i, r in enumerate(todo):
                if args.until is not None and time.time() - t_start > args.until:
                    log(f"--until reached: stopping before pairs {p} r={r}")
                    break
                t1 = time.time()
                rec = run_dataset(_PP, r, n[p], args, work, log, merged.get(r))
                if rec is not None:  # (locked: a second process may run other data sets of the pool)
                    append_line(path, json.dumps(rec, sort_keys=True, separators=(",", ":")))
                    log(f"pairs {p}: data set r={r} finished in {fmt_seconds(time.time() - t1)} "
                        f"({i + 1}/{len(todo)} of this run)")
                (work / p / f"r{r:04d}.jsonl").unlink(missing_ok=True)
            _PP = None
    if not args.summarize_only and not args.smoke and set(pools) != set(rts.POOLS):
        # one process per pool runs the study: a summary of one pool would replace the summary of both
        log(f"summary not written (this run covered {', '.join(pools)}): run --summarize-only when both are done")
        return 0
    rows = {p: [x for r, x in sorted(rts.merge_lines(rts.load_lines(units_dir / f"pairs-{p}.jsonl")).items())
                if r < args.reps] for p in pools}
    result = summ.summarize(rows, settings, PAIRS, PAIR_TEXT)
    result["compare_check"] = summ.compare_check([x for p in pools
                                                  for x in rts.load_lines(units_dir / f"pairs-check-{p}.jsonl")])
    given = list(argv if argv is not None else sys.argv[1:])
    if "--check-compare" in given:  # the check is not a part of the study's command
        del given[given.index("--check-compare"): given.index("--check-compare") + 2]
    result["meta"]["command"] = "scripts/real_text_pairs.py " + " ".join(
        a for a in given if a != "--summarize-only" and not a.startswith("--check-compare="))
    write_json(out / "real_text_pairs.json", result)
    if result["power"]:
        summ.power_plot(result, out / "real_text_pairs_power.png")
    if not args.smoke and set(pools) == set(rts.POOLS) and out.resolve() == (ROOT / "docs").resolve():
        # only a summary of every pool speaks for them in the package's evidence
        update_evidence("real_text_pairs_null", summ.null_evidence(result), summ.NULL_ABOUT)
    results_md = Path(args.results) if args.results else out / "RESULTS.md"
    update_section(results_md, "real-text-pairs", summ.render(result))
    log(f"summary written: {out / 'real_text_pairs.json'} "
        f"({', '.join(f'{p}: {len(v)}' for p, v in rows.items())} data sets)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
