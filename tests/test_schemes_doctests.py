"""The examples in the docstrings of the scheme and scoring modules run and hold."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module", ["textbcv.schemes", "textbcv.schemes.core", "textbcv.schemes.conlleval", "textbcv.schemes.arrays",
               "textbcv.scoring", "textbcv.scoring.counts", "textbcv.scoring.tags", "textbcv.corpus.conlleval",
               "textbcv.cli.score"]
)
def test_docstring_examples(module):
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testmod(importlib.import_module(module), optionflags=flags)
    assert result.failed == 0
