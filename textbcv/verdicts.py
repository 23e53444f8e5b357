"""The words of a comparison's answer: the decision rule, each pair's verdict, the conclusion, the ranking.

The decision of every pair is made once, by :func:`textbcv.stats.bayes.decide`
(a system is better when its P(better) is at least the threshold, default
0.95), when the answer is computed; its result is each comparison's
``decision`` in ``report.json``. This module only *words* that recorded
decision — for the report's tables, its conclusion, its plot titles, the
LaTeX tables and the terminal — so that no two places can disagree, and none
names a winner the rule did not name.

Everything here reads the ``report.json`` dictionary (or a ``textbcv test``
answer, which has the same ``systems`` / ``comparisons`` / ``threshold`` /
``rope`` keys). Scores in text are percent and differences points; the
dictionary keeps fractions.

Examples
--------
>>> r = {"m": 3, "alpha": 0.05, "threshold": 0.95, "rope": None,
...      "systems": {"A": {"f1": {"estimate": .80, "ci": [.78, .82]}}, "B": {"f1": {"estimate": .81, "ci": [.79, .83]}}},
...      "comparisons": [{"a": "A", "b": "B", "metric": "f1", "p_b_better": .7, "p_a_better": .3,
...                       "decision": "no clear difference"}], "sequential": []}
>>> verdict(r["comparisons"][0])
'no clear difference'
>>> print(conclusion(r))  # doctest: +NORMALIZE_WHITESPACE
On 3×2 block-regularized cross-validation (6 folds per system), a system is called better when P(better) ≥ 0.95.
No clear difference on F1 between B (81.00%) and A (80.00%): P(B better) = 0.700, below 0.95.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from textbcv.stats.bayes import NO_CLEAR_DIFFERENCE, THRESHOLD

__all__ = ["THRESHOLD", "NO_CLEAR_DIFFERENCE", "REFERENCE", "threshold_of", "rope_points", "points", "pct", "fmt_p", "p_is",
           "rule", "short_rule", "better_label", "verdict", "verdict_line", "sequential_words", "comparisons_of", "identical_groups",
           "ranking", "p_row_better", "conclusion", "design_name", "unit_text", "balance_text", "variant_text",
           "template_text", "system_settings", "corpus_types", "methods_paragraph", "reproduce_command"]

#: The method's reference, as the report's methods paragraph cites it.
REFERENCE = ("Ruibo Wang. Research on Block-regularized Cross-Validation Methods for Comparing Supervised "
             "Algorithms. Doctoral thesis, Shanxi University, 2019")

LABELS = {"precision": "precision", "recall": "recall", "f1": "F1"}


# ----------------------------------------------------------------------------- numbers


def threshold_of(report: dict) -> float:
    """The threshold the report's decisions were made with (0.95 when the report does not say)."""
    t = report.get("threshold")
    return THRESHOLD if t is None else float(t)


def points(x: float) -> str:
    """``1 point``, ``0.5 points``.

    Examples
    --------
    >>> points(1), points(0.5)
    ('1 point', '0.5 points')
    """
    return f"{x:g} point" + ("" if x == 1 else "s")


def rope_points(report: dict) -> float | None:
    """The rope in points (``report["rope"]`` is a fraction), or None without one.

    Examples
    --------
    >>> rope_points({"rope": 0.005}), rope_points({"rope": None}), rope_points({"rope": 0.0})
    (0.5, None, None)
    """
    r = report.get("rope")
    return None if not r else round(100 * r, 10)


def pct(x: float | None, undefined: str = "—") -> str:
    """A rate in percent with two decimals (``undefined`` for None).

    Examples
    --------
    >>> pct(0.68421), pct(None)
    ('68.42', '—')
    """
    return undefined if x is None else f"{100 * x:.2f}"


def fmt_p(p: float | None, digits: int = 3) -> str:
    """A probability for a table: never rounded to a certainty it is not.

    Examples
    --------
    >>> fmt_p(0.69), fmt_p(0.99996), fmt_p(1.0), fmt_p(2e-5), fmt_p(None)
    ('0.690', '> 0.999', '> 0.999', '< 0.001', '—')

    A posterior probability that one score exceeds another is never 0 or 1
    (the posteriors have the whole of [0, 1] as support): 1 − 10⁻¹⁷ is held
    as 1.0 in floating point, and shown as ``> 0.999``.
    """
    if p is None:
        return "—"
    s = f"{p:.{digits}f}"
    if float(s) >= 1:
        return f"> {1 - 10 ** -digits:.{digits}f}"
    if float(s) <= 0:
        return f"< {10 ** -digits:.{digits}f}"
    return s


