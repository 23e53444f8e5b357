"""textbcv: is tagger B really better than tagger A on this corpus?

Block-regularized m×2 cross-validation for sequence taggers: balanced
splits of a corpus, CRF taggers trained on every half, conlleval-exact
chunk scoring, and Bayes tests on precision, recall and F1.

Examples
--------
>>> import textbcv
>>> textbcv.__version__
'0.1.0'
"""

from textbcv.errors import InputError

__version__ = "0.1.0"

__all__ = ["InputError", "__version__"]
