#!/usr/bin/env bash
# Runs one SDK tutorial unchanged, as its README says (`bash commands_wse2.sh`: cslc, then
# cs_python run.py), in a copy of its folder, on one backend; prints the cycles the run took.
# Usage: scripts/sdk_tutorial.sh TUTORIAL_DIR WORK_DIR func|rtl|cosim
set -euo pipefail
src=$1 work=$2 backend=$3
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work"
cp -r "$src" "$work"
cd "$work"
export PATH=$root/build/bin:$PATH
TESSERA_BACKEND=$backend TESSERA_PROFILE=1 bash commands_wse2.sh
