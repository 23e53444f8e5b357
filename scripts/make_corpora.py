#!/usr/bin/env python3
"""Generate the bundled corpora ``corpora/ner_en.conll`` and ``corpora/cws_zh.txt``.

Both corpora are synthetic: every name, word and sentence comes from
procedures and word lists written in this file, driven by one seeded random
stream.  No text is taken from any other corpus.  The same seed gives the
same bytes on every run (``tests/test_corpora_bundled.py`` checks this).

* ``ner_en.conll`` -- an English-like named-entity corpus in CoNLL-2003
  layout (``token POS chunk NER``, IOB1 tags, ``-DOCSTART-`` documents) with
  PER, ORG, LOC and MISC entities.
* ``cws_zh.txt`` -- a Chinese-like word-segmentation corpus in SIGHAN style
  (one sentence per line, words separated by two spaces).

Run ``python scripts/make_corpora.py`` to rewrite ``corpora/``; ``--out DIR``
writes elsewhere and ``--seed S`` changes the random stream.

Examples
--------
>>> d = Draw(1)
>>> pool = Pool(["a", "b", "c"], exponent=1.0)
>>> pool.draw(Draw(1)) == pool.draw(Draw(1))
True
>>> iob1([None, "PER", "PER", None], [-1, 0, 1, -1])
['O', 'I-PER', 'B-PER', 'O']
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

SEED = 2003
ROOT = Path(__file__).resolve().parents[1]
NER_FILE = "ner_en.conll"
CWS_FILE = "cws_zh.txt"


# ---------------------------------------------------------------------------
# Random draws
# ---------------------------------------------------------------------------


class Draw:
    """Seeded random draws built only on ``Generator.random``.

    Only uniform doubles are taken from numpy, so the output does not depend
    on how a numpy version implements ``choice`` or ``integers``.

    Parameters
    ----------
    seed : int
        Seed of the :func:`numpy.random.default_rng` stream.
    stream : int
        Which of several independent streams of the same seed.

    Examples
    --------
    >>> d = Draw(0)
    >>> 0 <= d.index(10) < 10
    True
    >>> d.choice(["x"])
    'x'
    """

    def __init__(self, seed: int, stream: int = 0) -> None:
        self.rng = np.random.default_rng([stream, seed])

    def uniform(self) -> float:
        """One uniform draw in [0, 1)."""
        return float(self.rng.random())

    def chance(self, p: float) -> bool:
        """True with probability ``p``."""
        return self.uniform() < p

    def index(self, n: int) -> int:
        """A uniform index in ``range(n)``."""
        return min(int(self.uniform() * n), n - 1)

    def between(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]`` (both included)."""
        return lo + self.index(hi - lo + 1)

    def choice(self, seq):
        """A uniform element of ``seq``."""
        return seq[self.index(len(seq))]

    def weighted(self, cum: np.ndarray) -> int:
        """An index drawn with the cumulative weights ``cum``."""
        return min(int(np.searchsorted(cum, self.uniform() * cum[-1], side="right")), len(cum) - 1)


class Pool:
    """Items drawn with Zipfian weights ``1 / rank ** exponent``.

    Parameters
    ----------
    items : list
        Items, most frequent first.
    exponent : float
        Zipf exponent; larger values concentrate the draws on the head.

    Examples
    --------
    >>> p = Pool(["the", "a", "an"], exponent=2.0)
    >>> p.draw(Draw(3)) in p.items
    True
    """

    def __init__(self, items: list, exponent: float = 1.0) -> None:
        self.items = list(items)
        self.cum = np.cumsum(1.0 / np.arange(1, len(self.items) + 1) ** exponent)

    def draw(self, d: Draw):
        """One item."""
        return self.items[d.weighted(self.cum)]


def weighted_choice(d: Draw, options: list[tuple[float, object]]):
    """Draw the second element of one ``(weight, value)`` pair."""
    cum = np.cumsum([w for w, _ in options])
    return options[d.weighted(cum)][1]


# ---------------------------------------------------------------------------
# English-like named entities
# ---------------------------------------------------------------------------

ONSETS = ["b", "br", "c", "ch", "d", "dr", "f", "g", "gr", "h", "j", "k", "kl", "l", "m", "n", "p",
          "pr", "r", "s", "sh", "st", "t", "tr", "v", "w", "z"]
VOWELS = ["a", "e", "i", "o", "u", "a", "e", "o", "ai", "ei", "ou", "ia"]
CODAS = ["", "", "", "n", "r", "l", "s", "m", "nd", "rk", "th", "st", "x"]

# Endings typical of a kind of name; every kind also gets the shared ones, so an unseen
# name's spelling hints at its type without giving it away.
SHARED_ENDINGS = ["", "", "", "", "a", "on", "er", "is", "an", "el"]
FIRST_ENDINGS = ["o", "ina", "ard", "y", "ette", "im"] + SHARED_ENDINGS
LAST_ENDINGS = ["son", "ek", "ini", "ov", "ez", "berg", "ley", "sky", "man"] + SHARED_ENDINGS
PLACE_ENDINGS = ["ia", "ova", "stad", "mere", "ton", "burg", "ana", "ford"] + SHARED_ENDINGS
COUNTRY_ENDINGS = ["ia", "and", "istan", "ora", "ania", "esh", "ica", "y"]
ORG_ENDINGS = ["ex", "tron", "co", "ia", "ix"] + SHARED_ENDINGS


