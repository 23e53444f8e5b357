"""One comparison end to end: its options, the run, assembling the report, imported predictions, redrawing.

``options`` (:class:`CompareOptions`, every option validated before anything is read), ``pipeline``
(``prepare_compare`` then ``run_compare``), ``assembly`` (the report from the fold records),
``imported`` (``textbcv evaluate``: predictions made elsewhere), ``heldout`` and ``onesplit`` (their
report blocks), ``design_effects``, ``components`` (ρ1 and ρ2 of a tagger from several runs),
``decisions`` (per-unit right/wrong from saved predictions) and ``redraw`` (a finished run's report
under another rule). The front doors are :func:`textbcv.compare` and :func:`textbcv.evaluate`.
"""
