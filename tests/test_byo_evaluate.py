"""textbcv evaluate: imported predictions scored exactly (independent counts and P(B better)), and every refusal.

The taggers here are written outside textbcv: they read the exported files
by hand and write prediction files as a user's script would. Their fold
counts are recomputed independently (seqeval, and conlleval's chunk rules
written out below) and P(B better) by scipy's numerical integration of the
two F1 posteriors.
"""

from __future__ import annotations

import json
import math
import random
import shutil
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest
from conftest import shared_path
from scipy import integrate
from scipy.stats import beta
from scipy.stats import t as t_dist
from seqeval.metrics.sequence_labeling import get_entities

from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora
from textbcv.corpus.related import RELATED_MOST
from textbcv.stats.compare import bayes_answer

# ---------------------------------------------------------------- a tagger written outside textbcv


def read_blocks(path: Path) -> list[list[list[str]]]:
    """Sentences of an exported CoNLL file as rows of fields (document marks skipped)."""
    out, cur = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        f = line.split()
        if not f:
            if cur:
                out.append(cur)
            cur = []
        elif f[0] != "-DOCSTART-":
            cur.append(f)
    if cur:
        out.append(cur)
    return out


def iob1_to_iob2(tags: list[str]) -> list[str]:
    out, prev = [], "O"
    for t in tags:
        if t.startswith("I-") and (prev == "O" or prev[2:] != t[2:]):
            t = "B-" + t[2:]
        out.append(t)
        prev = t
    return out


def lexicon(train: list[list[list[str]]], key, convert) -> dict:
    counts: dict = defaultdict(Counter)
    for s in train:
        for row, tag in zip(s, convert([r[-1] for r in s])):
            counts[key(row[0])][tag] += 1
    return {w: c.most_common(1)[0][0] for w, c in counts.items()}


def write_predictions(folds: Path, preds: Path, m: int) -> None:
    """System A: exact-token lexicon in IOB2, conlleval's 3 columns with the document marks of test.conll.
    System B: lower-cased lexicon in the corpus's IOB1, 2 columns, no marks."""
    for name in ("A", "B"):
        (preds / name).mkdir(parents=True, exist_ok=True)
    for i in range(m):
        for d in (0, 1):
            fold = folds / f"fold-{i}-{d}"
            train = read_blocks(fold / "train.conll")
            lex_a = lexicon(train, lambda w: w, iob1_to_iob2)
            lex_b = lexicon(train, str.lower, lambda t: t)
            with open(preds / "A" / f"fold-{i}-{d}.txt", "w") as fa, open(preds / "B" / f"fold-{i}-{d}.txt", "w") as fb:
                for line in (fold / "test.conll").read_text().splitlines():
                    f = line.split()
                    if not f:
                        fa.write("\n")
                    elif f[0] == "-DOCSTART-":
                        fa.write(line + "\n")
                    else:
                        fa.write(f"{f[0]} {f[-1]} {lex_a.get(f[0], 'O')}\n")
                for s in read_blocks(fold / "test.conll"):
                    fb.writelines(f"{r[0]} {lex_b.get(r[0].lower(), 'O')}\n" for r in s)
                    fb.write("\n")


# ---------------------------------------------------------------- independent counts


def conlleval_chunks(tags: list[str]) -> set:
    """Chunks by conlleval.pl's startOfChunk / endOfChunk rules, for B-, I- and O tags."""
    chunks, start, prev, prev_type = set(), None, "O", ""
    for k, tag in enumerate(list(tags) + ["O"]):
        p, typ = (tag, "") if tag == "O" else tag.split("-", 1)
        end = (prev in "BI" and p in "BO") or (prev != "O" and prev_type != typ)
        begin = p == "B" or (prev == "O" and p == "I") or (p != "O" and prev_type != typ)
        if end and start is not None:
            chunks.add((start, k, prev_type))
            start = None
        if begin:
            start = k
        prev, prev_type = p, typ
    return chunks


def seqeval_chunks(tags: list[str]) -> set:
    return {(s, e + 1, t) for t, s, e in get_entities(list(tags))}


def fold_counts(gold_seqs, pred_seqs, chunker) -> dict:
    tp, fp, fn = Counter(), Counter(), Counter()
    for g, p in zip(gold_seqs, pred_seqs, strict=True):
        gc, pc = chunker(g), chunker(p)
        for c in gc & pc:
            tp[c[2]] += 1
        for c in pc - gc:
            fp[c[2]] += 1
        for c in gc - pc:
            fn[c[2]] += 1
    types = sorted(set(tp) | set(fp) | set(fn))
    return {"overall": {"tp": sum(tp.values()), "fp": sum(fp.values()), "fn": sum(fn.values())},
            "types": {t: {"tp": tp[t], "fp": fp[t], "fn": fn[t]} for t in types}}


def read_prediction_tags(path: Path) -> list[list[str]]:
    return [[r[-1] for r in s] for s in read_blocks(path)]


def c_m(m: int) -> float:
    """The thesis's correlation factor (eq. 6.25), as written in the method notes."""
    if m == 1:
        return 1.0
    x = ((m + .5) * math.log(m + .5) + (m / 2 + .5) * math.log(m / 2 + .5) - m * math.log(m)
         - (1 + m / 2) * math.log(1 + m / 2))
    return 4 / (m - 1) * x


