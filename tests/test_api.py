"""The Python front door: ``import textbcv`` gives the workflow, with the CLI's validation."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import textbcv
from textbcv.cli import main
from textbcv.corpus import read_corpus, write_conll
from textbcv.corpus.bundled import bundled_corpora
from textbcv.errors import InputError
from textbcv.tagging import LexiconTagger


def test_public_names():
    for name in ("read_corpus", "make_splits", "load_splits", "Mx2BCV", "score", "System", "compare", "evaluate",
                 "CompareResult", "export_folds", "Corpus", "Sentence"):
        assert getattr(textbcv, name) is not None, name
        assert name in dir(textbcv)
    with pytest.raises(AttributeError):
        textbcv.no_such_thing  # noqa: B018


def test_import_is_light_and_sklearn_only_when_asked():
    code = ("import sys, textbcv; a = sorted(m for m in ('scipy', 'sklearn', 'matplotlib') if m in sys.modules); "
            "textbcv.compare; b = 'sklearn' in sys.modules; textbcv.Mx2BCV; print(a, b, 'sklearn' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.split() == ["[]", "False", "True"], r.stderr


class Refuses:
    """A tagger that must never be trained (the options are checked first)."""

    def fit(self, sentences, tags):
        raise AssertionError("trained despite a bad option")

    def predict(self, sentences):
        raise AssertionError("predicted despite a bad option")


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    d = tmp_path_factory.mktemp("api")
    p = d / "ner.conll"
    write_conll(read_corpus(bundled_corpora()["ner"])[:200], p)
    return p


@pytest.mark.parametrize("kw, what", [
    ({"variant": "thesis2"}, "variant: unknown variant 'thesis2'"),
    ({"alpha": 0}, "alpha must lie strictly between 0 and 1"),
    ({"task": "pos"}, "task: unknown task 'pos'"),
    ({"m": 0}, "m must be at least 1"),
    ({"max_iterations": 0}, "max_iterations must be at least 1, got 0"),
    ({"variant": "rho", "rho1": 0.2}, 'variant="rho" needs rho1 and rho2'),
    ({"sequential": True, "m_max": 2}, "m_max must be at least 3"),
    ({"colour": "red"}, "unknown option 'colour'"),
    ({"chunk_types": ["ORGANISATION"]}, "chunk_types: no chunks of type ORGANISATION"),
    ({"format": "conllu"}, 'format="conllu" does not fit this file'),
    ({"jobs": 0}, "jobs must be at least 1"),
])
def test_bad_options_fail_before_training(small, kw, what):
    """Errors from Python name the Python parameters (`m`, `max_iterations`), never the command's options."""
    systems = [textbcv.System("a", "iob2", tagger=Refuses()), textbcv.System("b", "iobes", tagger=Refuses)]
    with pytest.raises(InputError, match=re.escape(what)) as e:
        textbcv.compare(small, systems, **kw)
    assert "--" not in str(e.value)


