"""The writers, where earlier versions kept them (each now lives beside its reader)."""

from textbcv.corpus.conll import write_conll
from textbcv.corpus.conlleval import format_conlleval, write_conlleval

__all__ = ["write_conll", "write_conlleval", "format_conlleval"]
