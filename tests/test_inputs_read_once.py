"""Every input read once and within limits, with one definition of a line and of a token (issue 48).

A pipe, process substitution or ``/dev/stdin`` gives its bytes once: format detection and the reader must
share them. ``/dev/zero``, a FIFO without a writer and an endless line end in one ``textbcv: error:`` line, never
in unbounded memory or a blocked read. A token holding a no-break space is one token to every reader.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import textbcv._inputs as inputs
from textbcv import bundled_corpora
from textbcv._inputs import open_bytes, read_bytes
from textbcv.corpus import Sentence, read_conll, read_corpus, read_jsonl, read_segmented, write_conll
from textbcv.corpus._text import split_lines
from textbcv.corpus.conlleval import read_tag_stream
from textbcv.corpus.predictions import read_segmented_predictions, read_tag_predictions
from textbcv.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
NER = bundled_corpora()["ner"]  # 511 KB: far more than the 64 KB format detection looks at


def _cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "textbcv", *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, **kw)


def _one_error(r, *words):
    assert r.returncode == 2, (r.returncode, r.stdout[-500:], r.stderr[-2000:])
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("textbcv: error:"), r.stderr[-2000:]
    assert "Traceback" not in r.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


def _sentences(r) -> str:
    line = next(x for x in r.stdout.splitlines() if x.startswith("sentences"))
    return line.split()[-1]


# ----------------------------------------------------------------------------- read once: pipes, stdin


@pytest.mark.parametrize("fmt", [[], ["--format", "conll"]])
def test_stats_through_a_pipe_reads_every_sentence(fmt):
    """``textbcv stats <(cat corpus)``: the bytes format detection read are the reader's too."""
    expected = _sentences(_cli("stats", *fmt, NER))
    r = subprocess.run(["bash", "-c", f'"{sys.executable}" -m textbcv stats {" ".join(fmt)} <(cat "{NER}")'],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert r.returncode == 0, r.stderr
    assert _sentences(r) == expected == f"{len(read_conll(NER)):,}"


def test_stats_on_stdin():
    with open(NER, "rb") as f:
        r = _cli("stats", "/dev/stdin", stdin=f)
    assert r.returncode == 0, r.stderr
    assert _sentences(r) == f"{len(read_conll(NER)):,}"


def _pipe(data: bytes) -> tuple[str, threading.Thread, int]:
    """``/dev/fd/N`` of a pipe a thread fills with ``data`` (as ``<(...)`` gives)."""
    r, w = os.pipe()

    def write():
        try:
            with os.fdopen(w, "wb") as f:
                f.write(data)
        except BrokenPipeError:  # the reader stopped early (past a limit) and closed its end
            pass

    t = threading.Thread(target=write, daemon=True)
    t.start()
    return f"/dev/fd/{r}", t, r


@pytest.mark.parametrize("compress", [False, True])
def test_read_corpus_from_a_pipe_equals_the_file(compress):
    data = Path(NER).read_bytes()
    path, t, fd = _pipe(gzip.compress(data) if compress else data)
    try:
        c = read_corpus(path)
        again = read_corpus(path, format="conll")  # read twice in one process: the same bytes, not an empty pipe
    finally:
        t.join()
        os.close(fd)
    want = read_corpus(NER)
    assert [s.tokens for s in c] == [s.tokens for s in want] == [s.tokens for s in again]
    assert [s.tags for s in c] == [s.tags for s in want]


# ----------------------------------------------------------------------------- bounded: devices, FIFOs, limits


def test_dev_zero_as_a_corpus_stops_at_the_line_limit():
    t0 = time.monotonic()
    _one_error(_cli("stats", "/dev/zero"), "/dev/zero:1:", "a line longer than 16 MiB")
    assert time.monotonic() - t0 < 60


def test_dev_zero_as_predictions_stops(tmp_path):
    _one_error(_cli("score", "/dev/zero"), "/dev/zero:1:", "a line longer than")


@pytest.mark.parametrize("command", ["stats", "score"])
def test_a_fifo_without_a_writer_is_refused_not_waited_on_forever(tmp_path, command):
    # the whole command in a child process, whose FIFO_WAIT is cut to 0.5 s: the wait is not what is tested
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-c", "import runpy, sys, textbcv._inputs as i; i.FIFO_WAIT = 0.5; "
                        f"sys.argv = ['textbcv', {command!r}, {str(fifo)!r}]; "
                        "runpy.run_module('textbcv', run_name='__main__')"],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    _one_error(r, "a FIFO that no program wrote to")
    assert time.monotonic() - t0 < 0.5 + 30
    assert 1 <= inputs.FIFO_WAIT <= 30  # the real wait: long enough for a slow writer, short enough to give up