def p_is(p: float | None, digits: int = 3) -> str:
    """``= 0.690``, ``> 0.999`` or ``< 0.001``: a probability after its label in a sentence."""
    s = fmt_p(p, digits)
    return s if s[0] in "<>—" else f"= {s}"


# ----------------------------------------------------------------------------- the rule and each verdict


def rule(report: dict) -> str:
    """The decision rule in one sentence (the report states it once, under the Bayes test).

    Examples
    --------
    >>> print(rule({"threshold": 0.95, "rope": None}))
    Decision rule: a system is called better than another when the posterior probability that it is better, P(better), is at least 0.95 (--threshold); below that the answer is "no clear difference", with P.
    """
    tau, r = threshold_of(report), rope_points(report)
    if r is None:
        return ("Decision rule: a system is called better than another when the posterior probability that it is "
                f"better, P(better), is at least {tau:g} (--threshold); below that the answer is \"no clear "
                "difference\", with P.")
    return (f"Decision rule: a system is called better than another when the posterior probability that it is better "
            f"by more than the rope of {points(r)} (--rope), P(better), is at least {tau:g} (--threshold); below "
            f"that the answer is \"no clear difference\", with P. Two systems are called practically "
            f"equivalent when P(equivalent) — the probability that their scores differ by at most {points(r)} — is "
            f"at least {tau:g}.")


def short_rule(report: dict) -> str:
    """The rule in a clause: ``a system is called better when P(better) ≥ 0.95``."""
    tau, r = threshold_of(report), rope_points(report)
    by = f" by more than {points(r)}" if r is not None else ""
    return f"a system is called better when P(better{by}) ≥ {tau:g}"


def better_label(c: dict, side: str, rope: float | None = None) -> str:
    """``P(iobes better)``, or with a rope of r points ``P(iobes better by > r)``, for side ``"a"`` or ``"b"``."""
    by = f" by > {rope:g}" if rope is not None else ""
    return f"P({c[side]} better{by})"


def verdict(c: dict) -> str:
    """A comparison's recorded decision in words: ``"iobes better"``, ``"no clear difference"``,
    ``"practically equivalent"`` (with a rope) or ``"undefined"``.

    Examples
    --------
    >>> verdict({"a": "iob2", "b": "iobes", "decision": "B better"}), verdict({"a": "x", "b": "y", "decision": "no clear difference"})
    ('iobes better', 'no clear difference')
    """
    if c.get("undefined"):
        return "undefined"
    d = c["decision"]
    if d == "B better":
        return f"{c['b']} better"
    if d == "A better":
        return f"{c['a']} better"
    return "practically equivalent" if c.get("equivalent") else NO_CLEAR_DIFFERENCE


def verdict_line(c: dict, report: dict) -> str:
    """The verdict with the probability that decided it, for a plot title or a terminal line.

    Examples
    --------
    >>> r = {"threshold": 0.95, "rope": None}
    >>> verdict_line({"a": "A", "b": "B", "p_b_better": 0.69, "p_a_better": 0.31, "decision": "no clear difference"}, r)
    'no clear difference: P(B better) = 0.690 < 0.95'
    >>> verdict_line({"a": "A", "b": "B", "p_b_better": 0.991, "p_a_better": 0.009, "decision": "B better"}, r)
    'B better: P(B better) = 0.991 ≥ 0.95'
    """
    tau, r = threshold_of(report), rope_points(report)
    if c.get("undefined"):
        return c["undefined"]
    d = c["decision"]
    if d in ("B better", "A better"):
        side = "b" if d == "B better" else "a"
        return f"{verdict(c)}: {better_label(c, side, r)} {p_is(c[f'p_{side}_better'])} ≥ {tau:g}"
    text = f"{NO_CLEAR_DIFFERENCE}: {_undecided(c, r, tau, '<')}"
    if r is not None:
        eq = c.get("p_equivalent")
        text += f"; P(equivalent) {p_is(eq)}" + (f" ≥ {tau:g}: practically equivalent" if c.get("equivalent") else "")
    return text


