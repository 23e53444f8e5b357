"""The text of ``textbcv test``: the answer's tables (P, R and F1 in percent, probabilities as fractions), the
per-type table and the textbook tests, worded as the report words them (:mod:`textbcv.report.verdicts`)."""

from __future__ import annotations

__all__ = ["format_table"]

METRICS = ("precision", "recall", "f1")


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.2f}"


def _table(rows: list[list[str]], right: set[int] | frozenset[int] = frozenset()) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join((c.rjust(w) if i in right else c.ljust(w)) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in rows]


def format_table(result: dict) -> str:
    """The readable form of a ``test`` answer: P, R and F1 in percent, probabilities as fractions, decisions
    worded by :mod:`textbcv.report.verdicts` (the report's words).

    Parameters
    ----------
    result : dict
        The JSON object of ``textbcv test --json``: the Bayes answer's keys, ``sequential``, and optionally
        ``per_type``, ``per_type_comparisons``, ``classic`` and ``notes``.

    Returns
    -------
    str
        The text, ending in a newline.
    """
    from textbcv.report.markdown import score_cell
    from textbcv.report.model import CompareReport
    from textbcv.report.verdicts import (
        difference_basis,
        fmt_p,
        rope_points,
        rule,
        sequential_words,
        verdict,
    )

    answer = CompareReport.coerce(result)  # read once: the renderers take the typed value
    alpha = answer.alpha
    lines = [f"m = {answer.m}, {100 * (1 - alpha):g}% credible intervals, "
             f"count factor: {answer.variant} (P, R, F1 in %)", ""]
    rows = [["system", "metric", "estimate", "interval"]]
    for name, per in answer.systems.items():
        for metric, v in per.items():
            if v.estimate is None:
                rows.append([name, metric, "—", f"undefined: {v.undefined}"])
            else:
                est, _, ci = score_cell(v).partition(" ")
                rows.append([name, metric, est, ci])
    lines += _table(rows, {2}) + [""]
    if any(v.interval == "one-sided" for per in answer.systems.values() for v in per.values()):
        lines += ["† one-sided interval: a score at or near 0 or 100%, where the equal-tailed one would not hold "
                  "it", ""]
    rope = rope_points(answer)
    by = f" by > {rope:g}" if rope is not None else ""
    head = ["A", "B", "metric", "Δ (B − A)", f"{100 * (1 - alpha):g}% interval", f"P(B better{by})",
            f"P(A better{by})"] + (["P(equiv.)"] if rope is not None else []) + ["decision"]
    rows = [head]
    for c in answer.comparisons:
        d = c.difference
        delta = ["—", "—"] if d is None else [f"{100 * d.estimate:+.2f}",
                                               f"[{100 * d.ci[0]:+.2f}, {100 * d.ci[1]:+.2f}]"]
        rows.append([c.a, c.b, c.metric, *delta, fmt_p(c.p_b_better, 4), fmt_p(c.p_a_better, 4)]
                    + ([fmt_p(c.p_equivalent, 4)] if rope is not None else [])
                    + [f"undefined: {c.undefined}" if c.undefined else verdict(c)])
    lines += _table(rows, {3, 5, 6, 7} if rope is not None else {3, 5, 6})
    lines += ["", rule(answer)]
    basis = difference_basis(answer)
    if basis:
        lines += ["", "Δ in points. " + basis]
    if answer.answer.family_wise is not None:
        lines += ["", "note: " + answer.answer.family_wise["note"]]
    if answer.sequential:
        metric = answer.sequential[0].metric
        lines += ["", f"Sequential t-test on per-fold {_label(metric)} differences (B − A, points), α = {alpha:g}:"]
        rows = [["A", "B", "mean difference", f"{100 * (1 - alpha):g}% CI", f"t-test (α = {alpha:g})"]]
        for sp in answer.sequential:
            rows.append([sp.a, sp.b, f"{100 * sp.estimate:+.2f}",
                         f"[{100 * sp.ci[0]:+.2f}, {100 * sp.ci[1]:+.2f}]", sequential_words(sp)])
        lines += _table(rows, {2})
    if "per_type" in result:
        lines += ["", *_per_type_text(result)]
    if "classic" in result:
        lines += ["", *_classic_text(result["classic"], result)]
    for note in result.get("notes", []):
        lines += ["", "note: " + note]
    return "\n".join(lines) + "\n"


