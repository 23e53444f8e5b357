"""Two taggers written the way a user would, outside textbcv: a scikit-learn one and a CRF.

Both take sentences as sequences of token strings and tags as lists of
strings, so the same objects run through ``textbcv.compare`` (in Python)
and through the exported folds (``train_on_folds.py``, then ``textbcv
evaluate``).

- :class:`WindowLogReg`: a per-token multinomial logistic regression over
  features of a window of ±1 token (scikit-learn's DictVectorizer and
  LogisticRegression). It sees no tag context, so it may emit ``I-X`` after
  ``O``; textbcv decodes such output leniently, as conlleval does.
- :class:`WindowCRF`: a linear-chain CRF (sklearn-crfsuite) over the same features.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from sklearn.exceptions import ConvergenceWarning


def _shape(token: str) -> str:
    out = []
    for ch in token:
        c = "X" if ch.isupper() else "x" if ch.islower() else "d" if ch.isdigit() else ch
        if not out or out[-1] != c:
            out.append(c)
    return "".join(out)


def window_features(tokens: Sequence[str], i: int) -> dict[str, object]:
    """Features of token i: the token, its shape and affixes, and its neighbours."""
    w = tokens[i]
    f = {"bias": 1.0, "w": w.lower(), "shape": _shape(w), "suf3": w[-3:].lower(), "pre2": w[:2].lower(),
         "title": w.istitle(), "upper": w.isupper(), "digit": any(c.isdigit() for c in w)}
    f["w-1"] = tokens[i - 1].lower() if i > 0 else "<s>"
    f["w+1"] = tokens[i + 1].lower() if i + 1 < len(tokens) else "</s>"
    f["shape-1"] = _shape(tokens[i - 1]) if i > 0 else "<s>"
    return f


def sentence_features(sentence: Sequence[str]) -> list[dict[str, object]]:
    tokens = list(sentence)
    return [window_features(tokens, i) for i in range(len(tokens))]


class WindowLogReg:
    """Per-token logistic regression over window features (scikit-learn).

    Parameters
    ----------
    C : float
        Inverse regularisation strength of LogisticRegression.
    max_iter : int
        L-BFGS iterations.
    """

    def __init__(self, C: float = 1.0, max_iter: int = 200):
        self.C = C
        self.max_iter = max_iter

    def fit(self, sentences, tags):
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.linear_model import LogisticRegression
        from threadpoolctl import threadpool_limits

        X = [f for s in sentences for f in sentence_features(s)]
        y = [t for ts in tags for t in ts]
        self.vectorizer_ = DictVectorizer()
        self.model_ = LogisticRegression(C=self.C, max_iter=self.max_iter)
        # one BLAS thread: small sparse problems only lose time to thread hand-offs (and folds may run in parallel)
        with threadpool_limits(1), warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # a fixed iteration budget is the point of max_iter
            self.model_.fit(self.vectorizer_.fit_transform(X), y)
        return self

    def predict(self, sentences):
        sentences = [list(s) for s in sentences]
        X = [f for s in sentences for f in sentence_features(s)]
        flat = list(self.model_.predict(self.vectorizer_.transform(X))) if X else []
        out, k = [], 0
        for s in sentences:
            out.append([str(t) for t in flat[k:k + len(s)]])
            k += len(s)
        return out


class WindowCRF:
    """A linear-chain CRF over the same window features (sklearn-crfsuite, L-BFGS).

    Parameters
    ----------
    c1, c2 : float
        L1 and L2 regularisation.
    max_iterations : int
        L-BFGS iterations.
    """

    def __init__(self, c1: float = 0.1, c2: float = 0.1, max_iterations: int = 50):
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations

    @staticmethod
    def _features(sentence):
        return [{k: (str(v) if isinstance(v, str) else float(v)) for k, v in f.items()}
                for f in sentence_features(sentence)]

    def fit(self, sentences, tags):
        import sklearn_crfsuite

        self.model_ = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=self.c1, c2=self.c2,
                                           max_iterations=self.max_iterations)
        self.model_.fit([self._features(s) for s in sentences], [list(t) for t in tags])
        return self

    def predict(self, sentences):
        return [list(t) for t in self.model_.predict([self._features(s) for s in sentences])]


def make_taggers(quick: bool = False) -> dict[str, object]:
    """The two systems of the examples, by name (``quick``: fewer iterations, for tests)."""
    return {"crf": WindowCRF(max_iterations=10 if quick else 50),
            "logreg": WindowLogReg(max_iter=30 if quick else 200)}