# ----------------------------------------------------------------------------- many systems


def comparisons_of(report: dict, metric: str = "f1") -> list[dict]:
    """The comparisons of ``metric``, in the report's order."""
    return [c for c in report["comparisons"] if c["metric"] == metric]


def identical_groups(report: dict) -> list[list[str]]:
    """Groups of two or more systems with the same counts in every fold (from ``fold_counts``, else pooled ``counts``).

    Examples
    --------
    >>> f = {"tp": 1, "fp": 0, "fn": 0}
    >>> identical_groups({"systems": {"a": 0, "b": 0, "c": 0}, "fold_counts": {"a": [f], "b": [f], "c": [{**f, "tp": 2}]}})
    [['a', 'b']]
    """
    source = report.get("fold_counts") or report.get("counts") or {}
    groups: dict[str, list[str]] = {}
    for n in report["systems"]:
        if n in source:
            groups.setdefault(repr(source[n]), []).append(n)
    return [g for g in groups.values() if len(g) > 1]


def p_row_better(report: dict, row: str, col: str, metric: str = "f1") -> float | None:
    """P(``row`` better than ``col``) on ``metric`` (None if undefined or absent)."""
    for c in comparisons_of(report, metric):
        if (c["a"], c["b"]) == (col, row):
            return c["p_b_better"]
        if (c["a"], c["b"]) == (row, col):
            return c["p_a_better"]
    return None


def _winner(c: dict) -> tuple[str, str] | None:
    if c["decision"] == "B better":
        return c["b"], c["a"]
    if c["decision"] == "A better":
        return c["a"], c["b"]
    return None


def ranking(report: dict, metric: str = "f1") -> list[dict]:
    """Systems by pooled ``metric``, best first: ``{"rank", "name", "estimate", "ci", "better_than"}``.

    Equal estimates share a rank (1, 2, 2, 4); systems whose metric is
    undefined come last, unranked (rank None). ``better_than`` lists the
    systems the decision rule found this one better than.

    Examples
    --------
    >>> s = {n: {"f1": {"estimate": e, "ci": [e - .01, e + .01]}} for n, e in (("a", .5), ("b", .6), ("c", .5))}
    >>> [(x["rank"], x["name"]) for x in ranking({"systems": s, "comparisons": []})]
    [(1, 'b'), (2, 'a'), (2, 'c')]
    """
    names = list(report["systems"])
    est = {n: report["systems"][n][metric]["estimate"] for n in names}
    order = sorted(names, key=lambda n: (est[n] is None, -(est[n] or 0.0), names.index(n)))
    beats: dict[str, list[str]] = {n: [] for n in names}
    for c in comparisons_of(report, metric):
        w = _winner(c)
        if w:
            beats[w[0]].append(w[1])
    out, rank = [], 0
    for i, n in enumerate(order):
        if est[n] is not None and (i == 0 or est[n] != est[order[i - 1]]):
            rank = i + 1
        out.append({"rank": rank if est[n] is not None else None, "name": n, "estimate": est[n],
                    "ci": report["systems"][n][metric]["ci"],
                    "better_than": sorted(beats[n], key=order.index)})
    return out


# ----------------------------------------------------------------------------- the conclusion


def design_name(report: dict) -> str:
    """``3×2 block-regularized cross-validation`` (or the design of given random splits)."""
    m = report["m"]
    method = report.get("meta", {}).get("options", {}).get("split_method", "bcv")
    return f"{m}×2 block-regularized cross-validation" if method in ("bcv", "bcv-select") else \
        f"{m}×2 cross-validation with {method} splits"


def _same_display(x: float, y: float) -> bool:
    return pct(x) == pct(y)


def sequential_words(s: dict) -> str:
    """A sequential t-test's result in words (its own rule, at α): ``rejects equality: X ahead`` or
    ``does not reject equality``.

    Examples
    --------
    >>> sequential_words({"a": "A", "b": "B", "t_test": "rejects equality", "ahead": "B"})
    'rejects equality: B ahead'
    >>> sequential_words({"a": "A", "b": "B", "t_test": "does not reject equality", "ahead": None})
    'does not reject equality'
    """
    if s.get("ahead") not in ("A", "B"):
        return "does not reject equality"
    return f"rejects equality: {s['b'] if s['ahead'] == 'B' else s['a']} ahead"