def _label(metric: str) -> str:
    return {"f1": "F1", "precision": "precision", "recall": "recall"}[metric]


def _per_type_text(result: dict) -> list[str]:
    from textbcv.report.verdicts import fmt_p

    pt, tests = result["per_type"], result["per_type_comparisons"]
    names = list(pt)
    pairs = [(c["a"], c["b"]) for c in next(iter(tests.values()), [])]
    head = ["type"] + [f"{n} P / R / F1" for n in names] + [f"P({b} better) F1 vs {a}" for a, b in pairs]
    rows = [head]
    for t in sorted(tests):
        row = [t or "(untyped)"]
        for n in names:
            c = pt[n][t]
            row.append(" / ".join(_pct(c[k]) for k in METRICS))
        row += [fmt_p(c["p_b_better"], 4) for c in tests[t]]
        rows.append(row)
    return ["Per-type scores (pooled over folds, %) and the Bayes test on each type's F1:",
            *_table(rows, set(range(1 + len(names), len(head))))]


def _classic_text(c: dict, result: dict) -> list[str]:
    from textbcv.report.markdown import format_p as p
    from textbcv.report.markdown import format_statistic

    m = c["m"]
    out = [f"Textbook tests on per-fold {_label(c['metric'])} differences (B − A; m = {m}, {2 * m} folds):"]
    rows = [["A", "B", "test", "statistic", "p-value"]]
    seen: dict[str, tuple[str, str]] = {}
    for pair in c["pairs"]:
        for r in pair["tests"]:
            rows.append([pair["a"], pair["b"], r["name"], format_statistic(r), p(r)])
            seen.setdefault(r["name"], (r["form"], r["assumption"]))
    out += _table(rows, {4})
    fr = c["friedman"]
    if fr:
        names = list(result["systems"])
        out += ["", f"Friedman test over the {fr['n']} folds (blocks) × {fr['k']} systems, rank 1 = best "
                    f"{_label(c['metric'])}:",
                "  average ranks: " + ", ".join(f"{n} {r:.2f}" for n, r in zip(names, fr["average_ranks"]))]
        for r in (fr["chi2"], fr["iman_davenport"]):
            out.append(f"  {r['name']}: "
                       "" + (format_statistic(r) if r["undefined"] else f"{format_statistic(r)}, p = {p(r)}"))
            seen.setdefault(r["name"], (r["form"], r["assumption"]))
        differ = [f"{names[i]}–{names[j]}" for i, j in fr["nemenyi_differing_pairs"]]
        out.append(f"  Nemenyi critical difference (α = {fr['alpha']:g}): {fr['nemenyi_cd']:.3f}; pairs whose average "
                   f"ranks differ by more: {', '.join(differ) or 'none'}")
    mc = c["mcnemar"]
    if mc:
        out += ["", f"McNemar on split {mc['split']} direction {mc['direction']}, {mc['units']} {mc['decisions']} "
                    f"units — {mc['unit_definition']}:"]
        rows = [["A", "B", "b (A right, B wrong)", "c (A wrong, B right)", "test", "statistic", "p-value"]]
        for pair in mc["pairs"]:
            for r in pair["tests"]:
                rows.append([pair["a"], pair["b"], str(r["b"]), str(r["c"]), r["name"], format_statistic(r), p(r)])
                seen.setdefault(r["name"], (r["form"], r["assumption"]))
        out += _table(rows, {2, 3, 6})
    skipped = [(s["test"], s["reason"]) for s in c["pairs"][0]["not_applicable"]] + \
              [(s["test"], s["reason"]) for s in c["not_applicable"]]
    if skipped:
        out += ["", "Not run:"] + [f"  {name}: {why}" for name, why in skipped]
    out += ["", "Forms and assumptions:"]
    for name, (form, assumption) in seen.items():
        out += [f"  {name}: {form}.", f"    assumes {assumption}."]
    out += ["", c["note"]]
    return out
