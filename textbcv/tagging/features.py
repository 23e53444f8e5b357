"""Feature templates as data, and feature extraction for CRF taggers.

Features depend only on the sentence, never on the fold or scheme, so a corpus is featurized once.
"""

from __future__ import annotations

import functools
import gc
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass

from textbcv._io import load_json
from textbcv.corpus.model import Sentence
from textbcv.errors import InputError, did_you_mean

__all__ = ["Template", "TEMPLATES", "TEMPLATE_HELP", "ATOMS", "COLUMN_ATOMS", "get_template", "extract", "Features",
           "iter_features", "feature_columns", "templates_for"]

Features = list[list[list[str]]]  # sentence -> token -> feature strings

BOS, EOS = "<s>", "</s>"


@functools.lru_cache(maxsize=1 << 18)
def _shape(w: str) -> str:
    return re.sub(r"[^\W\d_]", lambda m: "X" if m.group().isupper() else "x", re.sub(r"\d", "d", w))


@functools.lru_cache(maxsize=1 << 18)
def _short_shape(w: str) -> str:
    return re.sub(r"(.)\1+", r"\1", _shape(w))


@functools.lru_cache(maxsize=1 << 16)
def _char_type(c: str) -> str:
    if c.isdigit():
        return "D"
    cat = unicodedata.category(c[:1]) if c else "Cn"
    if cat.startswith("P") or cat.startswith("S"):
        return "P"
    if "CJK" in unicodedata.name(c[:1], "") or "\u3400" <= c[:1] <= "\u9fff":
        return "H"
    if c[:1].isalpha():
        return "L"
    return "O"


# Per-token atoms: name -> function(sentence) -> list of values (one per token).
ATOMS: dict[str, Callable[[Sentence], Sequence[str]]] = {
    "w": lambda s: s.tokens,
    "c": lambda s: s.tokens,  # a character, in segmentation corpora
    "lower": lambda s: [t.lower() for t in s.tokens],
    "pos": lambda s: s.pos if s.pos is not None else ["_"] * len(s),
    "lemma": lambda s: s.lemmas if s.lemmas is not None else [t.lower() for t in s.tokens],
    "chunk": lambda s: s.columns.get("chunk", ["_"] * len(s)),
    "shape": lambda s: [_shape(t) for t in s.tokens],
    "shortshape": lambda s: [_short_shape(t) for t in s.tokens],
    "ctype": lambda s: [_char_type(t) for t in s.tokens],
    "istitle": lambda s: [str(t.istitle()) for t in s.tokens],
    "isupper": lambda s: [str(t.isupper()) for t in s.tokens],
    "isdigit": lambda s: [str(t.isdigit()) for t in s.tokens],
    **{f"prefix{k}": (lambda k: lambda s: [t[:k] for t in s.tokens])(k) for k in range(1, 5)},
    **{f"suffix{k}": (lambda k: lambda s: [t[-k:] for t in s.tokens])(k) for k in range(1, 5)},
}

#: Atoms read from a corpus column other than the tokens, and that column's name. Without the column
#: they would see a constant ``_``, so a template using them needs a corpus that has it.
COLUMN_ATOMS = {"pos": "pos", "lemma": "lemma", "chunk": "chunk"}


