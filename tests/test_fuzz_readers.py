"""Fuzzing every reader: random bytes and mutated valid files parse or raise InputError naming the file.

Each reader gets (a) random bytes and (b) a valid file with random
mutations: lines deleted, duplicated, swapped or blanked; tabs, spaces,
separators, digits, brackets, boundary markers or arbitrary bytes inserted;
characters cut; the file truncated; CRLF line ends; a byte-order mark.
The reader must either return a well-formed result or raise
:class:`~textbcv.errors.InputError` whose text starts with the file's path
(and whose line, when given, is a line of the file), within a time limit,
never anything else (IndexError, KeyError, UnicodeError, ValueError,
conllu's ParseException, RecursionError, a hang).

The ``textbcv test`` readers are fuzzed through the whole command, which
must answer (exit 0) or fail with exit 2 and one line naming the file.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textbcv.cli import main
from textbcv.corpus import Sentence, read_conll, read_conllu, read_segmented
from textbcv.corpus.conlleval import read_conlleval
from textbcv.errors import InputError
from textbcv.split import load_splits, split_units
from textbcv.tagging.features import extract, get_template

ROOT = Path(__file__).resolve().parents[1]
#: TEXTBCV_SLOW=1 (as for the slow tests: ``TEXTBCV_SLOW=1 scripts/test``) fuzzes with 20 times more examples.
DEEP = 20 if os.environ.get("TEXTBCV_SLOW") == "1" else 1
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


# ----------------------------------------------------------------------------- valid seeds

def _head(path: Path, n_lines: int) -> bytes:
    with open(path, "rb") as f:
        return b"".join(f.readline() for _ in range(n_lines))


CONLL = _head(ROOT / "corpora" / "ner_en.conll", 40)
CONLL2 = "EU B-ORG\nrejects O\nGerman B-MISC\n\n-DOCSTART- O\n\n中 B-LOC\n国 I-LOC\n\t\n".encode()
CONLLU = ("# newdoc id = d1\n# sent_id = 1\n# text = don't go\n"
          "1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n1\tdo\tdo\tAUX\tVBP\tMood=Ind\t3\taux\t_\t_\n"
          "2\tn't\tnot\tPART\tRB\t_\t3\tadvmod\t_\t_\n2.1\tgone\tgo\tVERB\t_\t_\t_\t_\t0:root\t_\n"
          "3\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\tSpaceAfter=No\n\n"
          "# sent_id = 2\n1\tOK\tok\tINTJ\tUH\t_\t0\troot\t0:root\t_\n\n").encode()
SEGMENTED = _head(ROOT / "corpora" / "cws_zh.txt", 8)
CONLLEVAL = (b"-DOCSTART- -X- O O\n\nEU NNP B-ORG B-ORG\nrejects VBZ O O\nGerman JJ B-MISC I-MISC\n"
             b"-X- -X- O O\ncall NN S-X E-X\n\n\nto TO O B-PER\n")
FOLD = {"tp": 5, "fp": 1, "fn": 2}
COUNTS = json.dumps({"m": 1, "systems": {"A": [FOLD, {"tp": 4, "fp": 0, "fn": 3}],
                                         "B": [{"tp": 6, "fp": 2, "fn": 1}, FOLD]}}, indent=1).encode()
FOLDS_JSONL = "".join(
    json.dumps({"system": s, "split": 0, "direction": k,
                "counts": {"overall": FOLD, "types": {"PER": FOLD}}, "run": {"seconds": 0.5}}) + "\n"
    for s in ("iob2", "iobes") for k in (0, 1)).encode()
SPLITS = split_units(8, 3, seed=0).dumps().encode()
TEMPLATE = json.dumps({"name": "t", "atoms": ["w", "pos"], "window": [-1, 1], "ngrams": [1, 2],
                       "token_atoms": ["suffix3", "shape"], "conjunctions": [[["w", -1], ["shape", 0]]],
                       "bias": True}, indent=1).encode()


# ----------------------------------------------------------------------------- mutations

PIECES = st.one_of(
    st.sampled_from([b"\t", b" ", b"  ", b"\n", b"\r", b"\r\n", b"\xef\xbb\xbf", b"\xff", b"\xc3", b"\x00", b"-", b"#",
                     b"0", b"1", b"-1", b"1.5", b"1e400", b"NaN", b"[", b"]", b"{", b"}", b'"', b",", b":", b"null",
                     b"true", b"-DOCSTART-", b"-X-", b"B-X", b"I-", b"S-", b"O", b"_", b"1-2", b"2.1", b"3-3",
                     "中".encode(), "\u3000".encode(), b"# newdoc", b"x" * 300]),
    st.binary(max_size=4),
)
IDX = st.integers(0, 10**6)
OPS = st.one_of(
    st.tuples(st.just("delete"), IDX),
    st.tuples(st.just("duplicate"), IDX),
    st.tuples(st.just("swap"), IDX, IDX),
    st.tuples(st.just("blank"), IDX, st.sampled_from([b"", b" ", b"\t", b"\r"])),
    st.tuples(st.just("insert"), IDX, IDX, PIECES),
    st.tuples(st.just("cut"), IDX, IDX, st.integers(1, 8)),
    st.tuples(st.just("byte"), IDX, IDX, st.integers(0, 255)),
    st.tuples(st.just("truncate"), IDX),
    st.tuples(st.just("crlf")),
    st.tuples(st.just("bom")),
)


def mutate(data: bytes, ops) -> bytes:
    """Apply line and byte mutations (indices taken modulo the current sizes)."""
    lines = data.split(b"\n")
    for op in ops:
        kind, args = op[0], op[1:]
        if kind == "crlf":
            lines = [x + b"\r" for x in lines]
        elif kind == "bom":
            lines[0] = b"\xef\xbb\xbf" + lines[0]
        elif kind == "truncate":
            text = b"\n".join(lines)
            lines = text[: args[0] % (len(text) + 1)].split(b"\n")
        else:
            i = args[0] % len(lines)
            line = lines[i]
            if kind == "delete" and len(lines) > 1:
                del lines[i]
            elif kind == "duplicate":
                lines.insert(i, line)
            elif kind == "swap":
                j = args[1] % len(lines)
                lines[i], lines[j] = lines[j], lines[i]
            elif kind == "blank":
                lines[i] = args[1]
            elif kind == "insert":
                k = args[1] % (len(line) + 1)
                lines[i] = line[:k] + args[2] + line[k:]
            elif kind == "cut":
                k = args[1] % (len(line) + 1)
                lines[i] = line[:k] + line[k + args[2]:]
            elif kind == "byte":
                k = args[1] % (len(line) + 1)
                lines[i] = line[:k] + bytes([args[2]]) + line[k + 1:]
    return b"\n".join(lines)


def files_from(seed: bytes, max_ops: int = 4):
    """Near-valid mutations of ``seed`` (mostly) and random bytes."""
    near = st.lists(OPS, min_size=1, max_size=max_ops).map(lambda ops: mutate(seed, ops))
    return st.one_of(near, near, near, st.binary(max_size=300))


# ----------------------------------------------------------------------------- harness

@contextlib.contextmanager
def time_limit(seconds: float):
    """Fail (TimeoutError) instead of hanging."""
    def on_alarm(signum, frame):
        raise TimeoutError(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def n_lines(data: bytes) -> int:
    """Lines of ``data``: LF, CRLF and a lone CR each end one (as the readers count them)."""
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n") + 1


def parse_or_input_error(path: Path, data: bytes, read):
    """``read(path)`` on a file holding ``data``: the result, or None after checking the InputError."""
    path.write_bytes(data)
    try:
        with time_limit(20):
            return read(path)
    except InputError as e:
        assert str(e).startswith(str(path)), f"InputError does not start with the file: {e}"
        if e.line is not None:
            assert 1 <= e.line <= n_lines(data), f"line {e.line} is not a line of the file: {e}"
        return None


def check_corpus(corpus, path: Path, data: bytes) -> None:
    """A corpus that was read is well formed, and its (lazily decoded) chunks too."""
    last = n_lines(data)
    assert len(corpus) >= 1
    for s in corpus:
        assert len(s.tokens) >= 1 and all(t for t in s.tokens)
        assert s.source == str(path) and 1 <= s.line <= last
        assert not s.tags or len(s.tags) == len(s.tokens)
        chunks = s.chunks
        assert all(0 <= a < b <= len(s) for a, b, _ in chunks)
        assert all(c1[1] <= c2[0] for c1, c2 in zip(chunks, chunks[1:]))
    corpus.chunk_counts()


# ----------------------------------------------------------------------------- corpus readers

@settings(max_examples=150 * DEEP, **SETTINGS)
@given(data=st.one_of(files_from(CONLL), files_from(CONLL2)),
       columns=st.sampled_from([None, None, "token,pos,chunk,ner", "token,_,_,ner", "token,ner"]),
       scheme=st.sampled_from([None, None, "iob1", "iob2", "iobes", "BIO", "bmes"]))
def test_read_conll(fuzz_dir, data, columns, scheme):
    path = fuzz_dir / "x.conll"
    corpus = parse_or_input_error(path, data, lambda p: read_conll(p, columns=columns, scheme=scheme))
    if corpus is not None:
        check_corpus(corpus, path, data)


@settings(max_examples=150 * DEEP, **SETTINGS)
@given(data=files_from(CONLLU))
def test_read_conllu(fuzz_dir, data):
    path = fuzz_dir / "x.conllu"
    corpus = parse_or_input_error(path, data, read_conllu)
    if corpus is not None:
        check_corpus(corpus, path, data)
        assert all(len(s.lemmas) == len(s.pos) == len(s) for s in corpus)


@settings(max_examples=100 * DEEP, **SETTINGS)
@given(data=files_from(SEGMENTED))
def test_read_segmented(fuzz_dir, data):
    path = fuzz_dir / "x.txt"
    corpus = parse_or_input_error(path, data, read_segmented)
    if corpus is not None:
        check_corpus(corpus, path, data)
        assert all("".join(s.words) == "".join(s.tokens) for s in corpus)


@settings(max_examples=100 * DEEP, **SETTINGS)
@given(data=files_from(CONLLEVAL), docstart=st.sampled_from(["boundary", "token"]))
def test_read_conlleval(fuzz_dir, data, docstart):
    path = fuzz_dir / "out.txt"
    f = parse_or_input_error(path, data, lambda p: read_conlleval(p, docstart=docstart))
    if f is not None:
        assert f.sentences and f.columns >= 2 and f.path == str(path)
        for s in f.sentences:
            assert len(s.tokens) == len(s.gold) == len(s.pred) >= 1


# ----------------------------------------------------------------------------- `textbcv test` readers

def run_test_command(path: Path, *options: str) -> None:
    """`textbcv test PATH`: exit 0 with an answer, or exit 2 with one line naming the file."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_limit(30):
        status = main(["test", str(path), "--json", *options])
    if status == 0:
        answer = json.loads(out.getvalue())
        assert answer["comparisons"] and err.getvalue() == ""
        return
    assert status == 2 and out.getvalue() == "", err.getvalue()
    lines = err.getvalue().split("\n")
    assert len(lines) == 2 and lines[1] == "" and lines[0].startswith(f"textbcv: error: {path}"), err.getvalue()


