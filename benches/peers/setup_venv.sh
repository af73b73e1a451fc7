#!/usr/bin/env bash
# Create (or reuse) a Python virtual environment holding the pinned peer
# libraries of benches/peers/requirements.txt.
#
# Usage: bash benches/peers/setup_venv.sh [VENV_DIR]
#   VENV_DIR defaults to <repo root>/target/peers-venv. The repo root is found
#   from this script's own location, so the script works from any directory.
#
# Idempotent: when VENV_DIR already has every pinned package at its pinned
# version, nothing is installed.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/../.." && pwd)"
requirements="${script_dir}/requirements.txt"
venv_dir="${1:-${repo_root}/target/peers-venv}"
python_bin="${PYTHON:-python3}"

# Prints nothing and exits 0 when every "name==version" pin of the requirements
# file is installed in the venv at that version; otherwise lists what differs
# and exits 1.
check_pins() {
    "${venv_dir}/bin/python" - "${requirements}" <<'PY'
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

"${venv_dir}/bin/python" -c 'import lightgbm, xgboost, sklearn, numpy, scipy; print("lightgbm", lightgbm.__version__, "xgboost", xgboost.__version__, "scikit-learn", sklearn.__version__, "numpy", numpy.__version__, "scipy", scipy.__version__)'
echo "peers venv ready: ${venv_dir}/bin/python" >&2
