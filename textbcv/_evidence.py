"""Real-text study figures quoted by :mod:`textbcv.defaults` (generated: do not edit).

Written by ``scripts/real_text_study.py`` with its summary (``docs/real_text_study.json``): coverage of
the true F1 on new text by each interval variant's 95% F1 interval, BCV without balancing, m = 3,
per pool (CoNLL-2003 by document, SIGHAN 2005 MSR by sentence); R data sets, two taggers each.
"""

REAL_TEXT = {
    "adaptive": {
        "conll": {
            "R": 40,
            "coverage_delta": 1.0,
            "coverage_f1": 0.95,
            "unit": "document",
            "width_f1": 17.801
        },
        "msr": {
            "R": 57,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9737,
            "unit": "sentence",
            "width_f1": 2.758
        }
    },
    "averaged-counts": {
        "conll": {
            "R": 40,
            "coverage_delta": 0.65,
            "coverage_f1": 0.45,
            "unit": "document",
            "width_f1": 3.735
        },
        "msr": {
            "R": 57,
            "coverage_delta": 0.9825,
            "coverage_f1": 0.7281,
            "unit": "sentence",
            "width_f1": 1.085
        }
    },
    "clustered": {
        "conll": {
            "R": 40,
            "coverage_delta": 1.0,
            "coverage_f1": 0.975,
            "unit": "document",
            "width_f1": 15.55
        },
        "msr": {
            "R": 57,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9737,
            "unit": "sentence",
            "width_f1": 2.293
        }
    },
    "independent": {
        "conll": {
            "R": 40,
            "coverage_delta": 0.275,
            "coverage_f1": 0.15,
            "unit": "document",
            "width_f1": 1.526
        },
        "msr": {
            "R": 57,
            "coverage_delta": 0.5965,
            "coverage_f1": 0.3684,
            "unit": "sentence",
            "width_f1": 0.443
        }
    },
    "nadeau-bengio": {
        "conll": {
            "R": 40,
            "coverage_delta": 0.975,
            "coverage_f1": 0.9625,
            "unit": "document",
            "width_f1": 17.906
        },
        "msr": {
            "R": 57,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9737,
            "unit": "sentence",
            "width_f1": 2.758
        }
    },
    "thesis": {
        "conll": {
            "R": 40,
            "coverage_delta": 0.475,
            "coverage_f1": 0.3,
            "unit": "document",
            "width_f1": 2.512
        },
        "msr": {
            "R": 57,
            "coverage_delta": 0.7895,
            "coverage_f1": 0.5439,
            "unit": "sentence",
            "width_f1": 0.729
        }
    }
}
