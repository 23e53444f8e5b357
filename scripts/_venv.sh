# Sourced by scripts/demo and scripts/test: makes $ROOT/.venv and installs textbcv into it (editable).
# Usage: ensure_venv EXTRAS   (EXTRAS e.g. "test" or "")
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

ensure_venv() {
    local extras="$1" py stamp want
    py="${PYTHON:-}"
    if [ -z "$py" ]; then
        for cand in python3 python3.13 python3.12 python3.11 python3.10 python; do
            if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
                py="$cand"; break
            fi
        done
    fi
    if [ -z "$py" ]; then
        echo "textbcv: error: Python 3.10 or newer is needed (set PYTHON=/path/to/python3)" >&2
        exit 2
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        "$py" -m venv "$VENV"
    fi
    # Reinstall only when pyproject.toml or the requested extras change.
    want="$(cat "$ROOT/pyproject.toml" | cksum | cut -d' ' -f1)-$extras"
    stamp="$VENV/.textbcv-installed"
    if [ ! -f "$stamp" ] || ! grep -qx -- "$want" "$stamp" 2>/dev/null; then
        local spec="$ROOT" log="$VENV/pip-install.log"
        [ -n "$extras" ] && spec="$ROOT[$extras]"
        echo "textbcv: installing into $VENV (first run only) ..." >&2
        if ! { "$VENV/bin/python" -m pip install --disable-pip-version-check --upgrade pip \
               && "$VENV/bin/python" -m pip install --disable-pip-version-check -e "$spec"; } >"$log" 2>&1; then
            tail -n 30 "$log" >&2
            echo "textbcv: error: installing into $VENV failed (full log: $log)" >&2
            exit 2
        fi
        echo "$want" > "$stamp"
    fi
}
