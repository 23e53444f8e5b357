"""Readers: exact counts on the shared corpora, and the format rules on small files."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from textbcv.corpus import read_conll, read_conllu, read_corpus, read_segmented, write_conll, write_conlleval
from textbcv.errors import InputError


def write(tmp_path, name, data: str | bytes):
    p = tmp_path / name
    if isinstance(data, str):
        data = data.encode("utf-8")
    p.write_bytes(data)
    return p


# ---------------------------------------------------------------- shared corpora (published counts)

@pytest.mark.parametrize(
    "name, sentences, tokens, documents",
    [("eng.train", 14041, 203621, 946), ("eng.testa", 3250, 51362, 216), ("eng.testb", 3453, 46435, 231)],
)
def test_conll2003_published_counts(shared, name, sentences, tokens, documents):
    c = read_conll(shared("conll2003_en", name))
    assert (len(c), c.n_tokens, c.n_documents) == (sentences, tokens, documents)
    assert c.scheme == "iob1"
    assert c[0].pos is not None and "chunk" in c[0].columns


def test_conll2003_train_entities(shared):
    c = read_conll(shared("conll2003_en", "eng.train"))
    assert c.chunk_counts() == Counter({"LOC": 7140, "MISC": 3438, "ORG": 6321, "PER": 6600})
    assert sum(c.chunk_counts().values()) == 23499
    # documents: ids are consecutive and every document is non-empty
    assert sorted(set(c.document_ids)) == list(range(946))


def test_conll2003_testb_entities(shared):
    c = read_conll(shared("conll2003_en", "eng.testb"))
    assert c.chunk_counts() == Counter({"LOC": 1668, "MISC": 702, "ORG": 1661, "PER": 1617})


def test_conll_multiple_files_number_sentences_in_order(shared):
    a, b = shared("conll2003_en", "eng.testa"), shared("conll2003_en", "eng.testb")
    c = read_conll([a, b])
    assert len(c) == 3250 + 3453 and c.n_documents == 216 + 231
    assert c[3250].source == str(b) and c[3249].source == str(a)
    assert c.files == [str(a), str(b)]


def test_ud_ewt_train(shared):
    path = shared("ud_english_ewt", "en_ewt-ud-train.conllu")
    c = read_conllu(path)
    assert len(c) == 12544
    # independent count: lines whose ID is a plain integer are the tokens
    text = path.read_text(encoding="utf-8")
    words = sum(1 for line in text.split("\n") if re.match(r"\d+\t", line))
    docs = sum(1 for line in text.split("\n") if line.startswith("# newdoc"))
    assert c.n_tokens == words == 204577  # syntactic words (SOURCE.md)
    assert c.n_documents == docs
    # multiword ranges and empty nodes are not tokens: the first range is "don't" on line 205
    s = max((s for s in c if s.line <= 205), key=lambda s: s.line)
    assert "don't" not in s.tokens and "do" in s.tokens
    assert all(len(s.lemmas) == len(s.pos) == len(s.tokens) for s in c)
    assert c[0].lemmas[5] == "force" and c[0].pos[0] == "PROPN"


def test_sighan_pku_test_gold(shared):
    path = shared("sighan2005_cws", "pku_test_gold.utf8")
    c = read_segmented(path)
    assert len(c) == 1944
    raw = path.read_bytes().decode("utf-8")
    words = [w for line in raw.split("\n") for w in line.split()]
    assert sum(len(s.words) for s in c) == len(words) == 104372  # SIGHAN's TOTAL TRUE WORD COUNT
    assert c.n_tokens == sum(len(w) for w in words) == 172733
    assert [w for s in c for w in s.words] == words


def test_ud_chinese_v14_train(shared):
    c = read_conllu(shared("ud_chinese_v1.4", "zh-ud-train.conllu"))
    assert (len(c), c.n_tokens) == (3997, 98608)
    assert all(t for s in c for t in s.tokens)


# ---------------------------------------------------------------- format rules on small files

def test_docstart_blank_and_tab_lines(tmp_path):
    p = write(tmp_path, "a.conll", "-DOCSTART- -X- -X- O\n\nEU NNP I-NP I-ORG\nrejects VBZ I-VP O\n\t\n"
              "German JJ I-NP I-MISC\n   \n-DOCSTART- -X- -X- O\n\nPeter NNP I-NP I-PER\n")
    c = read_conll(p)
    assert [s.tokens for s in c] == [("EU", "rejects"), ("German",), ("Peter",)]
    assert [s.document for s in c] == [0, 0, 1]
    assert [s.line for s in c] == [3, 6, 10]
    assert c[2].chunks == ((0, 1, "PER"),)


def test_crlf_and_bom(tmp_path):
    p = write(tmp_path, "a.conll", "\ufeffEU I-ORG\r\nrejects O\r\n\r\nBonn I-LOC\r\n")
    c = read_conll(p)
    assert [s.tokens for s in c] == [("EU", "rejects"), ("Bonn",)]
    assert c[0].tags == ("I-ORG", "O")


def test_tab_separated_columns_and_roles(tmp_path):
    p = write(tmp_path, "a.tsv", "the\tthe\tDT\tO\ncats\tcat\tNNS\tB-ANIMAL\n")
    c = read_conll(p, columns="token,lemma,pos,ner")
    assert c[0].lemmas == ("the", "cat") and c[0].pos == ("DT", "NNS")
    assert c[0].chunks == ((1, 2, "ANIMAL"),)
    c2 = read_conll(p, columns="token,_,_,ner")
    assert c2[0].lemmas is None and c2[0].pos is None


def test_char_per_line_two_columns(tmp_path):
    p = write(tmp_path, "msra.txt", "中 B-ORG\n国 I-ORG\n人 O\n\n")
    c = read_conll(p)
    assert c[0].tokens == ("中", "国", "人") and c[0].chunks == ((0, 2, "ORG"),)
    assert c.scheme == "iob2"


def test_scheme_given(tmp_path):
    p = write(tmp_path, "a.conll", "a B-X\nb E-X\nc S-Y\n")
    c = read_conll(p, scheme="iobes")
    assert c[0].chunks == ((0, 2, "X"), (2, 3, "Y"))


def test_segmented_whitespace_runs(tmp_path):
    p = write(tmp_path, "s.txt", "迈向　充满  希望 \t的\n\n新  世纪\r\n")
    c = read_segmented(p)
    assert [s.words for s in c] == [("迈向", "充满", "希望", "的"), ("新", "世纪")]
    assert c[0].tags == ("B", "E", "B", "E", "B", "E", "S")
    assert [s.line for s in c] == [1, 3]


def test_conllu_newdoc_and_empty_nodes(tmp_path):
    rows = [
        "# newdoc id = a", "# text = x", "1\tA\ta\tDET\t_\t_\t2\tdet\t_\t_", "2\tB\tb\tNOUN\t_\t_\t0\troot\t_\t_",
        "2.1\tC\tc\tVERB\t_\t_\t_\t_\t2:conj\t_", "",
        "1\tD\td\tNOUN\t_\t_\t0\troot\t_\t_", "",
        "# newdoc", "1-2\tEF\t_\t_\t_\t_\t_\t_\t_\t_", "1\tE\te\tX\t_\t_\t0\troot\t_\t_",
        "2\tF\tf\tX\t_\t_\t1\tdep\t_\t_", "", "",
    ]
    c = read_conllu(write(tmp_path, "x.conllu", "\n".join(rows)))
    assert [s.tokens for s in c] == [("A", "B"), ("D",), ("E", "F")]
    assert [s.document for s in c] == [0, 0, 1]
    assert c[0].lemmas == ("a", "b")


def test_write_conll_round_trip(shared, tmp_path):
    c = read_conll(shared("conll2003_en", "eng.testa"))
    out = tmp_path / "copy.conll"
    write_conll(c, out)
    c2 = read_conll(out)
    assert [s.tokens for s in c2] == [s.tokens for s in c]
    assert [s.tags for s in c2] == [s.tags for s in c]
    assert c2.n_documents == c.n_documents


def test_write_conlleval(tmp_path):
    out = tmp_path / "p.txt"
    write_conlleval(out, [["a", "b"], ["c"]], [["B-X", "O"], ["O"]], [["B-X", "B-Y"], ["O"]])
    assert out.read_text() == "a B-X B-X\nb O B-Y\n\nc O O\n\n"
    with pytest.raises(ValueError):
        write_conlleval(tmp_path / "q.txt", [["a"]], [["O", "O"]], [["O"]])
    assert not (tmp_path / "q.txt").exists()


def test_read_corpus_dispatch_errors(tmp_path):
    p = write(tmp_path, "s.txt", "a  b\n")
    with pytest.raises(InputError, match='^columns applies to format="conll" only') as e:  # Python words
        read_corpus([p], format="segmented", columns="token")
    assert str(e.value.renamed({"columns": "--columns", "format": "--format"})).startswith(
        "--columns applies to --format conll only")  # the command line's
    with pytest.raises(InputError, match="unknown format"):
        read_corpus([p], format="xml")


def _iob_starts_reference(tags: list[list[str]]) -> tuple[int, int]:
    """B- starts where the tag before is not the same type's B/I; I- starts after O, another type or a start."""
    b = i = 0
    for sent in tags:
        prev = None
        for t in sent:
            p, _, k = t.partition("-") if t != "O" else ("O", "", "")
            same = prev is not None and prev[1] == k and prev[0] in ("B", "I")
            b += p == "B" and not same
            i += p == "I" and not same
            prev = (p, k)
    return b, i


def test_iob_start_counts_match_a_reference_and_stay_small_with_a_very_long_tag():
    import random
    import tracemalloc

    import numpy as np

    from textbcv.corpus.conll import _iob_starts

    rng = random.Random(0)
    vocab = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "E-PER", "S-LOC"]
    for _ in range(50):
        tags = [[rng.choice(vocab) for _ in range(rng.randint(0, 8))] for _ in range(rng.randint(1, 6))]
        codes = np.array([vocab.index(t) for s in tags for t in s], dtype=np.int64)
        assert _iob_starts(codes, vocab, np.array([len(s) for s in tags])) == _iob_starts_reference(tags)
    # a 100,000-character tag among 20,000 tokens: integer codes, not a string array as wide as the tag per token
    long = ["O", "B-" + "X" * 100_000]
    codes = np.zeros(20_000, dtype=np.int64)
    codes[0] = 1
    tracemalloc.start()
    try:
        assert _iob_starts(codes, long, np.array([20_000])) == (1, 0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20  # the string arrays took about 7.6 GB here