@settings(max_examples=120 * DEEP, **SETTINGS)
@given(data=files_from(COUNTS), variant=st.sampled_from(["thesis", "adaptive", "independent"]), classic=st.booleans())
def test_textbcv_test_counts_json(fuzz_dir, data, variant, classic):
    path = fuzz_dir / "counts.json"
    path.write_bytes(data)
    # --allow-different-gold: random counts rarely share their gold totals; the statistics are what is fuzzed
    run_test_command(path, "--variant", variant, "--allow-different-gold", *(["--classic"] if classic else []))


@settings(max_examples=120 * DEEP, **SETTINGS)
@given(data=files_from(FOLDS_JSONL), chunk_type=st.sampled_from([None, "PER", "ORG"]))
def test_textbcv_test_folds_jsonl(fuzz_dir, data, chunk_type):
    path = fuzz_dir / "folds.jsonl"
    path.write_bytes(data)
    run_test_command(path, "--allow-different-gold", *(["--type", chunk_type] if chunk_type else []))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**16) | st.floats(allow_nan=True) | st.text(max_size=5),
    lambda inner: (st.lists(inner, max_size=4)
                   | st.dictionaries(st.sampled_from(["m", "tp", "fp", "fn", "A", "B"]), inner, max_size=4)),
    max_leaves=12,
)


