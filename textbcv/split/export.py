"""The folds of a split set as files, for a tagger trained outside textbcv (``textbcv split --export``).

``DIR/fold-{i}-{d}/`` gets ``train.EXT``, ``test.EXT`` (sentences as in the source file, in corpus
order) and ``test.ids`` (per test sentence: corpus index TAB token fingerprint); ``DIR/README.md``
says what to do with them.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from textbcv import __version__
from textbcv._io import remove_stale_temps, temp_prefix
from textbcv.corpus.fingerprint import fingerprint
from textbcv.corpus.model import Corpus
from textbcv.corpus.sniff import CORPUS_EXTENSIONS
from textbcv.corpus.source import document_marks, sentence_texts
from textbcv.errors import InputError
from textbcv.schemes import encode, get_scheme
from textbcv.split.manifest import ONE_WAY, SplitSet

__all__ = ["export_folds", "check_export_dir", "EXTENSIONS", "EXPORT_FORMATS", "fold_name"]

#: File extension of the exported halves, per corpus format.
EXTENSIONS = {"conll": "conll", "conllu": "conllu", "segmented": "txt", "jsonl": "jsonl"}
#: What ``--to`` writes: the sentences as in the source, or Hugging Face ``datasets`` JSON lines.
EXPORT_FORMATS = ("source", "hf")


def fold_name(split: int, direction: int) -> str:
    """``fold-{i}-{d}``: the directory of a fold in an export, and the stem of its prediction file.

    Parameters
    ----------
    split : int
    direction : int
        0 (train on the split's train half) or 1 (the reverse).

    Returns
    -------
    str

    Examples
    --------
    >>> fold_name(2, 1)
    'fold-2-1'
    """
    return f"fold-{split}-{direction}"


def check_export_dir(path: str | os.PathLike) -> None:
    """InputError unless ``path`` can receive an export: new, or an empty directory.

    Parameters
    ----------
    path : str or path-like

    Raises
    ------
    InputError
        When ``path`` is a file or a non-empty directory, or its nearest existing parent is a file.
    """
    p = Path(path)
    if p.exists():
        if not p.is_dir():
            raise InputError("--export: is a file, not a directory", file=str(p))
        if any(p.iterdir()):
            raise InputError("--export: the directory is not empty; choose another or delete it", file=str(p))
    for parent in p.resolve().parents:
        if parent.exists():
            if not parent.is_dir():
                raise InputError(f"--export: cannot write here: {parent} is a file, not a directory", file=str(p))
            break


def _write(path: Path, indices, texts: list[str], documents: list[int], marks: dict[int, str], blank: bool) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        last = None
        for i in indices:
            d = documents[i]
            if d != last:
                mark = marks.get(d)
                if mark is not None:
                    f.write(mark + "\n\n")
                last = d
            f.write(texts[i])
            if blank:
                f.write("\n")


def export_folds(corpus: Corpus, splits: SplitSet, out: str | os.PathLike, *, splits_path: str = "SPLITS.json",
                 command: Sequence[str] | None = None, to: str = "source") -> Path:
    """Write the train and test halves of every fold of ``splits`` into ``out``, all or nothing; return ``out``.

    Parameters
    ----------
    corpus : Corpus
        The corpus as a reader returned it (sentences are re-read from their files).
    splits : SplitSet
        Two-fold splits of ``corpus`` (not ``brhs``).
    out : path
        New or empty directory.
    splits_path : str
        How the split manifest is named in ``README.md``'s commands.
    command : sequence of str, optional
        Corpus arguments of the ``textbcv evaluate`` command in ``README.md`` (default: the corpus files).
    to : {"source", "hf"}
        The sentences as in the corpus files, or Hugging Face ``datasets`` JSON lines.

    Returns
    -------
    Path

    Raises
    ------
    InputError
        For one-way splits, splits of another corpus size, an unknown ``to``, or an unusable ``out``.

    Examples
    --------
    >>> import tempfile, os
    >>> from textbcv.corpus import read_corpus
    >>> from textbcv.split import make_splits
    >>> p = os.path.join(tempfile.mkdtemp(), "c.txt")
    >>> _ = open(p, "w", encoding="utf-8").write("ab c\\nd ef\\ng h\\nij\\nk l m\\n")
    >>> c = read_corpus(p, format="segmented")
    >>> out = export_folds(c, make_splits(c, m=1, seed=0), os.path.join(os.path.dirname(p), "folds"))
    >>> sorted(os.listdir(out)), sorted(os.listdir(os.path.join(out, "fold-0-0")))
    (['README.md', 'fold-0-0', 'fold-0-1'], ['test.ids', 'test.txt', 'train.txt'])
    """
    if splits.method in ONE_WAY:
        raise InputError(f"--export needs 2-fold splits (--method bcv, bcv-select or random), not {splits.method}")
    if splits.n != len(corpus):
        raise InputError(f"the splits are of {splits.n} sentences, the corpus has {len(corpus)}")
    if to not in EXPORT_FORMATS:
        raise InputError(f"to: unknown export format {to!r} (choose {' or '.join(EXPORT_FORMATS)})", param="to")
    out = Path(out)
    check_export_dir(out)
    if corpus.format == "arrow":  # a save_to_disk folder has rows, not lines of text: its halves are its rows
        to = "hf"
    ext = EXTENSIONS[corpus.format] if to == "source" else "jsonl"
    hf = _hf_rows(corpus) if to == "hf" else None
    texts = sentence_texts(corpus) if hf is None else []
    marks = document_marks(corpus) if hf is None else {}
    documents = corpus.document_ids
    blank = corpus.format not in ("segmented", "jsonl")  # one sentence per line: no blank line between
    prints = [fingerprint(s.tokens) for s in corpus]
    parent = out.resolve().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temps(parent / out.name)  # folders a killed export of this target left
        tmp = Path(tempfile.mkdtemp(prefix=temp_prefix(out), suffix=".tmp", dir=parent))
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror or e}", file=str(out)) from None
    try:
        for split, direction, train, test in splits.folds():
            d = tmp / fold_name(split, direction)
            d.mkdir()
            if hf is not None:
                rows, names = hf
                for part, idx in (("train", train), ("test", test)):
                    with open(d / f"{part}.jsonl", "w", encoding="utf-8", newline="\n") as f:
                        f.writelines(rows[i] for i in idx)
                with open(d / "label_names.json", "w", encoding="utf-8", newline="\n") as f:
                    f.write(json.dumps(names, ensure_ascii=False) + "\n")
            else:
                _write(d / f"train.{ext}", train, texts, documents, marks, blank)
                _write(d / f"test.{ext}", test, texts, documents, marks, blank)
            with open(d / "test.ids", "w", encoding="utf-8", newline="\n") as f:
                f.writelines(f"{i}\t{prints[i]}\n" for i in test)
        if hf is not None:
            with open(tmp / "label_names.json", "w", encoding="utf-8", newline="\n") as f:
                f.write(json.dumps(hf[1], ensure_ascii=False) + "\n")
        with open(tmp / "README.md", "w", encoding="utf-8", newline="\n") as f:
            f.write(_readme(corpus, splits, ext, splits_path, command, hf_names=None if hf is None else hf[1]))
        os.chmod(tmp, 0o777 & ~_umask())
        if out.exists():
            out.rmdir()  # empty (checked above)
        os.replace(tmp, out)
    except OSError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise InputError(f"cannot write: {e.strerror or e} (nothing was exported)", file=str(out)) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def _hf_rows(corpus: Corpus) -> tuple[list[str], list[str]]:
    """Every sentence as a ``datasets`` JSON line (gold IOB2 or BMES tags as ids) and the label names."""
    cws = corpus.format == "segmented" or (corpus.scheme is not None and get_scheme(corpus.scheme).untyped)
    scheme = "bmes" if cws else "iob2"
    tags = [encode(s.chunks, len(s), scheme) for s in corpus]
    outside = "S" if cws else "O"
    names = [outside] + sorted({t for ts in tags for t in ts} - {outside})
    ids = {t: i for i, t in enumerate(names)}
    docs = corpus.document_ids if corpus.n_documents > 1 else None  # no marks: no field that names one document
    rows = [json.dumps({"id": i, "tokens": list(s.tokens), "ner_tags": [ids[t] for t in ts],
                        **({} if docs is None else {"document_id": int(docs[i])})}, ensure_ascii=False) + "\n"
            for i, (s, ts) in enumerate(zip(corpus, tags))]
    return rows, names


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _readme(corpus: Corpus, splits: SplitSet, ext: str, splits_path: str, command: Sequence[str] | None,
            hf_names: Sequence[str] | None = None) -> str:
    m = len(splits.splits)
    files = ", ".join(f"`{f}`" for f in corpus.files)
    corpus_args = " ".join(shlex.quote(a) for a in (command or corpus.files))
    ner = (corpus.format in ("conll", "jsonl") and corpus.scheme is not None
           and not get_scheme(corpus.scheme).untyped)
    tasks = ["ner"] if ner else ["cws"]
    lines = [
        "# Folds for a tagger trained outside textbcv", "",
        f"Made by `textbcv split` (textbcv {__version__}) from {files} ({len(corpus):,} sentences): "
        f"{m} splits ({splits.method}, seed {splits.seed}), so {2 * m} folds; the splits are in `{splits_path}`.", "",
        "Fold `fold-{i}-{d}` is split i trained on one half and tested on the other: d = 0 trains on the split's "
        "train half, d = 1 on its valid half. Each fold directory holds:", "",
        *([f"- `train.{ext}`: the sentences to train on, as they are in the corpus file;",
           f"- `test.{ext}`: the sentences to predict, in corpus order;"] if hf_names is None else [
            "- `train.jsonl`, `test.jsonl`: the sentences to train on and to predict (in corpus order), as Hugging "
            "Face `datasets` JSON lines: `id` (the sentence's index in the corpus), `tokens`, `ner_tags` (integer "
            "ids) and `document_id`; `datasets.load_dataset(\"json\", data_files={\"train\": ..., \"test\": ...})` "
            "reads them;",
            f"- `label_names.json`: the tag of each id ({', '.join(hf_names[:6])}{', ...' if len(hf_names) > 6 else ''}"
            "), also at the top of this folder;"]),
        "- `test.ids`: one line per test sentence, its index in the corpus and a fingerprint of its tokens.", "",
        "Train your tagger on `train." + ext + "` of each fold and predict `test." + ext + "`; never train on a "
        "test half.", "",
        "## What to write back", "",
        "For each system, one directory with one file per fold, `PRED_DIR/fold-{i}-{d}.txt`, holding the "
        "predictions for that fold's `test." + ext + "`, its sentences in the same order:", "",
    ]
    if ner:
        lines += ["- one line per token, the token first and the predicted tag last (`token tag`, or conlleval's "
                  "`token gold tag`), a blank line after each sentence. The tags may be in any scheme (IOB1, IOB2, "
                  "IOBES, BILOU, ...): it is detected, or give it with `--pred-scheme`. `-DOCSTART-` lines are "
                  "allowed and skipped.", ""]
    else:
        lines += ["- one line per test sentence, its words separated by spaces (word segmentation).", ""]
    exts = ", ".join(f"`{e}`" for e in CORPUS_EXTENSIONS)
    lines += ["Tokens (characters for segmentation) must be those of `test." + ext + "` exactly: textbcv stops at the "
              "first difference, naming the file and line.", "",
              "## Held-out test files (optional)", "",
              "If the corpus comes with independent test files (e.g. CoNLL-2003's `eng.testb`), let every fold's model "
              "also tag each of them, and write fold (i, d)'s predictions of the file `FILE` to "
              "`PRED_DIR/heldout/STEM/fold-{i}-{d}.txt`, in the same format, its sentences in the file's order. "
              f"STEM is the file's name without one of the extensions {exts} (`test.conll` → `test`); any other "
              "extension stays (`dev.annotated` → `dev.annotated`). Then add `--heldout FILE` (one per file) to the "
              "command below.", "",
              "## Then", "", "```"]
    for t in tasks:
        lines.append(f"textbcv evaluate {shlex.quote(splits_path)} {corpus_args} --task {t} "
                     "--system A=PRED_DIR_A --system B=PRED_DIR_B --out RUN")
    lines += ["```", "",
              "gives the same run directory and report as `textbcv compare`: pooled scores with credible intervals, "
              "P(B better), the sequential t-test, per-type scores and plots.", ""]
    return "\n".join(lines)
