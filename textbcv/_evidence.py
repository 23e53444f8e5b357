"""Real-text study figures quoted by :mod:`textbcv.defaults` (generated: do not edit).

Written by ``scripts/real_text_study.py`` with its summary (``docs/real_text_study.json``): coverage of
the true F1 on new text by each interval variant's 95% F1 interval, BCV without balancing, m = 3,
per pool (CoNLL-2003 by document, SIGHAN 2005 MSR by sentence); R data sets, two taggers each.
"""

REAL_TEXT = {
    "adaptive": {
        "conll": {
            "R": 22,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9091,
            "unit": "document",
            "width_f1": 17.132
        },
        "msr": {
            "R": 54,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9722,
            "unit": "sentence",
            "width_f1": 2.757
        }
    },
    "averaged-counts": {
        "conll": {
            "R": 22,
            "coverage_delta": 0.5909,
            "coverage_f1": 0.4091,
            "unit": "document",
            "width_f1": 3.737
        },
        "msr": {
            "R": 54,
            "coverage_delta": 0.9815,
            "coverage_f1": 0.7407,
            "unit": "sentence",
            "width_f1": 1.084
        }
    },
    "clustered": {
        "conll": {
            "R": 22,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9545,
            "unit": "document",
            "width_f1": 15.358
        },
        "msr": {
            "R": 54,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9722,
            "unit": "sentence",
            "width_f1": 2.294
        }
    },
    "independent": {
        "conll": {
            "R": 22,
            "coverage_delta": 0.1818,
            "coverage_f1": 0.1591,
            "unit": "document",
            "width_f1": 1.526
        },
        "msr": {
            "R": 54,
            "coverage_delta": 0.5926,
            "coverage_f1": 0.3796,
            "unit": "sentence",
            "width_f1": 0.443
        }
    },
    "nadeau-bengio": {
        "conll": {
            "R": 22,
            "coverage_delta": 0.9545,
            "coverage_f1": 0.9318,
            "unit": "document",
            "width_f1": 17.225
        },
        "msr": {
            "R": 54,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9722,
            "unit": "sentence",
            "width_f1": 2.757
        }
    },
    "thesis": {
        "conll": {
            "R": 22,
            "coverage_delta": 0.4091,
            "coverage_f1": 0.2955,
            "unit": "document",
            "width_f1": 2.513
        },
        "msr": {
            "R": 54,
            "coverage_delta": 0.7963,
            "coverage_f1": 0.5556,
            "unit": "sentence",
            "width_f1": 0.729
        }
    }
}