@st.composite
def counts_objects(draw):
    """COUNTS.json objects of the right shape with odd values (zeros, huge counts, wrong types, wrong lengths)."""
    m = draw(st.sampled_from([1, 2, 3, 0, -1, 2.0, True, "3", None]))
    count = st.one_of(st.integers(0, 12), st.integers(0, 10**16), JSON_VALUES)
    fold = st.fixed_dictionaries({"tp": count, "fp": count, "fn": count})
    n = 2 * m if isinstance(m, int) and not isinstance(m, bool) and m > 0 else 2
    systems = draw(st.dictionaries(st.text(min_size=1, max_size=3), st.lists(fold, min_size=n - 1, max_size=n + 1)
                                   | JSON_VALUES, min_size=1, max_size=3))
    return {"m": m, "systems": systems}


@settings(max_examples=120 * DEEP, **SETTINGS)
@given(obj=counts_objects(), rope=st.sampled_from([None, "0.01"]))
def test_textbcv_test_counts_values(fuzz_dir, obj, rope):
    path = fuzz_dir / "values.json"
    path.write_text(json.dumps(obj, indent=1), encoding="utf-8")
    run_test_command(path, *(["--rope", rope] if rope else []))


# ----------------------------------------------------------------------------- feature templates

TEMPLATE_VALUES = st.fixed_dictionaries(
    {"name": st.sampled_from(["t", "", 3])},
    optional={
        "atoms": st.lists(st.sampled_from(["w", "pos", "shape", "c", "nope", 1]), max_size=3) | JSON_VALUES,
        "window": st.lists(st.integers(-12, 12) | st.sampled_from([0.5, "1", None]), max_size=3) | JSON_VALUES,
        "ngrams": st.lists(st.integers(-1, 30) | st.sampled_from([1.0, "2"]), max_size=3) | JSON_VALUES,
        "token_atoms": st.lists(st.sampled_from(["suffix3", "isdigit", "x"]), max_size=3) | JSON_VALUES,
        "conjunctions": st.lists(st.lists(st.tuples(st.sampled_from(["w", "shape", "q"]),
                                                    st.integers(-10, 10) | st.just("1")).map(list), max_size=2),
                                 max_size=2) | JSON_VALUES,
        "bias": st.booleans() | JSON_VALUES,
        "colour": JSON_VALUES,
    },
)


