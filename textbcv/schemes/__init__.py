"""Tagging schemes as data: encode, decode, convert and detect tag sequences; everything public is here.

Examples
--------
>>> encode([(0, 2, "PER"), (3, 4, "LOC")], 5, "iobes")
['B-PER', 'E-PER', 'O', 'S-LOC', 'O']
>>> detect([["B", "E", "S"], ["B", "M", "E"]])
'bmes'
"""

from textbcv.schemes.arrays import (
    TagCodes,
    chunk_flags,
    chunk_spans,
    detect,
    detect_codes,
    detect_pairs,
    orphan_chunks,
    orphan_pairs,
    scheme_arrays,
    tag_pairs,
    tag_stream,
)
from textbcv.schemes.conlleval import conlleval_end, conlleval_split, conlleval_start
from textbcv.schemes.core import (
    CONLLEVAL,
    OUTSIDE,
    SCHEMES,
    Scheme,
    convert,
    decode,
    encode,
    get_scheme,
    is_valid,
    make_tag,
    register_scheme,
    scheme_names,
    split_tag,
)

__all__ = ["Scheme", "SCHEMES", "register_scheme", "CONLLEVAL", "OUTSIDE", "scheme_names", "get_scheme", "split_tag",
           "make_tag", "encode", "decode", "convert", "detect", "is_valid", "conlleval_start", "conlleval_end",
           "conlleval_split", "TagCodes", "tag_stream", "scheme_arrays", "chunk_flags", "chunk_spans", "tag_pairs",
           "detect_codes", "detect_pairs", "orphan_chunks", "orphan_pairs"]