@dataclass(frozen=True)
class Template:
    """A feature template: which atoms, window and n-grams make a token's features.

    Parameters
    ----------
    name : str
    atoms : tuple of str
        Atoms (:data:`ATOMS`) expanded as n-grams over the window.
    window : (int, int)
        Inclusive offsets, e.g. ``(-2, 2)``.
    ngrams : tuple of int
        N-gram orders over consecutive offsets of the window.
    token_atoms : tuple of str
        Atoms used at offset 0 only (e.g. ``suffix3``).
    conjunctions : tuple of tuple of (atom, offset)
        Extra features joining several (atom, offset) values.
    bias : bool
        Add a constant ``bias`` feature.

    Examples
    --------
    >>> Template.from_dict(get_template("ner-thesis").to_dict()) == get_template("ner-thesis")
    True
    """

    name: str
    atoms: tuple[str, ...]
    window: tuple[int, int] = (-2, 2)
    ngrams: tuple[int, ...] = (1, 2, 3)
    token_atoms: tuple[str, ...] = ()
    conjunctions: tuple[tuple[tuple[str, int], ...], ...] = ()
    bias: bool = True

    def __post_init__(self):
        where = f"feature template {self.name!r}"
        for what, names in (("atoms", self.atoms), ("token_atoms", self.token_atoms)):
            if not isinstance(names, tuple) or not all(isinstance(a, str) for a in names):
                raise InputError(f"{where}: {what} must be a list of atom names")
        def is_part(p) -> bool:
            return isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) and _is_int(p[1])

        if not isinstance(self.conjunctions, tuple) or not all(
                isinstance(c, tuple) and len(c) > 0 and all(is_part(p) for p in c) for c in self.conjunctions):
            raise InputError(f"{where}: conjunctions must be non-empty lists of [atom, offset] pairs")
        for a in self.atoms + self.token_atoms + tuple(a for c in self.conjunctions for a, _ in c):
            if a not in ATOMS:
                raise InputError(f"{where}: unknown atom {a!r} (atoms: {', '.join(sorted(ATOMS))})")
        if not (isinstance(self.window, tuple) and len(self.window) == 2 and all(_is_int(o) for o in self.window)):
            raise InputError(f"{where}: window must be two integer offsets [lo, hi]")
        lo, hi = self.window
        if lo > 0 or hi < 0:
            raise InputError(f"{where}: window {self.window} must contain 0")
        if lo < -MAX_OFFSET or hi > MAX_OFFSET:
            raise InputError(f"{where}: window offsets must be within [-{MAX_OFFSET}, {MAX_OFFSET}], got {self.window}")
        if any(not -MAX_OFFSET <= o <= MAX_OFFSET for c in self.conjunctions for _, o in c):
            raise InputError(f"{where}: conjunction offsets must be within [-{MAX_OFFSET}, {MAX_OFFSET}]")
        if not isinstance(self.ngrams, tuple) or not all(_is_int(k) for k in self.ngrams):
            raise InputError(f"{where}: ngrams must be a list of integers")
        if any(k < 1 or k > hi - lo + 1 for k in self.ngrams):
            raise InputError(f"{where}: n-gram orders {self.ngrams} must be between 1 and {hi - lo + 1}")
        if not isinstance(self.bias, bool):
            raise InputError(f"{where}: bias must be true or false")
        for what, names in (("atoms", self.atoms), ("token_atoms", self.token_atoms)):
            twice = sorted(a for a, k in Counter(names).items() if k > 1)  # linear: a template may be huge
            if twice:
                raise InputError(f"{where}: {what} names {', '.join(map(repr, twice))} twice")
        n = self.n_features()
        if n == 0:
            raise InputError(f"{where}: no features (atoms, token_atoms and conjunctions are all empty): a CRF on it "
                             "could learn only the tag frequencies")
        if n > MAX_FEATURES:
            raise InputError(f"{where}: {n:,} features per token; at most {MAX_FEATURES:,} (training time grows with "
                             "them: a template this large would take hours per fold)")

    def n_features(self) -> int:
        """Feature strings per token, ``bias`` excepted.

        Returns
        -------
        int

        Examples
        --------
        >>> get_template("ner-thesis").n_features()  # 2 atoms × (5 + 4 + 3) n-grams
        24
        """
        lo, hi = self.window
        width = hi - lo + 1
        return (len(self.atoms) * sum(width - k + 1 for k in self.ngrams) + len(self.token_atoms)
                + len(self.conjunctions))

    @property
    def columns(self) -> frozenset[str]:
        """Corpus columns besides the tokens that the template reads (``pos``, ``lemma``, ``chunk``).

        Examples
        --------
        >>> sorted(get_template("ner-rich").columns), sorted(get_template("ner-words").columns)
        (['chunk', 'pos'], [])
        """
        used = self.atoms + self.token_atoms + tuple(a for c in self.conjunctions for a, _ in c)
        return frozenset(COLUMN_ATOMS[a] for a in used if a in COLUMN_ATOMS)

    def to_dict(self) -> dict:
        """JSON-ready form (tuples as lists).

        Returns
        -------
        dict
        """
        d = asdict(self)
        d["window"] = list(self.window)
        d["conjunctions"] = [[list(p) for p in c] for c in self.conjunctions]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Template":
        """Inverse of :meth:`to_dict`.

        Parameters
        ----------
        d : dict
            ``name`` and ``atoms`` required; the other fields optional; no other key.

        Returns
        -------
        Template

        Raises
        ------
        InputError
            For a missing or unknown key, or an invalid template.

        Examples
        --------
        >>> Template.from_dict({"name": "t", "atoms": ["w"], "window": [0, 9]})
        Traceback (most recent call last):
        ...
        textbcv.errors.InputError: bad feature template: feature template 't': window offsets must be within [-8, 8],
        got (0, 9)
        """
        if not isinstance(d, dict):
            raise InputError(f"bad feature template: expected a JSON object, got {type(d).__name__}")
        if not isinstance(d.get("name"), str) or not d["name"]:
            raise InputError("bad feature template: \"name\" must be a non-empty string")
        if "atoms" not in d:
            raise InputError(f"bad feature template: feature template {d['name']!r}: missing \"atoms\"")
        unknown = set(d) - {"name", "atoms", "window", "ngrams", "token_atoms", "conjunctions", "bias"}
        if unknown:
            keys = ", ".join(sorted(map(repr, unknown)))
            raise InputError(f"bad feature template: feature template {d['name']!r}: unknown key(s) {keys}")

        def tup(v):
            return tuple(tup(x) for x in v) if isinstance(v, list) else v

        try:
            return cls(
                name=d["name"],
                atoms=tup(d["atoms"]),
                window=tup(d.get("window", [-2, 2])),
                ngrams=tup(d.get("ngrams", [1, 2, 3])),
                token_atoms=tup(d.get("token_atoms", [])),
                conjunctions=tup(d.get("conjunctions", [])),
                bias=d.get("bias", True),
            )
        except InputError as e:
            raise InputError(f"bad feature template: {e.message}") from None


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