def check_template_loads(path: Path, data: bytes) -> None:
    t = parse_or_input_error(path, data, lambda p: get_template(str(p)))
    if t is not None:  # a template that loads must extract features
        feats = extract([Sentence(("EU", "rejects", "it"), pos=("NNP", "VBZ", "PRP"))], t)
        assert len(feats[0]) == 3


@settings(max_examples=150 * DEEP, **SETTINGS)
@given(data=files_from(TEMPLATE))
def test_feature_template_file(fuzz_dir, data):
    check_template_loads(fuzz_dir / "template.json", data)


@settings(max_examples=150 * DEEP, **SETTINGS)
@given(obj=TEMPLATE_VALUES | JSON_VALUES)
def test_feature_template_values(fuzz_dir, obj):
    check_template_loads(fuzz_dir / "values.json", json.dumps(obj).encode())


# ------------------------------------------------------------ splits.json (textbcv.split: reported, not fixed here)

def check_manifest_loads(path: Path, data: bytes) -> None:
    s = parse_or_input_error(path, data, load_splits)
    if s is not None:
        for t, v in s.splits:
            assert sorted(list(t) + list(v)) == list(range(s.n))


# Bugs of load_splits (textbcv/split/manifest.py, owned by the splitter branch; reported with these reproducers):
LOAD_SPLITS_BUGS = [
    pytest.param(b'{"format": "textbcv-splits/1", "splits": []}', id="missing-n_sentences-KeyError"),
    pytest.param(b'{"format": "textbcv-splits/1", "n_sentences": 2, "splits": [[0, 1]]}',
                 id="split-not-object-TypeError"),
    pytest.param(b'{"format": "textbcv-splits/1", "n_sentences": "x", "splits": []}', id="n-not-integer-ValueError"),
    pytest.param(b'{"format": "textbcv-splits/1", "n_sentences": 2, "splits": [{"train": ["a"], "valid": [1]}]}',
                 id="index-not-integer-ValueError"),
    pytest.param(b'\xff{"format": "textbcv-splits/1"}', id="invalid-utf8-UnicodeDecodeError"),
    pytest.param(b'{"format": "textbcv-splits/1", "n_sentences": 2, "splits": [{"train": [0.7], "valid": [1]}]}',
                 id="float-index-accepted"),
]


