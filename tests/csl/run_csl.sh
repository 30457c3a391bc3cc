#!/usr/bin/env bash
# One CSL program of tests/csl (or an SDK tutorial folder) compiled with cslc and run with its
# run.py through cs_python on one backend, in a work folder of its own.
# Usage: run_csl.sh BIN_DIR SRC_DIR WORK_DIR BACKEND [cslc options...]
set -euo pipefail
bin=$1 src=$2 work=$3 backend=$4
shift 4
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$bin/cslc" "$src/layout.csl" -o out "$@"
TESSERA_BACKEND=$backend "$bin/cs_python" "$src/run.py" --name out