def _post_var(tp: float, fp: float, fn: float, metric: str) -> float:
    """Variance of the metric under its count posterior at c = 1 (F1 = 2Y/(1 + Y), Y the Beta variable)."""
    second = {"precision": fp + 1, "recall": fn + 1, "f1": fp + fn + 2}[metric]
    y = beta(tp + 1, second)
    if metric != "f1":
        return float(y.var())
    g = lambda t: 2 * t / (1 + t)  # noqa: E731
    lo, hi = y.ppf(1e-12), y.isf(1e-12)
    m1 = integrate.quad(lambda t: g(t) * y.pdf(t), lo, hi, limit=200)[0]
    m2 = integrate.quad(lambda t: g(t) ** 2 * y.pdf(t), lo, hi, limit=200)[0]
    return m2 - m1 ** 2


def design_effect_here(rows, groups, metric: str) -> float:
    """The design effect of one fold, written out: the linearised cluster variance of the ratio
    metric over the count posterior's variance (the definition in docs/method.md)."""
    rows = np.asarray(rows, dtype=float)
    tp, fp, fn = rows[:, 0], rows[:, 1], rows[:, 2]
    a, b = {"precision": (tp, tp + fp), "recall": (tp, tp + fn), "f1": (2 * tp, 2 * tp + fp + fn)}[metric]
    r = a.sum() / b.sum()
    totals = {}
    for g, x in zip(groups, a - r * b):
        totals[g] = totals.get(g, 0.0) + x
    z = np.array(list(totals.values()))
    k = len(z)
    v = k / (k - 1) * np.sum(z ** 2) / b.sum() ** 2
    return v / _post_var(*rows.sum(axis=0), metric)


def p_b_better(ca: dict, cb: dict, m: int, metric: str, deff: tuple[float, float] = (1.0, 1.0)) -> float:
    """P(metric_B > metric_A) by numerical integration of ∫ f_B(y) F_A(y) dy over independent Beta posteriors.

    Precision ~ Beta(TP_e + 1, FP_e + 1), recall ~ Beta(TP_e + 1, FN_e + 1); for F1, f1/(2 − f1) ~
    Beta(TP_e + 1, FP_e + FN_e + 2), a monotone map, so P(F1_B > F1_A) = P(Y_B > Y_A). The counts are
    scaled by the default variant's factor, clustered: the counts of one average fold, 1/(2m), divided
    by each system's design effect ``deff`` (A, B).
    """

    def post(x, d):
        c = 1 / (2 * m) / max(1.0, d)
        tp, fp, fn = (c * x[k] for k in ("tp", "fp", "fn"))
        second = {"precision": fp + 1, "recall": fn + 1, "f1": fp + fn + 2}[metric]
        return beta(tp + 1, second)

    a, b = post(ca, deff[0]), post(cb, deff[1])
    lo = min(a.ppf(1e-13), b.ppf(1e-13))
    hi = max(a.isf(1e-13), b.isf(1e-13))
    val, err = integrate.quad(lambda y: b.pdf(y) * a.cdf(y), lo, hi, limit=500, epsabs=1e-11, epsrel=1e-10,
                              points=[a.mean(), b.mean()])
    return val


def related_here(sentences: list[list[list[str]]], cluster_of: list) -> list[tuple]:
    """Pairs of clusters sharing a rare name, written out: every gold chunk's type and words (seqeval's decoding of
    the IOB tags), the clusters each such name occurs in, and the pairs of those that hold a name found in 2 to
    RELATED_MOST clusters."""
    holders: dict = defaultdict(set)
    for rows, g in zip(sentences, cluster_of):
        words, tags = [r[0] for r in rows], [r[-1] for r in rows]
        for kind, start, end in get_entities(tags):
            holders[(kind, tuple(words[start:end + 1]))].add(g)
    return sorted({(a, b) for h in holders.values() if 2 <= len(h) <= RELATED_MOST
                   for a in h for b in h if a < b})


