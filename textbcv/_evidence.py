"""Real-text study figures quoted by :mod:`textbcv.defaults` (generated: do not edit).

Written by ``scripts/real_text_study.py`` with its summary (``docs/real_text_study.json``): coverage of
the true F1 on new text by each interval variant's 95% F1 interval, BCV without balancing, m = 3,
per pool (CoNLL-2003 by document, SIGHAN 2005 MSR by sentence); R data sets, two taggers each.
"""

REAL_TEXT = {
    "adaptive": {
        "conll": {
            "R": 48,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9375,
            "unit": "document",
            "width_f1": 17.708
        },
        "msr": {
            "R": 82,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9634,
            "unit": "sentence",
            "width_f1": 2.889
        }
    },
    "averaged-counts": {
        "conll": {
            "R": 48,
            "coverage_delta": 0.6875,
            "coverage_f1": 0.4479,
            "unit": "document",
            "width_f1": 3.729
        },
        "msr": {
            "R": 82,
            "coverage_delta": 0.9634,
            "coverage_f1": 0.689,
            "unit": "sentence",
            "width_f1": 1.084
        }
    },
    "clustered": {
        "conll": {
            "R": 48,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9792,
            "unit": "document",
            "width_f1": 15.756
        },
        "msr": {
            "R": 82,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9573,
            "unit": "sentence",
            "width_f1": 2.293
        }
    },
    "independent": {
        "conll": {
            "R": 48,
            "coverage_delta": 0.3125,
            "coverage_f1": 0.1562,
            "unit": "document",
            "width_f1": 1.523
        },
        "msr": {
            "R": 82,
            "coverage_delta": 0.5732,
            "coverage_f1": 0.3293,
            "unit": "sentence",
            "width_f1": 0.443
        }
    },
    "nadeau-bengio": {
        "conll": {
            "R": 48,
            "coverage_delta": 0.9792,
            "coverage_f1": 0.9479,
            "unit": "document",
            "width_f1": 17.814
        },
        "msr": {
            "R": 82,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9634,
            "unit": "sentence",
            "width_f1": 2.887
        }
    },
    "thesis": {
        "conll": {
            "R": 48,
            "coverage_delta": 0.5,
            "coverage_f1": 0.3125,
            "unit": "document",
            "width_f1": 2.507
        },
        "msr": {
            "R": 82,
            "coverage_delta": 0.8049,
            "coverage_f1": 0.5122,
            "unit": "sentence",
            "width_f1": 0.729
        }
    }
}
