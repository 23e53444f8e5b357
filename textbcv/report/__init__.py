"""What a comparison's report says and how it is written: the typed report and its renderings.

``model`` (:class:`CompareReport`, ``report.json`` as a typed value); the words: ``numbers`` (how numbers
are shown), ``verdicts`` (the decision rule and each pair's verdict), ``ranking`` (many systems),
``sources`` (where a difference's error comes from, what it can detect), ``conclusion``, ``cautions``
(the run's warnings), ``methods`` (the setup and the methods paragraph), ``command`` (the command that
remakes a report); the renderings: ``markdown`` (``report.md``, its sections in ``md_answer``,
``md_setup``, ``md_breakdown`` and ``textbook``), ``plots`` (the PNGs), ``tex`` (``report.tex``) and
``files`` (writing them into a run directory). Every renderer reads a :class:`CompareReport`.
"""