def _seq_sentence(report: dict, c: dict) -> str | None:
    seq = next((s for s in report.get("sequential") or [] if (s["a"], s["b"]) == (c["a"], c["b"])), None)
    if seq is None:
        return None
    alpha = report["alpha"]
    if seq.get("ahead") not in ("A", "B"):
        return (f"The sequential t-test on the per-fold F1 differences does not reject equality at α = {alpha:g} "
                f"(mean difference {100 * seq['estimate']:+.2f} points, {c['b']} − {c['a']}).")
    ahead = c["b"] if seq["ahead"] == "B" else c["a"]
    text = (f"The sequential t-test on the per-fold F1 differences rejects equality at α = {alpha:g}: mean difference "
            f"{100 * seq['estimate']:+.2f} points ({c['b']} − {c['a']}), {ahead} ahead")
    if _winner(c) and _winner(c)[0] == ahead:
        return text + ", as the Bayes test finds."
    return text + ("; the Bayes test, which compares the pooled counts, does not call a winner at this threshold — "
                   "the two tests answer different questions (see the note under the textbook tests).")


def _undecided(c: dict, r: float | None, tau: float, below: str) -> str:
    """The probability behind "no clear difference": the larger side's P and the threshold it misses, or a tie."""
    if c["p_b_better"] == c["p_a_better"]:
        return f"{better_label(c, 'a', r)} = {better_label(c, 'b', r)} {p_is(c['p_b_better'])}, a tie"
    side = "b" if c["p_b_better"] > c["p_a_better"] else "a"
    sep = " " if below == "<" else ", "
    return f"{better_label(c, side, r)} {p_is(c[f'p_{side}_better'])}{sep}{below} {tau:g}"


def _pair_sentence(report: dict, c: dict, identical: bool) -> str:
    """The conclusion's sentence on one pair's F1."""
    tau, r = threshold_of(report), rope_points(report)
    a, b = c["a"], c["b"]
    if c.get("undefined"):
        return f"F1 cannot be compared for {a} and {b}: {c['undefined']}."
    fa, fb = report["systems"][a]["f1"]["estimate"], report["systems"][b]["f1"]["estimate"]
    if identical:
        return f"{a} and {b} are tied: the same chunk counts in every fold (F1 {pct(fa)}% each)."
    eq = ""
    if r is not None and c.get("p_equivalent") is not None:
        eq = f"; P(equivalent: within ±{points(r)}) {p_is(c['p_equivalent'])}"
    w = _winner(c)
    if w:
        win, lose = w
        fw, fl = (fb, fa) if win == b else (fa, fb)
        side = "b" if win == b else "a"
        return (f"{win} is better than {lose} on F1: {pct(fw)}% against {pct(fl)}% ({100 * (fw - fl):+.2f} points); "
                f"{better_label(c, side, r)} {p_is(c[f'p_{side}_better'])} ≥ {tau:g}{eq}.")
    if c.get("equivalent"):
        return (f"{a} and {b} are practically equivalent on F1 ({pct(fa)}% and {pct(fb)}%): P(equivalent: within "
                f"±{points(r)}) {p_is(c['p_equivalent'])} ≥ {tau:g}.")
    if fa == fb:
        scores = f"{a} and {b} have the same F1 ({pct(fa)}%)"
    elif _same_display(fa, fb):
        scores = f"{a} and {b} have the same F1 to two decimals ({pct(fa)}%)"
    else:
        hi, lo = (b, a) if fb > fa else (a, b)
        fh, fl = max(fa, fb), min(fa, fb)
        scores = f"{hi} ({pct(fh)}%) and {lo} ({pct(fl)}%)"
    return f"No clear difference on F1 between {scores}: {_undecided(c, r, tau, 'below')}{eq}."


