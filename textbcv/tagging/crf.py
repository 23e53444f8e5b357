"""CRF taggers through python-crfsuite (the engine of sklearn-crfsuite)."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

import pycrfsuite

from textbcv.corpus.model import Sentence
from textbcv.tagging.features import Template, extract

if TYPE_CHECKING:
    import ctypes

__all__ = ["CRFTagger", "crf_sequences"]

#: seed of the C library's rand() before every training (see :func:`_seed_c_rand`)
C_RAND_SEED = 0


def _seed_c_rand(seed: int = C_RAND_SEED) -> bool:
    """Seed the C ``rand()`` that crfsuite's stochastic algorithms shuffle with; False where no C library."""
    import ctypes
    import ctypes.util

    global _LIBC
    if _LIBC is None:
        try:
            if os.name != "nt":
                _LIBC = ctypes.CDLL(None)
            else:
                _LIBC = ctypes.CDLL(ctypes.util.find_library("msvcrt") or "msvcrt")
            _LIBC.srand.argtypes = [ctypes.c_uint]
        except (OSError, AttributeError):
            _LIBC = False
    if not _LIBC:
        return False
    # glibc treats srand(0) as srand(1) (two "different" seeds, one model): seed s is srand(s + 1), so
    # seed 0 keeps the models of srand(0) on glibc and every seed gets a stream of its own
    _LIBC.srand((seed + 1) % 2**32)
    return True


#: the C library once loaded; False where none was found; None before the first :func:`_seed_c_rand`
_LIBC: ctypes.CDLL | Literal[False] | None = None


def crf_sequences(features: Sequence[Sequence[Sequence[str]]]) -> list[pycrfsuite.ItemSequence]:
    """Featurized sentences converted once to crfsuite's input form, for repeated fits.

    Parameters
    ----------
    features : sequence of sequences of sequences of str
        Per sentence, per token, its feature strings.

    Returns
    -------
    list of pycrfsuite.ItemSequence

    Examples
    --------
    >>> [len(s) for s in crf_sequences([[["bias", "w=a"], ["bias"]], []])]
    [2, 0]
    """
    return [pycrfsuite.ItemSequence(x) for x in features]


class CRFTagger:
    """A linear-chain CRF on template features (a :class:`textbcv.tagging.Tagger`).

    Parameters
    ----------
    template : Template
    algorithm : str
        crfsuite algorithm.
    params : dict
        crfsuite parameters such as ``c1``, ``c2``, ``max_iterations``.
    seed : int, optional
        Training seed of ``ap``, ``l2sgd``, ``pa``, ``arow`` (default :data:`C_RAND_SEED`); ValueError with ``lbfgs``.

    Examples
    --------
    >>> from textbcv.corpus import Sentence
    >>> from textbcv.tagging.features import get_template
    >>> s = [Sentence(("Mr.", "Smith", "said")), Sentence(("Ms.", "Jones", "left"))]
    >>> crf = CRFTagger(get_template("ner-thesis"), params={"max_iterations": 20})
    >>> crf.fit(s, [["O", "S-PER", "O"], ["O", "S-PER", "O"]]).predict([Sentence(("Mr.", "Jones", "said"))])
    [['O', 'S-PER', 'O']]
    """

    def __init__(self, template: Template, algorithm: str = "lbfgs", params: dict | None = None,
                 seed: int | None = None):
        if seed is not None and algorithm == "lbfgs":
            raise ValueError("a training seed applies to crfsuite's stochastic algorithms (ap, l2sgd, pa, arow); "
                             "lbfgs draws no random numbers")
        self.template = template
        self.algorithm = algorithm
        self.params = dict(params or {})
        self.seed = seed
        self.model_: bytes | None = None
        self.append_seconds = 0.0
        self.train_seconds = 0.0
        self.tag_seconds = 0.0

    def fit(self, sentences: Sequence[Sentence], tags: Sequence[Sequence[str]]) -> "CRFTagger":
        """Featurize with ``template`` and train.

        Parameters
        ----------
        sentences : sequence of Sentence
        tags : sequence of sequences of str

        Returns
        -------
        CRFTagger
            ``self``.
        """
        return self.fit_features(extract(sentences, self.template), tags)

    def predict(self, sentences: Sequence[Sentence]) -> list[list[str]]:
        """Featurize with ``template`` and tag.

        Parameters
        ----------
        sentences : sequence of Sentence

        Returns
        -------
        list of list of str
        """
        return self.predict_features(extract(sentences, self.template))

    def fit_features(self, features: Iterable[Sequence[Sequence[str]] | pycrfsuite.ItemSequence],
                     tags: Sequence[Sequence[str]]) -> "CRFTagger":
        """Train on pre-extracted features; the model's bytes go to ``model_``.

        Parameters
        ----------
        features : iterable of sequences of sequences of str, or of ItemSequence
            As :func:`textbcv.tagging.features.extract`, :func:`~textbcv.tagging.features.iter_features` or
            :func:`crf_sequences` give (taken in one sentence at a time).
        tags : sequence of sequences of str

        Returns
        -------
        CRFTagger
            ``self``.

        Raises
        ------
        ValueError
            When ``features`` and ``tags`` hold different numbers of sentences.
        """
        trainer = pycrfsuite.Trainer(verbose=False)
        trainer.select(self.algorithm)
        if self.algorithm == "lbfgs":
            trainer.set_params({**self.params, "feature.possible_transitions": True})
        else:
            trainer.set_params(dict(self.params))
        t0 = time.perf_counter()
        for x, y in zip(features, tags, strict=True):
            trainer.append(x, y)
        self.append_seconds += time.perf_counter() - t0
        fd, path = tempfile.mkstemp(suffix=".crfsuite")
        os.close(fd)
        try:
            t0 = time.perf_counter()
            if self.algorithm != "lbfgs":
                _seed_c_rand(C_RAND_SEED if self.seed is None else self.seed)
            trainer.train(path)
            self.train_seconds += time.perf_counter() - t0
            with open(path, "rb") as f:
                self.model_ = f.read()
        finally:
            os.unlink(path)
        return self

    def predict_features(self,
                         features: Iterable[Sequence[Sequence[str]] | pycrfsuite.ItemSequence]) -> list[list[str]]:
        """Tag pre-extracted features with the trained model.

        Parameters
        ----------
        features : iterable of sequences of sequences of str, or of ItemSequence

        Returns
        -------
        list of list of str

        Raises
        ------
        RuntimeError
            Before the model is fitted.
        """
        if self.model_ is None:
            raise RuntimeError("CRFTagger.predict called before fit")
        tagger = pycrfsuite.Tagger()
        tagger.open_inmemory(self.model_)
        try:
            t0 = time.perf_counter()
            out = [tagger.tag(x) if len(x) else [] for x in features]
            self.tag_seconds += time.perf_counter() - t0
        finally:
            tagger.close()
        return out
