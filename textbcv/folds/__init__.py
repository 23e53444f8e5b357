"""Where fold results live: run directories, ``folds.jsonl`` and its store, counts files."""
