"""One direction, named: every written difference "X − Y" carries the sign of F1(X) − F1(Y), whichever order the
systems were given in, in report.md, report.json, the plots' titles and labels, the terminal answer, plan and test."""

from __future__ import annotations

import json
import re

import pytest

from textbcv.cli import main

WRITTEN = re.compile(r"([\w@+.-]+) − ([\w@+.-]+)(?: =|:) ([+\-−]?\d+\.\d+)")


def _signs(text: str, f1: dict) -> list[tuple[str, str, float]]:
    """Every written ``X − Y = v`` whose sign is not that of F1(X) − F1(Y)."""
    wrong = []
    for x, y, v in WRITTEN.findall(text):
        if x in f1 and y in f1:
            value = float(v.replace("−", "-"))
            if abs(value) >= 0.01 and (value > 0) != (f1[x] > f1[y]):
                wrong.append((x, y, value))
    return wrong


def _figure_texts(fig) -> str:
    """Every title, label, legend entry and free text of a matplotlib figure, one per line."""
    out = [fig._suptitle.get_text()] if fig._suptitle is not None else []
    for ax in fig.axes:
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()] + [t.get_text() for t in ax.texts]
        legend = ax.get_legend()
        if legend is not None:
            out += [t.get_text() for t in legend.get_texts()]
    out += [t.get_text() for t in fig.texts]
    return "\n".join(x for x in out if x)



@pytest.mark.parametrize("order", [("iob2", "iobes"), ("iobes", "iob2")])
def test_every_written_difference_has_the_sign_of_its_names(tmp_path, capsys, order, monkeypatch, ner_small):
    from matplotlib.figure import Figure

    drawn: list[str] = []
    save = Figure.savefig

    def savefig(fig, *args, **kwargs):  # the plots' words, read as they are saved
        drawn.append(_figure_texts(fig))
        return save(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", savefig)
    run = tmp_path / "run"
    assert main(["compare", str(ner_small), "--task", "ner", "--systems", ",".join(order), "--m", "2",
                 "--max-iterations", "10", "--out", str(run)]) == 0
    short = capsys.readouterr().out
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    f1 = {n: s["f1"]["estimate"] for n, s in report["systems"].items()}
    assert f1[order[0]] != f1[order[1]]
    plots = "\n".join(drawn)
    # the plots write their difference as an axis, "F1(second) − F1(first)", in the order the systems were given,
    # and P(X better) on the side of X's F1
    axes = re.findall(r"F1\(([\w@+.-]+)\) − F1\(([\w@+.-]+)\)", plots)
    assert axes and set(axes) == {(order[1], order[0])}
    probs = re.findall(r"P\(([\w@+.-]+) better\) = (\d\.\d+)", plots)
    assert probs
    for x, v in probs:
        other = order[1] if x == order[0] else order[0]
        assert (float(v) > 0.5) == (f1[x] > f1[other]), (x, v)
    texts = {"short": short, "report.md": (run / "report.md").read_text(encoding="utf-8"), "plots": plots}
    for argv in (["plan", str(run)], ["test", str(run)], ["report", str(run), "--full"]):
        assert main(argv) == 0
        texts[argv[0]] = capsys.readouterr().out
    found = sum(len(WRITTEN.findall(t)) for t in texts.values())
    assert found >= 3  # the conclusion, the sequential sentence, ...
    for name, text in texts.items():
        assert not _signs(text, f1), (name, _signs(text, f1))
    for c in report["comparisons"]:  # report.json: every difference is b − a of its comparison
        if c["metric"] == "f1":
            assert (c["difference"]["estimate"] > 0) == (f1[c["b"]] > f1[c["a"]])
            assert (c["a"], c["b"]) == order
