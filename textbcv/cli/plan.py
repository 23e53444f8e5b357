"""``textbcv plan RUN``: the F1 gains a finished comparison detects, and what more splits or more text would."""

from __future__ import annotations

import argparse
from pathlib import Path

from textbcv._io import dumps_json
from textbcv.cli.common import THRESHOLD_HELP, check_threshold
from textbcv.errors import InputError

__all__ = ["register", "run", "format_plan"]


def register(sub) -> None:
    """Add the subcommand's parser to ``sub``, its ``func`` set to :func:`run`.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subparsers of the ``textbcv`` parser.
    """
    p = sub.add_parser("plan", help="what gains a finished comparison detects, and what more splits or text would",
                       description="From a finished run (a pilot): the smallest true F1 gain the design calls better "
                       "with 50% and with --power probability, with more splits, and for --target-delta the power "
                       "now and the m or the amount of text that reaches it.")
    p.add_argument("dir", metavar="RUN", help="run directory written by textbcv compare or evaluate")
    p.add_argument("--target-delta", type=float, default=None, metavar="POINTS",
                   help="a gain in F1 points to plan for (e.g. 0.5)")
    p.add_argument("--power", type=float, default=0.8, help="the probability of calling the gain (default 0.8)")
    p.add_argument("--threshold", type=float, default=None,
                   help=THRESHOLD_HELP.replace("(default 0.95;", "(default: the run's own;"))
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=run)


def format_plan(plan: dict, stopping: dict | None = None) -> str:
    """The readable form of a plan, gains in F1 points.

    Parameters
    ----------
    plan : dict
        :meth:`textbcv.comparison.plan.Plan.to_dict`'s answer (gains as fractions).

    Returns
    -------
    str
        Ending in a newline.
    """
    pw = f"{100 * plan['power']:g}%"
    lines = [f"Gains called better (P ≥ {plan['threshold']:g}) with {pw} power, F1 points:", ""]
    if stopping and stopping.get("reason") and stopping.get("folds_per_system"):
        # what the pilot cost: compare's default design decides at m = 3 where it can, else trains on
        lines += [f"The run's design: {stopping['reason']} ({stopping['folds_per_system']} folds per system); "
                  "the gains below are at the m it ended with.", ""]
    for p in plan["pairs"]:
        fixed = p.get("design") == "fixed"
        where_now = "on the fixed split" if fixed else f"at m = {p['m']}"
        lines.append(f"{p['a']} vs {p['b']} ({p['b']} − {p['a']} = {100 * p['estimate']:+.2f} points {where_now}): "
                     f"{100 * p['detectable']:.2f} points ({100 * p['detectable_50']:.2f} with 50% power)")
        if p.get("floored"):
            lines.append(f"  the models' own noise measured 0 on these {2 * p['m']} folds: every gain here counts it "
                         "as 0, so each may be smaller than the design really detects")
        if p["by_m"]:
            lines.append("  with more splits: " + ", ".join(f"m = {k}: {100 * d:.2f}" for k, d in p["by_m"]))
        if p.get("by_seeds"):
            per = "per system" if fixed else "per fold"
            lines.append(f"  with more training seeds {per} (now {' and '.join(str(s) for s in p['seeds'])}), "
                         f"{where_now}: " + ", ".join(f"{k} seeds: {100 * d:.2f}" for k, d in p["by_seeds"]))
        if p["target"] is not None:
            t = 100 * p["target"]
            where = ("" if fixed else f"m = {p['m_for_target']} reaches it" if p["m_for_target"] is not None else
                     "more splits alone do not reach it (the sentences' own difficulty does not fall with m)")
            unit = "point" if t == 1 else "points"
            if p.get("seeds") is not None:
                per = "per system" if fixed else "per fold"
                seeds = ("more seeds alone do not reach it (the test text's part stays)"
                         if p["seeds_for_target"] is None else f"{p['seeds_for_target']} seeds {per} reach it")
                where = f"{where}; {seeds}" if where else seeds
            text = "test text" if fixed else "text"
            lines.append(f"  a gain of {t:g} {unit}: power {100 * p['power_at_target']:.0f}% now; {where}; about "
                         f"{p['data_factor']:.1f} times the {text} would reach it {where_now}")
    for u in plan["unpaired"]:
        lines.append(f"{u}: no paired posterior (the run's folds have no per-sentence counts): no plan")
    for u in plan.get("identical", ()):
        lines.append(f"{u}: the same chunk counts on every test sentence, so their difference has no measured "
                     "error to plan from: no plan (compare two systems that differ)")
    seeded = any(p.get("seeds") is not None for p in plan["pairs"])
    noise = ("the training halves (falls as 1/m) and the training seeds (falls as 1/m and as 1/seeds)" if seeded
             else "the models' own noise (1/m; with one seed per fold the seeds' part is not measured on its own: run "
             "several seeds to plan them)")
    if plan["pairs"] and all(p.get("design") == "fixed" for p in plan["pairs"]):
        lines += ["", "From the run's fixed-split posterior of ΔF1, taken as a pilot: the estimate errs by the test "
                  "text (falls as 1/n with more test text) and by the training seeds (falls as 1/seeds); the choice "
                  "of training set is not in it (one split cannot measure it)."]
        return "\n".join(lines) + "\n"
    lines += ["", "From the run's paired posterior of ΔF1, taken as a pilot: the estimate errs by new text (its part "
              f"that differs from model to model falls as 1/m, the sentences' own difficulty does not) and {noise}; "
              "every part falls as 1/n with more text (the related documents' part is taken to fall so too: more text "
              "also brings more documents that share names, and no run measures how that balances)."]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Run the subcommand on its parsed command line.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        Exit status 0; a user error raises :class:`~textbcv.errors.InputError`.
    """
    from textbcv.comparison.plan import plan_report
    from textbcv.folds.run_dir import RunDir

    run_dir = RunDir(Path(args.dir))
    run_dir.require("report.json", what="a finished `textbcv compare` or `evaluate` run directory")
    from textbcv._io import load_json

    report = load_json(run_dir.report_json)
    if not isinstance(report, dict) or "comparisons" not in report:
        raise InputError("not a textbcv report (no comparisons)", str(run_dir.report_json))
    if args.threshold is not None:
        check_threshold(args.threshold)
    target = None if args.target_delta is None else args.target_delta / 100
    plan = plan_report(report, power=args.power, threshold=args.threshold, target=target).to_dict()
    if not plan["pairs"] and plan.get("identical"):
        raise InputError(f"{', '.join(plan['identical'])}: the same chunk counts on every test sentence, so their "
                         "difference has no measured error to plan from; plan a run of two systems that differ",
                         str(run_dir.report_json))
    if not plan["pairs"]:
        raise InputError("no pair of this run has a paired posterior (folds without per-sentence counts: a run of an "
                         "older textbcv); run `textbcv report --redraw` or compare again", str(run_dir.report_json))
    print(dumps_json(plan), end="") if args.json else print(format_plan(plan, report.get("stopping")), end="")
    return 0
