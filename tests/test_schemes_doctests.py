"""The examples in the docstrings of the scheme and scoring modules run and hold."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module", ["textbcv.schemes", "textbcv.conlleval_rules", "textbcv.tag_arrays", "textbcv.scoring",
               "textbcv.tag_scoring", "textbcv.corpus.conlleval", "textbcv.cli.score"]
)
def test_docstring_examples(module):
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testmod(importlib.import_module(module), optionflags=flags)
    assert result.failed == 0
