"""Malformed corpus files: one clear line naming file and line, exit 2, no traceback (through the CLI)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CONLL_OK = "EU NNP I-NP I-ORG\nrejects VBZ I-VP O\n\n"
CONLLU_TOKEN = "1\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_\n"

# (name, file content (bytes), extra CLI args, expected "FILE:LINE: ..." line number or None, message part)
CASES = [
    ("wrong_column_count", b"EU NNP I-NP I-ORG\nrejects VBZ O\n\n", [], 2, "expected 4 columns"),
    ("wrong_count_with_roles", b"a B-X\nb\n", ["--columns", "token,ner"], 2, "expected 2 columns"),
    ("three_columns_no_roles", b"a b c\n", [], 1, "found 3 columns; name their roles with --columns"),
    ("docstart_inside_sentence", b"EU NNP I-NP I-ORG\n-DOCSTART- -X- -X- O\n\n", [], 2, "-DOCSTART- inside a sentence"),
    ("invalid_utf8", CONLL_OK.encode() + b"caf\xe9 NN I-NP O\n", [], 4, "invalid UTF-8"),
    ("empty_file", b"", [], 1, "file is empty"),
    ("blank_only_file", b"\n \n\t\n", [], 1, "file is empty"),
    ("binary_nul", b"EU NNP I-NP I-ORG\n\x00\x01\x02\n", [], 2, "NUL byte"),
    ("unknown_role", CONLL_OK.encode(), ["--columns", "token,pos,chunk,colour"], None, "unknown role 'colour'"),
    ("no_token_role", CONLL_OK.encode(), ["--columns", "pos,pos,chunk,ner"], None,
     "one column must have the role 'token'"),
    ("unknown_scheme", CONLL_OK.encode(), ["--scheme", "iobx"], None, "unknown tagging scheme 'iobx'"),
    ("unknown_format", CONLL_OK.encode(), ["--format", "xml"], None, "invalid choice: 'xml'"),
    ("conllu_bad_id", ("1\tA\ta\tX\t_\t_\t0\troot\t_\t_\nx2\tB\tb\tX\t_\t_\t1\tdep\t_\t_\n\n").encode(),
     ["--format", "conllu"], 2, "bad ID 'x2'"),
    ("conllu_id_out_of_order", ("1\tA\ta\tX\t_\t_\t0\troot\t_\t_\n3\tB\tb\tX\t_\t_\t1\tdep\t_\t_\n\n").encode(),
     ["--format", "conllu"], 2, "word ID 3 out of order: expected 2"),
    ("conllu_field_count", ("# text = go\n" + "1\tgo\tgo\tVERB\n\n").encode(), ["--format", "conllu"], 2,
     "expected 10 TAB-separated fields, found 4"),
    ("conllu_spaces_not_tabs", ("1 go go VERB VB _ 0 root _ _\n\n").encode(), ["--format", "conllu"], 1,
     "expected 10 TAB-separated fields, found 1"),
    ("conllu_bad_range", ("1-3\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n1\tdo\tdo\tAUX\t_\t_\t0\troot\t_\t_\n"
                          "2\tdo\tdo\tAUX\t_\t_\t0\troot\t_\t_\n\n").encode(), ["--format", "conllu"], 1,
     "bad range ID '1-3': the sentence ends at word 2"),
    ("conllu_comments_only", ("# sent_id = 1\n# text = nothing\n\n" + CONLLU_TOKEN + "\n").encode(),
     ["--format", "conllu"], 1, "sentence has no tokens"),
    ("conllu_bad_head", ("1\tgo\tgo\tVERB\tVB\t_\tx\troot\t_\t_\n\n").encode(), ["--format", "conllu"], 1,
     "bad HEAD 'x'"),
    ("segmented_invalid_utf8", "中国  人民\n".encode() + b"\xff\xfe\n", ["--format", "segmented"], 2, "invalid UTF-8"),
    ("columns_with_conllu", ("1\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_\n\n").encode(),
     ["--format", "conllu", "--columns", "token"], None, "--columns applies to --format conll only"),
    ("duplicate_role", CONLL_OK.encode(), ["--columns", "token,ner,chunk,ner"], None, "role 'ner' given twice"),
]


@pytest.mark.parametrize("name, content, args, line, message", CASES, ids=[c[0] for c in CASES])
def test_malformed_input(tmp_path, name, content, args, line, message):
    path = tmp_path / f"{name}.txt"
    path.write_bytes(content)
    r = subprocess.run([sys.executable, "-m", "textbcv", "stats", str(path), *args], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert r.stdout == ""
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    err = lines[0]
    assert err.startswith("textbcv: error: ")
    if line is not None:
        assert err.startswith(f"textbcv: error: {path}:{line}: "), err
    assert message in err, err


def test_missing_file(tmp_path):
    path = tmp_path / "nope.conll"
    r = subprocess.run([sys.executable, "-m", "textbcv", "stats", str(path)], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.strip() == f"textbcv: error: {path}: no such file"


def test_at_least_fifteen_cases():
    assert len(CASES) >= 15
