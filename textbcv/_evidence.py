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
            "R": 67,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9552,
            "unit": "document",
            "width_f1": 19.085
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
            "R": 67,
            "coverage_delta": 0.7015,
            "coverage_f1": 0.3955,
            "unit": "document",
            "width_f1": 3.756
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
            "R": 67,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9627,
            "unit": "document",
            "width_f1": 15.515
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
            "R": 67,
            "coverage_delta": 0.3582,
            "coverage_f1": 0.1866,
            "unit": "document",
            "width_f1": 1.534
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
            "R": 67,
            "coverage_delta": 0.9254,
            "coverage_f1": 0.9552,
            "unit": "document",
            "width_f1": 19.232
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
            "R": 67,
            "coverage_delta": 0.4925,
            "coverage_f1": 0.2985,
            "unit": "document",
            "width_f1": 2.526
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
