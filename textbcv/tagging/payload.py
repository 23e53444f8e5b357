"""What every fold of a run needs, built once and sent to the workers: the sentences, their gold chunks, each
template's features (kept while they are few enough), the held-out files; and each process's crfsuite input."""

from __future__ import annotations

import gc
import pickle
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from textbcv.corpus.model import Chunk, Sentence
from textbcv.tagging.crf import crf_sequences
from textbcv.tagging.features import Template, extract, iter_features
from textbcv.tagging.system import System

__all__ = ["Payload", "HeldoutPayload", "make_payload", "MAX_KEPT_FEATURES"]

#: Most token features a corpus's payload keeps, as lists of strings (about 33 bytes each) and, in each process,
#: in crfsuite's input form (about 47 more). A larger corpus's features are made again for each fold, a sentence at
#: a time as crfsuite takes them in, and let go: its memory then follows the corpus, not 25 strings a token.
MAX_KEPT_FEATURES = 2_000_000

@dataclass
class HeldoutPayload:
    """A held-out file every fold's model also tags.

    Parameters
    ----------
    sentences : list of Sentence
    gold : list of tuple of Chunk
    features : dict of str to list or None
        Template name to the features of every sentence; None where they are too many to keep
        (:data:`MAX_KEPT_FEATURES`): each fold makes them again.
    stem : str
        Predictions are saved under ``heldout/STEM/`` beside the fold's.
    scheme : str or None
        Scheme of saved predictions; None: each system's own.
    """

    sentences: list[Sentence]
    gold: list[tuple[Chunk, ...]]
    features: dict[str, list | None]
    stem: str
    scheme: str | None  # scheme of saved predictions (the corpus's; None: each system's own)


@dataclass
class Payload:
    """What every fold needs: sentences, gold chunks, the features of each template, held-out files.

    Parameters
    ----------
    sentences : list of Sentence
        Every sentence of the corpus; folds index into it.
    gold : list of tuple of Chunk
    features : dict of str to list or None
        Template name to the features of every sentence; None where they are too many to keep
        (:data:`MAX_KEPT_FEATURES`): each fold makes them again.
    heldout : dict of str to HeldoutPayload
    sequences : dict
        This process's crfsuite input, by (held-out name or None, template name); never pickled.
    command_root : str or None
        The run's folder of command-system tasks.
    slots : int
        Command tasks that may run at once.
    command_cwd : str or None
        The working directory of every command (the folder the run was started from); None: each process's own.
    types : frozenset of str or None
        The chunk types a command system's predictions may name (``textbcv evaluate``'s rule); None: any.
    dev : tuple of int
        The development sentences' indices (a fixed split's ``--dev``), given to command systems as ``{dev}``.
    """

    sentences: list[Sentence]
    gold: list[tuple[Chunk, ...]]
    features: dict[str, list | None]
    heldout: dict[str, HeldoutPayload] = field(default_factory=dict)
    sequences: dict = field(default_factory=dict, repr=False, compare=False)
    command_root: str | None = None
    slots: int = 1
    command_cwd: str | None = None
    types: frozenset[str] | None = None
    dev: tuple[int, ...] = ()

    def __getstate__(self) -> dict:
        return {**self.__dict__, "sequences": {}}  # crfsuite's sequences cannot be pickled


def _features(sentences: list[Sentence], systems: Sequence[System]) -> dict[str, list | None]:
    """The features of each template the systems' CRFs use, extracted once each; None for a template whose
    features would exceed :data:`MAX_KEPT_FEATURES`."""
    features: dict[str, list | None] = {}
    tokens = sum(map(len, sentences))
    for s in systems:
        t = s.template
        if t is not None and s.is_crf and t.name not in features:
            kept = tokens * (t.n_features() + t.bias) <= MAX_KEPT_FEATURES
            features[t.name] = extract(sentences, t) if kept else None
    return features


def make_payload(sentences: Sequence[Sentence], gold: Sequence[Sequence[Chunk]], systems: Sequence[System],
                 heldout: dict | None = None, types: Iterable[str] | None = None) -> Payload:
    """Extract the features of every template the systems' CRFs use, once each.

    Parameters
    ----------
    sentences : sequence of Sentence
    gold : sequence of sequences of Chunk
        Same length as ``sentences``.
    systems : sequence of System
    heldout : dict, optional
        Held-out file name to ``(sentences, gold chunks, stem, scheme)``.
    types : iterable of str, optional
        The chunk types a command system's predictions may name (None: any).

    Returns
    -------
    Payload

    Raises
    ------
    ValueError
        When ``gold`` and ``sentences`` differ in length.

    Examples
    --------
    >>> from textbcv.corpus import Sentence
    >>> from textbcv.tagging.system import parse_system
    >>> p = make_payload([Sentence(("a", "b"))], [()], [parse_system("iob2"), parse_system("iobes")])
    >>> list(p.features)
    ['ner-thesis']
    """
    sentences = list(sentences)
    if len(gold) != len(sentences):
        raise ValueError(f"{len(gold)} gold chunk lists for {len(sentences)} sentences")
    parts = {}
    for name, (h_sents, h_gold, stem, scheme) in (heldout or {}).items():
        h_sents = list(h_sents)
        parts[name] = HeldoutPayload(h_sents, [tuple(g) for g in h_gold], _features(h_sents, systems), stem, scheme)
    return Payload(sentences, [tuple(g) for g in gold], _features(sentences, systems), parts,
                   types=None if types is None else frozenset(types))


# ---------------------------------------------------------------- worker side

_WORKER_CACHE: dict[str, Payload] = {}


_FROZEN: set[int] = set()


def _freeze(payload: Payload) -> None:
    """In a worker: hide the payload (millions of acyclic objects) from the cyclic garbage collector."""
    if id(payload) not in _FROZEN:
        gc.freeze()
        _FROZEN.add(id(payload))


def _resolve(ref: Payload | str) -> tuple[Payload, bool]:
    """The payload, loading it from ``ref`` (a pickle path) at most once per process."""
    if isinstance(ref, Payload):
        return ref, False
    p = _WORKER_CACHE.get(ref)
    if p is not None:
        return p, False
    _WORKER_CACHE.clear()
    enabled = gc.isenabled()
    gc.disable()  # unpickling millions of containers: the collector would only slow it down
    try:
        with open(ref, "rb") as f:
            p = pickle.load(f)
    finally:
        if enabled:
            gc.enable()
    _freeze(p)
    _WORKER_CACHE[ref] = p
    return p, True


def _crf_input(payload: Payload, template: Template, part: str | None = None) -> tuple[list | None, float]:
    """The template's features in crfsuite's form, built once per process, and the seconds it took; None: not kept."""
    key = (part, template.name)
    kept = payload.sequences.get(key)
    if kept is not None:
        return kept, 0.0
    features = (payload if part is None else payload.heldout[part]).features[template.name]
    if features is None:
        return None, 0.0
    t0 = time.perf_counter()
    kept = payload.sequences[key] = crf_sequences(features)
    return kept, time.perf_counter() - t0


def _take(features: list | None, sentences: Sequence[Sentence], which: Iterable[int], template: Template) -> Iterable:
    """crfsuite's input for sentences ``which``: kept sequences, or (None) features made as crfsuite takes them."""
    if features is None:
        return iter_features((sentences[i] for i in which), template)
    return [features[i] for i in which]
