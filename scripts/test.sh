#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite. `.ci/run` calls this.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLYHOIST_BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh"
"$root/scripts/build.sh"
/usr/lib/llvm-22/bin/lit -sv "$build/test"
