"""report.tex sets every character the report's own words use (no ``?`` stands for one), and says which
characters of the user's names it could not set."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from textbcv.report.methods import methods_paragraph
from textbcv.report.model import CompareReport
from textbcv.report.tex import render_tex, tex_escape, unset_characters

PACKAGE = Path(__file__).resolve().parents[1] / "textbcv"
#: Where the words of reports come from (string constants, and the measured figures' sentences).
PROSE = ["report", "comparison", "stats", "calibration", "defaults.py", "api.py"]
GOLDEN = Path(__file__).resolve().parent / "data" / "golden"


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_every_character_of_the_reports_words_is_set():
    texts: list[tuple[str, str]] = []
    for place in PROSE:
        root = PACKAGE / place
        for path in ([root] if root.suffix == ".py" else sorted(root.rglob("*.py"))):
            if path.name == "escape.py":  # its tables name the characters it sets
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                          if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef)) and n.body
                          and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                    texts.append((f"{path.relative_to(PACKAGE)}:{node.lineno}", node.value))
    for path in sorted((PACKAGE / "data").glob("*.json")):
        texts += [(path.name, s) for s in _strings(json.loads(path.read_text(encoding="utf-8")))]
    unset = {(where, ch) for where, text in texts for ch in unset_characters(text)}
    assert not unset, sorted(unset)[:20]


def test_greek_accents_and_indices_are_math_or_accent_commands():
    assert tex_escape("Δ = 0.2, ε_min, ω²") == r"$\Delta$ = 0.2, $\epsilon$\_min, $\omega$\textsuperscript{2}"
    assert tex_escape("Š Ĉ ñ") == r"\v{S} \^{C} ñ"  # ñ is Latin-1: inputenc sets it as it is
    assert tex_escape("Α Ο ο") == "A O o"  # Greek capitals without a macro of their own look like Latin ones
    assert "?" not in tex_escape("".join(chr(c) for c in range(0x391, 0x3CA) if c != 0x3A2))
    assert tex_escape("Var(μ̂), x̄") == r"Var($\hat{\mu}$), \={x}"  # combining accents over what precedes them


def test_golden_reports_have_no_substituted_character():
    for tex in sorted(GOLDEN.glob("*/report.tex.golden")):
        text = tex.read_text(encoding="utf-8")
        assert "?" not in text, tex
        assert "pdflatex cannot set" not in text


def test_names_it_cannot_set_are_said_at_the_top():
    f1 = {"estimate": .8, "ci": [.78, .82], "interval": "equal-tailed"}
    report = CompareReport.from_dict({"m": 3, "systems": {n: {k: f1 for k in ("precision", "recall", "f1")}
                                                          for n in ("北京", "δ-tagger")}, "comparisons": []})
    lines = render_tex(report).splitlines()
    assert lines[2].startswith("% pdflatex cannot set 北, 京 (in the report's values)")
    assert any(line.startswith("?? & 80.00") for line in lines)
    assert any(line.startswith(r"$\delta$-tagger & 80.00") for line in lines)


def test_methods_paragraph_describes_the_paired_difference_and_ends_with_the_results():
    """The paragraph a paper pastes says how the difference that decides was built and what it gave, from the
    values of report.json (the golden run's), in report.md and report.tex alike."""
    for run in ("ner", "cws"):
        data = json.loads((GOLDEN / run / "report.json.golden").read_text(encoding="utf-8"))
        report = CompareReport.from_dict(data)
        paragraph = methods_paragraph(report)
        assert "Differences are paired" in paragraph and "Student t with 2m − 1 degrees of freedom" in paragraph
        results = paragraph.split("Results on F1: ")[1].split(". Computed with")[0]
        for c in (c for c in data["comparisons"] if c["metric"] == "f1"):
            d = c["difference"]
            lo, hi = d["decisive"]["interval"]
            assert (f"{c['b']} − {c['a']} = {100 * d['estimate']:+.2f} points; the rule's "
                    f"{100 * d['decisive']['level']:g}% interval [{100 * lo:+.2f}, {100 * hi:+.2f}]") in results
            assert f"P({c['b']} better) = {c['p_b_better']:.3f}" in results
            side = {"A better": c["a"], "B better": c["b"]}.get(c["decision"])
            assert results.endswith(f"{side} better" if side else "no clear difference")
        md = (GOLDEN / run / "report.md.golden").read_text(encoding="utf-8")
        assert f"Results on F1: {results}. Computed with" in md  # (the golden JSON's keys are sorted: not its order)
        tex = (GOLDEN / run / "report.tex.golden").read_text(encoding="utf-8")
        assert r"\paragraph{Methods.}" in tex and "Results on F1: " in tex
