"""The setup of a comparison in words (design, units, balance, count factor, systems) and the methods paragraph."""

from __future__ import annotations

from collections.abc import Sequence

from textbcv.report.model import CompareReport
from textbcv.report.numbers import fmt_p, points
from textbcv.report.verdicts import caution_clause, decisive_words, difference_basis, verdict

__all__ = ["REFERENCE", "and_list", "design_name", "unit_text", "balance_text", "variant_text", "template_text",
           "system_settings", "corpus_types", "methods_paragraph", "results_sentence"]

#: The method's reference, as the report's methods paragraph cites it.
REFERENCE = ("Ruibo Wang. Research on Block-regularized Cross-Validation Methods for Comparing Supervised "
             "Algorithms. Doctoral thesis, Shanxi University, 2019")


def and_list(items: Sequence[str]) -> str:
    """Names joined in words: ``a``, ``a and b``, ``a, b and c``.

    Parameters
    ----------
    items : sequence of str

    Returns
    -------
    str

    Examples
    --------
    >>> and_list(["a"]), and_list(["a", "b", "c"])
    ('a', 'a, b and c')
    """
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def design_name(report: CompareReport) -> str:
    """The design in words: ``3×2 block-regularized cross-validation`` (or the design of given random splits).

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    str
    """
    method = report.options.get("split_method", "bcv")
    return f"{report.m}×2 block-regularized cross-validation" if method in ("bcv", "bcv-select") else \
        f"{report.m}×2 cross-validation with {method} splits"


def unit_text(report: CompareReport) -> str:
    """``documents kept whole`` or ``sentences as units``.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    str
    """
    unit = None if report.split is None else report.split.unit
    units = {"document": "documents kept whole", "file": "files kept whole"}
    return units.get(str(unit), "sentences as units")


def balance_text(report: CompareReport) -> str:
    """``no property balanced`` or ``balanced for label and length``.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    str
    """
    sp = report.split
    b = report.options.get("balance", []) if sp is None or sp.balance is None else sp.balance
    return f"balanced for {and_list(list(b))}" if b else "no property balanced"


_VARIANTS = {
    "thesis": "the thesis's c_m: 1/(1 + ρ1 + (2m − 2)ρ2) averaged over ρ1 ∈ [0, ½], ρ2 ∈ [¼, ½]",
    "averaged-counts": "the counts of one average fold: ρ1 = ρ2 = 1",
    "independent": "none: the folds treated as independent, ρ1 = ρ2 = 0",
    "adaptive": "c_m, lowered when the folds disagree more than it implies",
    "rho": "from the correlations given,",
    "clustered": "the counts of one average fold (ρ1 = ρ2 = 1) divided by the design effect measured on the folds' "
                 "test halves",
}


def variant_text(report: CompareReport, how: bool = False) -> str:
    """The count factor in words, with its value when one value serves every system.

    Parameters
    ----------
    report : CompareReport
    how : bool
        False: the phrase for the methods paragraph; True: the form of the report's setup.

    Returns
    -------
    str
    """
    o = report.options
    v = report.variant
    desc = _VARIANTS.get(v, v)
    if v == "rho":
        desc += f" ρ1 = {o.get('rho1')}, ρ2 = {o.get('rho2')}"
    if v == "clustered" and report.design_effects:
        clusters = (report.design_effect_folds or {}).get("clusters", "sentences")
        desc += (f" with {clusters} as clusters; F1 design effect "
                 + ", ".join(f"{n} {d['f1']:.2f}" for n, d in report.design_effects.items()))
    cf = report.count_factor or {}
    vals = [x for x in cf.values() if isinstance(x, (int, float))]
    if vals and len(set(vals)) == 1:
        desc += f", c = {vals[0]:.4g}"
    return f"{v} ({desc}; --variant)" if how else f"the {v} count factor ({desc})"