def make_names(d: Draw, n: int, endings: list[str], taken: set[str], syllables=(1, 2)) -> list[str]:
    """Invent ``n`` distinct capitalised names not in ``taken`` (which is updated).

    Parameters
    ----------
    d : Draw
    n : int
        How many names.
    endings : list of str
        Suffixes typical of the kind of name (may include ``""``).
    taken : set of str
        Names already used elsewhere; new names are added to it.
    syllables : tuple of int
        Smallest and largest number of syllables before the ending.

    Examples
    --------
    >>> names = make_names(Draw(0), 3, ["ia"], set())
    >>> len(set(names)), all(x[0].isupper() for x in names)
    (3, True)
    """
    out: list[str] = []
    while len(out) < n:
        k = d.between(*syllables)
        word = "".join(d.choice(ONSETS) + d.choice(VOWELS) + d.choice(CODAS) for _ in range(k))
        end = d.choice(endings)
        if end and word[-1] in "aeiou" and end[0] in "aeiou":
            word = word[:-1]
        word = (word + end).capitalize()
        if 3 <= len(word) <= 12 and word not in taken:
            taken.add(word)
            out.append(word)
    return out


def nationality(country: str) -> str:
    """The nationality adjective of an invented country name.

    Examples
    --------
    >>> nationality("Velora"), nationality("Tarland"), nationality("Mekistan")
    ('Veloran', 'Tarlander', 'Mekistani')
    """
    if country.endswith("a"):
        return country + "n"
    if country.endswith("and"):
        return country + "er"
    if country.endswith("stan"):
        return country + "i"
    if country.endswith("y"):
        return country[:-1] + "ian"
    if country.endswith(("sh", "ca")):
        return country + "i"
    return country + "ese"


# Part-of-speech of every literal word used in the templates (written for this file).
LEX = {
    "the": "DT", "a": "DT", "an": "DT", "this": "DT", "its": "PRP$", "his": "PRP$", "her": "PRP$",
    "their": "PRP$", "it": "PRP", "he": "PRP", "she": "PRP", "they": "PRP", "we": "PRP",
    "in": "IN", "at": "IN", "of": "IN", "on": "IN", "for": "IN", "with": "IN", "from": "IN",
    "by": "IN", "after": "IN", "against": "IN", "near": "IN", "than": "IN", "over": "IN",
    "as": "IN", "before": "IN", "during": "IN", "to": "TO", "and": "CC", "but": "CC", "or": "CC",
    "said": "VBD", "told": "VBD", "beat": "VBD", "drew": "VBD", "won": "VBD", "lost": "VBD",
    "scored": "VBD", "rose": "VBD", "fell": "VBD", "closed": "VBD", "agreed": "VBD",
    "arrived": "VBD", "signed": "VBD", "met": "VBD", "was": "VBD", "were": "VBD", "had": "VBD",
    "joined": "VBD", "added": "VBD", "reported": "VBD", "announced": "VBD", "named": "VBD", "failed": "VBN",
    "commented": "VBN",
    "killed": "VBN", "wounded": "VBN", "approved": "VBN", "expected": "VBN", "sent": "VBN",
    "would": "MD", "will": "MD", "could": "MD", "not": "RB", "also": "RB", "twice": "RB",
    "sharply": "RB", "later": "RB", "off": "RP", "is": "VBZ", "has": "VBZ", "are": "VBP",
    "have": "VBP", "buy": "VB", "sell": "VB", "face": "VB", "accept": "VB", "send": "VB",
    "meet": "VB", "rise": "VB", "recover": "VB", "discuss": "VB", "visit": "VB", "be": "VB",
    "that": "IN", "who": "WP", "which": "WDT", "last": "JJ", "first": "JJ", "second": "JJ",
    "new": "JJ", "final": "JJ", "weak": "JJ", "steady": "JJ", "foreign": "JJ", "national": "JJ",
    "lower": "JJR", "higher": "JJR", "percent": "NN", "million": "CD", "billion": "CD",
    "shares": "NNS", "share": "NN", "company": "NN", "group": "NN", "bank": "NN", "union": "NN",
    "party": "NN", "market": "NN", "team": "NN", "coach": "NN", "striker": "NN", "goal": "NN",
    "match": "NN", "season": "NN", "round": "NN", "champion": "NN",
    "minutes": "NNS", "points": "NNS", "cents": "NNS", "people": "NNS", "officials": "NNS",
    "police": "NNS", "soldiers": "NNS", "troops": "NNS", "talks": "NNS", "reporters": "NNS",
    "analysts": "NNS", "dealers": "NNS", "profits": "NNS", "sales": "NNS", "prices": "NNS",
    "leaders": "NNS", "relations": "NNS", "results": "NNS", "standings": "NNS", "quarter": "NN",
    "deal": "NN", "board": "NN", "index": "NN", "statement": "NN", "spokesman": "NN",
    "minister": "NN", "president": "NN", "chairman": "NN", "analyst": "NN", "plan": "NN",
    "government": "NN", "army": "NN", "border": "NN", "dispute": "NN", "agreement": "NN",
    "trade": "NN", "ministry": "NN", "radio": "NN", "summit": "NN", "league": "NN", "week": "NN",
    "year": "NN", "demand": "NN", "leader": "NN", "capital": "NN", "merger": "NN",
    "bid": "NN", "stake": "NN", "title": "NN", "victory": "NN", "defeat": "NN", "win": "NN",
    "side": "NN", "player": "NN", "report": "NN", "town": "NN", "city": "NN", "region": "NN",
    "Mr.": "NNP", "Mrs.": "NNP", "President": "NNP", "Prime": "NNP", "Minister": "NNP",
    "Corp": "NNP", "Group": "NNP", "Holdings": "NNP", "Bank": "NNP", "Motors": "NNP",
    "Airlines": "NNP", "Party": "NNP", "Union": "NNP", "United": "NNP", "Rovers": "NNP",
    "Open": "NNP", "Cup": "NNP", "Grand": "NNP", "Prix": "NNP", "Games": "NNP", "Prize": "NNP",
    "Inc": "NNP", "Ltd": "NNP", "News": "NNP", "Times": "NNP", "Port": "NNP", "North": "NNP",
    "South": "NNP", "New": "NNP", "Bay": "NNP", "Valley": "NNP", "Front": "NNP", "Energy": "NNP",
    "Summit": "NNP", "Harbour": "NNP", "Star": "NNP", "de": "NNP", "leading": "VBG",
    "calm": "JJ", "matches": "NNS", "players": "NNS", "scores": "NNS", "since": "IN",
    "watched": "VBN", "way": "NN",
    ".": ".", ",": ",", ":": ":", "(": "(", ")": ")", "-": ":", "$": "$", '"': '"',
}

DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
NOUNS = ["government", "company", "market", "plan", "report", "deal", "board", "team", "season",
         "statement", "agreement", "army", "league", "bid", "stake", "title", "victory", "defeat",
         "town", "region", "capital", "demand", "win", "side", "player", "summit", "merger"]
ADJS = ["new", "weak", "steady", "foreign", "national", "final", "first", "second", "last"]

# Templates: words with POS from LEX (or ``word/POS``), slots in braces, "|" forces a new
# chunk before the next token, ``word/POS/CHUNK`` sets the chunk type.
TEMPLATES = {
    "soccer": [
        "{CLUB} beat {CLUB} {SCORE} in the {EVENT} on {DAY} .",
        "{CLUB} drew {SCORE} with {CLUB} on {DAY} .",
        "{PER} scored twice as {CLUB} beat {CLUB} {SCORE} .",
        "{NAT} striker {PER} was sent off after {NUM} minutes .",
        "{CLUB} coach {PER} said his team had played/VBN well/RB .",
        "{PER} , who joined {CLUB} from {CLUB} last season , scored the first goal .",
        "{CLUB} {NUM} | {CLUB} {NUM}",
        "{CLUB} {NUM} | {CLUB} {NUM}",
        "{CLUB} {NUM} | {NUM} {NUM} {NUM} {NUM} {NUM} {NUM}",
        "Results of {NAT} league matches on {DAY} :",
        "{CLUB} won the {EVENT} final against {CLUB} in {CITY} .",
        "{PER} said the {NAT} side had lost its way .",
        "{LAST} scored after {NUM} minutes and {LAST} added a second goal .",
        "The match in {CITY} was watched by {NUM} people .",
        "Police in {CITY} said {NUM} people were wounded after the match .",
        "{CLUB} are {NUM} points ahead/RB of {CLUB} .",
        "Union officials said players would meet in {CITY} on {DAY} .",
    ],
    "tennis": [
        "{PER} ( {COUNTRY} ) {NUM} {NUM} {NUM}",
        "{PER} ( {COUNTRY} ) {NUM} {NUM} {NUM}",
        "{PER} ( {COUNTRY} ) beat {PER} ( {COUNTRY} ) {TSCORE} {TSCORE}",
        "{PER} of {COUNTRY} won the {EVENT} on {DAY} .",
        "{PER} beat {PER} {TSCORE} {TSCORE} in the second round .",
        "The {NAT} champion will face {PER} in the final/JJ/NP round .",
        "{LAST} , who won the title last year , lost to {LAST} .",
        "Leading scores in the {EVENT} in {CITY} on {DAY} :",
        "{LAST} said she was not happy/JJ/ADJP with her game/NN .",
        "{PER} , the {NAT} champion , had won the {EVENT} twice .",
        "Second round results at the {EVENT} :",
    ],
    "business": [
        "Shares of {ORG} rose {NUM} percent to {MONEY} on {DAY} .",
        "Shares in {ORG} fell {NUM} cents to {MONEY} .",
        "{ORG} said on {DAY} it would buy {ORG} for {MONEY} .",
        "{ORG} chairman {PER} told reporters in {CITY} that/IN/SBAR profits would rise .",
        "{ORG} shares closed {NUM} cents lower at {MONEY} .",
        "Analysts at {ORG} said the {NAT} market was expected to recover .",
        "The {ORG} index fell {NUM} points to {NUM} .",
        "{PER} , an analyst at {ORG} in {CITY} , said demand was weak .",
        "Prices were steady in {CITY} , dealers said .",
        "The deal was approved by the {ORG} board on {DAY} .",
        "{ORG} and {ORG} agreed to merge/VB on {DAY} .",
        "The {ORG} | {ORG} merger was announced in {CITY} .",
        "{ORG} has a {NUM} percent stake in {ORG} .",
        "Bank officials in {CITY} said the bank would not sell its stake .",
        "{ORG} said sales rose {NUM} percent in the first quarter .",
        "The company said its {NAT} unit/NN had reported a loss/NN .",
        "{PER} , the company 's/POS chairman , said profits were weak .",
        "Sales at {ORG} 's/POS {COUNTRY} unit/NN fell sharply .",
    ],
    "world": [
        "{NAT} President {PER} arrived in {CITY} on {DAY} for talks with {PER} .",
        "Mr. {LAST} said the {ORG} would not accept the plan .",
        "Police in {CITY} said {NUM} people were killed .",
        "The {NAT} foreign ministry said {COUNTRY} would send troops to {COUNTRY} .",
        "{COUNTRY} and {COUNTRY} signed a trade agreement in {CITY} on {DAY} .",
        "Officials met in {CITY} to/TO/VP discuss the {COUNTRY} | {COUNTRY} border dispute .",
        "{NAT} | {NAT} relations have improved/VBN since the summit .",
        "{PER} , leader of the {ORG} , said the government would not be/VB in/IN {CITY} .",
        "The {ORG} said in a statement that/IN/SBAR {NUM} soldiers were wounded near {CITY} .",
        "{NUM} {NAT} soldiers were killed near {CITY} , the army said .",
        "In {CITY} , a spokesman for the {ORG} said the talks would be/VB held/VBN on {DAY} .",
        "{PER} told {ORG} radio that/IN/SBAR {COUNTRY} would not accept the plan .",
        "{CITY} , {COUNTRY} 's/POS capital , was calm on {DAY} .",
        "Prime Minister {PER} will visit {COUNTRY} and {COUNTRY} next/JJ week .",
        "{NAT} officials said {PER} had met {PER} in {CITY} .",
        "Mrs. {LAST} , who arrived in {COUNTRY} on {DAY} , met the {NAT} president .",
        "The {EVENT} will be/VB held/VBN in {CITY} next/JJ year .",
        "{LAST} told reporters the {ORG} would discuss the plan in {CITY} .",
        "Union leaders in {CITY} said they would accept the plan .",
        "Party leaders met in {CITY} on {DAY} , {ORG} radio reported .",
    ],
    "any": [
        "{ANY} said on {DAY} it would not accept the plan .",
        "{ANY} said in a statement that/IN/SBAR the talks had failed/VBN .",
        "Talks with {ANY} were expected to be/VB held/VBN in {ANY} .",
        "{ANY} and {ANY} have not commented/VBN on the report .",
        "The report was sent to {ANY} on {DAY} .",
        "A spokesman for {ANY} said the plan was weak .",
        "{ANY} , {ANY} and {ANY} were also named .",
        "{ANY} has a {NUM} percent stake in {ANY} .",
        "Officials from {ANY} met {ANY} in {ANY} .",
        "{ANY} had won the title twice .",
        "The {ADJ} {NOUN} was announced/VBN on {DAY} , the {NOUN} said .",
        "The {NOUN} said on {DAY} it would not accept the {NOUN} .",
        "It was the {ADJ} {NOUN} in {NUM} years/NNS .",
        "Prices rose sharply in {CITY} .",
        "{LAST} said : \" We are not happy/JJ/ADJP . \"",
        "\" It is a new plan , \" {LAST} said .",
        "The {NOUN} was {ADJ} , {PER} said .",
    ],
}

