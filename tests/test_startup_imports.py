"""Import cost is paid only where used: ``import textbcv`` and the ``score`` command load no heavy library.

Each check runs a fresh interpreter (the test process has imported everything already) and lists which of
the heavy modules are in ``sys.modules`` after the step.
"""

from __future__ import annotations

import json
import subprocess
import sys

import textbcv

#: Libraries that neither ``import textbcv`` nor ``textbcv score`` needs (scipy.stats: half a second or more).
HEAVY = ("scipy", "scipy.stats", "matplotlib", "pandas", "joblib", "dask", "sklearn", "pycrfsuite", "tqdm")
NER = str(textbcv.bundled_corpora()["ner"])

_SCRIPT = """
import contextlib, io, json, sys
HEAVY = {heavy!r}
loaded = lambda: sorted(m for m in HEAVY if m in sys.modules)
import textbcv
after_import = loaded()
from textbcv.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = main({argv!r})
after_score = loaded()
{then}
print(json.dumps({{"import": after_import, "score": after_score, "status": status, "out": out.getvalue(),
                  "then": loaded()}}))
"""


def _run(argv: list[str], then: str = "") -> dict:
    code = _SCRIPT.format(heavy=HEAVY, argv=argv, then=then)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def test_import_textbcv_and_score_load_no_heavy_library():
    r = _run(["score", NER, "--json"])
    assert r["import"] == []
    assert r["score"] == []
    assert r["status"] == 0
    # the command really scored the bundled file: 31,276 token lines less the 200 -DOCSTART- lines (boundaries)
    assert json.loads(r["out"])["tokens"] == 31_076


def test_score_text_report_and_modes_load_no_heavy_library():
    r = _run(["score", NER, "--modes"])
    assert r["score"] == []
    assert r["out"].startswith("processed 31276 tokens with 17141 phrases; found: 4996 phrases; correct: 0.\n")
    assert "matching modes" in r["out"]


def test_the_check_sees_a_heavy_import():
    r = _run(["score", NER, "--json"], then="import textbcv.stats.compare")
    assert r["score"] == []
    assert "scipy.stats" in r["then"]
