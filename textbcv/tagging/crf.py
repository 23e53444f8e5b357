"""CRF taggers through python-crfsuite (the engine of sklearn-crfsuite)."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
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
    """Seed the C library's ``rand()`` with ``seed + 1``; False where no C library is found (nothing seeded).

    crfsuite's ``ap``, ``pa``, ``arow`` and ``l2sgd`` shuffle the training sequences with ``rand()``
    and never seed it: seeded before every training, a model is a function of its data, parameters
    and seed (on one platform: the sequence of ``rand()`` is the C library's; ``lbfgs`` draws nothing).
    """
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
    """Featurized sentences in crfsuite's input form, to give :meth:`CRFTagger.fit_features` and
    :meth:`CRFTagger.predict_features` many times without converting them again.

    Parameters
    ----------
    features : sequence of sequences of sequences of str
        Per sentence, per token, its feature strings (:func:`textbcv.tagging.features.extract`).

    Returns
    -------
    list of pycrfsuite.ItemSequence
        One per sentence; a model trained on them is the one trained on ``features``.

    Examples
    --------
    >>> [len(s) for s in crf_sequences([[["bias", "w=a"], ["bias"]], []])]
    [2, 0]
    """
    return [pycrfsuite.ItemSequence(x) for x in features]


class CRFTagger:
    """A linear-chain CRF on template features.

    Implements :class:`textbcv.tagging.Tagger`; the fold runner also calls
    :meth:`fit_features` / :meth:`predict_features` with features extracted
    once per corpus, so no fold re-featurizes. ``append_seconds`` (crfsuite
    taking in the training sequences: ``Trainer.append``), ``train_seconds``
    and ``tag_seconds`` hold the time spent inside crfsuite.

    Parameters
    ----------
    template : Template
        The feature template (:func:`textbcv.tagging.features.get_template`).
    algorithm : str
        crfsuite algorithm, default ``"lbfgs"``.
    params : dict
        crfsuite parameters such as ``c1``, ``c2``, ``max_iterations``.
    seed : int, optional
        Training seed of the stochastic algorithms (``ap``, ``l2sgd``, ``pa``, ``arow``), which
        shuffle the training sequences; default :data:`C_RAND_SEED`. ``lbfgs`` draws no random
        numbers, so a seed is refused with it (ValueError).

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
        """Train on ``sentences`` (featurized here with ``template``), as :meth:`fit_features`.

        Parameters
        ----------
        sentences : sequence of Sentence
            Training sentences.
        tags : sequence of sequences of str
            The gold tag of every token of every sentence.

        Returns
        -------
        CRFTagger
            ``self``, trained.
        """
        return self.fit_features(extract(sentences, self.template), tags)

    def predict(self, sentences: Sequence[Sentence]) -> list[list[str]]:
        """Tag ``sentences`` (featurized here with ``template``), as :meth:`predict_features`.

        Parameters
        ----------
        sentences : sequence of Sentence
            The sentences to tag.

        Returns
        -------
        list of list of str
            One tag per token of every sentence.
        """
        return self.predict_features(extract(sentences, self.template))

    def fit_features(self, features: Sequence[Sequence[Sequence[str]] | pycrfsuite.ItemSequence],
                     tags: Sequence[Sequence[str]]) -> "CRFTagger":
        """Train on pre-extracted features (one list of feature strings per token).

        Parameters
        ----------
        features : sequence of sequences of sequences of str, or of ItemSequence
            Per sentence, per token, its feature strings (:func:`textbcv.tagging.features.extract`), or
            :func:`crf_sequences` of them.
        tags : sequence of sequences of str
            The gold tag of every token of every sentence.

        Returns
        -------
        CRFTagger
            ``self``, with the model in ``model_`` (bytes of a crfsuite model file); ``append_seconds`` and
            ``train_seconds`` grow by the time spent.

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
                         features: Sequence[Sequence[Sequence[str]] | pycrfsuite.ItemSequence]) -> list[list[str]]:
        """Tag pre-extracted features with the trained model.

        Parameters
        ----------
        features : sequence of sequences of sequences of str, or of ItemSequence
            Per sentence, per token, its feature strings, or :func:`crf_sequences` of them.

        Returns
        -------
        list of list of str
            One predicted tag per token of every sentence (an empty list for an empty sentence).

        Raises
        ------
        RuntimeError
            Before :meth:`fit_features` (or :meth:`fit`).
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