@pytest.mark.parametrize("data", LOAD_SPLITS_BUGS)
def test_load_splits_reproducers(tmp_path, data):
    path = tmp_path / "splits.json"
    s = parse_or_input_error(path, data, load_splits)
    assert s is None, f"accepted a malformed manifest: n = {s.n}, splits = {s.splits}"


#: Exceptions load_splits may let through (none since the fixes above). Anything else fails the fuzz test: an
#: IndexError, a RecursionError, a hang, an InputError that does not name the file.
KNOWN_LOAD_SPLITS_LEAKS = ()


@settings(max_examples=150 * DEEP, **SETTINGS)
@given(data=files_from(SPLITS))
def test_load_splits_fuzz(fuzz_dir, data):
    try:
        check_manifest_loads(fuzz_dir / "splits.json", data)
    except KNOWN_LOAD_SPLITS_LEAKS as e:
        assert not isinstance(e, InputError)  # (an InputError was checked above; this is a leak)


def test_seeds_are_valid(tmp_path):
    """The seeds above are valid files (so mutations start from something real)."""
    for name, data, read in [("a.conll", CONLL, read_conll), ("b.conll", CONLL2, read_conll),
                             ("c.conllu", CONLLU, read_conllu), ("d.txt", SEGMENTED, read_segmented),
                             ("e.txt", CONLLEVAL, read_conlleval),
                             ("s.json", SPLITS, load_splits), ("t.json", TEMPLATE, lambda p: get_template(str(p)))]:
        p = tmp_path / name
        p.write_bytes(data)
        assert read(p) is not None
    for name, data in [("c.json", COUNTS), ("folds.jsonl", FOLDS_JSONL)]:
        p = tmp_path / name
        p.write_bytes(data)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["test", str(p), "--json"]) == 0


def test_template_with_an_empty_conjunction_is_refused(tmp_path):
    """Found by hypothesis: {"conjunctions": [[]]} loaded and then extracted no feature rows at all."""
    p = tmp_path / "t.json"
    p.write_text(json.dumps({"name": "x", "atoms": [], "conjunctions": [[]]}))
    assert parse_or_input_error(p, p.read_bytes(), lambda q: get_template(str(q))) is None