def test_a_fifo_with_a_late_writer_is_read_once(tmp_path, monkeypatch):
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    data = Path(NER).read_bytes()

    def write():
        time.sleep(0.3)
        with open(fifo, "wb") as f:
            f.write(data)

    t = threading.Thread(target=write, daemon=True)
    t.start()
    c = read_corpus(str(fifo))
    t.join()
    assert len(c) == len(read_conll(NER))


def test_a_fifo_without_a_writer_in_process(tmp_path, monkeypatch):
    monkeypatch.setattr(inputs, "FIFO_WAIT", 0.2)
    fifo = tmp_path / "g"
    os.mkfifo(fifo)
    for read in (read_corpus, read_tag_stream, read_bytes):
        with pytest.raises(InputError, match="a FIFO that no program wrote to"):
            read(str(fifo))


def test_dev_null_is_an_empty_file():
    with pytest.raises(InputError, match="empty"):
        read_corpus("/dev/null", format="conll")


def test_file_and_line_limits(tmp_path):
    p = tmp_path / "x.conll"
    p.write_bytes(b"a O\n" * 10 + b"b" * 50 + b"\nc O\n")
    with pytest.raises(InputError, match=r"x.conll:11: a line longer than 40 bytes"):
        read_bytes(p, line_limit=40)
    with pytest.raises(InputError, match=r"x.conll: larger than 60 bytes"):
        read_bytes(p, limit=60)
    assert read_bytes(p, line_limit=50) == p.read_bytes()
    bomb = tmp_path / "bomb.gz"
    bomb.write_bytes(gzip.compress(b"a O\n" * 100_000))  # 400 KB from a few hundred bytes
    with pytest.raises(InputError, match="larger than 1 KiB"):
        read_bytes(bomb, limit=1024)


def test_json_limit(tmp_path, monkeypatch):
    from textbcv import _io

    p = tmp_path / "x.json"
    p.write_text(json.dumps(list(range(1000))))
    monkeypatch.setattr(_io, "MAX_JSON_BYTES", 100)
    with pytest.raises(InputError, match="larger than 100 bytes"):
        _io.load_json(p)


@pytest.mark.parametrize("seed", range(20))
def test_line_limit_in_blocks_matches_the_whole(tmp_path, seed):
    """Read in blocks of any size, the first line past the limit is found on its line, as read whole."""
    rng = random.Random(seed)
    ends = [b"\n", b"\r\n", b"\r"]
    data = b"".join(b"x" * rng.choice([0, 1, 5, 9, 10, 11, 30]) + rng.choice(ends) for _ in range(40))
    limit = rng.choice([8, 10, 12, 40])
    lines = split_lines(data.decode())
    over = next((k + 1 for k, line in enumerate(lines) if len(line) > limit), None)
    p = tmp_path / "x.txt"
    p.write_bytes(data)
    for block in (1, 3, 7, 64, 10_000):
        with open_bytes(p, line_limit=limit) as f:
            try:
                while f.read(block):
                    pass
                got = None
            except InputError as e:
                got = e.line
        assert got == over, (block, limit)


# ----------------------------------------------------------------------------- one line, one token


def test_no_break_space_token_is_one_token_to_the_prediction_reader(tmp_path):
    """A test half exported as text, given back as its own predictions, is accepted."""
    p = tmp_path / "c.conll"
    p.write_text("New\u00a0York B-LOC\nis O\n\nthin\u2009space O\nok O\n\n", encoding="utf-8")
    corpus = read_corpus(p)
    assert corpus[0].tokens == ("New\u00a0York", "is")
    pred = tmp_path / "pred.txt"
    write_conll(corpus, pred, columns=("token", "ner"), docstart=False)
    assert read_tag_predictions(pred, corpus.sentences).tags == [("B-LOC", "O"), ("O", "O")]