def paired_p_here(records: list, halves: list, groups_of, m: int, metric: str, related: list | None = None) -> float:
    """P(metric_B > metric_A) of the paired posterior, written out from the per-sentence counts (no cross-product
    matrix): per-cluster linearised differences per fold and pooled, the fold covariance, related clusters'
    covariance (``related``: pairs of cluster ids) in both, the model noise from the pooled mean square of the splits'
    half-differences and means beyond their test noise, a Student t with 2m − 1 degrees of freedom."""
    related = related or []
    def parts(c):
        c = np.asarray(c, dtype=float)
        tp, fp, fn = c[..., 0], c[..., 1], c[..., 2]
        return {"precision": (tp, tp + fp), "recall": (tp, tp + fn), "f1": (2 * tp, 2 * tp + fp + fn)}[metric]

    def value(c):
        num, den = parts(np.sum(c, axis=0))
        return num / den

    def lin(c, at):
        num, den = parts(c)
        n0, d0 = parts(np.sum(at, axis=0))
        return (num - n0 / d0 * den) / d0

    rec = {(r["system"], r["split"], r["direction"]): np.asarray(r["sentence_counts"]) for r in records}
    folds = [(j, k) for j in range(m) for k in (0, 1)]
    A, B = [rec[("A",) + f] for f in folds], [rec[("B",) + f] for f in folds]
    G = [np.asarray([groups_of(i) for i in halves[f]]) for f in range(2 * m)]
    d = np.array([value(B[f]) - value(A[f]) for f in range(2 * m)])

    def cluster_sums(z, g):
        out: dict = {}
        for zi, gi in zip(z, g):
            out[gi] = out.get(gi, 0.0) + zi
        return out

    Z = [cluster_sums(lin(B[f], B[f]) - lin(A[f], A[f]), G[f]) for f in range(2 * m)]
    kf = [len(z) for z in Z]
    def cross(x: dict, y: dict) -> float:  # Σ_g x_g y_g plus, for related g and h, x_g y_h + x_h y_g
        return (sum(v * y.get(g, 0.0) for g, v in x.items())
                + sum(x.get(g, 0.0) * y.get(h, 0.0) + x.get(h, 0.0) * y.get(g, 0.0) for g, h in related))

    C = np.array([[np.sqrt(kf[f] / (kf[f] - 1) * kf[h] / (kf[h] - 1)) * cross(Z[f], Z[h]) for h in range(2 * m)]
                  for f in range(2 * m)])
    pa, pb = np.vstack(A), np.vstack(B)
    pooled = cluster_sums(lin(pb, pb) - lin(pa, pa), np.concatenate(G))
    k = len(pooled)
    own = k / (k - 1) * sum(v * v for v in pooled.values())
    var_test = own + max(0.0, k / (k - 1) * cross(pooled, pooled) - own)  # related covariance floored at 0
    half = (d[0::2] - d[1::2]) / 2
    half_test = np.array([(C[2 * j, 2 * j] + C[2 * j + 1, 2 * j + 1] - 2 * C[2 * j, 2 * j + 1]) / 4 for j in range(m)])
    means = (d[0::2] + d[1::2]) / 2
    Cm = np.array([[(C[2 * i:2 * i + 2, 2 * j:2 * j + 2]).sum() / 4 for j in range(m)] for i in range(m)])
    between_test = (np.trace(Cm) - Cm.sum() / m) / (m - 1)
    # m half-differences and m − 1 df of split means, each M/2 beyond its test noise
    spread = float(np.sum(half ** 2 - half_test)) + (m - 1) * (float(np.var(means, ddof=1)) - between_test)
    half_m = spread / (2 * m - 1)
    var = var_test + max(0.0, 2 * half_m) / (2 * m)
    df = 2 * m - 1
    est = value(pb) - value(pa)
    return float(t_dist.cdf(est / np.sqrt(var), df))


# ---------------------------------------------------------------- fixtures


def export(corpus: Path, d: Path, m: int = 3, fmt: str = "conll") -> tuple[Path, Path]:
    args = ["split", str(corpus), "--m", str(m), "--out", str(d / "splits.json"), "--export", str(d / "folds")]
    if fmt != "conll":
        args += ["--format", fmt]
    assert main(args) == 0
    return d / "splits.json", d / "folds"


@pytest.fixture(scope="module")
def ner(tmp_path_factory):
    d = tmp_path_factory.mktemp("byo")
    corpus = d / "ner.conll"
    write_conll(read_corpus(bundled_corpora()["ner"])[:400], corpus)
    splits, folds = export(corpus, d)
    write_predictions(folds, d / "preds", 3)
    return d, corpus, splits, folds


def evaluate(splits, corpus, out, *systems, extra=()):
    args = ["evaluate", str(splits), str(corpus), "--task", "ner", "--quiet", "--no-plots", "--out", str(out)]
    for s in systems:
        args += ["--system", s]
    return main([*args, *extra])


