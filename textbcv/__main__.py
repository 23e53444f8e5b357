"""``python -m textbcv`` runs the command line."""

import sys

from textbcv.cli import main

sys.exit(main())
