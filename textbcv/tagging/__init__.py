"""Taggers trained on every half: feature templates, systems, CRF, fold runner.

Examples
--------
>>> from textbcv.tagging import parse_system
>>> parse_system("bmes", task="cws").template.name
'cws-thesis'
"""

from textbcv.folds.store import FoldStore
from textbcv.tagging.baseline import LexiconTagger
from textbcv.tagging.crf import CRFTagger
from textbcv.tagging.features import TEMPLATES, Template, extract, get_template
from textbcv.tagging.protocol import Tagger
from textbcv.tagging.runner import Payload, make_payload, run_fold, run_folds
from textbcv.tagging.system import System, parse_system

__all__ = [
    "LexiconTagger", "CRFTagger", "TEMPLATES", "Template", "extract", "get_template", "Tagger",
    "Payload", "make_payload", "run_fold", "run_folds", "FoldStore", "System", "parse_system",
]