def check_independent(d: Path, splits: Path, corpus: Path, folds: Path, m: int, capsys) -> dict:
    out = d / "run"
    assert evaluate(splits, corpus, out, f"A={d / 'preds' / 'A'}", f"B={d / 'preds' / 'B'}") == 0
    records = [json.loads(line) for line in (out / "folds.jsonl").read_text().splitlines()]
    assert [(r["system"], r["split"], r["direction"]) for r in records] == [
        (s, i, k) for s in ("A", "B") for i in range(m) for k in (0, 1)]
    sums = {}
    for r in records:
        fold = folds / f"fold-{r['split']}-{r['direction']}"
        gold = [[row[-1] for row in s] for s in read_blocks(fold / "test.conll")]
        pred = read_prediction_tags(d / "preds" / r["system"] / f"fold-{r['split']}-{r['direction']}.txt")
        by_conlleval = fold_counts(gold, pred, conlleval_chunks)
        assert r["counts"] == by_conlleval, (r["system"], r["split"], r["direction"])
        assert fold_counts(gold, pred, seqeval_chunks) == by_conlleval
        per_sentence = [(conlleval_chunks(g), conlleval_chunks(p)) for g, p in zip(gold, pred)]
        assert r["sentence_counts"] == [[len(gc & pc), len(pc - gc), len(gc - pc)] for gc, pc in per_sentence]
        assert r["sentences"] == len(gold) and r["tokens"] == sum(map(len, gold))
        tot = sums.setdefault(r["system"], Counter())
        tot.update(r["counts"]["overall"])
    report = json.loads((out / "report.json").read_text())
    assert report["counts"] == {k: dict(v) for k, v in sums.items()}
    # the default (clustered) variant's design effects, written out: documents of the corpus as clusters
    doc_of, d_now, open_sentence = [], -1, False
    for line in Path(corpus).read_text(encoding="utf-8").splitlines() + [""]:
        f = line.split()
        if f and f[0] == "-DOCSTART-":
            d_now += 1
        elif f:
            open_sentence = True
        elif open_sentence:
            doc_of.append(max(d_now, 0))
            open_sentence = False
    manifest = json.loads(Path(splits).read_text())["splits"]
    assert report["design_effect_folds"]["clusters"] == ("documents" if len(set(doc_of)) > 1 else "sentences")
    deff = {}
    for r in records:
        half = manifest[r["split"]]["valid" if r["direction"] == 0 else "train"]
        groups = [doc_of[i] for i in half] if len(set(doc_of)) > 1 else list(range(len(half)))
        for metric in ("precision", "recall", "f1"):
            deff.setdefault((r["system"], metric), []).append(design_effect_here(r["sentence_counts"], groups, metric))
    for (name, metric), v in deff.items():
        assert report["design_effects"][name][metric] == pytest.approx(max(1.0, float(np.mean(v))), rel=1e-3)
    halves = [manifest[j]["valid" if k == 0 else "train"] for j in range(m) for k in (0, 1)]
    groups_of = (lambda i: doc_of[i]) if len(set(doc_of)) > 1 else (lambda i: i)
    sentences = read_blocks(Path(corpus))
    related = related_here(sentences, [groups_of(i) for i in range(len(sentences))])
    fallback = bayes_answer({n: [r["counts"]["overall"] for r in records if r["system"] == n] for n in ("A", "B")},
                            m, variant="clustered", design_effects=report["design_effects"])
    for c in report["comparisons"]:
        # the report's answer is paired (per-sentence counts on the same test sentences)
        assert c["difference"]["basis"] == "paired"
        assert c["p_b_better"] == pytest.approx(paired_p_here(records, halves, groups_of, m, c["metric"], related),
                                                abs=1e-6)
        # without per-sentence counts it would fall back to the independent posteriors, written out here
        dd = tuple(max(1.0, float(np.mean(deff[(x, c["metric"])]))) for x in ("A", "B"))
        fb = fallback.comparison("A", "B", c["metric"])
        assert fb.difference is not None and fb.difference.basis == "independent"
        assert fb.p_b_better == pytest.approx(p_b_better(sums["A"], sums["B"], m, c["metric"], dd), abs=1e-4)
    assert report["one_split"]["available"] and len(report["one_split"]["pairs"][0]["folds"]) == 2 * m
    # the same per-sentence counts brought as a COUNTS.json (docs/formats.md) give the same paired answer
    by = {(r["system"], r["split"], r["direction"]): r for r in records}
    folds_order = [(j, k) for j in range(m) for k in (0, 1)]
    counts_json = {"m": m, "systems": {n: [{**by[(n, j, k)]["counts"]["overall"],
                                            "sentence_counts": by[(n, j, k)]["sentence_counts"]}
                                           for j, k in folds_order] for n in ("A", "B")},
                   "test_sentences": halves}
    if len(set(doc_of)) > 1:
        counts_json["documents"] = [[f"doc{doc_of[i]}" for i in h] for h in halves]
        counts_json["related"] = [[f"doc{a}", f"doc{b}"] for a, b in related]
    else:
        counts_json["related"] = [[a, b] for a, b in related]
    (d / "counts.json").write_text(json.dumps(counts_json))
    capsys.readouterr()
    assert main(["test", str(d / "counts.json"), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    for got, want in zip(answer["comparisons"], report["comparisons"]):
        assert got["difference"]["basis"] == "paired"
        assert got["p_b_better"] == pytest.approx(want["p_b_better"], abs=1e-12)
        assert got["difference"]["ci"] == pytest.approx(want["difference"]["ci"], abs=1e-12)
    del counts_json["test_sentences"]
    counts_json.pop("documents", None)
    counts_json.pop("related", None)
    (d / "counts.json").write_text(json.dumps(counts_json))
    assert main(["test", str(d / "counts.json"), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert {c["difference"]["basis"] for c in answer["comparisons"]} == {"independent"}
    assert any("not paired" in note for note in answer["notes"])
    # the run directory works with the other commands
    capsys.readouterr()
    assert main(["test", str(out / "folds.jsonl"), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["comparisons"] == report["comparisons"] and answer["systems"] == report["systems"]
    assert main(["report", str(out), "--full"]) == 0
    text = capsys.readouterr().out
    assert "Predictions imported with textbcv evaluate" in text and str(d / "preds" / "A") in text
    return report


def test_independent_counts_and_p_better(ner, capsys):
    d, corpus, splits, folds = ner
    report = check_independent(d, splits, corpus, folds, 3, capsys)
    sch = report["meta"]["imported"]["systems"]
    assert (sch["A"]["scheme"], sch["B"]["scheme"]) == ("iob2", "iob1")
    assert report["meta"]["corpus"]["sentences"] == 400


@pytest.mark.shared
def test_independent_check_on_eng_testa(tmp_path, capsys):
    """A held-out corpus the taggers were not developed on: CoNLL-2003's eng.testa, m = 3."""
    corpus = shared_path("conll2003_en", "eng.testa")
    splits, folds = export(corpus, tmp_path)
    write_predictions(folds, tmp_path / "preds", 3)
    report = check_independent(tmp_path, splits, corpus, folds, 3, capsys)
    assert report["meta"]["corpus"]["sentences"] == 3250 and report["meta"]["corpus"]["gold_chunks"] == 5942


def test_same_gold_whatever_the_predicted_scheme(ner, tmp_path):
    """IOBES predictions of the same chunks score exactly as their IOB2 form."""
    from textbcv.schemes import convert

    d, corpus, splits, folds = ner
    for name in ("A", "E"):
        (tmp_path / name).mkdir()
    for src in (d / "preds" / "A").iterdir():
        lines_a, lines_e = [], []
        for s in read_blocks(src):
            tags = [r[-1] for r in s]
            lines_a += [f"{r[0]} {t}\n" for r, t in zip(s, tags)] + ["\n"]
            lines_e += [f"{r[0]} {t}\n" for r, t in zip(s, convert(tags, "iob2", "iobes"))] + ["\n"]
        (tmp_path / "A" / src.name).write_text("".join(lines_a))
        (tmp_path / "E" / src.name).write_text("".join(lines_e))
    assert evaluate(splits, corpus, tmp_path / "run", f"A={tmp_path / 'A'}", f"E={tmp_path / 'E'}") == 0
    rec = [json.loads(line) for line in (tmp_path / "run" / "folds.jsonl").read_text().splitlines()]
    assert [r["counts"] for r in rec if r["system"] == "A"] == [r["counts"] for r in rec if r["system"] == "E"]
    meta = json.loads((tmp_path / "run" / "report.json").read_text())["meta"]
    assert meta["imported"]["systems"]["E"]["scheme"] == "iobes"


def test_chunk_type_filters(ner, tmp_path):
    d, corpus, splits, folds = ner
    a, b = f"A={d / 'preds' / 'A'}", f"B={d / 'preds' / 'B'}"
    assert evaluate(splits, corpus, tmp_path / "org", a, b, extra=["--chunk-types", "ORG"]) == 0
    full = [json.loads(x) for x in (d / "run" / "folds.jsonl").read_text().splitlines()]
    org = [json.loads(x) for x in (tmp_path / "org" / "folds.jsonl").read_text().splitlines()]
    for f, o in zip(full, org):
        assert o["counts"]["overall"] == f["counts"]["types"]["ORG"]


# ---------------------------------------------------------------- refusals: one line, exit 2, nothing written


def refused(capsys, out: Path, code: int, where: str, what: str) -> None:
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith(f"textbcv: error: {where}") and what in err, err
    assert not out.exists()


@pytest.fixture
def preds(ner, tmp_path):
    """A copy of system B's predictions to damage."""
    d = ner[0]
    shutil.copytree(d / "preds" / "B", tmp_path / "B")
    return tmp_path / "B"


def _run(ner, tmp_path, bad: Path, extra=()):
    d, corpus, splits, _ = ner
    return evaluate(splits, corpus, tmp_path / "run", f"A={d / 'preds' / 'A'}", f"bad={bad}", extra=extra)


def test_shuffled_prediction_file(ner, preds, tmp_path, capsys):
    f = preds / "fold-1-0.txt"
    blocks = f.read_text().strip("\n").split("\n\n")
    random.Random(0).shuffle(blocks)
    f.write_text("\n\n".join(blocks) + "\n")
    refused(capsys, tmp_path / "run", _run(ner, tmp_path, preds), f"{f}:", "but test sentence")


def test_prediction_files_of_swapped_folds(ner, preds, tmp_path, capsys):
    """A fold's file holding another fold's predictions is refused, and the error says which fold it looks like."""
    a, b = preds / "fold-1-0.txt", preds / "fold-1-1.txt"
    ta, tb = a.read_text(), b.read_text()
    a.write_text(tb)
    b.write_text(ta)
    refused(capsys, tmp_path / "run", _run(ner, tmp_path, preds), f"{a}:",
            "this file looks like the predictions of fold-1-1 (its sentences are that fold's test half)")


def test_truncated_prediction_file(ner, preds, tmp_path, capsys):
    f = preds / "fold-2-1.txt"
    lines = f.read_text().splitlines()
    f.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    refused(capsys, tmp_path / "run", _run(ner, tmp_path, preds), f"{f}:", "ends after")


def test_prediction_file_missing_its_last_sentence(ner, preds, tmp_path, capsys):
    f = preds / "fold-0-1.txt"
    blocks = f.read_text().strip("\n").split("\n\n")
    f.write_text("\n\n".join(blocks[:-1]) + "\n\n")
    refused(capsys, tmp_path / "run", _run(ner, tmp_path, preds), f"{f}:",
            f"the file ends after {len(blocks) - 1} of the {len(blocks)} sentences of the test half")


def test_extra_sentence(ner, preds, tmp_path, capsys):
    f = preds / "fold-0-0.txt"
    f.write_text(f.read_text() + "Extra O\n\n")
    n = f.read_text().count("\n")
    refused(capsys, tmp_path / "run", _run(ner, tmp_path, preds), f"{f}:{n - 1}:", "extra sentence")


def test_retokenized_prediction_file(ner, preds, tmp_path, capsys):
    f = preds / "fold-1-1.txt"
    lines = f.read_text().splitlines()
    k = next(i for i, line in enumerate(lines) if line and len(line.split()[0]) > 3)
    tok, tag = lines[k].split()
    lines[k:k + 1] = [f"{tok[:2]} {tag}", f"{tok[2:]} {tag}"]
    f.write_text("\n".join(lines) + "\n")
    refused(capsys, tmp_path / "run", _run(ner, tmp_path, preds), f"{f}:{k + 1}:",
            f"token {tok[:2]!r}, but test sentence")


def test_missing_fold_file(ner, preds, tmp_path, capsys):
    (preds / "fold-2-0.txt").unlink()
    refused(capsys, tmp_path / "run", _run(ner, tmp_path, preds), f"{preds / 'fold-2-0.txt'}:",
            "prediction file missing")


def test_missing_prediction_directory(ner, tmp_path, capsys):
    refused(capsys, tmp_path / "run", _run(ner, tmp_path, tmp_path / "nowhere"), f"{tmp_path / 'nowhere'}:",
            "--system bad: no such directory")


def test_tag_of_another_type(ner, preds, tmp_path, capsys):
    f = preds / "fold-0-0.txt"
    lines = f.read_text().splitlines()
    k = next(i for i, line in enumerate(lines) if line.endswith("-PER"))
    lines[k] = lines[k].replace("-PER", "-PERSON")
    f.write_text("\n".join(lines) + "\n")
    refused(capsys, tmp_path / "run", _run(ner, tmp_path, preds), f"{f}:{k + 1}:",
            "type 'PERSON' is not a chunk type of the corpus")


def test_tag_of_another_scheme(ner, preds, tmp_path, capsys):
    f = ner[0] / "preds" / "A" / "fold-0-0.txt"  # system A, read first
    lines = f.read_text().splitlines()
    # the first tag IOE2 does not have (its prefixes: E, I, O)
    k = next(i for i, line in enumerate(lines) if line.split() and line.split()[-1][:2] not in ("O", "I-", "E-")
             and line[0] != "-")
    refused(capsys, tmp_path / "run", _run(ner, tmp_path, preds, extra=["--pred-scheme", "ioe2"]), f"{f}:{k + 1}:",
            f"predicted tag {lines[k].split()[-1]!r} is not a tag of IOE2")


def test_splits_of_another_corpus(ner, tmp_path, capsys):
    d, corpus, splits, _ = ner
    blocks = corpus.read_text().split("\n\n")
    j = 7 if not blocks[7].startswith("-DOCSTART-") else 8
    blocks[j], blocks[j + 1] = blocks[j + 1], blocks[j]
    other = tmp_path / "other.conll"
    other.write_text("\n\n".join(blocks))
    a, b = f"A={d / 'preds' / 'A'}", f"B={d / 'preds' / 'B'}"
    refused(capsys, tmp_path / "run", evaluate(splits, other, tmp_path / "run", a, b), f"{other}:",
            "that splits.json was made with (another corpus, order or tokenization?)")
    smaller = tmp_path / "smaller.conll"
    write_conll(read_corpus(corpus)[:399], smaller)
    refused(capsys, tmp_path / "run", evaluate(splits, smaller, tmp_path / "run", a, b), f"{splits}:",
            "made for 400 sentences, but the corpus has 399")
    # compare --splits refuses it too, before training anything
    refused(capsys, tmp_path / "run", main(["compare", str(other), "--task", "ner", "--systems", "iob2,iobes",
                                            "--splits", str(splits), "--quiet", "--out", str(tmp_path / "run")]),
            f"{other}:", "(another corpus, order or tokenization?)")


def test_manifest_without_fingerprints(ner, tmp_path, capsys):
    d, corpus, splits, _ = ner
    raw = json.loads(splits.read_text())
    del raw["fingerprints"], raw["fingerprint_method"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(raw))
    refused(capsys, tmp_path / "run", evaluate(old, corpus, tmp_path / "run", f"A={d / 'preds' / 'A'}",
                                               f"B={d / 'preds' / 'B'}"), f"{old}:", "no sentence fingerprints")


@pytest.mark.parametrize("extra, what", [
    (["--variant", "thesis2"], "--variant: unknown variant 'thesis2'"),
    (["--pred-scheme", "iob9"], "--pred-scheme: unknown scheme 'iob9'"),
    (["--alpha", "1.5"], "--alpha must lie strictly between 0 and 1"),
    (["--chunk-types", "ORGANISATION"], "--chunk-types: no chunks of type ORGANISATION"),
])
def test_bad_options(ner, tmp_path, capsys, extra, what):
    d, corpus, splits, _ = ner
    code = evaluate(splits, corpus, tmp_path / "run", f"A={d / 'preds' / 'A'}", f"B={d / 'preds' / 'B'}", extra=extra)
    refused(capsys, tmp_path / "run", code, "", what)


def test_one_system_or_a_bad_system_argument(ner, tmp_path, capsys):
    d, corpus, splits, _ = ner
    refused(capsys, tmp_path / "run", evaluate(splits, corpus, tmp_path / "run", f"A={d / 'preds' / 'A'}"), "",
            "give at least two systems")
    refused(capsys, tmp_path / "run", evaluate(splits, corpus, tmp_path / "run", str(d / "preds" / "A"), "B=x"), "",
            "--system: expected NAME=PRED_DIR")


def test_python_evaluate_without_files_or_corpus_is_an_input_error(ner, tmp_path):
    """comparison.imported.evaluate(splits, None, ...) without corpus=: a worded InputError, not None in the reader."""
    from textbcv.comparison.imported import evaluate as evaluate_imported
    from textbcv.comparison.pipeline import CompareOptions
    from textbcv.errors import InputError

    d, _, splits, _ = ner
    out = tmp_path / "run"
    with pytest.raises(InputError, match="^files: give the corpus files, or a Corpus as corpus="):
        evaluate_imported(splits, None, {"A": d / "preds" / "A", "B": d / "preds" / "B"}, out,
                          CompareOptions(task="ner"))
    assert not out.exists()


def test_previous_run_not_overwritten(ner, capsys):
    d, corpus, splits, _ = ner
    before = (d / "run" / "report.json").read_bytes()
    assert evaluate(splits, corpus, d / "run", f"A={d / 'preds' / 'A'}", f"B={d / 'preds' / 'B'}") == 2
    assert "holds a previous run" in capsys.readouterr().err
    assert (d / "run" / "report.json").read_bytes() == before


# ---------------------------------------------------------------- word segmentation


@pytest.fixture(scope="module")
def cws(tmp_path_factory):
    d = tmp_path_factory.mktemp("cws")
    corpus = d / "cws.txt"
    corpus.write_text("\n".join(bundled_corpora()["cws"].read_text(encoding="utf-8").splitlines()[:300]) + "\n",
                      encoding="utf-8")
    splits, folds = export(corpus, d, fmt="segmented")
    for name in ("gold", "halves"):
        (d / name).mkdir()
    for fold in sorted(folds.glob("fold-*")):
        lines = (fold / "test.txt").read_text(encoding="utf-8").splitlines()
        (d / "gold" / f"{fold.name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        halves = [" ".join(p for w in line.split()
                           for p in ((w[: len(w) // 2], w[len(w) // 2:]) if len(w) > 1 else (w,)))
                  for line in lines]
        (d / "halves" / f"{fold.name}.txt").write_text("\n".join(halves) + "\n", encoding="utf-8")
    return d, corpus, splits, folds


def spans(line: str) -> set:
    out, k = set(), 0
    for w in line.split():
        out.add((k, k + len(w)))
        k += len(w)
    return out


def test_cws_counts(cws):
    d, corpus, splits, folds = cws
    out = d / "run"
    assert main(["evaluate", str(splits), str(corpus), "--format", "segmented", "--task", "cws", "--quiet",
                 "--no-plots", "--system", f"gold={d / 'gold'}", "--system", f"halves={d / 'halves'}",
                 "--out", str(out)]) == 0
    for r in map(json.loads, (out / "folds.jsonl").read_text().splitlines()):
        name = f"fold-{r['split']}-{r['direction']}.txt"
        gold = (folds / name.replace(".txt", "") / "test.txt").read_text(encoding="utf-8").splitlines()
        pred = (d / r["system"] / name).read_text(encoding="utf-8").splitlines()
        tp = sum(len(spans(g) & spans(p)) for g, p in zip(gold, pred, strict=True))
        n_gold = sum(len(spans(g)) for g in gold)
        n_pred = sum(len(spans(p)) for p in pred)
        assert r["counts"]["overall"] == {"tp": tp, "fp": n_pred - tp, "fn": n_gold - tp}
        if r["system"] == "gold":
            assert tp == n_gold == n_pred


def test_cws_changed_character(cws, tmp_path, capsys):
    d, corpus, splits, _ = cws
    bad = tmp_path / "bad"
    shutil.copytree(d / "halves", bad)
    f = bad / "fold-0-1.txt"
    lines = f.read_text(encoding="utf-8").splitlines()
    lines[4] = "X" + lines[4][1:]
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["evaluate", str(splits), str(corpus), "--format", "segmented", "--task", "cws", "--quiet",
                 "--system", f"gold={d / 'gold'}", "--system", f"bad={bad}", "--out", str(tmp_path / "run")])
    refused(capsys, tmp_path / "run", code, f"{f}:5:", "character 'X', but test sentence 5 has")


def _seeded_copy(src: Path, dst: Path, seed: int, flip: float) -> None:
    """``src``'s fold files with a share ``flip`` of their predicted tags set to O (another 'training seed')."""
    rng = random.Random(seed)
    dst.mkdir(parents=True, exist_ok=True)
    for f in sorted(src.glob("fold-*.txt")):
        out = []
        for line in f.read_text().splitlines():
            parts = line.split()
            if parts and parts[0] != "-DOCSTART-" and parts[-1] != "O" and rng.random() < flip:
                parts[-1] = "O"
            out.append(" ".join(parts))
        (dst / f.name).write_text("\n".join(out) + "\n")


def test_several_seeds_per_system_are_counted_together(ner, tmp_path, capsys):
    """PRED_DIR/seed-S/fold-i-d.txt: any number of seeds per system (3 for A, 2 for B); every fold's counts are
    the sums of the seeds' own counts (what one-seed runs of each give), the pair is paired on them, and the
    report names the seeds; a missing fold in one seed, or seed folders beside fold files, is one line."""
    d, corpus, splits, _ = ner
    seeds = {"A": [1, 2, 3], "B": [7, 11]}
    for name, ss in seeds.items():
        for s in ss:
            _seeded_copy(d / "preds" / name, tmp_path / name / f"seed-{s}", s, 0.05 * s / max(ss))
    assert evaluate(splits, corpus, tmp_path / "run", f"A={tmp_path / 'A'}", f"B={tmp_path / 'B'}") == 0
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    recs = [json.loads(x) for x in (tmp_path / "run" / "folds.jsonl").read_text().splitlines()]
    single = {}
    for name, ss in seeds.items():
        for s in ss:
            out = tmp_path / f"one-{name}-{s}"
            assert evaluate(splits, corpus, out, f"X={tmp_path / name / f'seed-{s}'}",
                            f"Y={d / 'preds' / 'A'}") == 0
            single[(name, s)] = {(r["split"], r["direction"]): r for r in
                                 map(json.loads, (out / "folds.jsonl").read_text().splitlines()) if r["system"] == "X"}
    for r in recs:
        key = (r["split"], r["direction"])
        parts = [single[(r["system"], s)][key] for s in seeds[r["system"]]]
        assert r["counts"]["overall"] == {k: sum(p["counts"]["overall"][k] for p in parts) for k in ("tp", "fp", "fn")}
        assert r["sentence_counts"] == np.sum([p["sentence_counts"] for p in parts], axis=0).tolist()
        assert r["seed_counts"] == {str(s): p["counts"]["overall"] for s, p in zip(seeds[r["system"]], parts)}
    assert [s["seeds"] for s in report["meta"]["systems"]] == [[1, 2, 3], [7, 11]]
    assert {c["difference"]["basis"] for c in report["comparisons"]} == {"paired"}
    md = (tmp_path / "run" / "report.md").read_text()
    assert "3 training seeds (1, 2, 3) counted together in every fold" in md
    # one seed folder is the same answer as its files without a folder
    (tmp_path / "A1").mkdir()
    (tmp_path / "A" / "seed-1").rename(tmp_path / "A1" / "seed-1")
    assert evaluate(splits, corpus, tmp_path / "run1", f"A={tmp_path / 'A1'}", f"B={d / 'preds' / 'A'}") == 0
    r1 = json.loads((tmp_path / "run1" / "report.json").read_text())
    assert r1["fold_counts"]["A"] == [single[("A", 1)][(j, k)]["counts"]["overall"] for j in range(3) for k in (0, 1)]
    # a seed without one of its folds; seed folders beside fold files
    (tmp_path / "B" / "seed-11" / "fold-2-1.txt").unlink()
    missing = tmp_path / "B" / "seed-11" / "fold-2-1.txt"
    refused(capsys, tmp_path / "bad", evaluate(splits, corpus, tmp_path / "bad", f"A={tmp_path / 'A1'}",
                                               f"B={tmp_path / 'B'}"), f"{missing}:", "prediction file missing")
    shutil.copy(d / "preds" / "A" / "fold-0-0.txt", tmp_path / "A1" / "fold-0-0.txt")
    refused(capsys, tmp_path / "bad2", evaluate(splits, corpus, tmp_path / "bad2", f"A={tmp_path / 'A1'}",
                                                f"B={d / 'preds' / 'A'}"), f"{tmp_path / 'A1'}:",
            "holds both seed-S folders and fold files")


def test_evaluate_says_how_it_read_the_corpus_as_compare_does(cws, capsys):
    """A detected format is said once on stderr after the run succeeds; --quiet says nothing."""
    d, corpus, splits, folds = cws
    args = ["evaluate", str(splits), str(corpus), "--task", "cws", "--no-plots", "--system", f"gold={d / 'gold'}",
            "--system", f"halves={d / 'halves'}"]
    assert main([*args, "--out", str(d / "noted")]) == 0
    err = capsys.readouterr().err
    assert err.count("read as segmented") == 1 and "--format sets it" in err
    assert main([*args, "--quiet", "--out", str(d / "quiet")]) == 0
    assert "read as" not in capsys.readouterr().err


def test_a_fifo_among_the_predictions_is_refused_before_anything_is_written(cws, capsys):
    """A named pipe where a fold's predictions should be is not read (it would block): one error, exit 2."""
    import os
    import shutil

    d, corpus, splits, folds = cws
    pred = d / "piped"
    shutil.copytree(d / "gold", pred)
    victim = sorted(pred.iterdir())[-1]
    victim.unlink()
    os.mkfifo(victim)
    out = d / "fifo-run"
    code = main(["evaluate", str(splits), str(corpus), "--task", "cws", "--quiet", "--no-plots",
                 "--system", f"gold={d / 'gold'}", "--system", f"piped={pred}", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("textbcv: error: ") and "is not a file" in err and "Traceback" not in err
    assert not out.exists()
