#!/usr/bin/env bash
# Create or update the project's virtualenv.
#
# Usage: scripts/venv.sh VENV_DIR REQUIREMENTS STAMP
#
# Uses Debian's /usr/bin/python3 (falls back to python3 on PATH), so the venv
# does not depend on a per-user Python. Writes STAMP on success.
set -euo pipefail

VENV=${1:?usage: venv.sh VENV_DIR REQUIREMENTS STAMP}
REQS=${2:?}
STAMP=${3:?}

if [[ -x /usr/bin/python3 ]]; then PY=/usr/bin/python3; else PY=$(command -v python3); fi

# A venv whose interpreter is gone or is not the one we want is recreated.
if [[ -x $VENV/bin/python ]] &&
   [[ $("$VENV/bin/python" -c 'import os, sys; print(os.path.realpath(sys._base_executable))' 2>/dev/null) == \
      "$("$PY" -c 'import os, sys; print(os.path.realpath(sys.executable))')" ]]; then
    :
else
    echo "venv: creating $VENV with $PY"
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
fi

echo "venv: installing $REQS"
"$VENV/bin/python" -m pip install --disable-pip-version-check -q -r "$REQS" </dev/null
# The project's own tools (tools/pyproject.toml), editable: the console
# commands land in $VENV/bin and run the code in tools/scc as it is now.
# --no-deps: what they need is in $REQS, pinned, installed above; pip check
# then fails if a pin does not satisfy a dependency the tools declare.
tools=$(cd "$(dirname "$0")/../tools" && pwd)
"$VENV/bin/python" -m pip install --disable-pip-version-check -q --no-deps \
    --no-build-isolation -e "$tools" </dev/null
"$VENV/bin/python" -m pip check >/dev/null || "$VENV/bin/python" -m pip check
touch "$STAMP"
