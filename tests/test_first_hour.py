"""The first hour of a new user (issue 17, items 11-14): features that exist, progress off a terminal, safe
outputs, and a --help that documents every option.

Runs are tiny (the first 150 sentences of the bundled NER corpus, m = 1 or 2, a few CRF iterations); the
error cases that must leave nothing behind are in tests/test_bad_input.py.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from textbcv.cli import COMMANDS, build_parser, main
from textbcv.corpus import read_conll, write_conll
from textbcv.corpus.bundled import bundled_corpora
from textbcv.tagging import extract
from textbcv.tagging.features import TEMPLATES, feature_columns

ROOT = Path(__file__).resolve().parents[1]
TEXTBCV = [sys.executable, "-m", "textbcv"]


@pytest.fixture(scope="module")
def corpora(tmp_path_factory) -> dict[str, Path]:
    """The first 150 sentences of the bundled NER corpus, with 4 columns and with 2 (token, NER tag)."""
    d = tmp_path_factory.mktemp("corpora")
    sentences = read_conll(bundled_corpora()["ner"])[:150]
    write_conll(sentences, d / "four.conll")
    lines = []
    for line in (d / "four.conll").read_text(encoding="utf-8").splitlines():
        parts = line.split()
        lines.append(f"{parts[0]} {parts[-1]}" if parts else "")
    (d / "two.conll").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"four": d / "four.conll", "two": d / "two.conll"}


def compare(corpus: Path, out: Path, *extra: str, systems: str = "iob2,iobes", m: str = "1") -> list[str]:
    return ["compare", str(corpus), "--task", "ner", "--systems", systems, "--m", m, "--max-iterations", "3",
            "--no-plots", "--out", str(out), *extra]


# ------------------------------------------------------------------------------------------ 11. features that exist

def _constant_features(sentences, template) -> list[str]:
    """Feature names (the part before '=') that take one value on every token of ``sentences``."""
    values: dict[str, set] = defaultdict(set)
    for sent in extract(sentences, template):
        for token in sent:
            for f in token:
                name, _, value = f.partition("=")
                values[name].add(value)
    return sorted(n for n, v in values.items() if len(v) == 1 and n != "bias")


def test_two_column_corpus_uses_no_constant_column(corpora, tmp_path, capsys):
    assert main(compare(corpora["two"], tmp_path / "run")) == 0
    err = capsys.readouterr().err
    assert "textbcv: feature template ner-rich-words for iob2, iobes: " in err
    assert "the default ner-thesis reads a pos column, which the corpus does not have" in err
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    for spec in report["meta"]["systems"]:
        assert spec["template"]["name"] == "ner-rich-words"
        assert spec["template_choice"] == "default for a corpus without a pos column (ner-thesis reads it)"
    sentences = read_conll(corpora["two"], columns="token,ner")
    assert feature_columns(sentences) == frozenset()
    used = TEMPLATES[report["meta"]["systems"][0]["template"]["name"]]
    assert _constant_features(sentences, used) == []
    # what the old default saw on this corpus: every POS feature constant
    assert "pos[0]" in _constant_features(sentences, TEMPLATES["ner-thesis"])


def test_four_column_corpus_keeps_the_thesis_template(corpora, tmp_path, capsys):
    assert main(compare(corpora["four"], tmp_path / "run", systems="iob2,iobes+ner-rich-words")) == 0
    assert "feature template ner-thesis for iob2: " in capsys.readouterr().err
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert [(s["template"]["name"], s["template_choice"]) for s in report["meta"]["systems"]] == [
        ("ner-thesis", "default"), ("ner-rich-words", "given")]
    assert _constant_features(read_conll(corpora["four"]), TEMPLATES["ner-rich"]) == []


def test_python_front_door_fits_the_template_to_the_columns(corpora):
    import textbcv

    r = textbcv.compare(str(corpora["two"]), ["iob2", "iobes"], m=1, max_iterations=2, progress=False)
    assert {s["template"]["name"] for s in r.report.meta["systems"]} == {"ner-rich-words"}
    with pytest.raises(textbcv.InputError, match="feature template 'ner-rich' reads the chunk and pos columns"):
        textbcv.compare(str(corpora["two"]), ["iob2", "iob2+ner-rich"], m=1, max_iterations=2, progress=False)
    with pytest.raises(textbcv.InputError, match="feature template 'ner-thesis' reads the pos column"):
        textbcv.compare(str(corpora["two"]), [textbcv.parse_system("iob2"), "iobes"], m=1, progress=False)


# ------------------------------------------------------------------------------------------ 12. progress off a terminal

DURATION = r"(\d+ s|\d+ min \d\d s|\d+ h \d\d min)"
LINE = re.compile(rf"^textbcv: fold (\d+)/8 done \((iob2|iobes), split ([01]), direction ([01])\): F1 \d+\.\d\d%; "
                  rf"{DURATION} elapsed, (about {DURATION} left|done)$")


def test_progress_lines_when_stderr_is_a_file(corpora, tmp_path):
    log = tmp_path / "stderr.txt"
    with open(log, "w") as f:
        r = subprocess.run(TEXTBCV + compare(corpora["four"], tmp_path / "run", m="2"), stdout=subprocess.DEVNULL,
                           stderr=f)
    assert r.returncode == 0, log.read_text()
    lines = [x for x in log.read_text().splitlines() if x.startswith("textbcv: fold ")]
    assert len(lines) == 8, log.read_text()
    found = [LINE.match(x) for x in lines]
    assert all(found), lines
    assert [int(m.group(1)) for m in found] == list(range(1, 9))
    assert sorted((m.group(2), m.group(3), m.group(4)) for m in found) == sorted(
        (s, j, k) for s in ("iob2", "iobes") for j in "01" for k in "01")
    assert lines[-1].endswith(", done")


def test_quiet_silences_progress_and_notes(corpora, tmp_path):
    r = subprocess.run(TEXTBCV + compare(corpora["four"], tmp_path / "run", "--quiet"), capture_output=True, text=True)
    assert r.returncode == 0 and r.stderr == "" and r.stdout == ""


# ------------------------------------------------------------------------------------------ 13. safe outputs

def test_systems_with_spaces_are_two_systems(corpora, tmp_path):
    assert main(compare(corpora["four"], tmp_path / "run", "--quiet", systems=" iob2 , iobes")) == 0
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert list(report["systems"]) == ["iob2", "iobes"]


def test_folds_resumed_counts_only_folds_of_this_report(corpora, tmp_path):
    out = tmp_path / "run"
    assert main(compare(corpora["four"], out, "--quiet")) == 0
    # iob2's two folds are reused; iobes's two stay in folds.jsonl but are not part of this report
    assert main(compare(corpora["four"], out, "--quiet", "--resume", systems="iob2,bilou")) == 0
    run = json.loads((out / "report.json").read_text())["run"]
    assert (run["folds_resumed"], run["folds_trained"]) == (2, 2)
    assert main(compare(corpora["four"], out, "--quiet", "--resume", systems="iobes,bilou")) == 0
    run = json.loads((out / "report.json").read_text())["run"]
    assert (run["folds_resumed"], run["folds_trained"]) == (4, 0)


def test_out_may_be_a_run_an_empty_directory_or_hold_only_hidden_files(corpora, tmp_path):
    (tmp_path / "empty").mkdir()
    assert main(compare(corpora["four"], tmp_path / "empty", "--quiet")) == 0
    (tmp_path / "hidden").mkdir()
    (tmp_path / "hidden" / ".DS_Store").write_bytes(b"")
    assert main(compare(corpora["four"], tmp_path / "hidden", "--quiet")) == 0
    # a run with its own notes beside it is still a run: resumed
    (tmp_path / "empty" / "notes.txt").write_text("mine\n")
    assert main(compare(corpora["four"], tmp_path / "empty", "--quiet", "--resume")) == 0
    assert (tmp_path / "empty" / "notes.txt").read_text() == "mine\n"


def test_split_force_replaces_the_manifest(corpora, tmp_path):
    out = tmp_path / "s.json"
    out.write_text("old\n")
    assert main(["split", str(corpora["four"]), "--m", "1", "--out", str(out), "--force"]) == 0
    assert json.loads(out.read_text())["m"] == 1


def test_saved_predictions_are_in_the_systems_own_scheme(corpora, tmp_path):
    help_text = " ".join(_parsers()["compare"].format_help().split())
    assert "in the system's own tagging scheme" in help_text
    out = tmp_path / "run"
    assert main(compare(corpora["four"], out, "--quiet", "--save-predictions", systems="iob2,iobes")) == 0
    tags = {name: {line.split()[-1][:2] for line in (out / "predictions" / f"{name}-split0-dir0.txt").read_text(
        ).splitlines() if line.strip()} for name in ("iob2", "iobes")}
    gold = {name: {line.split()[-2][:2] for line in (out / "predictions" / f"{name}-split0-dir0.txt").read_text(
        ).splitlines() if line.strip()} for name in ("iob2", "iobes")}
    assert "S-" in gold["iobes"] and "E-" in gold["iobes"] and not gold["iob2"] & {"S-", "E-"}
    assert not tags["iob2"] & {"S-", "E-"}


def test_compare_has_every_variant_of_test(corpora, tmp_path):
    from textbcv.comparison.options import CompareOptions, TestOptions
    from textbcv.stats.compare import ALL_VARIANTS

    for variant in ALL_VARIANTS:  # both commands take every variant, checked by the one validation layer
        extra = {"rho1": 0.2, "rho2": 0.4} if variant == "rho" else {}
        CompareOptions(variant=variant, mode="strict", **extra).validate()
        TestOptions(variant=variant, **extra).validate()
    assert "rho" in ALL_VARIANTS
    out = tmp_path / "run"
    assert main(compare(corpora["four"], out, "--quiet", "--variant", "rho", "--rho1", "0.2", "--rho2", "0.4")) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["variant"] == "rho" and report["meta"]["options"]["rho1"] == 0.2


# ------------------------------------------------------------------------------------------ 14. --help of every command

def _parsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def _default_texts(value) -> set[str]:
    out = {str(value)}
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        out |= {f"{value:g}", f"{value:,}"}
    return out


def test_every_command_is_walked():
    assert set(_parsers()) == set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_has_help_with_its_default(command):
    p = _parsers()[command]
    formatter = p._get_formatter()
    for action in p._actions:
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            continue
        name = "/".join(action.option_strings) or action.dest
        assert action.help and action.help is not argparse.SUPPRESS, f"{command} {name}: no help text"
        text = formatter._expand_help(action)
        default = action.default
        if default in (None, False, argparse.SUPPRESS) or (isinstance(default, (tuple, list)) and not default):
            continue
        assert "default" in text and any(d in text for d in _default_texts(default)), (
            f"{command} {name}: the help does not give the default {default!r}: {text!r}")


def test_no_help_or_readme_points_to_shared():
    texts = [build_parser().format_help()] + [p.format_help() for p in _parsers().values()]
    for text in texts:
        assert "../shared" not in text and "shared/docs" not in text
    assert "../shared" not in (ROOT / "README.md").read_text(encoding="utf-8")


def test_words_only_default_is_the_measured_choice():
    """The default template of a NER corpus without POS is the one the committed comparison chose
    (scripts/words_template.py: docs/words_template.json), and it beat the memoriser on every corpus there."""
    from textbcv.tagging.system import DEFAULT_CHOICES

    evidence = json.loads((Path(__file__).resolve().parents[1] / "docs" / "words_template.json").read_text())
    words_only = next(n for n in DEFAULT_CHOICES["ner"] if not TEMPLATES[n].columns)
    assert words_only == evidence["choice"] == "ner-rich-words"
    assert set(evidence["beats_memoriser"]) == {"conll2003", "conll2002", "bundled"}
    assert all(evidence["beats_memoriser"].values())
