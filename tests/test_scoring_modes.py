"""Matching modes and the error anatomy (textbcv.scoring.modes) against nervaluate, the oracle, and by hand.

nervaluate implements SemEval-2013 task 9.1's modes (strict, exact, partial, ent_type); its outcome counts
must equal textbcv's on every sentence, including sentences where a predicted chunk overlaps several gold
chunks (and the reverse), which the assignment rule settles one-to-one.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textbcv.scoring import sentence_counts
from textbcv.scoring.modes import (
    ANATOMY,
    KINDS,
    MODES,
    anatomy_counts,
    mode_counts,
    mode_tp_fp_fn,
    sentence_anatomy,
    sentence_modes,
)

nervaluate = pytest.importorskip("nervaluate", reason="nervaluate (a test dependency) is not installed")
NERVALUATE_MODES = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}


@st.composite
def chunks(draw, n: int) -> list[tuple[int, int, str]]:
    """Non-overlapping chunks over n tokens (as any tag sequence decodes), types A or B."""
    out, i = [], 0
    while i < n:
        i += draw(st.integers(0, 2))
        if i >= n:
            break
        length = draw(st.integers(1, 4))
        end = min(n, i + length)
        out.append((i, end, draw(st.sampled_from("AB"))))
        i = end
    return out


@st.composite
def sentences(draw):
    n = draw(st.integers(1, 14))
    return draw(chunks(n)), draw(chunks(n))


def _oracle(gold, pred) -> np.ndarray:
    def dicts(cs):
        return [[{"label": t, "start": s, "end": e - 1} for s, e, t in sorted(c)] for c in cs]

    tags = sorted({t for c in [*gold, *pred] for _s, _e, t in c}) or ["A"]
    res = nervaluate.Evaluator(dicts(gold), dicts(pred), tags=tags, loader="dict").evaluate()["overall"]
    return np.array([[getattr(res[NERVALUATE_MODES[m]], k) for k in KINDS] for m in MODES])


@settings(max_examples=300, deadline=None)
@given(st.lists(sentences(), min_size=1, max_size=6))
def test_modes_equal_nervaluate_sentence_by_sentence(sents):
    gold, pred = [g for g, _ in sents], [p for _, p in sents]
    counts = mode_counts(gold, pred)
    for k, (g, p) in enumerate(sents):
        assert counts[k].tolist() == _oracle([g], [p]).tolist(), (g, p)
    assert counts.sum(axis=0).tolist() == _oracle(gold, pred).tolist()
    # precision and recall of every mode are nervaluate's
    res = nervaluate.Evaluator([[{"label": t, "start": s, "end": e - 1} for s, e, t in sorted(g)] for g in gold],
                               [[{"label": t, "start": s, "end": e - 1} for s, e, t in sorted(p)] for p in pred],
                               tags=["A", "B"], loader="dict").evaluate()["overall"]
    for mode in MODES:
        tp, fp, fn = mode_tp_fp_fn(counts.sum(axis=0), mode)
        r = res[NERVALUATE_MODES[mode]]
        assert (tp / (tp + fp) if tp + fp else 0) == pytest.approx(r.precision)
        assert (tp / (tp + fn) if tp + fn else 0) == pytest.approx(r.recall)


@settings(max_examples=300, deadline=None)
@given(sentences())
def test_strict_is_conlleval_and_every_chunk_is_counted_once(sent):
    gold, pred = sent
    m = sentence_modes(gold, pred)
    # strict TP, FP, FN are the conlleval counts textbcv has always used
    assert mode_tp_fp_fn(m, "strict").tolist() == sentence_counts([gold], [pred])[0].tolist()
    for i in range(len(MODES)):
        cor, inc, par, mis, spu = m[i]
        assert cor + inc + par + spu == len(pred) and cor + inc + par + mis == len(gold)
    a = dict(zip(ANATOMY, sentence_anatomy(gold, pred).tolist()))
    wrong = a["wrong type"] + a["wrong boundary"] + a["wrong both"]
    assert a["correct"] + wrong + a["spurious"] == len(pred)
    assert a["correct"] + wrong + a["missed"] == len(gold)
    assert a["correct"] == m[0, 0] and wrong == m[0, 1]  # the anatomy refines strict's incorrect ones


def test_a_prediction_over_two_gold_chunks_takes_the_leftmost():
    gold, pred = [(0, 2, "A"), (3, 5, "A")], [(1, 4, "A")]
    m = dict(zip(MODES, sentence_modes(gold, pred).tolist()))
    assert m["partial"] == [0, 0, 1, 1, 0]  # one partial (the left gold chunk), the right one missed
    assert m["type"] == [1, 0, 0, 1, 0]     # same type, equally close: the leftmost
    assert dict(zip(ANATOMY, sentence_anatomy(gold, pred).tolist())) == {
        "correct": 0, "wrong type": 0, "wrong boundary": 1, "wrong both": 0, "missed": 1, "spurious": 0}
    # type: the closest same-type chunk wins over a nearer-by-order one of its own type
    m2 = sentence_modes([(0, 1, "A"), (2, 6, "A")], [(0, 5, "A")])
    assert m2[MODES.index("type")].tolist() == [1, 0, 0, 1, 0]
    assert anatomy_counts([[(0, 1, "A")]], [[(0, 1, "B")]]).tolist() == [[0, 1, 0, 0, 0, 0]]
    with pytest.raises(ValueError, match="unknown matching mode"):
        mode_tp_fp_fn(m2, "lenient")


@settings(max_examples=200, deadline=None)
@given(st.lists(sentences(), min_size=1, max_size=8))
def test_the_fold_record_rebuilds_every_sentence_in_every_mode(sents):
    from textbcv.scoring.modes import mode_record, sentence_mode_counts

    gold, pred = [g for g, _ in sents], [p for _, p in sents]
    rec = mode_record(gold, pred)
    strict = sentence_counts(gold, pred)
    full = mode_counts(gold, pred)
    for mode in MODES:
        rebuilt = sentence_mode_counts(strict, rec, mode)
        assert rebuilt.tolist() == mode_tp_fp_fn(full, mode).tolist()
        assert rebuilt.sum(axis=0).tolist() == mode_tp_fp_fn(np.array(rec["totals"][mode])[None, None, :].repeat(
            len(MODES), axis=1), mode)[0].tolist()
    assert rec["anatomy"] == anatomy_counts(gold, pred).sum(axis=0).tolist()


@pytest.mark.shared
@pytest.mark.parametrize("corpus,encoding,columns", [(("conll2003_en", "eng.testa"), "utf-8", None),
                                                     (("conll2002_es", "esp.testa"), "latin-1", "token,pos,ner")])
def test_every_fold_of_a_real_run_records_nervaluates_counts(shared, corpus, encoding, columns):
    """A run on CoNLL-2003 (English) and CoNLL-2002 (Spanish, Latin-1): every fold's recorded mode totals are
    nervaluate's on that fold's predictions, strict's are the fold's conlleval counts, and the anatomy accounts
    for every gold and predicted chunk once."""
    import textbcv
    from textbcv.corpus import read_corpus
    from textbcv.schemes import decode, encode
    from textbcv.tagging import System
    from textbcv.tagging.baseline import LexiconTagger

    raw = read_corpus(str(shared(*corpus)), encoding=encoding, columns=columns)
    systems = [System("lex", "iob2", tagger=LexiconTagger()),
               System("lexlow", "iob2", tagger=LexiconTagger(lowercase=True))]
    result = textbcv.compare(raw, systems, m=1, task="ner", encoding=encoding)
    sents = list(raw)
    gold = [s.chunks for s in sents]
    for rec in (r for r in result.folds if r["system"] == "lex"):
        train, test = next((tr, te) for j, k, tr, te in result.splits.folds()
                           if (j, k) == (rec["split"], rec["direction"]))
        tagger = LexiconTagger()
        tagger.fit([sents[i] for i in train], [encode(gold[i], len(sents[i]), "iob2") for i in train])
        pred = [decode(t, "iob2") for t in tagger.predict([sents[i] for i in test])]
        want = _oracle([gold[i] for i in test], pred)
        assert [rec["modes"]["totals"][m] for m in MODES] == want.tolist()
        o = rec["counts"]["overall"]
        assert rec["modes"]["totals"]["strict"][0] == o["tp"]
        a = dict(zip(ANATOMY, rec["modes"]["anatomy"]))
        wrong = a["wrong type"] + a["wrong boundary"] + a["wrong both"]
        assert (a["correct"] + wrong + a["spurious"], a["correct"] + wrong + a["missed"]) == (
            o["tp"] + o["fp"], o["tp"] + o["fn"])


def test_score_modes_on_a_conlleval_file(tmp_path, capsys):
    """``textbcv score FILE --modes``: strict is the conlleval report's counts, every mode nervaluate's."""
    import json

    from textbcv.cli import main
    from textbcv.corpus.conlleval import read_conlleval
    from textbcv.schemes import decode

    rng = np.random.default_rng(5)
    lines = []
    for _ in range(60):
        n = int(rng.integers(2, 9))
        gold = [str(rng.choice(["O", "B-PER", "I-PER", "B-LOC", "I-LOC"])) for _ in range(n)]
        pred = [t if rng.random() < 0.7 else str(rng.choice(["O", "B-PER", "I-PER", "B-LOC"])) for t in gold]
        lines += [f"w{i} {g} {p}" for i, (g, p) in enumerate(zip(gold, pred))] + [""]
    path = tmp_path / "pred.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["score", str(path), "--modes", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    o, strict = out["overall"], out["modes"]["strict"]
    right, wrong = strict["correct"], strict["incorrect"]
    assert (right, right + wrong + strict["spurious"], right + wrong + strict["missed"]) == (
        o["tp"], o["tp"] + o["fp"], o["tp"] + o["fn"])
    f = read_conlleval(path)
    want = _oracle([decode(s.gold, "conlleval") for s in f.sentences],
                   [decode(s.pred, "conlleval") for s in f.sentences])
    assert [[out["modes"][m][k] for k in KINDS] for m in MODES] == want.tolist()
    assert main(["score", str(path), "--modes"]) == 0
    assert "matching modes (SemEval-2013" in capsys.readouterr().out


@st.composite
def tangled(draw):
    """Chunks that may overlap within a side too (not what tags decode to, but any chunk list)."""
    n = draw(st.integers(1, 10))

    def side():
        out = set()
        for _ in range(draw(st.integers(0, 5))):
            a = draw(st.integers(0, n - 1))
            out.add((a, draw(st.integers(a + 1, n)), draw(st.sampled_from("AB"))))
        return sorted(out)

    return side(), side()


@settings(max_examples=300, deadline=None)
@given(tangled())
def test_the_one_pass_rules_equal_the_mode_by_mode_rule(sent):
    from textbcv.scoring.matching import _anatomy, _assign, match_sentence

    g, p = sent
    rows, anatomy = match_sentence(g, p)
    assert rows == [_assign(g, p, m) for m in MODES] and anatomy == _anatomy(g, p)


@settings(max_examples=200, deadline=None)
@given(a=st.lists(st.integers(0, 30), max_size=40), b=st.lists(st.integers(0, 30), max_size=40), sort=st.booleans())
def test_the_fast_membership_and_runs_equal_numpys(a, b, sort):
    """The binary-search membership (codes in decoded order) and the runs of sorted sentence ids equal np.isin and
    np.unique, and the membership falls back to np.isin when the codes are not strictly increasing."""
    from textbcv.scoring.matching_arrays import _runs, _within

    x, y = np.asarray(a, dtype=np.int64), np.asarray(sorted(set(b)) if sort else b, dtype=np.int64)
    assert np.array_equal(_within(x, y), np.isin(x, y))
    s = np.sort(x)
    if len(s):
        ids, inv = _runs(s)
        ref_ids, ref_inv = np.unique(s, return_inverse=True)
        assert np.array_equal(ids, ref_ids) and np.array_equal(inv, ref_inv)
