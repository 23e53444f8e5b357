"""A balanced split is the same on every machine, not only on the one that made it.

numpy picks its vector code (AVX-512, AVX2, ...) at run time, and its ``np.exp`` differs in the last
bits between them. The balancing's noising cycles draw log-normal column weights with it; before
they were rounded to float32, a split balanced on labels, lemmas and lengths came out differently on
an AVX-512 machine and on an AVX2 one with the same corpus, options and seed (the real-text study
met it when it moved machines). Here the same split is made twice in child processes, once with
numpy's AVX-512 code switched off (``NPY_DISABLE_CPU_FEATURES``), and the files must be identical.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _avx512_groups() -> list[str]:
    """The AVX-512 dispatch targets numpy uses on this machine (empty: nothing to switch off)."""
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # numpy 1.x
        from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    return [name for name in __cpu_dispatch__ if ("AVX512" in name or name == "X86_V4")
            and __cpu_features__.get(name)]


def _split(out: Path, disable: list[str]) -> bytes:
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=" ".join(disable))
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-m", "textbcv", "split", str(ROOT / "corpora" / "ner_en.conll"), "--m", "7",
           "--balance", "label,lemma,length", "--group-by", "sentence", "--seed", "3", "--out", str(out)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return out.read_bytes()


@pytest.mark.slow
def test_balanced_split_is_identical_with_and_without_avx512(tmp_path):
    groups = _avx512_groups()
    if not groups:
        pytest.skip("this machine's numpy runs no AVX-512 code: nothing to compare against")
    probe = subprocess.run([sys.executable, "-c", "import numpy"], capture_output=True, text=True,
                           env=dict(os.environ, NPY_DISABLE_CPU_FEATURES=" ".join(groups)))
    assert probe.returncode == 0, probe.stderr
    assert _split(tmp_path / "avx512.json", []) == _split(tmp_path / "avx2.json", groups)
