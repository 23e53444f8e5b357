"""Real-text study figures quoted by :mod:`textbcv.defaults` (generated: do not edit).

Written by ``scripts/real_text_study.py`` with its summary (``docs/real_text_study.json``): coverage of
the true F1 on new text by each interval variant's 95% F1 interval, BCV without balancing, m = 3,
per pool (CoNLL-2003 by document, SIGHAN 2005 MSR by sentence); R data sets, two taggers each.
"""

REAL_TEXT = {
    "adaptive": {
        "conll": {
            "R": 8,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9375,
            "unit": "document",
            "width_f1": 16.36
        },
        "msr": {
            "R": 13,
            "coverage_delta": 1.0,
            "coverage_f1": 1.0,
            "unit": "sentence",
            "width_f1": 2.755
        }
    },
    "averaged-counts": {
        "conll": {
            "R": 8,
            "coverage_delta": 0.75,
            "coverage_f1": 0.5625,
            "unit": "document",
            "width_f1": 3.758
        },
        "msr": {
            "R": 13,
            "coverage_delta": 1.0,
            "coverage_f1": 0.7692,
            "unit": "sentence",
            "width_f1": 1.087
        }
    },
    "clustered": {
        "conll": {
            "R": 8,
            "coverage_delta": 1.0,
            "coverage_f1": 1.0,
            "unit": "document",
            "width_f1": 15.62
        },
        "msr": {
            "R": 13,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9615,
            "unit": "sentence",
            "width_f1": 2.292
        }
    },
    "independent": {
        "conll": {
            "R": 8,
            "coverage_delta": 0.375,
            "coverage_f1": 0.25,
            "unit": "document",
            "width_f1": 1.535
        },
        "msr": {
            "R": 13,
            "coverage_delta": 0.8462,
            "coverage_f1": 0.5,
            "unit": "sentence",
            "width_f1": 0.444
        }
    },
    "nadeau-bengio": {
        "conll": {
            "R": 8,
            "coverage_delta": 1.0,
            "coverage_f1": 0.9375,
            "unit": "document",
            "width_f1": 16.422
        },
        "msr": {
            "R": 13,
            "coverage_delta": 1.0,
            "coverage_f1": 1.0,
            "unit": "sentence",
            "width_f1": 2.755
        }
    },
    "thesis": {
        "conll": {
            "R": 8,
            "coverage_delta": 0.5,
            "coverage_f1": 0.5,
            "unit": "document",
            "width_f1": 2.527
        },
        "msr": {
            "R": 13,
            "coverage_delta": 0.9231,
            "coverage_f1": 0.5769,
            "unit": "sentence",
            "width_f1": 0.731
        }
    }
}
