"""Chunk scoring: TP, FP and FN per chunk type, per sentence and per fold, and conlleval.pl's report.

:mod:`~textbcv.scoring.tally` holds the counts as values (:class:`Tally`, :class:`ChunkCounts`, :class:`TagScore`);
:mod:`~textbcv.scoring.counts` counts gold against predicted chunks (:func:`count_chunks`,
:func:`sentence_counts`); :mod:`~textbcv.scoring.tags` scores whole tag sequences in array operations
(:func:`score_tags`) and writes conlleval.pl's report (:func:`format_conlleval`); :mod:`~textbcv.scoring.lexicon`
gives segmentation's IV / OOV recall; :mod:`~textbcv.scoring.modes` the matching modes and the error anatomy.
Everything public but the modes is importable from here.
"""

from textbcv.scoring.counts import (
    count_chunks,
    heldout_record,
    sentence_counts,
    sum_heldout_records,
    sum_type_sentence_counts,
    type_sentence_counts,
)
from textbcv.scoring.lexicon import LexiconCounts, count_lexicon
from textbcv.scoring.tags import format_conlleval, score_codes, score_tags
from textbcv.scoring.tally import ChunkCounts, TagScore, Tally

__all__ = ["Tally", "ChunkCounts", "TagScore", "LexiconCounts", "count_chunks", "sentence_counts", "count_lexicon",
           "heldout_record", "sum_heldout_records", "score_tags", "score_codes", "format_conlleval",
           "type_sentence_counts", "sum_type_sentence_counts"]
