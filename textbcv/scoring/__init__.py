"""Chunk scoring: TP, FP and FN per chunk type, per sentence and per fold, and conlleval.pl's report.

:mod:`~textbcv.scoring.counts` counts gold against predicted chunks (:class:`Tally`, :class:`ChunkCounts`,
:func:`count_chunks`, :func:`sentence_counts`); :mod:`~textbcv.scoring.tags` scores whole tag sequences
in array operations (:func:`score_tags`) and writes conlleval.pl's report (:func:`format_conlleval`).
Everything public is importable from here.
"""

from textbcv.scoring.counts import (
    ChunkCounts,
    LexiconCounts,
    TagScore,
    Tally,
    count_chunks,
    count_lexicon,
    heldout_record,
    sentence_counts,
    sum_heldout_records,
    sum_type_sentence_counts,
    type_sentence_counts,
)
from textbcv.scoring.tags import format_conlleval, score_codes, score_tags

__all__ = ["Tally", "ChunkCounts", "TagScore", "LexiconCounts", "count_chunks", "sentence_counts", "count_lexicon",
           "heldout_record", "sum_heldout_records", "score_tags", "score_codes", "format_conlleval",
           "type_sentence_counts", "sum_type_sentence_counts"]
