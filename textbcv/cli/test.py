"""``textbcv test COUNTS.json``: Bayes test of precision, recall and F1 from per-fold counts.

Reads the COUNTS.json of CONTRACT.md (``{"m": 3, "systems": {"A": [{"tp":
.., "fp": .., "fn": ..}, ... 2m folds], ...}}``) or a ``folds.jsonl`` written
by ``textbcv compare`` (one fold per line). Prints a table, or with
``--json`` the answer of :func:`textbcv.stats.compare.compare_counts`.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from textbcv._io import JSON_HINT, _show, dumps_json, json_count, loads_json, read_text
from textbcv.errors import InputError

# The choices of textbcv.stats.compare, repeated here so that `textbcv --help` and the other commands
# do not import scipy.stats (a second of start-up); tests/test_cli_basics.py checks they agree.
ALL_VARIANTS = ("thesis", "independent", "averaged-counts", "rho", "adaptive")
METHODS = ("exact", "monte-carlo", "both")

__all__ = ["register", "run", "read_counts_json", "read_folds_jsonl", "format_table"]


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "test", help="Bayes test of precision/recall/F1 from per-fold counts",
        description="Posteriors, credible intervals and P(B better) for precision, recall and F1 of every "
                    "pair of systems, from per-fold TP/FP/FN of an m×2 BCV run (COUNTS.json or folds.jsonl).")
    p.add_argument("counts", metavar="COUNTS.json", help="COUNTS.json (CONTRACT.md) or a folds.jsonl of `textbcv compare`")
    p.add_argument("--alpha", type=float, default=0.05, help="1 − credibility of the intervals (default 0.05)")
    p.add_argument("--rope", type=float, default=None, help="region of practical equivalence, in metric units (e.g. 0.005)")
    p.add_argument("--threshold", type=float, default=None,
                   help="decide only if a probability exceeds this (default: the larger probability wins)")
    p.add_argument("--variant", choices=ALL_VARIANTS, default="thesis",
                   help="count factor: thesis c_m (default), independent (ρ=0), averaged-counts (ρ=1), rho, adaptive")
    p.add_argument("--rho1", type=float, default=None, help="ρ1 for --variant rho")
    p.add_argument("--rho2", type=float, default=None, help="ρ2 for --variant rho")
    p.add_argument("--method", choices=METHODS, default="exact", help="exact quadrature (default), monte-carlo, or both")
    p.add_argument("--draws", type=int, default=10**6, help="Monte Carlo draws L (default 10^6)")
    p.add_argument("--seed", type=int, default=0, help="Monte Carlo seed (default 0)")
    p.add_argument("--type", dest="chunk_type", default=None,
                   help="folds.jsonl only: test the counts of one chunk type (counts.types.TYPE) instead of overall")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=run)


# --- locating things in a JSON text, for error messages ---------------------------------
def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _skip_string(text: str, i: int) -> int:
    i += 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return i


def _element_positions(text: str, start: int) -> list[int]:
    """Start offsets of the elements of the JSON array whose '[' is at or after ``start``."""
    i = text.find("[", start)
    if i < 0:
        return []
    out, depth, i = [], 0, i + 1
    expect = True
    while i < len(text):
        ch = text[i]
        if ch == '"':
            if depth == 0 and expect:
                out.append(i)
                expect = False
            i = _skip_string(text, i)
            continue
        if ch in " \t\r\n":
            i += 1
            continue
        if depth == 0 and ch == "]":
            break
        if depth == 0 and ch == ",":
            expect = True
        elif depth == 0 and expect:
            out.append(i)
            expect = False
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        i += 1
    return out


def _system_line(text: str, name: str, fold: int | None = None) -> int | None:
    m = re.search(r'"' + re.escape(json.dumps(name)[1:-1]) + r'"\s*:', text)
    if not m:
        return None
    if fold is None:
        return _line_of(text, m.start())
    pos = _element_positions(text, m.end())
    return _line_of(text, pos[fold]) if fold < len(pos) else _line_of(text, m.start())


def _check_count(v: Any, what: str, file: str, line: int | None) -> int:
    return json_count(v, what, file, line)


def _read_text(path: str) -> str:
    """The UTF-8 text of ``path`` (one loader for every file textbcv reads: textbcv._io)."""
    return read_text(path, hint=JSON_HINT)


def _loads(text: str, file: str, line: int | None = None) -> Any:
    return loads_json(text, file, line)


def read_counts_json(path: str) -> tuple[int, dict[str, list[dict[str, int]]]]:
    """Read and validate COUNTS.json; return (m, {system: [{"tp", "fp", "fn"}, ...]})."""
    file = str(path)
    text = _read_text(path)
    data = _loads(text, file)
    if not isinstance(data, dict):
        raise InputError('expected a JSON object {"m": M, "systems": {...}}', file, 1)
    for key in ("m", "systems"):
        if key not in data:
            raise InputError(f'missing key "{key}"', file, 1)
    m = data["m"]
    mline = _line_of(text, text.find('"m"')) if '"m"' in text else 1
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise InputError(f'"m" must be an integer >= 1, got {_show(m)}', file, mline)
    systems = data["systems"]
    sline = _line_of(text, text.find('"systems"'))
    if not isinstance(systems, dict):
        raise InputError('"systems" must be an object {NAME: [folds...]}', file, sline)
    if len(systems) < 2:
        raise InputError(f"need at least 2 systems to compare, got {len(systems)}", file, sline)
    out = {}
    for name, folds in systems.items():
        line = _system_line(text, name)
        if not isinstance(folds, list):
            raise InputError(f"system {name!r}: expected a list of 2m = {2 * m} folds", file, line)
        if len(folds) != 2 * m:
            raise InputError(f"system {name!r}: expected 2m = {2 * m} folds for m = {m}, got {len(folds)}", file, line)
        rows = []
        for i, f in enumerate(folds):
            fline = _system_line(text, name, i)
            if not isinstance(f, dict):
                raise InputError(f'system {name!r}, fold {i}: expected {{"tp": .., "fp": .., "fn": ..}}', file, fline)
            missing = [k for k in ("tp", "fp", "fn") if k not in f]
            if missing:
                raise InputError(f"system {name!r}, fold {i}: missing key(s) {', '.join(missing)}", file, fline)
            rows.append({k: _check_count(f[k], f"system {name!r}, fold {i}: {k}", file, fline) for k in ("tp", "fp", "fn")})
        out[name] = rows
    return m, out


def read_folds_jsonl(path: str, chunk_type: str | None = None) -> tuple[int, dict[str, list[dict[str, int]]]]:
    """Read a folds.jsonl of ``textbcv compare``; return (m, {system: 2m folds in CONTRACT order}).

    The records are read and checked by :func:`textbcv.foldfile.read_fold_records` (the one parser
    of the format; a torn last line is left out). A fold recorded twice must have equal counts.
    """
    from textbcv.foldfile import read_fold_records

    file = str(path)
    found: dict[str, dict[tuple[int, int], tuple[dict, int]]] = {}
    for no, obj in read_fold_records(path):
        system, split, direction = obj["system"], obj["split"], obj["direction"]
        counts = obj["counts"]
        where = "counts.overall" if chunk_type is None else f"counts.types.{chunk_type}"
        if chunk_type is None:
            c = counts["overall"]
        else:
            types = counts.get("types")
            if not isinstance(types, dict):
                raise InputError('missing "counts.types"', file, no)
            c = types.get(chunk_type, {"tp": 0, "fp": 0, "fn": 0})
        row = {k: _check_count(c[k], f"{where}.{k}", file, no) for k in ("tp", "fp", "fn")}
        prev = found.setdefault(system, {}).get((split, direction))
        if prev is not None and prev[0] != row:
            raise InputError(f"system {system!r}, split {split}, direction {direction} recorded twice with different "
                             f"counts (first on line {prev[1]})", file, no)
        found[system][(split, direction)] = (row, no)
    if len(found) < 2:
        raise InputError(f"need at least 2 systems to compare, got {len(found)}", file)
    m = max(s for folds in found.values() for s, _d in folds) + 1
    out = {}
    for system, folds in found.items():
        n_missing = 2 * m - len(folds)
        if n_missing:
            # (lazily: a corrupt "split" can make m huge)
            missing = [f"split {s} direction {d}" for s, d in
                       itertools.islice(((s, d) for s in range(m) for d in (0, 1) if (s, d) not in folds), 5)]
            raise InputError(f"system {system!r}: {n_missing} of 2m = {2 * m} folds missing "
                             f"({', '.join(missing[:4])}{', ...' if n_missing > 4 else ''})", file)
        out[system] = [folds[(s, d)][0] for s in range(m) for d in (0, 1)]
    return m, out


def format_table(result: dict) -> str:
    """The readable form of a ``compare_counts`` answer."""
    alpha = result["alpha"]
    lines = [f"m = {result['m']}, {100 * (1 - alpha):g}% equal-tailed credible intervals, "
             f"count factor: {result['variant']}"]
    names = list(result["systems"])
    width = max(6, *(len(n) for n in names))
    lines.append("")
    lines.append(f"{'system':<{width}}  {'metric':<9}  {'estimate':>8}  {'interval':<19}")
    for name in names:
        for metric, v in result["systems"][name].items():
            lo, hi = v["ci"]
            lines.append(f"{name:<{width}}  {metric:<9}  {v['estimate']:8.4f}  [{lo:.4f}, {hi:.4f}]")
    lines.append("")
    rope = result.get("rope")
    head = f"{'A':<{width}}  {'B':<{width}}  {'metric':<9}  {'P(B better)':>11}  {'P(A better)':>11}"
    if rope:
        head += f"  {'P(equiv.)':>9}"
    lines.append(head + "  decision")
    for c in result["comparisons"]:
        row = f"{c['a']:<{width}}  {c['b']:<{width}}  {c['metric']:<9}  {c['p_b_better']:11.4f}  {c['p_a_better']:11.4f}"
        if rope:
            row += f"  {c['p_equivalent']:9.4f}"
        lines.append(row + f"  {c['decision']}")
    if rope:
        lines.append(f"(rope = {rope:g}: 'better' means better by more than the rope)")
    if "family_wise" in result:
        lines.append("")
        lines.append("note: " + result["family_wise"]["note"])
    return "\n".join(lines) + "\n"


def run(args) -> int:
    path = args.counts
    if str(path).endswith(".jsonl"):
        m, systems = read_folds_jsonl(path, args.chunk_type)
    else:
        if args.chunk_type is not None:
            raise InputError("--type applies to a folds.jsonl only", path)
        m, systems = read_counts_json(path)
    if not 0 < args.alpha < 1:
        raise InputError(f"--alpha must lie in (0, 1), got {args.alpha}")
    if args.rope is not None and not 0 <= args.rope < 1:
        raise InputError(f"--rope must lie in [0, 1), got {args.rope}")
    if args.threshold is not None and not 0 <= args.threshold < 1:
        raise InputError(f"--threshold must lie in [0, 1), got {args.threshold}")
    if args.variant == "rho" and (args.rho1 is None or args.rho2 is None):
        raise InputError("--variant rho needs --rho1 and --rho2")
    if args.draws < 1:
        raise InputError(f"--draws must be at least 1, got {args.draws}")
    try:
        from textbcv.stats.compare import compare_counts

        result = compare_counts(systems, m, alpha=args.alpha, rope=args.rope, method=args.method,
                                variant=args.variant, rho1=args.rho1, rho2=args.rho2, threshold=args.threshold,
                                draws=args.draws, seed=args.seed)
    except ValueError as e:
        raise InputError(str(e), path) from None
    print(dumps_json(result), end="") if args.json else print(format_table(result), end="")
    return 0
