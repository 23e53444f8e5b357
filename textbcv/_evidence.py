"""Real-text study figures quoted by :mod:`textbcv.defaults` (generated: do not edit).

Written by ``scripts/real_text_study.py`` with its summary (``docs/real_text_study.json``): coverage of
the true F1 on new text by each interval variant's 95% F1 interval, BCV without balancing, m = 3,
per pool (CoNLL-2003 by document, SIGHAN 2005 MSR by sentence); R data sets, two taggers each.
"""

REAL_TEXT = {
    "adaptive": {
        "conll": {
            "R": 33,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9394,
            "unit": "document",
            "width_f1": 18.451
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
            "R": 33,
            "coverage_delta": 0.6364,
            "coverage_f1": 0.4091,
            "unit": "document",
            "width_f1": 3.726
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
            "R": 33,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9697,
            "unit": "document",
            "width_f1": 15.819
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
            "R": 33,
            "coverage_delta": 0.2121,
            "coverage_f1": 0.1364,
            "unit": "document",
            "width_f1": 1.522
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
            "R": 33,
            "coverage_delta": 0.9697,
            "coverage_f1": 0.9545,
            "unit": "document",
            "width_f1": 18.57
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
            "R": 33,
            "coverage_delta": 0.4242,
            "coverage_f1": 0.2727,
            "unit": "document",
            "width_f1": 2.506
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
