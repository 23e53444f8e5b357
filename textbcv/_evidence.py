"""Real-text study figures quoted by :mod:`textbcv.defaults` (generated: do not edit).

Written by ``scripts/real_text_study.py`` with its summary (``docs/real_text_study.json``). REAL_TEXT: coverage
of the true F1 on new text by each interval variant's 95% F1 interval, BCV without balancing, m = 3,
per pool (CoNLL-2003 by document, SIGHAN 2005 MSR by sentence); R data sets, two taggers each.
REAL_TEXT_BALANCE: per balanced BCV option set, whether the rule accepted it, its family-wise bound z*
and its largest shift against random m×2 CV beyond that bound (F1 points).
"""

REAL_TEXT = {
    "adaptive": {
        "conll": {
            "R": 100,
            "coverage_delta": 1.0,
            "coverage_f1": 0.945,
            "unit": "document",
            "width_f1": 19.001
        },
        "msr": {
            "R": 100,
            "coverage_delta": 1.0,
            "coverage_f1": 0.96,
            "unit": "sentence",
            "width_f1": 2.875
        }
    },
    "averaged-counts": {
        "conll": {
            "R": 100,
            "coverage_delta": 0.72,
            "coverage_f1": 0.39,
            "unit": "document",
            "width_f1": 3.767
        },
        "msr": {
            "R": 100,
            "coverage_delta": 0.95,
            "coverage_f1": 0.72,
            "unit": "sentence",
            "width_f1": 1.083
        }
    },
    "clustered": {
        "conll": {
            "R": 100,
            "coverage_delta": 1.0,
            "coverage_f1": 0.95,
            "unit": "document",
            "width_f1": 15.21
        },
        "msr": {
            "R": 100,
            "coverage_delta": 1.0,
            "coverage_f1": 0.965,
            "unit": "sentence",
            "width_f1": 2.296
        }
    },
    "independent": {
        "conll": {
            "R": 100,
            "coverage_delta": 0.35,
            "coverage_f1": 0.175,
            "unit": "document",
            "width_f1": 1.539
        },
        "msr": {
            "R": 100,
            "coverage_delta": 0.59,
            "coverage_f1": 0.35,
            "unit": "sentence",
            "width_f1": 0.442
        }
    },
    "nadeau-bengio": {
        "conll": {
            "R": 100,
            "coverage_delta": 0.93,
            "coverage_f1": 0.945,
            "unit": "document",
            "width_f1": 19.145
        },
        "msr": {
            "R": 100,
            "coverage_delta": 0.99,
            "coverage_f1": 0.955,
            "unit": "sentence",
            "width_f1": 2.875
        }
    },
    "thesis": {
        "conll": {
            "R": 100,
            "coverage_delta": 0.51,
            "coverage_f1": 0.295,
            "unit": "document",
            "width_f1": 2.533
        },
        "msr": {
            "R": 100,
            "coverage_delta": 0.77,
            "coverage_f1": 0.565,
            "unit": "sentence",
            "width_f1": 0.728
        }
    }
}

REAL_TEXT_BALANCE = {   'label': {   'ok': False,
                 'worst': {   'R': 66,
                              'm': 7,
                              'metric': 'f1',
                              'pool': 'conll',
                              'se': 0.1157,
                              'shift': 0.4208,
                              'system': 'A',
                              'unit': 'document'},
                 'z_star': 2.851},
    'label+length': {   'ok': False,
                        'worst': {   'R': 66,
                                     'm': 7,
                                     'metric': 'f1',
                                     'pool': 'conll',
                                     'se': 0.1293,
                                     'shift': 0.3816,
                                     'system': 'A',
                                     'unit': 'document'},
                        'z_star': 2.821},
    'length': {'ok': True, 'worst': None, 'z_star': 2.901}}