def test_export_then_predictions_round_trip(tmp_path):
    from textbcv.split import make_splits
    from textbcv.split.export import export_folds

    p = tmp_path / "c.conll"
    p.write_text("".join(f"New\u00a0York{k} B-LOC\nis O\n\n" for k in range(8)), encoding="utf-8")
    corpus = read_corpus(p)
    s = make_splits(corpus, m=1, seed=0)
    export_folds(corpus, s, tmp_path / "folds")
    for _, direction, _, test in s.folds():
        half = tmp_path / "folds" / f"fold-0-{direction}" / "test.conll"
        got = read_tag_predictions(half, [corpus[k] for k in test])
        assert got.tags == [corpus[k].tags for k in test]


def test_cws_predictions_split_words_as_segmented_text(tmp_path):
    p = tmp_path / "c.txt"
    p.write_text("中国\u3000人民  New\u00a0York\n", encoding="utf-8")
    corpus = read_segmented(p)
    pred = tmp_path / "pred.txt"
    pred.write_text("中国\u3000人民 New\u00a0York\n", encoding="utf-8")
    assert read_segmented_predictions(pred, corpus.sentences) == [corpus[0].chunks]


def test_jsonl_token_with_other_spaces_is_valid(tmp_path):
    # U+2028, U+2029 and U+0085 are refused instead (tests/test_inputs_misread.py): line ends to str.splitlines
    p = tmp_path / "x.jsonl"
    rows = [{"tokens": ["a\u00a0b", "c\u202f", "d\u2003"], "ner_tags": ["B-X", "O", "O"], "document_id": 1},
            {"tokens": ["e"], "ner_tags": ["O"], "document_id": 2}]
    p.write_text("".join(json.dumps(r, ensure_ascii=False) + "\r\n" for r in rows), encoding="utf-8")
    c = read_jsonl(p)
    assert [s.tokens for s in c] == [("a\u00a0b", "c\u202f", "d\u2003"), ("e",)]
    assert [s.line for s in c] == [1, 2]
    out = tmp_path / "x.conll"
    write_conll(c, out, columns=("token", "ner"))
    assert [s.tokens for s in read_conll(out)] == [s.tokens for s in c]


@pytest.mark.parametrize("token, why", [("New York", "holds a space"), ("", "is empty"), ("a\tb", "holds a TAB"),
                                        ("a\nb", "holds a line end"), (3, "is not a string")])