def template_text(spec: dict) -> str:
    """A feature template in a few words: ``ner-thesis (w, pos; window -2..2; 1-3-grams)``; ``—`` without one.

    Parameters
    ----------
    spec : dict
        A system's spec (a ``meta.systems`` entry).

    Returns
    -------
    str
    """
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
    """The tagger and its settings: ``CRF (lbfgs; c1 = 0.1, c2 = 0.1, max iterations = 100)``.

    Parameters
    ----------
    spec : dict
        A system's spec (a ``meta.systems`` entry).

    Returns
    -------
    str
    """
    if spec.get("tagger") == "crf":
        p = spec.get("params") or {}
        seed = f"; training seed {spec['seed']}" if spec.get("seed") is not None else ""
        if spec.get("seeds"):
            seed = f"; training seeds {', '.join(map(str, spec['seeds']))}, counted together in every fold"
        if spec.get("algorithm") != "lbfgs":
            more = ", ".join(f"{k.replace('_', ' ')} = {v}" for k, v in sorted(p.items()))
            return f"CRF ({spec.get('algorithm')}; {more}{seed})"
        return (f"CRF ({spec.get('algorithm')}; c1 = {p.get('c1')}, c2 = {p.get('c2')}, "
                f"max iterations = {p.get('max_iterations')}{seed})")
    if spec.get("tagger") in (None, "imported"):
        seeds = spec.get("seeds")
        if seeds:
            return (f"predictions made outside textbcv, {len(seeds)} training seed{'s' if len(seeds) != 1 else ''} "
                    f"({', '.join(map(str, seeds))}) counted together in every fold")
        return "predictions made outside textbcv"
    params = spec.get("params")
    shown = "" if not params else " (" + ", ".join(f"{k} = {v}" for k, v in params.items()) + ")"
    return f"your tagger {spec['tagger']}{shown}"


def corpus_types(report: CompareReport) -> dict[str, int]:
    """Gold chunks per type in the corpus: ``meta.corpus.chunks_per_type``, else the folds' per-type counts / m.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    dict of str to int
    """
    if report.corpus.get("chunks_per_type") is not None:
        return dict(report.corpus["chunks_per_type"])
    first: dict = next(iter(report.per_type.values()), {})
    return {t: (c["tp"] + c["fn"]) // report.m for t, c in sorted(first.items())}


def methods_paragraph(report: CompareReport) -> str:
    """A short methods paragraph for a paper (scores in percent, rope in points).

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    str
    """
    m = report.m
    names = report.names
    corpus = report.corpus
    level = f"{100 * (1 - report.alpha):g}%"
    tau, r = report.threshold, report.rope_points
    seed = report.seed
    sentences = f" ({corpus['sentences']:,} sentences)" if corpus.get("sentences") else ""
    imported = (" Their predictions were made outside textbcv, on the folds it exported."
                if report.meta.get("imported") else "")
    rope = (f", and practically equivalent when the probability that they differ by at most {points(r)} is at least "
            f"{tau:g}") if r is not None else ""
    by = f" by more than {points(r)}" if r is not None else ""
    return (f"We compared {and_list(names)} with {design_name(report)} (Wang, 2019): the corpus{sentences} was split "
            f"{m} times into two halves (seed {seed}; {unit_text(report)}; {balance_text(report)}), and each system "
            f"was trained on each half and tested on the other, {2 * m} test folds per system.{imported} Chunks were "
            "scored with conlleval's rules and their counts pooled over the folds. Precision, recall and F1 have "
            f"Beta-type posteriors from the pooled counts scaled by {variant_text(report)}, which allows for the "
            f"overlap between folds; intervals are equal-tailed {level} credible intervals. A system is called better "
            f"than another when the posterior probability that its F1 is higher{by} is at least {tau:g}{rope}. "
            f"{_with_space(difference_basis(report))}{results_sentence(report)}"
            f"Computed with textbcv {report.version}. Reference: {REFERENCE}.")


def _with_space(text: str) -> str:
    return f"{text} " if text else ""


def results_sentence(report: CompareReport) -> str:
    """The methods paragraph's results: each pair's F1 difference, its deciding interval, P and decision, from the
    report's values; "" without a comparison.

    Parameters
    ----------
    report : CompareReport

    Returns
    -------
    str
        Ends with a space when not empty.

    Examples
    --------
    >>> from textbcv.stats.answer import BayesAnswer, Comparison, Difference
    >>> d = Difference(-0.0091, (-0.0198, 0.0015), "paired", None, (-0.0178, -0.0004), 0.9)
    >>> c = Comparison("iob2", "iobes", "f1", 0.04, 0.96, "A better", difference=d)
    >>> answer = BayesAnswer(3, 0.05, {}, (c,), "thesis", {}, "exact", 0.95, None, 1.0, {})
    >>> text = results_sentence(CompareReport(answer))
    >>> text.split(", P(")
    ["Results on F1: iobes − iob2 = -0.91 points; the rule's 90% interval [-1.78, -0.04] lies below 0", \
'iobes better) = 0.040: iob2 better. ']
    """
    parts = []
    for c in report.comparisons_of("f1"):
        if c.undefined:
            parts.append(f"{c.a} vs {c.b}: undefined ({c.undefined})")
            continue
        words = decisive_words(c, report.rope_points)
        prefix = f"{words}, " if words else f"{c.a} vs {c.b}: "
        parts.append(f"{prefix}P({c.b} better) = {fmt_p(c.p_b_better)}: {verdict(c)}{caution_clause(c)}")
    return f"Results on F1: {'; '.join(parts)}. " if parts else ""
