"""Small CRF baselines on the bundled corpora, used by tests/test_corpora_bundled.py.

Self-contained on purpose (no textbcv imports): the tests use it to check that the
bundled corpora are learnable but not trivial, independently of the package's own
tagging code.  ``python tests/corpora_crf.py`` prints the figures quoted in
corpora/README.md.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import sklearn_crfsuite

CORPORA = Path(os.environ.get("TEXTBCV_CORPORA", Path(__file__).resolve().parents[1] / "corpora"))


def read_conll(path: Path) -> list[list[list[str]]]:
    """Documents -> sentences -> rows of the 4 columns."""
    docs: list[list[list[str]]] = []
    sent: list[list[str]] = []
    for line in path.read_text(encoding="utf-8").split("\n") + [""]:
        if not line.strip():
            if sent:
                docs[-1].append(sent)
                sent = []
            continue
        row = line.split(" ")
        if row[0] == "-DOCSTART-":
            docs.append([])
        else:
            sent.append(row)
    return docs


def read_segmented(path: Path) -> list[list[str]]:
    """Lines -> words."""
    return [line.split("  ") for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def shape(token: str) -> str:
    """Collapsed character classes: ``Xx``, ``d-d``, ``X.``."""
    s = re.sub("[A-Z]", "X", token)
    s = re.sub("[a-z]", "x", s)
    s = re.sub("[0-9]", "d", s)
    return re.sub(r"(.)\1+", r"\1", s)


def token_features(tokens: list[str]) -> list[dict[str, str]]:
    """Token, lower case and shape of the token and its neighbours at -2..+2."""
    out = []
    for i in range(len(tokens)):
        f = {"bias": "1"}
        for k in range(-2, 3):
            j = i + k
            t = tokens[j] if 0 <= j < len(tokens) else "<pad>"
            f[f"w[{k}]"] = t
            f[f"lw[{k}]"] = t.lower()
            f[f"sh[{k}]"] = shape(t)
        out.append(f)
    return out


def char_features(chars: str) -> list[dict[str, str]]:
    """Character unigrams at -2..+2 and bigrams inside that window."""
    pad = "^^" + chars + "$$"
    out = []
    for i in range(len(chars)):
        c = i + 2
        f = {"bias": "1"}
        for k in range(-2, 3):
            f[f"c[{k}]"] = pad[c + k]
        for k in range(-2, 2):
            f[f"c[{k}:{k + 1}]"] = pad[c + k : c + k + 2]
        out.append(f)
    return out


def to_scheme(tags: list[str], scheme: str) -> list[str]:
    """IOB1 entity tags rewritten as IOB2 (``B-`` on every first token) or left as IOB1."""
    if scheme == "iob1":
        return list(tags)
    out = []
    for i, t in enumerate(tags):
        if t == "O":
            out.append(t)
            continue
        typ = t[2:]
        first = t.startswith("B-") or i == 0 or tags[i - 1] == "O" or tags[i - 1][2:] != typ
        out.append(("B-" if first else "I-") + typ)
    return out


def entity_chunks(tags: list[str]) -> set[tuple[int, int, str]]:
    """(start, end, type) chunks of IOB1 or IOB2 tags, conlleval-style."""
    chunks = set()
    start, typ = None, None
    for i, t in enumerate(tags + ["O"]):
        p, ty = (t[0], t[2:]) if t != "O" else ("O", None)
        if start is not None and (p in ("O", "B") or ty != typ):
            chunks.add((start, i, typ))
            start = None
        if p != "O" and start is None:
            start, typ = i, ty
    return chunks


def word_tags(words: list[str], scheme: str) -> list[str]:
    """Character tags of a segmented sentence: ``bi`` (B/I) or ``bmes``."""
    out = []
    for w in words:
        if scheme == "bmes" and len(w) == 1:
            out.append("S")
        elif scheme == "bmes":
            out += ["B"] + ["M"] * (len(w) - 2) + ["E"]
        else:
            out += ["B"] + ["I"] * (len(w) - 1)
    return out


def word_spans(tags: list[str]) -> set[tuple[int, int]]:
    """(start, end) of every word: a word starts at ``B`` or ``S``, or after ``E`` or ``S``."""
    starts = [i for i, t in enumerate(tags) if i == 0 or t in ("B", "S") or tags[i - 1] in ("E", "S")]
    starts.append(len(tags))
    return set(zip(starts, starts[1:]))


def f1(gold: list[set], pred: list[set]) -> float:
    """Micro F1 of chunk sets, sentence by sentence."""
    tp = sum(len(g & p) for g, p in zip(gold, pred))
    n_gold = sum(map(len, gold))
    n_pred = sum(map(len, pred))
    prec = tp / n_pred if n_pred else 0.0
    rec = tp / n_gold if n_gold else 0.0
    return 2 * prec * rec / (prec + rec) if prec + rec else 0.0


def crf(max_iterations: int = 50) -> sklearn_crfsuite.CRF:
    return sklearn_crfsuite.CRF(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=max_iterations)


def ner_halves(path: Path = CORPORA / "ner_en.conll"):
    """Sentences of even documents (train half) and odd documents (test half)."""
    docs = read_conll(path)
    train = [s for k, d in enumerate(docs) if k % 2 == 0 for s in d]
    test = [s for k, d in enumerate(docs) if k % 2 == 1 for s in d]
    return train, test


def ner_f1(scheme: str = "iob1", path: Path = CORPORA / "ner_en.conll") -> float:
    """Entity F1 of a CRF trained on even documents and tested on odd ones."""
    train, test = ner_halves(path)
    model = crf()
    model.fit([token_features([r[0] for r in s]) for s in train],
              [to_scheme([r[3] for r in s], scheme) for s in train])
    pred = model.predict([token_features([r[0] for r in s]) for s in test])
    gold = [entity_chunks([r[3] for r in s]) for s in test]
    return f1(gold, [entity_chunks(p) for p in pred])


def cws_f1(scheme: str = "bmes", path: Path = CORPORA / "cws_zh.txt") -> float:
    """Word F1 of a CRF trained on even lines and tested on odd ones."""
    lines = read_segmented(path)
    train, test = lines[0::2], lines[1::2]
    model = crf()
    model.fit([char_features("".join(s)) for s in train], [word_tags(s, scheme) for s in train])
    pred = model.predict([char_features("".join(s)) for s in test])
    gold = [word_spans(word_tags(s, "bmes")) for s in test]
    return f1(gold, [word_spans(p) for p in pred])


if __name__ == "__main__":
    figures = {
        "ner_f1_iob1": ner_f1("iob1"),
        "ner_f1_iob2": ner_f1("iob2"),
        "cws_f1_bmes": cws_f1("bmes"),
        "cws_f1_bi": cws_f1("bi"),
    }
    json.dump({k: round(v, 4) for k, v in figures.items()}, sys.stdout, indent=1)
    print()