#: Largest feature offset (window and conjunctions) a template may use.
MAX_OFFSET = 8
#: Largest number of feature strings per token a template may make (the largest built-in, ner-rich, makes 51).
MAX_FEATURES = 1000


TEMPLATES: dict[str, Template] = {
    t.name: t
    for t in [
        # Thesis §6.4: character uni-, bi- and trigrams in [-2, 2].
        Template("cws-thesis", atoms=("c",), window=(-2, 2), ngrams=(1, 2, 3)),
        # Thesis §6.4: word and POS uni-, bi- and trigrams in [-2, 2].
        Template("ner-thesis", atoms=("w", "pos"), window=(-2, 2), ngrams=(1, 2, 3)),
        Template("cws-rich", atoms=("c", "ctype"), window=(-2, 2), ngrams=(1, 2, 3)),
        Template(
            "ner-rich",
            atoms=("lower", "pos", "shortshape"),
            window=(-2, 2),
            ngrams=(1, 2, 3),
            token_atoms=("w", "shape", "prefix1", "prefix2", "prefix3", "suffix1", "suffix2", "suffix3", "suffix4",
                         "istitle", "isupper", "isdigit", "chunk"),
            conjunctions=((("lower", -1), ("shape", 0)), (("shape", 0), ("istitle", -1))),
        ),
        Template("wordshape", atoms=("w", "pos", "shortshape"), window=(-2, 2), ngrams=(1, 2, 3),
                 token_atoms=("shape", "suffix3", "prefix3")),
        # ner-thesis and ner-rich for corpora without POS and chunk columns (e.g. token and NER tag only)
        Template("ner-words", atoms=("w",), window=(-2, 2), ngrams=(1, 2, 3)),
        Template(
            "ner-rich-words",
            atoms=("lower", "shortshape"),
            window=(-2, 2),
            ngrams=(1, 2, 3),
            token_atoms=("w", "shape", "prefix1", "prefix2", "prefix3", "suffix1", "suffix2", "suffix3", "suffix4",
                         "istitle", "isupper", "isdigit"),
            conjunctions=((("lower", -1), ("shape", 0)), (("shape", 0), ("istitle", -1))),
        ),
    ]
}

