"""One comparison end to end: options, the run, the report, imported predictions, redrawing.

The front doors are :func:`textbcv.compare` and :func:`textbcv.evaluate`.
"""
