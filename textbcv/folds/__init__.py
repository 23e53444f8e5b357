"""Where fold results live: a run directory (:class:`RunDir`: layout, manifest, lock), the fold record
file and its store (``folds.jsonl``), and counts files read by ``textbcv test``.
"""