#: One line on each built-in template (for --help and the notes on the template used).
TEMPLATE_HELP = {
    "cws-thesis": "character uni-, bi- and trigrams in [-2, 2] (the thesis's word-segmentation template)",
    "ner-thesis": "word and POS uni-, bi- and trigrams in [-2, 2] (the thesis's NER template; needs a pos column)",
    "cws-rich": "cws-thesis plus character-type (digit, letter, Han, punctuation) n-grams",
    "ner-rich": "lowercased-word, POS and short-shape n-grams in [-2, 2], with the word's shape, prefixes, "
                "suffixes, case flags and chunk tag (needs pos and chunk columns)",
    "wordshape": "word, POS and short-shape n-grams in [-2, 2], with shape, suffix3 and prefix3 (needs a pos column)",
    "ner-words": "word uni-, bi- and trigrams in [-2, 2] (ner-thesis without POS, for corpora without a pos column)",
    "ner-rich-words": "ner-rich without POS and chunk features, for corpora with tokens and tags only",
}


def get_template(spec: str | dict | Template) -> Template:
    """A template by built-in name, from a dict, or from a ``.json`` file.

    Parameters
    ----------
    spec : str or dict or Template
        A name in :data:`TEMPLATES`, a path ending in ``.json``, a dict, or a Template (returned as is).

    Returns
    -------
    Template

    Raises
    ------
    InputError
        For an unknown name, or an invalid file or dict.

    Examples
    --------
    >>> get_template("cws-thesis").atoms
    ('c',)
    """
    if isinstance(spec, Template):
        return spec
    if isinstance(spec, dict):
        return Template.from_dict(spec)
    if spec in TEMPLATES:
        return TEMPLATES[spec]
    if spec.endswith(".json"):
        return _read_template(spec)
    raise InputError(f"unknown feature template {spec!r} (built-in: {', '.join(TEMPLATES)}; or a .json file)"
                     f"{did_you_mean(spec, list(TEMPLATES))}")


def feature_columns(sentences: Iterable[Sentence]) -> frozenset[str]:
    """The columns of :data:`COLUMN_ATOMS` that the sentences fill with some value other than ``_``.

    Parameters
    ----------
    sentences : iterable of Sentence

    Returns
    -------
    frozenset of str

    Examples
    --------
    >>> from textbcv.corpus import Sentence
    >>> sorted(feature_columns([Sentence(("EU", "rejects"), pos=("NNP", "VBZ"), columns={"chunk": ("_", "_")})]))
    ['pos']
    """
    found: set[str] = set()
    for s in sentences:
        for name, values in (("pos", s.pos), ("lemma", s.lemmas), ("chunk", s.columns.get("chunk"))):
            if name not in found and values is not None and any(v != "_" for v in values):
                found.add(name)
        if len(found) == len(COLUMN_ATOMS):
            break
    return frozenset(found)


def templates_for(task: str, columns: Iterable[str]) -> list[str]:
    """Built-in templates of ``task`` that need no column outside ``columns``.

    Parameters
    ----------
    task : {"ner", "cws"}
    columns : iterable of str

    Returns
    -------
    list of str
        In the order of :data:`TEMPLATES`.

    Examples
    --------
    >>> templates_for("ner", [])
    ['ner-words', 'ner-rich-words']
    """
    have = set(columns)
    return [n for n, t in TEMPLATES.items() if n.startswith("cws-") == (task == "cws") and t.columns <= have]