def test_jsonl_token_that_no_column_can_hold_is_refused(tmp_path, token, why):
    p = tmp_path / "x.jsonl"
    p.write_text(json.dumps({"tokens": ["ok", token], "ner_tags": ["O", "O"]}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=f"x.jsonl:1: \"tokens\": token 2 .* {why}"):
        read_jsonl(p)


def test_jsonl_no_break_space_token_is_a_token(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text(json.dumps({"tokens": ["\u00a0", "x"], "ner_tags": ["O", "B-X"]}) + "\n", encoding="utf-8")
    assert read_jsonl(p)[0].tokens == ("\u00a0", "x")


# ----------------------------------------------------------------------------- messages


def test_lower_case_tags_name_the_cause(tmp_path):
    p = tmp_path / "c.conll"
    p.write_text("EU B-ORG\nrejects O\n\nPeter b-per\nB I-PER\n\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"c.conll:4: tag 'b-per' has a lower-case prefix: tags are case-sensitive.*"
                                         r"b-per → B-per"):
        read_corpus(p)
    p.write_text("EU b-org\nrejects o\n\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"c.conll:1: tag 'b-org' has a lower-case prefix"):
        read_corpus(p)


def test_one_repeated_sentence_names_the_merge_and_the_option(tmp_path):
    p = tmp_path / "c.conll"
    p.write_text("EU B-ORG\nrejects O\n\n" * 10, encoding="utf-8")
    r = _cli("split", p, "--out", tmp_path / "s.json")
    _one_error(r, "got 1", "10 sentences are only 1 distinct one,", "merged", "--keep-duplicates-apart")
    r = _cli("split", p, "--out", tmp_path / "s.json", "--keep-duplicates-apart")
    assert r.returncode == 0, r.stderr


# ----------------------------------------------------------------------------- Hugging Face folders


def _saved(tmp_path) -> Path:
    datasets = pytest.importorskip("datasets")
    feats = datasets.Features({"tokens": datasets.Sequence(datasets.Value("string")),
                               "ner_tags": datasets.Sequence(datasets.ClassLabel(names=["O", "B-ORG", "B-PER"]))})
    ds = datasets.Dataset.from_dict({"tokens": [["EU", f"x{k}"] for k in range(12)],
                                     "ner_tags": [[1, 0], [0, 2], [0, 0]] * 4}, features=feats)
    d = tmp_path / "ds"
    datasets.disable_progress_bars()
    ds.save_to_disk(str(d))
    return d


@pytest.mark.parametrize("keep", [0, 10, 200, 0.5])
def test_truncated_arrow_file_is_one_error(tmp_path, keep):
    d = _saved(tmp_path)
    f = next(d.glob("*.arrow"))
    size = f.stat().st_size
    os.truncate(f, int(size * keep) if isinstance(keep, float) else keep)
    r = _cli("stats", d)
    _one_error(r, str(d), "cannot read this save_to_disk folder", "Save the dataset again")


@pytest.mark.parametrize("to", [[], ["--to", "hf"]])
def test_export_of_a_saved_dataset(tmp_path, to):
    d = _saved(tmp_path)
    r = _cli("split", d, "--out", tmp_path / "s.json", "--export", tmp_path / "folds", *to)
    assert r.returncode == 0, r.stderr
    rows = (tmp_path / "folds" / "fold-0-0" / "test.jsonl").read_text(encoding="utf-8").splitlines()
    assert rows and all(json.loads(x)["tokens"][0] == "EU" for x in rows)


def test_sentence_from_pipe_keeps_its_source_lines(tmp_path):
    """A corpus read from a pipe can still be exported as text: its lines are the kept bytes."""
    from textbcv.corpus.source import sentence_texts

    data = "".join(f"w{k} B-X\nx O\n\n" for k in range(6)).encode()
    path, t, fd = _pipe(data)
    try:
        c = read_corpus(path)
        texts = sentence_texts(c)
    finally:
        t.join()
        os.close(fd)
    assert texts[0] == "w0 B-X\nx O\n"
    assert Sentence(("w0", "x")).tokens == c[0].tokens


def test_gzip_members_truncation_and_trailing_bytes(tmp_path):
    p = tmp_path / "x.conll.gz"
    p.write_bytes(gzip.compress(b"a O\n\n") + gzip.compress(b"b B-X\n\n"))
    assert read_bytes(p) == b"a O\n\nb B-X\n\n"
    whole = gzip.compress(b"a O\n\n" * 1000)
    for bad, why in ((whole[:len(whole) // 2], "truncated"), (whole + b"junk", "other bytes after")):
        p.write_bytes(bad)
        with pytest.raises(InputError, match=f"not a valid gzip file .*{why}"):
            read_bytes(p)
        with pytest.raises(InputError, match="not a valid gzip file"):
            with open_bytes(p) as f:
                f.read()
    p.write_bytes(whole + b"\0" * 10)  # padding some tools add
    assert read_bytes(p) == b"a O\n\n" * 1000


def test_file_sha256_of_a_pipe_is_of_the_bytes_read():
    import hashlib

    from textbcv._io import file_sha256, read_text

    data = b"the bytes\n" * 1000
    path, t, fd = _pipe(data)
    try:
        assert read_text(path) == data.decode()
        assert file_sha256(path) == hashlib.sha256(data).hexdigest()
    finally:
        t.join()
        os.close(fd)


# ----------------------------------------------------------------------------- every reader × every special input


def _readers():
    from textbcv._io import load_json, load_json_lines, read_text
    from textbcv.folds.counts import read_input
    from textbcv.split.manifest import load_splits

    one = [Sentence(("a",), source="c.conll", line=1)]
    return {
        "corpus": read_corpus,
        **{f"corpus-{f}": (lambda p, f=f: read_corpus(p, format=f)) for f in ("conll", "conllu", "segmented", "jsonl")},
        "conlleval": read_tag_stream,
        "ner-predictions": lambda p: read_tag_predictions(p, one),
        "cws-predictions": lambda p: read_segmented_predictions(p, one),
        "text": read_text,
        "json": load_json,
        "json-lines": load_json_lines,
        "counts": read_input,
        "splits": load_splits,
    }


SPECIAL = ("/dev/zero", "fifo", "directory", "missing", "zeros-pipe", "endless-line-pipe")


@pytest.mark.parametrize("special", SPECIAL)
@pytest.mark.parametrize("reader", sorted(_readers()))
def test_every_reader_refuses_special_inputs_in_one_error(tmp_path, monkeypatch, reader, special):
    """Each ends in an InputError, quickly: no other exception, no unbounded read, no blocked read."""
    monkeypatch.setattr(inputs, "FIFO_WAIT", 0.2)
    fd = None
    if special == "fifo":
        path = str(tmp_path / "f")
        os.mkfifo(path)
    elif special == "directory":
        path = str(tmp_path)
    elif special == "missing":
        path = str(tmp_path / "nothing.conll")
    elif special.endswith("pipe"):
        body = (b"\0" if special == "zeros-pipe" else b"a") * (inputs.MAX_LINE_BYTES + 1)
        path, t, fd = _pipe(body)
    else:
        path = special
    t0 = time.monotonic()
    try:
        with pytest.raises(InputError):
            _readers()[reader](path)
    finally:
        if fd is not None:
            os.close(fd)
    assert time.monotonic() - t0 < 20


SAMPLES = {
    "corpus-conll": b"EU B-ORG\nrejects O\n\nPeter B-PER\n\n",
    "corpus-conllu": b"1\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_\n\n",
    "corpus-segmented": "中国  人民\n迈向  充满\n".encode(),
    "corpus-jsonl": b'{"tokens": ["a"], "ner_tags": ["B-X"]}\n',
    "conlleval": b"EU B-ORG B-ORG\nrejects O B-MISC\n\n",
    "json": b'{"a": [1, 2]}',
    "json-lines": b'{"a": 1}\n[2]\n',
}


def _summary(x):
    if hasattr(x, "sentences"):
        return [(s.tokens, s.tags) for s in x]
    if hasattr(x, "gold"):
        return x.gold.tolist(), x.pred.tolist(), x.vocab
    return x


@pytest.mark.parametrize("reader", sorted(SAMPLES))
@pytest.mark.parametrize("compress", [False, True])
def test_every_reader_reads_a_pipe_as_the_file(tmp_path, reader, compress):
    data = gzip.compress(SAMPLES[reader]) if compress else SAMPLES[reader]
    p = tmp_path / "x"
    p.write_bytes(data)
    read = _readers()[reader]
    path, t, fd = _pipe(data)
    try:
        assert _summary(read(path)) == _summary(read(str(p)))
    finally:
        t.join()
        os.close(fd)


def test_counts_json_has_the_json_limit(tmp_path, monkeypatch):
    from textbcv.folds import counts

    p = tmp_path / "COUNTS.json"
    p.write_text(json.dumps({"m": 1, "systems": {}, "pad": "x" * 200}))
    monkeypatch.setattr(counts, "MAX_JSON_BYTES", 100)
    with pytest.raises(InputError, match="COUNTS.json: larger than 100 bytes"):
        counts.read_input(str(p))


def test_segmented_export_with_a_no_break_space_reads_back_as_predictions(tmp_path):
    from textbcv.split import make_splits
    from textbcv.split.export import export_folds

    p = tmp_path / "c.txt"
    p.write_text("中国\u00a0人  民\n迈向  充满\n的  新\n世纪  你们\n", encoding="utf-8")
    corpus = read_segmented(p)
    assert corpus[0].tokens[:3] == ("中", "国", "\u00a0")
    s = make_splits(corpus, m=1, seed=0)
    export_folds(corpus, s, tmp_path / "folds")
    for _, direction, _, test in s.folds():
        half = tmp_path / "folds" / f"fold-0-{direction}" / "test.txt"
        assert read_segmented_predictions(half, [corpus[k] for k in test]) == [corpus[k].chunks for k in test]


def test_words_to_characters_uses_the_token_definition():
    from textbcv.corpus import Corpus
    from textbcv.corpus.transform import words_to_characters

    ok = Corpus([Sentence(("中\u00a0国", "人"), source="x", line=1)], ["x"], "conllu")
    assert words_to_characters(ok)[0].words == ("中\u00a0国", "人")
    bad = Corpus([Sentence(("中 国", "人"), source="x", line=3)], ["x"], "conllu")
    with pytest.raises(InputError, match=r"x:3: word 1 \('中 国'\) holds a space"):
        words_to_characters(bad)


def test_lower_case_predicted_tags_name_the_cause():
    from textbcv.corpus.predictions import TagPredictions, decode_predictions

    p = TagPredictions("p.txt", [("O", "b-per")], [4])
    with pytest.raises(InputError, match=r"p.txt:5: predicted tag 'b-per' has a lower-case prefix.*b-per → B-per"):
        decode_predictions([p], "iob2", {"PER"})