HEADLINES = {
    "soccer": ["SOCCER - {CLUB} BEAT {CLUB} .", "SOCCER - {NAT} LEAGUE RESULTS .",
               "SOCCER - {LAST} SCORES TWICE AS {CLUB} WIN ."],
    "tennis": ["TENNIS - {LAST} BEATS {LAST} IN {CITY} .", "GOLF - LEADING SCORES AT {EVENT} .",
               "TENNIS - RESULTS AT {EVENT} ."],
    "business": ["{ORG} SHARES RISE ON BID REPORT .", "{ORG} TO BUY {ORG} .",
                 "{NAT} SHARES CLOSE LOWER ."],
    "world": ["{COUNTRY} SAYS WILL NOT ACCEPT PLAN .", "{NUM} KILLED IN {CITY} .",
              "{NAT} PRESIDENT ARRIVES IN {CITY} ."],
}
HEADLINE_WORDS = {"SOCCER": "NN", "TENNIS": "NN", "GOLF": "NN", "BEAT": "VBD", "BEATS": "VBZ",
                  "LEAGUE": "NN", "RESULTS": "NNS", "SCORES": "VBZ", "TWICE": "RB", "AS": "IN",
                  "WIN": "VBP", "IN": "IN", "LEADING": "VBG", "AT": "IN", "SHARES": "NNS",
                  "RISE": "VBP", "ON": "IN", "BID": "NN", "REPORT": "NN", "TO": "TO", "BUY": "VB",
                  "CLOSE": "VBP", "LOWER": "JJR", "SAYS": "VBZ", "WILL": "MD", "NOT": "RB",
                  "ACCEPT": "VB", "PLAN": "NN", "KILLED": "VBN", "PRESIDENT": "NN",
                  "ARRIVES": "VBZ", "-": ":", ".": "."}