def _read_template(path: str) -> Template:
    """A template from a JSON file; InputError naming the file."""
    try:
        d = load_json(path)
    except InputError as e:
        if e.message in ("no such file", "is a directory, not a file") or e.message.startswith("cannot read"):
            raise InputError(f"cannot read feature template: {e.message}", file=path) from None
        raise
    try:
        return Template.from_dict(d)
    except InputError as e:
        raise InputError(e.message, file=path) from None


def extract(sentences: Iterable[Sentence], template: Template | str) -> Features:
    """Feature strings of every token of every sentence (identical strings interned).

    Parameters
    ----------
    sentences : iterable of Sentence
    template : Template or str
        Anything :func:`get_template` accepts.

    Returns
    -------
    list (sentences) of list (tokens) of list of str

    Examples
    --------
    >>> from textbcv.corpus import Sentence
    >>> extract([Sentence(tuple("中国人"))], "cws-thesis")[0][1][:4]
    ['bias', 'c[-2]=<s>', 'c[-1]=中', 'c[0]=国']
    """
    was_enabled = gc.isenabled()
    gc.disable()  # millions of new lists and strings, no cycles: the collector would only slow this down
    try:
        cache: dict[str, str] = {}
        return list(_extract(sentences, get_template(template), cache.setdefault))
    finally:
        if was_enabled:
            gc.enable()


def iter_features(sentences: Iterable[Sentence], template: Template | str) -> Iterator[list[list[str]]]:
    """:func:`extract`'s features one sentence at a time, made as they are asked for and shared with nothing: what a
    fold feeds crfsuite when the whole corpus's features are too many to keep.

    Parameters
    ----------
    sentences : iterable of Sentence
    template : Template or str
        Anything :func:`get_template` accepts.

    Yields
    ------
    list (tokens) of list of str
        The same strings :func:`extract` gives for the sentence.

    Examples
    --------
    >>> from textbcv.corpus import Sentence
    >>> next(iter_features([Sentence(tuple("中国人"))], "cws-thesis"))[1][:4]
    ['bias', 'c[-2]=<s>', 'c[-1]=中', 'c[0]=国']
    """
    return _extract(sentences, get_template(template), lambda f, _: f)


def _extract(sentences: Iterable[Sentence], t: Template,
             intern: Callable[[str, str], str]) -> Iterator[list[list[str]]]:
    """Each sentence's token features, strings passed through ``intern`` (a cache's ``setdefault`` shares them)."""
    lo, hi = t.window
    offsets = list(range(lo, hi + 1))
    grams = [tuple(offsets[i:i + k]) for k in sorted(t.ngrams) for i in range(len(offsets) - k + 1)]
    pad_l, pad_r = max(0, -lo), max(0, hi)
    prefixes = {(a, g): f"{a}[{'|'.join(map(str, g))}]=" for a in t.atoms for g in grams}
    for s in sentences:
        n = len(s)
        columns: list[list[str]] = []
        if t.bias:
            columns.append(["bias"] * n)
        for a in t.atoms:
            col = [BOS] * pad_l + list(ATOMS[a](s)) + [EOS] * pad_r
            for g in grams:
                p = prefixes[(a, g)]
                if len(g) == 1:
                    vals: Iterable[str] = col[pad_l + g[0]: pad_l + g[0] + n]
                else:
                    vals = map("|".join, zip(*(col[pad_l + o: pad_l + o + n] for o in g)))
                columns.append([intern(f, f) for f in map(p.__add__, vals)])
        for a in t.token_atoms:
            p = f"{a}="
            columns.append([intern(f, f) for f in map(p.__add__, ATOMS[a](s))])
        for c in t.conjunctions:
            p = "&".join(f"{a}[{o}]" for a, o in c) + "="
            padded = [[BOS] * 8 + list(ATOMS[a](s)) + [EOS] * 8 for a, _ in c]
            vals = map("|".join, zip(*(col[8 + o: 8 + o + n] for col, (_, o) in zip(padded, c))))
            columns.append([intern(f, f) for f in map(p.__add__, vals)])
        yield [list(tok) for tok in zip(*columns)] if columns else [[] for _ in range(n)]
