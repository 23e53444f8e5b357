"""A comparison's report: the typed :class:`CompareReport` (``model``), its words and its renderings.

Renderings: ``markdown`` (``report.md``), ``plots`` (the PNGs), ``tex`` (``report.tex``), ``terminal``;
``files`` writes them into a run directory. Every renderer reads a :class:`CompareReport`.
"""
