"""What a comparison's report says and how it is written: the typed report and its renderings.

``model`` (:class:`CompareReport`, ``report.json`` as a typed value), ``verdicts`` (the words of a
decision), ``methods`` (the setup and the methods paragraph), ``textbook`` (the textbook and
one-split sections), ``plots`` (the PNGs), ``markdown`` (``report.md``), ``tex`` (``report.tex``) and
``files`` (writing them into a run directory). Every renderer reads a :class:`CompareReport`.
"""
