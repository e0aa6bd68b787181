#!/usr/bin/env bash
# Installs what flyhoist needs on Debian 12 when it is missing; a quick no-op
# when everything is there. Run as root (or with sudo available).
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 pkg-config
  # Virtual environments of Debian's python3 (pip install . into one; the
  # ruff that scripts/test.sh runs). A python3 of pyenv's has venv built in.
  python3-venv
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22
  clang-22 libclang-rt-22-dev clang-format-22
  # scripts/test.sh runs clang-tidy (.clang-tidy) over lib/.
  clang-tidy-22
  # The remote cache (python/flyhoist/remote.py) and its tests: the client
  # for /usr/bin/python3, which lit runs the Python tests that need it
  # under (%python), and a server the tests start on a free port.
  python3-redis redis-server
  # The pass-cost benchmark (bench/pass_cost.py) counts instructions.
  valgrind
  # FlyDSL's venv (scripts/setup-flydsl.sh, a venv as above) and the
  # CPU-only torch that FlyDSL imports to trace.
  python3-torch
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -ne 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    sudo_cmd=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# FlyDSL, pinned, in its own venv (a no-op when it is there).
"$(dirname "${BASH_SOURCE[0]}")/setup-flydsl.sh"
