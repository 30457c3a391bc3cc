#!/usr/bin/env bash
# Installs (through apt) whatever Tessera needs that this Debian machine lacks. Idempotent and
# quick when everything is present. Called by `make sim`, `make test` and .ci/run.
set -euo pipefail
pkgs=(build-essential cmake ninja-build ccache verilator libsystemc-dev libfmt-dev libcli11-dev
      libgtest-dev googletest zlib1g-dev yosys gtkwave clang-format xvfb xauth
      python3-numpy python3-torch python3-sklearn clang libclang-rt-14-dev
      python3-dev pybind11-dev python3-pytest valgrind)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