@pytest.mark.parametrize("argv, python, cli", [
    (["--m", "0"], {"m": 0}, "--m must be at least 1, got 0"),
    (["--max-iterations", "0"], {"max_iterations": 0}, "--max-iterations must be at least 1, got 0"),
    (["--variant", "rho", "--rho1", "0.2"], {"variant": "rho", "rho1": 0.2}, "--variant rho needs --rho1 and --rho2"),
    (["--sequential", "--m-max", "2"], {"sequential": True, "m_max": 2},
     "--m-max must be at least 3 (the sequential test starts at m = 3), got 2"),
    (["--chunk-types", "ORGANISATION"], {"chunk_types": ["ORGANISATION"]}, "--chunk-types: no chunks of type "
                                                                           "ORGANISATION"),
])
def test_one_validation_two_wordings(small, tmp_path, capsys, argv, python, cli):
    """The same check words its error in Python parameters from Python and in the command's options from the CLI."""
    with pytest.raises(InputError) as e:
        textbcv.compare(small, ["iob2", "iobes"], **python)
    assert "--" not in str(e.value)
    assert main(["compare", str(small), "--task", "ner", "--systems", "iob2,iobes", *argv, "--out",
                 str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("textbcv: error: ") and cli in err, err
    assert not (tmp_path / "run").exists()


def test_sklearn_splitter_and_split_options_name_python_parameters():
    from textbcv.split.sklearn import Mx2BCV

    with pytest.raises(InputError, match="^m must be at least 1, got 0$"):
        list(Mx2BCV(m=0).split(np.zeros((8, 1))))
    with pytest.raises(InputError, match="^seed must be a non-negative integer, got -1$"):
        textbcv.make_splits(textbcv.read_corpus(bundled_corpora()["ner"])[:20], m=1, seed=-1)


def test_bad_systems_fail_before_training(small):
    with pytest.raises(InputError, match="unknown tagging scheme 'iob9'"):
        textbcv.compare(small, [textbcv.System("a", "iob2", tagger=Refuses()),
                                textbcv.System("b", "iob9", tagger=Refuses())])
    with pytest.raises(InputError, match="unknown tagging scheme 'iob9'"):
        textbcv.compare(small, ["iob2", "iob9"])
    with pytest.raises(InputError, match="the tagger must have fit"):
        textbcv.System("a", "iob2", tagger=object())
    with pytest.raises(InputError, match="at least two systems"):
        textbcv.compare(small, [textbcv.System("a", "iob2", tagger=Refuses())])
    with pytest.raises(InputError, match="named twice"):
        textbcv.compare(small, [textbcv.System("a", "iob2", tagger=Refuses()),
                                textbcv.System("a", "iobes", tagger=Refuses())])


def test_compare_in_python_equals_the_command(small, tmp_path):
    """String systems run the CRFs of `textbcv compare`; the result is its run directory."""
    r = textbcv.compare(small, ["iob2", "iobes"], m=1, max_iterations=5, progress=False)
    assert main(["compare", str(small), "--task", "ner", "--systems", "iob2,iobes", "--m", "1", "--max-iterations", "5",
                 "--quiet", "--no-plots", "--out", str(tmp_path / "cli")]) == 0
    cli = json.loads((tmp_path / "cli" / "report.json").read_text())
    mine = r.to_dict()
    assert {k: v for k, v in cli.items() if k != "run"} == {k: v for k, v in mine.items() if k != "run"}
    r.write(tmp_path / "py", plots=False)
    assert json.loads((tmp_path / "py" / "report.json").read_text()) == mine
    assert (tmp_path / "py" / "report.md").read_text() == r.markdown()
    assert (tmp_path / "py" / "splits.json").read_text() == (tmp_path / "cli" / "splits.json").read_text()
    with pytest.raises(InputError, match="holds another run"):
        textbcv.compare(small, ["iob2", "ioe2"], m=1, max_iterations=3, progress=False).write(tmp_path / "py")


def test_tagger_objects_copied_per_fold_and_given_splits(small, tmp_path):
    corpus = textbcv.read_corpus(small)
    splits = textbcv.make_splits(corpus, m=1, seed=3)
    systems = [textbcv.System("lex", "iob2", tagger=LexiconTagger()),
               textbcv.System("lex-lower", "iobes", tagger=LexiconTagger(lowercase=True))]
    r = textbcv.compare(corpus, systems, splits=splits, out=tmp_path / "run", progress=False, plots=False)
    assert r.report.seed == 3 and r.report.m == 1
    assert r.report.meta["systems"][1]["params"] == {"lowercase": True}
    assert systems[0].tagger.__dict__ == {"lowercase": False}  # the given object itself was never fitted
    # the saved manifest of the run is accepted again, and refused for another corpus
    again = textbcv.compare(small, systems, splits=tmp_path / "run" / "splits.json", progress=False)
    assert again.report.fold_counts == r.report.fold_counts
    with pytest.raises(InputError, match="the splits hold m = 1 splits, but m = 2"):
        textbcv.compare(small, systems, m=2, splits=splits)
    with pytest.raises(InputError, match="made for 200 sentences, but the corpus has 100"):
        textbcv.compare(corpus[:100], systems, splits=tmp_path / "run" / "splits.json")


def test_sentences_are_sequences_of_tokens():
    s = textbcv.read_corpus(bundled_corpora()["ner"])[0]
    assert list(s) == list(s.tokens) and s[0] == s.tokens[0] and len(s) == len(s.tokens)


TAGS = st.lists(st.lists(st.sampled_from(["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-ORG"]), min_size=1,
                         max_size=12), min_size=1, max_size=6)


@settings(max_examples=150, deadline=None)
@given(TAGS, st.data())
def test_score_equals_seqeval(gold, data):
    from seqeval.metrics import f1_score, precision_score, recall_score
    from seqeval.metrics.sequence_labeling import get_entities

    pred = [data.draw(st.lists(st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-ORG"]),
                               min_size=len(g), max_size=len(g))) for g in gold]
    s = textbcv.score(gold, pred)
    g = {(k, t, a, b) for k, seq in enumerate(gold) for t, a, b in get_entities(seq)}
    p = {(k, t, a, b) for k, seq in enumerate(pred) for t, a, b in get_entities(seq)}
    assert (s.counts.overall.tp, s.counts.overall.fp, s.counts.overall.fn) == (len(g & p), len(p - g), len(g - p))
    assert s.precision == pytest.approx(precision_score(gold, pred, zero_division=0))
    assert s.recall == pytest.approx(recall_score(gold, pred, zero_division=0))
    assert s.f1 == pytest.approx(f1_score(gold, pred, zero_division=0))