def conclusion(report: dict) -> str:
    """A short paragraph in plain language on F1: which system the decision rule calls better, how sure, how large.

    Two systems: one sentence on the pair and one on the sequential t-test.
    Three or more: one sentence per clear difference (and per practically
    equivalent pair), one per group of tied systems, one for the rest.
    Below the threshold no winner is named.
    """
    m, tau = report["m"], threshold_of(report)
    names = list(report["systems"])
    pairs = comparisons_of(report, "f1")
    groups = identical_groups(report)
    group_of = {n: i for i, g in enumerate(groups) for n in g}

    def same(c):
        return c["a"] in group_of and group_of.get(c["a"]) == group_of.get(c["b"])

    intro = (f"On {design_name(report)} ({2 * m} folds per system), {short_rule(report)}.")
    if len(names) == 2 and len(pairs) == 1:
        c = pairs[0]
        parts = [intro, _pair_sentence(report, c, same(c))]
        seq = _seq_sentence(report, c)
        if seq and not same(c):
            parts.append(seq)
        return " ".join(parts)
    order = [x["name"] for x in ranking(report)]
    parts = [intro]
    clear = sorted((c for c in pairs if _winner(c)), key=lambda c: (order.index(_winner(c)[0]), order.index(_winner(c)[1])))
    for c in clear:
        win, lose = _winner(c)
        side = "b" if win == c["b"] else "a"
        parts.append(f"{win} is better than {lose} on F1 ({better_label(c, side, rope_points(report))} "
                     f"{p_is(c[f'p_{side}_better'])}).")
    for c in pairs:
        if c.get("equivalent") and not _winner(c) and not same(c):
            parts.append(f"{c['a']} and {c['b']} are practically equivalent on F1 (P(equivalent) {p_is(c['p_equivalent'])}).")
    for g in groups:
        f1 = report["systems"][g[0]]["f1"]["estimate"]
        parts.append(f"{_and(g)} are tied: the same chunk counts in every fold (F1 {pct(f1)}% each).")
    undefined = [c for c in pairs if c.get("undefined")]
    for c in undefined:
        parts.append(f"F1 cannot be compared for {c['a']} and {c['b']}: {c['undefined']}.")
    rest = [c for c in pairs if not _winner(c) and not c.get("equivalent") and not same(c) and not c.get("undefined")]
    if rest and not clear:
        best = max(rest, key=lambda c: max(c["p_b_better"], c["p_a_better"]))
        side = "b" if best["p_b_better"] >= best["p_a_better"] else "a"
        other = "a" if side == "b" else "b"
        parts.append(f"No{' other' if groups else ''} pair differs clearly on F1: the largest P(better) is "
                     f"{fmt_p(best[f'p_{side}_better'])} ({best[side]} over {best[other]}), below {tau:g}.")
    elif rest:
        n = len(rest)
        parts.append(f"The other {n} pair{'s show' if n > 1 else ' shows'} no clear difference (P(better) below "
                     f"{tau:g}; see the pairwise table).")
    seq = report.get("sequential") or []
    if seq:
        k = sum(s.get("ahead") in ("A", "B") for s in seq)
        parts.append(f"The sequential t-test on per-fold F1 differences rejects equality for {k} of the {len(seq)} pairs "
                     f"at α = {report['alpha']:g}.")
    return " ".join(parts)


