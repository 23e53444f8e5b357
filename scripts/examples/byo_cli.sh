#!/usr/bin/env bash
# The command-line path with your own taggers: export the folds, train outside textbcv, import the predictions.
# Usage: scripts/examples/byo_cli.sh CORPUS OUT [--quick]
#   OUT/splits.json, OUT/folds/ (exported halves), OUT/predictions/{crf,logreg}/, OUT/run/ (the report)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
py="${PYTHON:-$root/.venv/bin/python}"
corpus="$1"; out="$2"; shift 2
"$py" -m textbcv split "$corpus" --m 3 --seed 0 --out "$out/splits.json" --export "$out/folds"
"$py" "$here/train_on_folds.py" "$out/folds" "$out/predictions" "$@"
"$py" -m textbcv evaluate "$out/splits.json" "$corpus" --task ner \
    --system crf="$out/predictions/crf" --system logreg="$out/predictions/logreg" --out "$out/run"
