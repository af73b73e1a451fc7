#!/usr/bin/env bash
# Create (or reuse) a Python virtual environment holding the pinned peer
# libraries of benches/peers/requirements.txt, and optionally a second pinned file.
#
# Usage: bash benches/peers/setup_venv.sh [VENV_DIR [EXTRA_REQUIREMENTS]]
#   VENV_DIR defaults to <repo root>/target/peers-venv. The repo root is found
#   from this script's own location, so the script works from any directory.
#   EXTRA_REQUIREMENTS (e.g. benches/peers/tabular-requirements.txt) is installed
#   after requirements.txt with `pip install --no-deps`: such a file pins every
#   package it needs, dependencies included, and leaves out on purpose the declared
#   dependencies its scripts never import (the file says which).
#
# Idempotent: when VENV_DIR already has every pinned package of both files at its
# pinned version, nothing is installed.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/../.." && pwd)"
requirements="${script_dir}/requirements.txt"
venv_dir="${1:-${repo_root}/target/peers-venv}"
extra_requirements="${2:-}"
if [[ -n "${extra_requirements}" ]]; then
    extra_requirements="$(cd "$(dirname "${extra_requirements}")" && pwd)/$(basename "${extra_requirements}")"
fi
python_bin="${PYTHON:-python3}"

# Prints nothing and exits 0 when every "name==version" pin of the requirements
# file given (default: requirements.txt) is installed in the venv at that version;
# otherwise lists what differs and exits 1.
check_pins() {
    "${venv_dir}/bin/python" - "${1:-${requirements}}" <<'PY'
import sys
from importlib import metadata

missing = []
with open(sys.argv[1]) as fh:
    for line in fh:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, want = line.split("==")
        try:
            have = metadata.version(name)
        except metadata.PackageNotFoundError:
            have = None
        if have != want:
            missing.append(f"{name}=={want} (have {have})")
if missing:
    print("not yet installed: " + ", ".join(missing), file=sys.stderr)
    sys.exit(1)
PY
}

if [[ ! -x "${venv_dir}/bin/python" ]]; then
    echo "creating venv at ${venv_dir}" >&2
    mkdir -p "$(dirname "${venv_dir}")"
    "${python_bin}" -m venv "${venv_dir}"
fi

if check_pins; then
    echo "venv ${venv_dir} already has the pinned peers; nothing to install" >&2
else
    "${venv_dir}/bin/python" -m pip install --disable-pip-version-check -r "${requirements}"
    check_pins
fi

if [[ -n "${extra_requirements}" ]]; then
    if check_pins "${extra_requirements}"; then
        echo "venv ${venv_dir} already has the pins of ${extra_requirements}" >&2
    else
        "${venv_dir}/bin/python" -m pip install --disable-pip-version-check --no-deps -r "${extra_requirements}"
        check_pins "${extra_requirements}"
    fi
fi

"${venv_dir}/bin/python" -c 'import lightgbm, xgboost, sklearn, numpy, scipy; print("lightgbm", lightgbm.__version__, "xgboost", xgboost.__version__, "scikit-learn", sklearn.__version__, "numpy", numpy.__version__, "scipy", scipy.__version__)'
echo "peers venv ready: ${venv_dir}/bin/python" >&2