def _and(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# ----------------------------------------------------------------------------- setup, methods, command


def unit_text(report: dict) -> str:
    """What the splits kept whole: ``documents kept whole`` or ``sentences``."""
    sp = report.get("split") or {}
    return "documents kept whole" if sp.get("unit") == "document" else "sentences as units"


def balance_text(report: dict) -> str:
    """``no property balanced`` or ``balanced for label and length``."""
    sp = report.get("split") or {}
    b = sp.get("balance", report.get("meta", {}).get("options", {}).get("balance", []))
    return f"balanced for {_and(list(b))}" if b else "no property balanced"


_VARIANTS = {
    "thesis": "the thesis's c_m: 1/(1 + ρ1 + (2m − 2)ρ2) averaged over ρ1 ∈ [0, ½], ρ2 ∈ [¼, ½]",
    "averaged-counts": "the counts of one average fold: ρ1 = ρ2 = 1",
    "independent": "none: the folds treated as independent, ρ1 = ρ2 = 0",
    "adaptive": "c_m, lowered when the folds disagree more than it implies",
    "rho": "from the correlations given,",
    "clustered": "the counts of one average fold (ρ1 = ρ2 = 1) divided by the design effect measured on the folds' "
                 "test halves",
}


def variant_text(report: dict, how: bool = False) -> str:
    """The count factor in words, with its value when one value serves every system.

    ``the averaged-counts count factor (the counts of one average fold, c = 0.1667)``; with ``how``, the
    form of the report's setup: ``averaged-counts (the counts of one average fold, c = 0.1667; --variant)``.
    """
    o = report.get("meta", {}).get("options", {})
    v = report.get("variant") or o.get("variant", "thesis")
    desc = _VARIANTS.get(v, v)
    if v == "rho":
        desc += f" ρ1 = {o.get('rho1')}, ρ2 = {o.get('rho2')}"
    if v == "clustered" and report.get("design_effects"):
        clusters = (report.get("design_effect_folds") or {}).get("clusters", "sentences")
        desc += (f" with {clusters} as clusters; F1 design effect "
                 + ", ".join(f"{n} {d['f1']:.2f}" for n, d in report["design_effects"].items()))
    cf = report.get("count_factor") or {}
    vals = [x for x in cf.values() if isinstance(x, (int, float))]
    if vals and len(set(vals)) == 1:
        desc += f", c = {vals[0]:.4g}"
    return f"{v} ({desc}; --variant)" if how else f"the {v} count factor ({desc})"


def template_text(spec: dict) -> str:
    """A feature template in a few words: ``ner-thesis (w, pos; window -2..2; 1-3-grams)``."""
    t = spec.get("template")
    if not t:
        return "—"
    w = t.get("window") or [0, 0]
    ng = t.get("ngrams") or [1]
    grams = f"{min(ng)}–{max(ng)}-grams" if len(ng) > 1 else f"{ng[0]}-grams"
    atoms = ", ".join(t.get("atoms") or [])
    extra = t.get("token_atoms") or []
    more = f"; token features {', '.join(extra)}" if extra else ""
    return f"{t.get('name', 'custom')} ({atoms}; window {w[0]}..{w[1]}; {grams}{more})"


def system_settings(spec: dict) -> str:
    """The tagger and its settings: ``CRF (lbfgs; c1 = 0.1, c2 = 0.1, max iterations = 100)``."""
    if spec.get("tagger") == "crf":
        p = spec.get("params") or {}
        return (f"CRF ({spec.get('algorithm')}; c1 = {p.get('c1')}, c2 = {p.get('c2')}, "
                f"max iterations = {p.get('max_iterations')})")
    if spec.get("tagger") in (None, "imported"):
        return "predictions made outside textbcv"
    params = spec.get("params")
    shown = "" if not params else " (" + ", ".join(f"{k} = {v}" for k, v in params.items()) + ")"
    return f"your tagger {spec['tagger']}{shown}"


def corpus_types(report: dict) -> dict[str, int]:
    """Gold chunks per type in the corpus: ``meta.corpus.chunks_per_type``, else the per-type counts of the folds / m."""
    corpus = report.get("meta", {}).get("corpus") or {}
    if corpus.get("chunks_per_type") is not None:
        return dict(corpus["chunks_per_type"])
    per_type = report.get("per_type") or {}
    first = next(iter(per_type.values()), {})
    return {t: (c["tp"] + c["fn"]) // report["m"] for t, c in sorted(first.items())}


def methods_paragraph(report: dict) -> str:
    """A short methods paragraph for a paper: design, m, seed, units, balance, variant, alpha, threshold, version, reference."""
    meta = report.get("meta", {})
    m = report["m"]
    names = list(report["systems"])
    corpus = meta.get("corpus") or {}
    level = f"{100 * (1 - report['alpha']):g}%"
    tau, r = threshold_of(report), rope_points(report)
    seed = meta.get("seed")
    sentences = f" ({corpus['sentences']:,} sentences)" if corpus.get("sentences") else ""
    imported = " Their predictions were made outside textbcv, on the folds it exported." if meta.get("imported") else ""
    rope = (f", and practically equivalent when the probability that they differ by at most {points(r)} is at least "
            f"{tau:g}") if r is not None else ""
    by = f" by more than {points(r)}" if r is not None else ""
    return (f"We compared {_and(names)} with {design_name(report)} (Wang, 2019): the corpus{sentences} was split "
            f"{m} times into two halves (seed {seed}; {unit_text(report)}; {balance_text(report)}), and each system "
            f"was trained on each half and tested on the other, {2 * m} test folds per system.{imported} Chunks were "
            "scored with conlleval's rules and their counts pooled over the folds. Precision, recall and F1 have "
            f"Beta-type posteriors from the pooled counts scaled by {variant_text(report)}, which allows for the "
            f"overlap between folds; intervals are equal-tailed {level} credible intervals. A system is called better "
            f"than another when the posterior probability that its F1 is higher{by} is at least {tau:g}{rope}. "
            f"Computed with textbcv {meta.get('textbcv', '?')}. Reference: {REFERENCE}.")


def _q(x) -> str:
    return shlex.quote(str(x))


def reproduce_command(report: dict, out: str = "rerun") -> str | None:
    """The ``textbcv`` command that remakes this report into ``out``, every setting explicit; None when it cannot
    (systems with the user's own Python taggers, or a corpus passed as an object).

    Examples
    --------
    >>> r = {"meta": {"options": {"task": "ner", "systems": ["iob2", "iobes"], "m": 3, "seed": 0, "balance": [],
    ...      "group_by": "auto", "variant": "averaged-counts", "alpha": 0.05, "threshold": 0.95, "rope": None,
    ...      "split_method": "bcv", "sequential": False, "heldout": []},
    ...      "corpus": {"format": "conll", "files": [{"path": "ner.conll"}]},
    ...      "systems": [{"tagger": "crf"}, {"tagger": "crf"}]}}
    >>> print(reproduce_command(r))
    textbcv compare ner.conll --format conll --task ner --systems iob2,iobes --m 3 --seed 0 --balance none --group-by auto --variant averaged-counts --alpha 0.05 --threshold 0.95 --out rerun
    """
    meta = report.get("meta") or {}
    o, corpus = meta.get("options") or {}, meta.get("corpus") or {}
    files = [f["path"] for f in corpus.get("files") or []]
    if not o or not files:
        return None
    read = corpus.get("read") or {}
    words = [*map(_q, files), "--format", corpus.get("format", "conll")]
    if read.get("columns"):
        words += ["--columns", _q(read["columns"])]
    if read.get("scheme"):
        words += ["--scheme", _q(read["scheme"])]
    if read.get("encoding") and read["encoding"].lower().replace("_", "-") not in ("utf-8", "utf8"):
        words += ["--encoding", _q(read["encoding"])]
    words += ["--task", o["task"]]
    imported = meta.get("imported")
    if imported:
        head = ["textbcv", "evaluate", _q(imported["splits"]["path"])]
        for name, s in imported["systems"].items():
            words += ["--system", _q(f"{name}={s['predictions']}")]
        given = {s.get("scheme") for s in imported["systems"].values() if s.get("scheme") and not s.get("scheme_detected")}
        if len(given) == 1:
            words += ["--pred-scheme", given.pop()]
    else:
        if any((s or {}).get("tagger") != "crf" for s in meta.get("systems") or []):
            return None
        head = ["textbcv", "compare"]
        words += ["--systems", _q(",".join(o["systems"]))]
        if o.get("sequential"):
            words += ["--sequential", "--m-max", str(o["m_max"]), "--stop", o["stop"]]
        else:
            words += ["--m", str(o["m"])]
        if meta.get("splits"):
            words += ["--splits", _q(meta["splits"])]
        else:
            words += ["--seed", str(o["seed"]), "--balance", ",".join(o.get("balance") or []) or "none",
                      "--group-by", o.get("group_by", "auto")]
    words += ["--variant", o["variant"]]
    if o["variant"] == "rho":
        words += ["--rho1", str(o["rho1"]), "--rho2", str(o["rho2"])]
    words += ["--alpha", f"{o['alpha']:g}", "--threshold", f"{o.get('threshold', THRESHOLD):g}"]
    if o.get("rope"):
        words += ["--rope", f"{round(100 * o['rope'], 10):g}"]
    if o.get("chunk_types"):
        words += ["--chunk-types", _q(",".join(o["chunk_types"]))]
    if o.get("untyped"):
        words.append("--untyped")
    if not imported:
        for k in ("c1", "c2", "max_iterations"):
            if o.get(k) is not None:
                words += [f"--{k.replace('_', '-')}", f"{o[k]:g}" if isinstance(o[k], float) else str(o[k])]
    if o.get("heldout"):
        words += ["--heldout", *map(_q, o["heldout"])]
    return " ".join(head + words + ["--out", _q(out)])
