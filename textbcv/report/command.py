"""The ``textbcv`` command that remakes a report, every setting explicit, read from ``meta`` of the report."""

from __future__ import annotations

import shlex

from textbcv.report.model import CompareReport
from textbcv.stats.bayes import THRESHOLD

__all__ = ["reproduce_command"]


def _q(x) -> str:
    return shlex.quote(str(x))


def reproduce_command(report: CompareReport, out: str = "rerun") -> str | None:
    """The shell-quoted ``textbcv`` command that remakes this report into ``out``, every setting explicit.

    Parameters
    ----------
    report : CompareReport
    out : str
        The ``--out`` directory.

    Returns
    -------
    str or None
        ``textbcv compare`` (``textbcv evaluate`` for imported folds); None for the user's own Python taggers or
        a corpus passed as an object.

    Examples
    --------
    >>> r = CompareReport.from_dict({"meta": {"options": {"task": "ner", "systems": ["iob2", "iobes"], "m": 3,
    ...      "seed": 0, "balance": [], "group_by": "auto", "variant": "averaged-counts", "alpha": 0.05,
    ...      "threshold": 0.95, "rope": None, "split_method": "bcv", "sequential": False, "heldout": []},
    ...      "corpus": {"format": "conll", "files": [{"path": "ner.conll"}]},
    ...      "systems": [{"tagger": "crf"}, {"tagger": "crf"}]}})
    >>> print(reproduce_command(r))
    textbcv compare ner.conll --format conll --task ner --systems iob2,iobes --m 3 --seed 0 --balance none
    --group-by auto --variant averaged-counts --alpha 0.05 --threshold 0.95 --out rerun
    """
    meta, o, corpus = report.meta, report.options, report.corpus
    files = [f["path"] for f in corpus.get("files") or []]
    if not o or not files:
        return None
    read = corpus.get("read") or {}
    words = [*map(_q, files), "--format", corpus.get("format", "conll")]
    if read.get("columns"):
        words += ["--columns", _q(read["columns"])]
    if read.get("scheme"):
        words += ["--scheme", _q(read["scheme"])]
    if read.get("encoding") and read["encoding"].lower().replace("_", "-") not in ("utf-8", "utf8"):
        words += ["--encoding", _q(read["encoding"])]
    words += ["--task", o["task"]]
    imported = meta.get("imported")
    if imported:
        head = ["textbcv", "evaluate", _q(imported["splits"]["path"])]
        for name, s in imported["systems"].items():
            words += ["--system", _q(f"{name}={s['predictions']}")]
        given = {s.get("scheme") for s in imported["systems"].values()
                 if s.get("scheme") and not s.get("scheme_detected")}
        if len(given) == 1:
            words += ["--pred-scheme", given.pop()]
    else:
        if any((s or {}).get("tagger") != "crf" for s in meta.get("systems") or []):
            return None
        head = ["textbcv", "compare"]
        words += ["--systems", _q(",".join(o["systems"]))]
        if o.get("sequential"):
            words += ["--sequential", "--m-max", str(o["m_max"]), "--stop", o["stop"]]
        else:
            words += ["--m", str(o["m"])]
        if meta.get("splits"):
            words += ["--splits", _q(meta["splits"])]
        else:
            words += ["--seed", str(o["seed"]), "--balance", ",".join(o.get("balance") or []) or "none",
                      "--group-by", o.get("group_by", "auto")]
    words += ["--variant", o["variant"]]
    if o.get("difference", "paired") != "paired":
        words += ["--difference", o["difference"]]
    if o["variant"] == "rho":
        words += ["--rho1", str(o["rho1"]), "--rho2", str(o["rho2"])]
    words += ["--alpha", f"{o['alpha']:g}", "--threshold", f"{o.get('threshold', THRESHOLD):g}"]
    if o.get("rope"):
        words += ["--rope", f"{round(100 * o['rope'], 10):g}"]
    if o.get("chunk_types"):
        words += ["--chunk-types", _q(",".join(o["chunk_types"]))]
    if o.get("untyped"):
        words.append("--untyped")
    if o.get("mode", "strict") != "strict":
        words += ["--mode", o["mode"]]
    if not imported:
        for k in ("c1", "c2", "max_iterations", "algorithm", "train_seed", "train_seeds"):
            if o.get(k) is not None and not (k == "train_seeds" and o[k] == 1):
                words += [f"--{k.replace('_', '-')}", f"{o[k]:g}" if isinstance(o[k], float) else str(o[k])]
    if o.get("heldout"):
        words += ["--heldout", *map(_q, o["heldout"])]
    return " ".join(head + words + ["--out", _q(out)])
