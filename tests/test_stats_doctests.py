"""Every docstring example in textbcv.stats runs and gives what it shows."""

import doctest
import importlib

import pytest

MODULES = [
    "textbcv.stats.correlation",
    "textbcv.stats.posterior",
    "textbcv.stats.bayes",
    "textbcv.stats.compare",
    "textbcv.stats.sequential",
    "textbcv.stats.classic",
    "textbcv.stats.classic_result",
    "textbcv.stats.mcnemar",
    "textbcv.stats.ranks",
    "textbcv.stats.answer",
    "textbcv.stats.components",
    "textbcv.stats.onesplit",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