NP_TAGS = {"DT", "PRP", "PRP$", "JJ", "JJR", "CD", "NN", "NNS", "NNP", "NNPS", "POS", "$"}
VP_TAGS = {"MD", "VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "TO"}


def chunk_type(pos: str, prev_type: str | None) -> str | None:
    """Chunk type of a token from its POS (``None`` = outside any chunk).

    Examples
    --------
    >>> chunk_type("NNP", None), chunk_type("IN", "NP"), chunk_type("RB", "VP"), chunk_type(".", "NP")
    ('NP', 'PP', 'VP', None)
    """
    if pos in NP_TAGS:
        return "NP"
    if pos in VP_TAGS:
        return "VP"
    if pos == "RB":
        return "VP" if prev_type == "VP" else "ADVP"
    if pos == "IN":
        return "PP"
    if pos == "RP":
        return "PRT"
    if pos in ("WP", "WDT"):
        return "NP"
    return None


def iob1(types: list[str | None], units: list[int]) -> list[str]:
    """IOB1 tags from per-token types and unit ids (a unit is one chunk).

    ``I-`` everywhere inside a chunk; ``B-`` only on the first token of a
    chunk that directly follows another chunk of the same type.

    Examples
    --------
    >>> iob1(["LOC", "LOC", None, "ORG"], [4, 4, -1, 5])
    ['I-LOC', 'I-LOC', 'O', 'I-ORG']
    """
    tags = []
    for i, (t, u) in enumerate(zip(types, units)):
        if t is None:
            tags.append("O")
        elif i > 0 and types[i - 1] == t and units[i - 1] != u:
            tags.append("B-" + t)
        else:
            tags.append("I-" + t)
    return tags


class NerWorld:
    """The invented inventory of names and the slot fillers of the NER corpus.

    Parameters
    ----------
    d : Draw
        The random stream (names are invented from it once, at construction).

    Examples
    --------
    >>> w = NerWorld(Draw(5))
    >>> len(w.countries) > 50 and len(w.cities) > 200
    True
    """

    def __init__(self, d: Draw) -> None:
        self.d = d
        taken = set(LEX) | {w.capitalize() for w in LEX}
        self.first = make_names(d, 260, FIRST_ENDINGS, taken)
        self.last = make_names(d, 1100, LAST_ENDINGS, taken)
        self.countries = make_names(d, 110, COUNTRY_ENDINGS, taken)
        self.cities = make_names(d, 520, PLACE_ENDINGS, taken)
        # Person names that are also place names: 112 surnames become cities too.
        shared = [self.last[i] for i in range(3, 450, 4)]
        for k, name in enumerate(shared):
            self.cities.insert(5 + 4 * k, name)
        # Multi-token places.
        for k in range(60):
            base = self.cities[100 + k]
            form = ["Port {}", "New {}", "North {}", "South {}", "{} Bay", "{} Valley"][k % 6]
            self.cities.insert(7 + 8 * k, form.format(base))
        orgs: list[str] = []
        stems = make_names(d, 520, ORG_ENDINGS, taken)
        suffixes = ["Corp", "Group", "Holdings", "Bank", "Motors", "Inc", "Ltd", "Energy", "News",
                    "Times", "Union", "Front", "Party", "Airlines", "Star", "Harbour", "Summit"]
        for k, stem in enumerate(stems):
            form = k % 10
            if form < 4:
                orgs.append(stem + " " + d.choice(suffixes))
            elif form == 4:
                orgs.append("".join(d.choice("ABCDEFGHKLMNPRSTVW") for _ in range(d.between(2, 4))))
            elif form == 5:
                orgs.append("Bank of " + self.countries[d.index(60)])
            elif form == 6:
                country = self.countries[d.index(80)]
                if d.chance(0.5):
                    country = nationality(country)
                orgs.append(country + " " + d.choice(["Airlines", "Party", "Energy", "Union", "Bank"]))
            elif form == 7:
                orgs.append(self.cities[d.index(200)] + " " + d.choice(["Bank", "Times", "News", "Group"]))
            else:
                orgs.append(stem)
        self.orgs = list(dict.fromkeys(orgs))
        # Events: "<city> Open" style, "<nationality> Cup" style, or a bare invented name.
        bare = make_names(d, 43, PLACE_ENDINGS, taken)
        events = []
        for k in range(170):
            form = k % 4
            if form < 2:
                events.append(self.cities[d.index(300)] + " "
                              + d.choice(["Open", "Cup", "Grand Prix", "Games", "Prize"]))
            elif form == 2:
                events.append(nationality(self.countries[d.index(100)]) + " " + d.choice(["Open", "Cup", "Games"]))
            else:
                events.append(bare[k // 4])
        self.events = list(dict.fromkeys(events))
        self.nationalities = [nationality(c) for c in self.countries]
        self.person_first = Pool(self.first, 0.9)
        self.person_last = Pool(self.last, 0.85)
        self.city = Pool(self.cities, 0.9)
        self.country = Pool(list(range(len(self.countries))), 1.0)
        self.org = Pool(self.orgs, 0.85)
        self.event = Pool(self.events, 0.9)
        self.club = Pool(self.cities[:260], 0.8)


def split_pos(item: str) -> tuple[str, str, str | None]:
    """Split a template word ``w``, ``w/POS`` or ``w/POS/CHUNK`` into (word, POS, chunk)."""
    parts = item.split("/") if item != "/" else [item]
    word = parts[0]
    if len(parts) == 1 and word in HEADLINE_WORDS:
        return word, HEADLINE_WORDS[word], None
    if len(parts) == 1:
        key = word if word in LEX else word.lower()
        if key not in LEX:
            raise KeyError(f"no POS for template word {word!r}")
        return word, LEX[key], None
    return word, parts[1], parts[2] if len(parts) > 2 else None


class Document:
    """One NER document: its topic, its cast of recurring entities and its sentences."""

    def __init__(self, world: NerWorld, topic: str) -> None:
        d = world.d
        self.world, self.topic, self.d = world, topic, d
        self.people = [(world.person_first.draw(d), world.person_last.draw(d)) for _ in range(d.between(2, 5))]
        self.mentioned: set[int] = set()
        self.orgs = [world.org.draw(d) for _ in range(d.between(1, 3))]
        self.cities = [world.city.draw(d) for _ in range(d.between(1, 3))]
        self.clubs = [world.club.draw(d) for _ in range(d.between(2, 4))]
        self.next_unit = 0

    # Each filler returns a list of (token, POS, entity type or None) for one unit.
    def person(self, surname_only: bool = False) -> list[tuple[str, str, str | None]]:
        d, w = self.d, self.world
        if d.chance(0.65):
            k = d.index(len(self.people))
            first, last = self.people[k]
            short = surname_only or (k in self.mentioned and d.chance(0.7))
            self.mentioned.add(k)
        else:
            first, last = w.person_first.draw(d), w.person_last.draw(d)
            short = surname_only
        if short:
            return [(last, "NNP", "PER")]
        if d.chance(0.04):
            return [(first, "NNP", "PER"), ("de", "NNP", "PER"), (last, "NNP", "PER")]
        if d.chance(0.05):
            return [(first[0] + ".", "NNP", "PER"), (last, "NNP", "PER")]
        return [(first, "NNP", "PER"), (last, "NNP", "PER")]

    def fill(self, slot: str) -> list[tuple[str, str, str | None]]:
        """Tokens of one slot ``{SLOT}``."""
        d, w = self.d, self.world
        if slot == "ANY":
            slot = weighted_choice(d, [(3, "PER"), (3, "ORG"), (2, "CITY"), (1, "COUNTRY"), (1, "EVENT")])
        if slot == "PER":
            return self.person()
        if slot == "LAST":
            return self.person(surname_only=True)
        if slot == "CITY":
            name = d.choice(self.cities) if d.chance(0.5) else w.city.draw(d)
            return [(t, "NNP", "LOC") for t in name.split()]
        if slot == "COUNTRY":
            return [(w.countries[w.country.draw(d)], "NNP", "LOC")]
        if slot == "NAT":
            return [(w.nationalities[w.country.draw(d)], "JJ", "MISC")]
        if slot == "ORG":
            name = d.choice(self.orgs) if d.chance(0.5) else w.org.draw(d)
            return [(t, "IN" if t == "of" else "NNP", "ORG") for t in name.split()]
        if slot == "CLUB":
            name = d.choice(self.clubs) if d.chance(0.7) else w.club.draw(d)
            if d.chance(0.15):
                name += " " + d.choice(["United", "Rovers", "City"])
            return [(t, "NNP", "ORG") for t in name.split()]
        if slot == "EVENT":
            return [(t, "NNP", "MISC") for t in w.event.draw(d).split()]
        if slot == "DAY":
            return [(d.choice(DAYS), "NNP", None)]
        if slot == "NUM":
            n = weighted_choice(d, [(5, str(d.between(1, 9))), (3, str(d.between(10, 99))),
                                    (1, f"{d.between(1, 99)}.{d.between(0, 99):02d}"),
                                    (1, f"{d.between(1, 9)},{d.between(0, 999):03d}")])
            return [(n, "CD", None)]
        if slot == "SCORE":
            return [(f"{d.between(0, 4)}-{d.between(0, 3)}", "CD", None)]
        if slot == "TSCORE":
            a = d.between(0, 7)
            return [(f"6-{a}" if a < 6 else f"7-{a - 1}", "CD", None)]
        if slot == "MONEY":
            return [("$", "$", None), (f"{d.between(1, 99)}.{d.between(0, 99):02d}", "CD", None)] + (
                [(d.choice(["million", "billion"]), "CD", None)] if d.chance(0.5) else [])
        if slot == "NOUN":
            return [(d.choice(NOUNS), "NN", None)]
        if slot == "ADJ":
            return [(d.choice(ADJS), "JJ", None)]
        raise KeyError(slot)

    def sentence(self, template: str, upper: bool = False) -> list[tuple[str, str, str, str]]:
        """Fill ``template`` into (token, POS, chunk tag, NER tag) rows."""
        d = self.d
        toks: list[str] = []
        pos: list[str] = []
        ent: list[str | None] = []
        unit: list[int] = []
        chunk_over: list[str | None] = []
        brk: list[bool] = []
        force_break = False
        for item in template.split():
            if item == "|":
                force_break = True
                continue
            if item.startswith("{") and item.endswith("}"):
                rows = self.fill(item[1:-1])
                u = self.next_unit
                self.next_unit += 1
                for j, (t, p, e) in enumerate(rows):
                    toks.append(t)
                    pos.append(p)
                    ent.append(e)
                    unit.append(u if e else -1)
                    chunk_over.append(None)
                    brk.append(force_break and j == 0)
            else:
                t, p, c = split_pos(item)
                if upper:
                    p = HEADLINE_WORDS.get(t, p)
                toks.append(t)
                pos.append(p)
                ent.append(None)
                unit.append(-1)
                chunk_over.append(c)
                brk.append(force_break)
            force_break = False
        # Deliberate annotation noise, as in hand-annotated corpora: a few mentions get
        # the neighbouring type or none.
        for u in sorted(set(x for x in unit if x >= 0)):
            if d.chance(NOISE):
                idx = [i for i, x in enumerate(unit) if x == u]
                old = ent[idx[0]]
                new = {"ORG": "LOC", "LOC": "ORG", "MISC": None, "PER": "ORG"}[old]
                for i in idx:
                    ent[i] = new
                    unit[i] = u if new else -1
        if upper:
            toks = [t.upper() for t in toks]
        elif toks[0][0].islower():
            toks[0] = toks[0].capitalize()
        # Chunks: type from POS, a new chunk on a type change, a forced break or an
        # entity unit after a token of another unit.
        ctypes: list[str | None] = []
        cunits: list[int] = []
        cu = 0
        prev: str | None = None
        for i, p in enumerate(pos):
            c = chunk_over[i] or chunk_type(p, prev)
            if p == "TO" and i + 1 < len(pos) and pos[i + 1] != "VB":
                c = "PP"
            if c is None or c != prev or brk[i] or (c == "PP" and prev == "PP"):
                cu += 1
            ctypes.append(c)
            cunits.append(cu)
            prev = c
        ctags = iob1(ctypes, cunits)
        ntags = iob1(ent, unit)
        return list(zip(toks, pos, ctags, ntags))


NOISE = 0.04  # share of entity mentions given a wrong type (or none) on purpose
TOPICS = [(3, "soccer"), (1.5, "tennis"), (3, "business"), (2.5, "world")]


def make_ner(seed: int, n_documents: int = 200) -> str:
    """Text of the NER corpus (CoNLL-2003 layout, IOB1 tags).

    Parameters
    ----------
    seed : int
        Seed of the random stream.
    n_documents : int
        Number of documents.

    Returns
    -------
    str
        The file content.

    Examples
    --------
    >>> text = make_ner(7, n_documents=2)
    >>> text.startswith("-DOCSTART- -X- -X- O\\n\\n")
    True
    >>> text.count("-DOCSTART-")
    2
    """
    d = Draw(seed)
    world = NerWorld(d)
    lines: list[str] = []
    for _ in range(n_documents):
        topic = weighted_choice(d, TOPICS)
        doc = Document(world, topic)
        lines += ["-DOCSTART- -X- -X- O", ""]
        sentences = [doc.sentence(d.choice(HEADLINES[topic]), upper=True)]
        dateline = "{CITY} " + f"1996-{d.between(1, 12):02d}-{d.between(1, 28):02d}/CD"
        sentences.append(doc.sentence(dateline))
        templates = TEMPLATES[topic] + TEMPLATES["any"]
        for _ in range(d.between(6, 21)):
            sentences.append(doc.sentence(d.choice(templates)))
        for rows in sentences:
            lines += [" ".join(r) for r in rows] + [""]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Chinese-like word segmentation
# ---------------------------------------------------------------------------

CJK_FIRST, CJK_LAST = 0x4E00, 0x9FA5
SPLIT_COMPOUND = 0.25  # share of compound-word occurrences written as their two parts
FULLWIDTH_DIGITS = "０１２３４５６７８９"


def make_characters(d: Draw, n: int) -> list[str]:
    """``n`` distinct characters of the CJK Unified Ideographs block, in draw order.

    Examples
    --------
    >>> cs = make_characters(Draw(0), 5)
    >>> len(set(cs)), all(0x4E00 <= ord(c) <= 0x9FA5 for c in cs)
    (5, True)
    """
    out: dict[str, None] = {}
    while len(out) < n:
        out.setdefault(chr(d.between(CJK_FIRST, CJK_LAST)), None)
    return list(out)


class CwsLexicon:
    """A Zipfian lexicon of invented words by word class, with ambiguous overlaps.

    Single-character words (particles, prepositions, verbs, nouns, measure
    words, adverbs, pronouns) take the most frequent characters; longer words
    draw their characters from one Zipfian pool in which those same
    characters also appear, so many words share characters.  ``triples`` are
    strings ``ABC`` where ``AB`` and ``C`` are words and ``A`` and ``BC`` are
    words too.

    Parameters
    ----------
    d : Draw

    Examples
    --------
    >>> lex = CwsLexicon(Draw(2, stream=1))
    >>> a, b, c = lex.triples[0]
    >>> (a + b) in lex.word_set and (b + c) in lex.word_set
    True
    """

    def __init__(self, d: Draw) -> None:
        self.d = d
        chars = make_characters(d, 2600)
        self.particles = chars[0:8]
        self.de, self.le, self.he = chars[0], chars[1], chars[8]
        self.preps = chars[9:24]
        self.verbs1 = chars[24:84]
        self.nouns1 = chars[84:134]
        self.measures = chars[134:146]
        self.advs1 = chars[146:164]
        self.pronouns = chars[164:172]
        self.numerals = chars[172:182]
        self.tens = chars[182]
        self.year, self.month, self.day = chars[183:186]
        # Surnames: 30 characters of their own and 20 that are also single-character nouns.
        self.surnames = chars[186:216] + self.nouns1[10:30]
        self.single = set(chars[:186])
        # Characters of longer words: the rest, with the single-word characters spread in.
        word_chars = list(chars[236:])
        for k, c in enumerate(chars[9:172]):
            word_chars.insert(2 * k, c)
        char_pool = Pool(word_chars, 0.9)
        self.word_set: set[str] = set()

        def words(n: int, lengths: list[tuple[float, int]]) -> list[str]:
            out = []
            while len(out) < n:
                w = "".join(char_pool.draw(d) for _ in range(weighted_choice(d, lengths)))
                if len(set(w)) == len(w) and w not in self.word_set:
                    self.word_set.add(w)
                    out.append(w)
            return out

        self.nouns2 = words(2400, [(1, 2)])
        self.verbs2 = words(800, [(1, 2)])
        self.adjs2 = words(250, [(1, 2)])
        self.advs2 = words(60, [(1, 2)])
        self.nouns3 = words(500, [(1, 3)])
        self.nouns4 = words(170, [(1, 4)])
        self.compounds: dict[str, tuple[str, str]] = {}
        # Lexicalised compounds: longer words made of frequent shorter words, which also
        # occur apart (a classic source of segmentation errors and annotator choices).
        for n, parts in ((200, ("n2", "n1")), (90, ("n2", "n2"))):
            made = 0
            while made < n:
                w = "".join(d.choice(self.nouns2[:400]) if p == "n2" else d.choice(self.nouns1 + self.verbs1)
                            for p in parts)
                split = (w[:2], w[2:])
                if d.chance(0.5) and parts == ("n2", "n1"):
                    w = w[2] + w[:2]
                    split = (w[0], w[1:])
                if w not in self.word_set:
                    self.word_set.add(w)
                    self.compounds[w] = split
                    (self.nouns3 if len(w) == 3 else self.nouns4).insert(d.index(300), w)
                    made += 1
        self.nouns5 = words(60, [(3, 5), (2, 6), (1, 7)])
        self.given = Pool(chars[236:900:2], 0.6)
        # Overlapping ambiguities ABC: kind 0 is preposition A + noun BC / noun AB + verb C;
        # kind 1 is verb A + noun BC / noun AB + particle C (the "de" particle).
        self.triples: list[tuple[str, str, str]] = []
        mids = chars[400:1400]
        k = 0
        while len(self.triples) < 80:
            kind = len(self.triples) % 2
            a = d.choice(self.preps) if kind == 0 else d.choice(self.verbs1)
            c = d.choice(self.verbs1) if kind == 0 else self.de
            b = mids[k]
            k += 1
            if a + b in self.word_set or b + c in self.word_set or a == c:
                continue
            self.word_set.update([a + b, b + c])
            self.nouns2.insert(20 + 11 * len(self.triples), a + b)
            self.nouns2.insert(25 + 11 * len(self.triples), b + c)
            self.triples.append((a, b, c))
        self.word_set.update(chars[:186])
        self.noun2 = Pool(self.nouns2, 1.0)
        self.verb2 = Pool(self.verbs2, 1.0)
        self.adj2 = Pool(self.adjs2, 1.0)
        self.adv2 = Pool(self.advs2, 1.0)
        self.noun3 = Pool(self.nouns3, 0.9)
        self.noun4 = Pool(self.nouns4, 0.8)
        self.noun5 = Pool(self.nouns5, 0.8)
        self.verb1 = Pool(self.verbs1, 1.0)
        self.noun1 = Pool(self.nouns1, 1.0)
        self.triple = Pool(list(range(len(self.triples))), 0.7)


class CwsGrammar:
    """Sentences of the segmentation corpus, as lists of words, from a small grammar.

    Parameters
    ----------
    lex : CwsLexicon

    Examples
    --------
    >>> g = CwsGrammar(CwsLexicon(Draw(2, stream=1)))
    >>> words = g.sentence()
    >>> words[-1] in "。！？" and all(words)
    True
    """

    def __init__(self, lex: CwsLexicon) -> None:
        self.lex, self.d = lex, lex.d

    def name(self) -> list[str]:
        """A person name: surname and one or two given-name characters, one word."""
        d, x = self.d, self.lex
        return [d.choice(x.surnames) + "".join(x.given.draw(d) for _ in range(d.between(1, 2)))]

    def number(self) -> str:
        """A numeral word (``3``, ``30``, ``35`` written with numeral characters)."""
        d, x = self.d, self.lex
        form = d.index(3)
        if form == 0:
            return d.choice(x.numerals[1:])
        if form == 1:
            return d.choice(x.numerals[1:]) + x.tens
        return d.choice(x.numerals[1:]) + x.tens + d.choice(x.numerals[1:])

    def time(self) -> list[str]:
        """A date expression: year, month (and day) words."""
        d, x = self.d, self.lex
        year = "１９９" + FULLWIDTH_DIGITS[d.index(10)] + x.year
        month = d.choice(x.numerals[1:]) + x.month
        if d.chance(0.5):
            return [year, month]
        return [month, d.choice(x.numerals[1:]) + x.day]

    def np(self) -> list[str]:
        """A noun phrase."""
        d, x = self.d, self.lex
        form = weighted_choice(d, [(45, "n2"), (12, "n3"), (4, "n4"), (2, "n5"), (6, "name"),
                                   (5, "n1"), (8, "nn"), (6, "adj"), (6, "num"), (6, "pron")])
        if form == "n2":
            return [x.noun2.draw(d)]
        if form == "n3":
            return [x.noun3.draw(d)]
        if form == "n4":
            return [x.noun4.draw(d)]
        if form == "n5":
            return [x.noun5.draw(d)]
        if form == "name":
            return self.name()
        if form == "n1":
            return [x.noun1.draw(d)]
        if form == "nn":
            return [x.noun2.draw(d), x.noun2.draw(d)]
        if form == "adj":
            return [x.adj2.draw(d), x.de, x.noun2.draw(d)]
        if form == "num":
            return [self.number(), d.choice(x.measures), x.noun2.draw(d)]
        return [d.choice(x.pronouns)]

    def vp(self) -> list[str]:
        """A verb group: optional adverb, verb, optional aspect particle."""
        d, x = self.d, self.lex
        out = []
        if d.chance(0.25):
            out.append(d.choice(x.advs1) if d.chance(0.6) else x.adv2.draw(d))
        out.append(x.verb2.draw(d) if d.chance(0.6) else x.verb1.draw(d))
        if d.chance(0.2):
            out.append(x.le)
        return out

    def ambiguous(self) -> list[str]:
        """A clause built around one overlapping ambiguity, in one of its two readings."""
        d, x = self.d, self.lex
        k = x.triple.draw(d)
        a, b, c = x.triples[k]
        kind = k % 2
        if d.chance(0.5):  # reading A | BC
            if kind == 0:
                return self.np() + [a, b + c] + self.vp() + self.np()
            return self.np() + [a, b + c]
        if kind == 0:  # reading AB | C
            return [a + b, c] + self.np()
        return [a + b, c] + self.np() + self.vp()

    def clause(self) -> list[str]:
        """One clause."""
        d, x = self.d, self.lex
        form = weighted_choice(d, [(40, "svo"), (15, "pp"), (10, "time"), (8, "list"),
                                   (10, "de"), (7, "sv"), (8, "amb")])
        if form == "svo":
            return self.np() + self.vp() + self.np()
        if form == "pp":
            return self.np() + [d.choice(x.preps)] + self.np() + self.vp() + (self.np() if d.chance(0.5) else [])
        if form == "time":
            return self.time() + ([ "，"] if d.chance(0.3) else []) + self.np() + self.vp() + self.np()
        if form == "list":
            return self.np() + self.vp() + self.np() + ["、"] + self.np() + [x.he] + self.np()
        if form == "de":
            return self.np() + [x.de] + self.np() + self.vp() + [x.adj2.draw(d)]
        if form == "sv":
            return self.np() + self.vp()
        return self.ambiguous()

    def sentence(self) -> list[str]:
        """One sentence: one to three clauses and a final punctuation mark."""
        d = self.d
        words = self.clause()
        for _ in range(weighted_choice(d, [(2, 0), (5, 1), (3, 2)])):
            words += ["，"] + self.clause()
        words.append(weighted_choice(d, [(88, "。"), (6, "！"), (6, "？")]))
        # Annotators do not always agree on compounds: some occurrences are split.
        out = []
        for w in words:
            if w in self.lex.compounds and d.chance(SPLIT_COMPOUND):
                out += self.lex.compounds[w]
            else:
                out.append(w)
        return out


def make_cws(seed: int, n_sentences: int = 3000) -> str:
    """Text of the segmentation corpus (one sentence per line, words split by two spaces).

    Parameters
    ----------
    seed : int
        Seed of the random stream.
    n_sentences : int
        Number of lines.

    Returns
    -------
    str
        The file content.

    Examples
    --------
    >>> text = make_cws(7, n_sentences=3)
    >>> len(text.splitlines())
    3
    >>> "   " in text
    False
    """
    grammar = CwsGrammar(CwsLexicon(Draw(seed, stream=1)))
    return "".join("  ".join(grammar.sentence()) + "\n" for _ in range(n_sentences))


def main(argv: list[str] | None = None) -> int:
    """Write both corpora into ``--out`` (default: the repository's ``corpora/``).

    Parameters
    ----------
    argv : list of str, optional
        Command-line arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit status 0.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "corpora", help="output directory (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=SEED, help="random seed (default: %(default)s)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in ((NER_FILE, make_ner(args.seed)), (CWS_FILE, make_cws(args.seed))):
        path = args.out / name
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(text.encode("utf-8"))
        tmp.replace(path)
        print(f"{path}: {len(text.encode('utf-8'))} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
